/* A harness without libFuzzer: replays files through LLVMFuzzerTestOneInput.
 *   fuzz_<harness>_replay FILE|DIR...
 * Directories are read one level deep. Prints "ok FILE" per input; an input
 * the model mishandles aborts (sanitizer report, crash or fuzz_fail), so the
 * exit status is 0 only when every input passed. make test runs these on
 * fuzz/regress/<harness>/ (tests/run.sh, group fuzz-regress). */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

static FILE *log_out; /* our stdout, kept before the harness quiets fd 1 */

static int replay(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); return -1; }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) buf = realloc(buf, cap *= 2);
    }
    int rerr = ferror(f);
    fclose(f);
    if (!buf || rerr) { fprintf(stderr, "replay: cannot read %s\n", path); free(buf); return -1; }
    /* a private copy of exactly n bytes, so ASan sees reads past the input */
    uint8_t *in = malloc(n ? n : 1);
    if (!in) { free(buf); return -1; }
    memcpy(in, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(in, n);
    free(in);
    fprintf(log_out, "ok %s\n", path);
    fflush(log_out);
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]); return 2; }
    /* the harness may send fd 1 to /dev/null (fuzz_quiet_stdout): keep ours */
    int keep = dup(1);
    log_out = keep >= 0 ? fdopen(keep, "w") : NULL;
    if (!log_out) log_out = stderr;
    LLVMFuzzerInitialize(&argc, &argv);
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) < 0) { fprintf(stderr, "replay: no such file %s\n", argv[i]); bad = 1; continue; }
        if (!S_ISDIR(st.st_mode)) { bad |= replay(argv[i]) < 0; continue; }
        struct dirent **ents;
        int n = scandir(argv[i], &ents, NULL, by_name);
        if (n < 0) { fprintf(stderr, "replay: cannot list %s\n", argv[i]); bad = 1; continue; }
        for (int j = 0; j < n; j++) {
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", argv[i], ents[j]->d_name);
            if (ents[j]->d_name[0] != '.' && stat(p, &st) == 0 && S_ISREG(st.st_mode)) bad |= replay(p) < 0;
            free(ents[j]);
        }
        free(ents);
    }
    return bad ? 2 : 0;
}
