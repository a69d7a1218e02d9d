# fuzz/fuzz.mk — fuzzing the C model (included by the top-level Makefile;
# fuzz/README.md).
#
#   make fuzz                 build the libFuzzer harnesses and run each for
#                             FUZZ_SECONDS (one after the other: one job)
#   make fuzz-elf|fuzz-config|fuzz-run   one harness
#   make fuzz-replay          the harnesses without libFuzzer (gcc or $(CC),
#                             ASan+UBSan): make test replays fuzz/regress/ with them
#
# libFuzzer comes with Debian's clang runtime (libclang-rt-14-dev, pulled in
# by clang); only `make fuzz` needs it, `make test` does not.

FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_B       := $(BUILD)/fuzz
FUZZ_NAMES   := elf config run
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g
FUZZ_CFLAGS  := -std=c11 -Wall -Wextra -Werror -O1 $(FUZZ_SAN) -I$(GEN) -Icmodel -Ifuzz
# The seed kernels of fuzz_run (their order is the input's byte 0: append only).
FUZZ_RUN_SEEDS := $(BUILD)/kernels/nqueens.elf $(BUILD)/kernels/kmeans.elf $(BUILD)/kernels/merge.elf \
                  $(BUILD)/cfg/recursion.elf $(BUILD)/cfg/loop_break_continue.elf $(BUILD)/kernels/interp.elf
FUZZ_REPLAYS := $(FUZZ_NAMES:%=$(FUZZ_B)/replay/fuzz_%)
FUZZ_FUZZERS := $(FUZZ_NAMES:%=$(FUZZ_B)/fuzz_%)

.PHONY: fuzz fuzz-build fuzz-replay fuzz-corpus fuzz-test-replay $(FUZZ_NAMES:%=fuzz-%)

$(FUZZ_B)/seeds.c: $(FUZZ_RUN_SEEDS) fuzz/embed.sh
	@mkdir -p $(dir $@)
	sh fuzz/embed.sh $(FUZZ_RUN_SEEDS) > $@.tmp && mv $@.tmp $@

# ---- without libFuzzer: $(CC) with ASan+UBSan, one library, a replaying main()
FUZZ_PLAIN_OBJS := $(LIB_SRCS:%.c=$(FUZZ_B)/replay/%.o)
$(FUZZ_B)/replay/%.o: %.c | $(GEN_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) -I$(GEN) -Icmodel -MMD -MP -c $< -o $@
$(FUZZ_B)/replay/libwsim.a: $(FUZZ_PLAIN_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^
$(FUZZ_B)/replay/fuzz_run: $(FUZZ_B)/seeds.c
$(FUZZ_B)/replay/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_common.c fuzz/standalone.c fuzz/fuzz.h $(FUZZ_B)/replay/libwsim.a
	$(CC) $(CFLAGS) $(ASAN_FLAGS) -I$(GEN) -Icmodel -Ifuzz $(filter %.c,$^) $(FUZZ_B)/replay/libwsim.a $(WSIM_LIBS) -o $@

fuzz-replay: $(SETUP_STAMP)
	@$(MAKE) --no-print-directory $(FUZZ_REPLAYS)
# make test replays the regression corpus (tests/run.sh, group fuzz-regress)
test test-long: fuzz-test-replay
fuzz-test-replay: test-deps
	@$(MAKE) --no-print-directory $(FUZZ_REPLAYS)

# ---- with libFuzzer (clang)
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_B)/obj/%.o)
$(FUZZ_B)/obj/%.o: %.c | $(GEN_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@
$(FUZZ_B)/libwsim.a: $(FUZZ_LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^
$(FUZZ_B)/fuzz_run: $(FUZZ_B)/seeds.c
$(FUZZ_B)/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz_common.c fuzz/fuzz.h $(FUZZ_B)/libwsim.a
	@echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return (int)(d && n); }' \
	    | $(FUZZ_CC) -fsanitize=fuzzer -x c - -o $(FUZZ_B)/.probe 2>/dev/null || { \
	    echo "fuzz: $(FUZZ_CC) has no libFuzzer runtime; install it:" >&2; \
	    echo "fuzz:   apt-get install -y --no-install-recommends libclang-rt-dev" >&2; exit 1; }
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(filter %.c,$^) $(FUZZ_B)/libwsim.a $(WSIM_LIBS) -o $@

# Seed corpora, generated from what the tree builds (not committed):
# every built ELF for the loader, the presets and policies for the parser,
# every (seed kernel, machine) pair unpatched for the mutated runs.
fuzz-corpus: $(SETUP_STAMP)
	@$(MAKE) --no-print-directory kernels asm-tests isa-tests
	@mkdir -p $(FUZZ_B)/corpus/elf $(FUZZ_B)/corpus/config $(FUZZ_B)/corpus/run
	cp $(BUILD)/kernels/*.elf $(BUILD)/cfg/*.elf $(BUILD)/memtests/*.elf $(BUILD)/isa/*.elf $(FUZZ_B)/corpus/elf/
	cp $(PRESETS) $(POLICIES) $(FUZZ_B)/corpus/config/
	@n=$(words $(FUZZ_RUN_SEEDS)); k=0; while [ $$k -lt $$n ]; do for m in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do \
	    printf "\\$$(printf %o $$k)\\$$(printf %o $$m)" > $(FUZZ_B)/corpus/run/seed-$$k-$$m; done; k=$$((k + 1)); done
	@echo "fuzz: seed corpora in $(FUZZ_B)/corpus/{elf,config,run}"

fuzz-build: $(SETUP_STAMP)
	@$(MAKE) --no-print-directory $(FUZZ_FUZZERS)

# One harness: new inputs go to build/fuzz/corpus/NAME, the regression corpus
# is read too; a finding is written to build/fuzz/findings/NAME/ and stops it.
$(FUZZ_NAMES:%=fuzz-%): fuzz-%: fuzz-build fuzz-corpus
	@mkdir -p $(FUZZ_B)/findings/$*
	$(FUZZ_B)/fuzz_$* -max_total_time=$(FUZZ_SECONDS) -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=$(FUZZ_B)/findings/$*/ $(FUZZ_B)/corpus/$* fuzz/regress/$*

fuzz: fuzz-build fuzz-corpus
	@for h in $(FUZZ_NAMES); do $(MAKE) --no-print-directory fuzz-$$h || exit 1; done

-include $(FUZZ_PLAIN_OBJS:.o=.d) $(FUZZ_LIB_OBJS:.o=.d)
