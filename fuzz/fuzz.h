/* Shared by the fuzz harnesses (fuzz/README.md).
 *
 * Each harness defines LLVMFuzzerTestOneInput; built with libFuzzer it is
 * fuzzed (make fuzz), built with standalone.c it replays files (make test:
 * fuzz/regress/). An input the model handles badly aborts: a sanitizer
 * report, a crash, or fuzz_fail() on a broken promise (--check). */
#ifndef WSIM_FUZZ_H
#define WSIM_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* The bytes as a file: one memfd per process, rewritten for each input.
 * Returns its path (/proc/self/fd/N); aborts when the host cannot. */
const char *fuzz_file(const uint8_t *data, size_t size);

/* Print "fuzz: <message>" on stderr and abort (a finding). */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Host stdout to /dev/null: kernels' write ecalls are not findings. */
void fuzz_quiet_stdout(void);

#endif
