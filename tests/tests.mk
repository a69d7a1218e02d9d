# The test suite: `make test` builds everything it needs and runs tests/run.sh,
# which runs the groups of tests/groups/ (GROUPS="memory dws": only those, and
# the groups they need). `make test-long` adds larger thread counts and problem sizes.

RV_ASFLAGS := --target=riscv32 -march=rv32imf -mabi=ilp32f -mno-relax -nostdlib -fuse-ld=lld \
              -Wl,-T,kernels/runtime/link.ld

CFG_TESTS := $(basename $(notdir $(wildcard tests/cfg/*.S)))
SIM_TESTS := $(basename $(notdir $(wildcard tests/sim/*.S)))
MEM_TESTS := $(basename $(notdir $(wildcard tests/mem/*.S)))
.PHONY: asm-tests test-deps test-long
asm-tests: $(CFG_TESTS:%=$(BUILD)/cfg/%.elf) $(SIM_TESTS:%=$(BUILD)/simtests/%.elf) \
           $(MEM_TESTS:%=$(BUILD)/memtests/%.elf)

$(BUILD)/cfg/%.elf: tests/cfg/%.S kernels/runtime/link.ld
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_ASFLAGS) $< -o $@

$(BUILD)/memtests/%.elf: tests/mem/%.S kernels/runtime/link.ld
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_ASFLAGS) $< -o $@

$(BUILD)/simtests/%.elf: tests/sim/%.S kernels/runtime/link.ld
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_ASFLAGS) $< -o $@

# (on both cores unless make was given -j: the sanitizer build is two long
# compiles that the kernels' builds can run beside)
test-deps: $(SETUP_STAMP)
	@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j2) $(WPUSIM) $(ASAN_BUILD)/wpusim kernels host-kernels isa-tests asm-tests \
	    $(BUILD)/tests/test_softfloat $(BUILD)/tests/test_wst $(BUILD)/tests/test_fetcharb \
	    $(BUILD)/tests/replay_block $(BUILD)/tests/test_memsys
	@if command -v $(VERILATOR) >/dev/null && command -v $(YOSYS) >/dev/null; then \
	  $(MAKE) --no-print-directory rtl-prereqs; fi

test: test-deps
	BUILD=$(BUILD) bash tests/run.sh $(GROUPS)

test-long: test-deps
	BUILD=$(BUILD) WSIM_TEST_LONG=1 bash tests/run.sh $(GROUPS)

# The memory system's unit test (tests/unit/test_memsys.c), against the C model library.
$(BUILD)/tests/test_memsys: tests/unit/test_memsys.c $(LIB) | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -I$(GEN) -Icmodel -o $@ tests/unit/test_memsys.c $(LIB) -lm
