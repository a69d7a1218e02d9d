/* Input files read with the loader's care (infile.h). */
#define _POSIX_C_SOURCE 200809L /* open, fstat */
#include "infile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *infile_kind(unsigned mode)
{
    mode_t m = (mode_t)mode;
    return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
         : S_ISFIFO(m) ? "a pipe or FIFO" : S_ISSOCK(m) ? "a socket" : "not a file";
}

char *infile_read(const char *path, size_t max, size_t *len, char *why, size_t whylen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0) {
        snprintf(why, whylen, "cannot open: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) < 0) {
        snprintf(why, whylen, "cannot open: %s", strerror(errno));
        goto out;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, whylen, "not a regular file (%s)", infile_kind((unsigned)st.st_mode));
        goto out;
    }
    if ((unsigned long long)st.st_size > max) {
        if (max >= 1u << 20) snprintf(why, whylen, "larger than %zu MiB", max >> 20);
        else snprintf(why, whylen, "larger than %zu KiB", max >> 10);
        goto out;
    }
    size_t n = (size_t)st.st_size, got = 0;
    if (!(buf = malloc(n + 1))) {
        snprintf(why, whylen, "out of host memory");
        goto out;
    }
    while (got < n) { /* (a file that shrinks meanwhile ends early; one that grows is read as it was) */
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            snprintf(why, whylen, "cannot read: %s", strerror(errno));
            free(buf);
            buf = NULL;
            goto out;
        }
        if (r == 0) break;
        got += (size_t)r;
    }
    buf[got] = 0;
    *len = got;
out:
    close(fd);
    return buf;
}
