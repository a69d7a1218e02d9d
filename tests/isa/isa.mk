# tests/isa/isa.mk -- the RV32IMF + Zicsr instruction tests.
#
# Included by the top-level Makefile; also works alone from the repository
# root:  make -f tests/isa/isa.mk isa-tests
#
#   isa-tests  build $(BUILD)/isa/NAME.elf from every tests/isa/NAME.S
#   isa-check  run them on $(WPUSIM): positive tests must exit 0; a fault test
#              must exit non-zero and print a line containing its .expect keyword
#   isa-regen  rerun the generator (its outputs are committed)
#
# ISA_TESTS lists the positive tests, ISA_FAULT_TESTS the negative ones.

BUILD ?= build
RV_CC ?= clang
WPUSIM ?= $(BUILD)/wpusim
ISA_SIM_FLAGS ?= --threads 64 --set width=8
ISA_TIMEOUT ?= 600

ISA_DIR := tests/isa
ISA_OUT := $(BUILD)/isa
ISA_RV_FLAGS := --target=riscv32 -march=rv32imf -mabi=ilp32f -mno-relax -nostdlib \
                -fuse-ld=lld -Wl,-T,kernels/runtime/link.ld

ISA_FAULT_TESTS := $(sort $(basename $(notdir $(wildcard $(ISA_DIR)/fault_*.S))))
ISA_TESTS := $(filter-out $(ISA_FAULT_TESTS),$(sort $(basename $(notdir $(wildcard $(ISA_DIR)/*.S)))))
ISA_ELFS := $(patsubst %,$(ISA_OUT)/%.elf,$(ISA_TESTS) $(ISA_FAULT_TESTS))

.PHONY: isa-tests isa-check isa-regen

isa-tests: $(ISA_ELFS)

$(ISA_OUT)/%.elf: $(ISA_DIR)/%.S kernels/runtime/link.ld
	@mkdir -p $(@D)
	$(RV_CC) $(ISA_RV_FLAGS) $< -o $@

isa-check: isa-tests
	@test -x $(WPUSIM) || { echo "isa-check: $(WPUSIM) not built" >&2; exit 1; }
	@ISA_TIMEOUT=$(ISA_TIMEOUT) sh $(ISA_DIR)/run_isa.sh $(WPUSIM) $(ISA_OUT) $(ISA_DIR) \
	  "$(ISA_SIM_FLAGS)" "$(ISA_TESTS)" "$(ISA_FAULT_TESTS)"

isa-regen:
	python3 $(ISA_DIR)/gen_isa_tests.py
