/* Harness: the configuration parser.
 * The input is the text of a configuration file. It goes through
 * wsim_config_load (as a file: NUL bytes, no final newline, anything) and,
 * up to its first NUL, wsim_config_parse and wsim_config_assign; whatever
 * is accepted goes through wsim_config_check and the printers. Errors must
 * be NUL-terminated messages that fit the buffer; nothing may crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "wsim.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    devnull = fopen("/dev/null", "w");
    if (!devnull) fuzz_fail("cannot open /dev/null");
    return 0;
}

/* err is a message: terminated inside the buffer, and non-empty on failure */
static void message(const char *what, int rc, const char *err, size_t errlen)
{
    if (!memchr(err, 0, errlen)) fuzz_fail("%s: error message not terminated", what);
    if (rc < 0 && !err[0]) fuzz_fail("%s failed without a message", what);
}

static void check_and_print(wsim_config_t *c)
{
    char err[256];
    memset(err, 0, sizeof err);
    int rc = wsim_config_check(c, err, sizeof err);
    message("wsim_config_check", rc, err, sizeof err);
    if (rc < 0) return;
    wsim_config_print(c, devnull, 0);
    wsim_config_print(c, devnull, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* small error buffers: messages that quote long lines must be cut, not overrun */
    char err[96];
    wsim_config_t c;

    wsim_config_defaults(&c);
    memset(err, 0, sizeof err);
    int rc = wsim_config_load(&c, fuzz_file(data, size), err, sizeof err);
    message("wsim_config_load", rc, err, sizeof err);
    if (rc == 0) check_and_print(&c);

    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = 0;
    wsim_config_defaults(&c);
    memset(err, 0, sizeof err);
    rc = wsim_config_parse(&c, text, "fuzz", err, sizeof err);
    message("wsim_config_parse", rc, err, sizeof err);
    if (rc == 0) check_and_print(&c);

    /* the first line as a --set assignment, and as key and value */
    char *nl = strchr(text, '\n');
    if (nl) *nl = 0;
    wsim_config_defaults(&c);
    rc = wsim_config_assign(&c, text, err, sizeof err);
    message("wsim_config_assign", rc, err, sizeof err);
    char *eq = strchr(text, '=');
    if (eq) {
        *eq = 0;
        rc = wsim_config_set(&c, text, eq + 1, err, sizeof err);
        message("wsim_config_set", rc, err, sizeof err);
    }
    if (rc == 0) check_and_print(&c);
    free(text);
    return 0;
}
