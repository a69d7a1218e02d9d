/* Compressed trace files through zlib (zfile.h): a FILE.gz is a stdio
 * stream (fopencookie) whose reads and writes go through gzread/gzwrite,
 * so that its users keep fprintf and getline. */
#define _GNU_SOURCE /* fopencookie */
#include "zfile.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <zlib.h>

int zfile_is_gz(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && !strcmp(path + n - 3, ".gz");
}

/* The stream's zlib file and the errno of its first error (zlib fails
 * every call after one without saying again why). */
typedef struct gz_cookie {
    gzFile g;
    int err;
} gz_cookie_t;

/* Record (once) and set errno for the stream's error: the system's for
 * Z_ERRNO, EINVAL for bad or truncated data, ENOMEM, else EIO. */
static void gz_fail(gz_cookie_t *c, int zerr, int sys)
{
    if (!c->err)
        c->err = zerr == Z_ERRNO ? (sys ? sys : EIO) : zerr == Z_MEM_ERROR ? ENOMEM
               : zerr == Z_DATA_ERROR || zerr == Z_BUF_ERROR ? EINVAL : EIO;
    errno = c->err;
}

static ssize_t gz_read(void *cookie, char *buf, size_t n)
{
    gz_cookie_t *c = cookie;
    errno = 0;
    int got = gzread(c->g, buf, n > INT_MAX ? INT_MAX : (unsigned)n);
    if (got < 0) {
        int sys = errno, zerr;
        gzerror(c->g, &zerr);
        gz_fail(c, zerr, sys);
        return -1;
    }
    return got;
}

static ssize_t gz_write(void *cookie, const char *buf, size_t n)
{
    gz_cookie_t *c = cookie;
    size_t done = 0;
    while (done < n) {
        size_t k = n - done > INT_MAX ? INT_MAX : n - done;
        errno = 0;
        int put = gzwrite(c->g, buf + done, (unsigned)k);
        if (put <= 0) {
            int sys = errno, zerr;
            gzerror(c->g, &zerr);
            gz_fail(c, zerr, sys);
            return 0; /* (fopencookie: 0 is a write error) */
        }
        done += (size_t)put;
    }
    return (ssize_t)n;
}

static int gz_close(void *cookie)
{
    gz_cookie_t *c = cookie;
    errno = 0;
    int rc = gzclose(c->g), sys = errno, err = c->err;
    free(c);
    if (rc == Z_OK && !err) return 0;
    errno = err ? err : rc == Z_ERRNO ? (sys ? sys : EIO) : rc == Z_MEM_ERROR ? ENOMEM : rc == Z_BUF_ERROR ? EINVAL : EIO;
    return EOF;
}

FILE *zfile_open(const char *path, const char *mode)
{
    const int wr = mode[0] == 'w';
    if (!zfile_is_gz(path)) return fopen(path, wr ? "w" : "r");
    gz_cookie_t *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    errno = 0;
    if (!(c->g = gzopen(path, wr ? "wb" : "rb"))) {
        if (!errno) errno = ENOMEM;
        free(c);
        return NULL;
    }
    gzbuffer(c->g, 1 << 17);
    if (!wr && gzdirect(c->g)) { /* zlib would read it as it is; gzip -d refuses it */
        gzclose(c->g);
        free(c);
        errno = EINVAL;
        return NULL;
    }
    cookie_io_functions_t io = {.read = wr ? NULL : gz_read, .write = wr ? gz_write : NULL, .close = gz_close};
    FILE *f = fopencookie(c, wr ? "w" : "r", io);
    if (!f) {
        int e = errno;
        gzclose(c->g);
        free(c);
        errno = e;
    }
    return f;
}

int zfile_close(FILE *f)
{
    int bad = ferror(f) != 0, e = errno;
    if (fclose(f) != 0 && !bad) bad = 1, e = errno;
    errno = e;
    return bad ? -1 : 0;
}
