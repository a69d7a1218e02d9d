/* Helpers of the fuzz harnesses: inputs as files, findings as aborts. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

static int memfd = -1;
static char memfd_path[64];

const char *fuzz_file(const uint8_t *data, size_t size)
{
    if (memfd < 0) {
        memfd = memfd_create("wsim-fuzz", MFD_CLOEXEC);
        if (memfd < 0) fuzz_fail("memfd_create failed: the harness needs Linux memfds");
        snprintf(memfd_path, sizeof memfd_path, "/proc/self/fd/%d", memfd);
    }
    if (ftruncate(memfd, 0) < 0) fuzz_fail("ftruncate of the input file failed");
    size_t done = 0;
    while (done < size) {
        ssize_t n = pwrite(memfd, data + done, size - done, (off_t)done);
        if (n <= 0) fuzz_fail("writing the input file failed");
        done += (size_t)n;
    }
    return memfd_path;
}

void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

void fuzz_quiet_stdout(void)
{
    fflush(stdout);
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) {
        dup2(fd, 1);
        close(fd);
    }
}
