/* Input files read with the loader's care: regular files only (a FIFO, a
 * device or a directory is refused at once, never waited on or read
 * forever), opened O_NONBLOCK (opening a FIFO does not wait for a writer),
 * the size checked before reading. The ELF loader (program.c) reads its
 * file by parts; the configuration (config.c) and split-list (branchsel.c)
 * loaders read theirs whole with infile_read. */
#ifndef WSIM_INFILE_H
#define WSIM_INFILE_H

#include <stddef.h>

/* What a file of this st_mode is, for messages: "a directory", "a pipe or FIFO", ... */
const char *infile_kind(unsigned mode);

/* The regular file path, whole, in a malloc'ed buffer with a NUL after its
 * *len bytes; at most max bytes. NULL with why: "cannot open: REASON",
 * "not a regular file (a pipe or FIFO)", "larger than N KiB|MiB",
 * "cannot read: REASON", "out of host memory". */
char *infile_read(const char *path, size_t max, size_t *len, char *why, size_t whylen);

#endif
