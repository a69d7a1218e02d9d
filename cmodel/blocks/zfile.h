/* Compressed trace files: a path ending in ".gz" is written through (or read
 * from) a gzip process on a pipe, any other path is a plain file. Port
 * traces (--record-block, the testbenches' +replay and +log) and
 * instruction traces (--trace) use it: a recorded run of a whole kernel is
 * gigabytes of text and ~20x smaller compressed. gzip is the only
 * dependency (every Debian system has it); nothing is linked.
 *
 * Needs _POSIX_C_SOURCE >= 200809L before the first #include of the file
 * that includes this header (fork, pipe, fdopen, waitpid). */
#ifndef WSIM_ZFILE_H
#define WSIM_ZFILE_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct zfile {
    FILE *f;
    pid_t pid; /* the gzip process; 0: a plain file */
} zfile_t;

static inline int zfile_is_gz(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && !strcmp(path + n - 3, ".gz");
}

/* Open path for reading ("r") or writing ("w"). 0, or -1 with errno set. */
static inline int zfile_open(zfile_t *z, const char *path, const char *mode)
{
    z->f = NULL;
    z->pid = 0;
    const int wr = mode[0] == 'w';
    if (!zfile_is_gz(path)) {
        z->f = fopen(path, wr ? "w" : "r");
        return z->f ? 0 : -1;
    }
    int fd = wr ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666) : open(path, O_RDONLY);
    if (fd < 0) return -1;
    int p[2];
    if (pipe(p) < 0) {
        close(fd);
        return -1;
    }
    fflush(NULL); /* nothing buffered is written twice by the child */
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fd), close(p[0]), close(p[1]);
        errno = e;
        return -1;
    }
    if (pid == 0) { /* gzip: the pipe on one side, the file on the other */
        dup2(wr ? p[0] : fd, 0);
        dup2(wr ? fd : p[1], 1);
        close(fd), close(p[0]), close(p[1]);
        execlp("gzip", "gzip", wr ? "-c" : "-dc", (char *)NULL);
        _exit(127);
    }
    close(fd);
    close(wr ? p[0] : p[1]);
    z->f = fdopen(wr ? p[1] : p[0], wr ? "w" : "r");
    if (!z->f) {
        int e = errno;
        close(wr ? p[1] : p[0]);
        waitpid(pid, NULL, 0);
        errno = e;
        return -1;
    }
    z->pid = pid;
    return 0;
}

/* Close it: 0, or -1 when a write failed or gzip did not succeed (a missing
 * gzip, a full disk, a corrupt .gz when reading to the end). */
static inline int zfile_close(zfile_t *z)
{
    int rc = 0;
    if (z->f) rc = fclose(z->f) == 0 ? 0 : -1;
    z->f = NULL;
    if (z->pid > 0) {
        int st = 0;
        while (waitpid(z->pid, &st, 0) < 0 && errno == EINTR) {}
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) rc = -1;
        z->pid = 0;
    }
    return rc;
}

#endif
