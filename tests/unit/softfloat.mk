# softfloat.mk - build rules for the softfloat unit test.
#
# Included from the top-level Makefile (which provides CC, CFLAGS, BUILD and
# builds the library's own object).  Also usable on its own:
#   make -f tests/unit/softfloat.mk BUILD=build build/tests/test_softfloat
#
# The library is compiled here once more into a test-private object so this
# fragment never clashes with the library rule.  The test itself needs
# -frounding-math -fno-fast-math: it switches the host rounding mode and
# reads the host exception flags.

CFLAGS ?= -std=c11 -Wall -Wextra -Werror -O2
BUILD ?= build

# Keep whatever default goal the including Makefile has (or will have).
softfloat_mk_saved_goal := $(.DEFAULT_GOAL)

SOFTFLOAT_TEST := $(BUILD)/tests/test_softfloat

$(BUILD)/tests/softfloat_test.o: cmodel/softfloat.c cmodel/softfloat.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c cmodel/softfloat.c -o $@

$(BUILD)/tests/test_softfloat.o: tests/unit/test_softfloat.c cmodel/softfloat.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -frounding-math -fno-fast-math -Icmodel -c tests/unit/test_softfloat.c -o $@

$(SOFTFLOAT_TEST): $(BUILD)/tests/test_softfloat.o $(BUILD)/tests/softfloat_test.o
	$(CC) $(CFLAGS) -o $@ $^ -lm

.PHONY: test-softfloat
test-softfloat: $(SOFTFLOAT_TEST)
	$(abspath $(SOFTFLOAT_TEST))

.DEFAULT_GOAL := $(softfloat_mk_saved_goal)
