/* Compressed trace files: a path ending in ".gz" is written (or read)
 * through zlib in this process, any other path is a plain file. Port
 * traces (--record-block, the testbenches' +replay and +log) and
 * instruction traces (--trace) use it: a recorded run of a whole kernel is
 * gigabytes of text and ~20x smaller compressed. No process, no pipe: a
 * full disk is a write error on the stream like any other, never a
 * SIGPIPE (zlib: Debian's zlib1g-dev; link with -lz). */
#ifndef WSIM_ZFILE_H
#define WSIM_ZFILE_H

#include <stdio.h>

int zfile_is_gz(const char *path);

/* Open path for reading ("r") or writing ("w"): a stdio stream on the
 * plain file, or on zlib's (de)compression of it for FILE.gz. NULL with
 * errno set. Reading a FILE.gz that is not gzip data fails here (EINVAL). */
FILE *zfile_open(const char *path, const char *mode);

/* Close it: 0, or -1 with errno set when a read or write failed, or the
 * data read was not whole gzip data (truncated or corrupt: EINVAL). */
int zfile_close(FILE *f);

#endif
