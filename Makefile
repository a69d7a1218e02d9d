# WarpSplit top-level build.
#   make            the C model library and the wpusim command
#   make kernels    every kernel (RISC-V, with Debian's clang + lld) and its host build
#   make test       the test suite (last line: N passed, N failed)
#   make run        the default benchmark on the default configuration
#   make bench      simulator speed against native execution
#   make setup      install what the project needs from Debian's packages

CC      ?= cc
CFLAGS  := -std=c11 -Wall -Wextra -Werror -O2 $(EXTRA_CFLAGS)
BUILD   := build
RV_CC   := clang
RV_CFLAGS := --target=riscv32 -march=rv32imf -mabi=ilp32f -mno-relax -fno-jump-tables -O2 \
             -ffreestanding -nostdlib -ffp-contract=off

# The libraries every program with the C model links: zlib (.gz traces and
# block records, cmodel/blocks/zfile.h) and libm. Scripts that link the
# model read them with make -s print-WSIM_LIBS.
WSIM_LIBS := -lz -lm

LIB_SRCS := $(wildcard cmodel/*.c cmodel/mem/*.c cmodel/mech/*.c cmodel/blocks/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/libwsim.a
WPUSIM   := $(BUILD)/wpusim

.PHONY: all setup kernels host-kernels test run bench suite speedup dom-experiments lwm-experiments clean
all: $(WPUSIM)

# Debian packages (scripts/setup.sh): checked once per build tree, installed as root.
SETUP_STAMP := $(BUILD)/.setup-done
$(SETUP_STAMP): scripts/setup.sh
	@sh scripts/setup.sh
	@mkdir -p $(dir $@) && touch $@
setup:
	sh scripts/setup.sh

# Generated from the tables (each file names its generator).
GEN := $(BUILD)/gen
GEN_HDRS := $(GEN)/config_enum.h
$(GEN)/config_enum.h: cmodel/config.def scripts/config_enum.awk
	@mkdir -p $(dir $@)
	awk -f scripts/config_enum.awk cmodel/config.def > $@.tmp && mv $@.tmp $@

$(BUILD)/cmodel/%.o: cmodel/%.c | $(GEN_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(GEN) -Icmodel -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/sim/%.o: sim/%.c | $(GEN_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(EXTRA_SIM_FLAGS) -I$(GEN) -Icmodel -MMD -MP -c $< -o $@

PRESETS := $(sort $(wildcard sim/presets/*.cfg))
POLICIES := $(sort $(wildcard sim/policies/*.cfg))
$(BUILD)/sim/presets.c: $(PRESETS) $(POLICIES) scripts/embed_presets.sh
	@mkdir -p $(dir $@)
	{ sh scripts/embed_presets.sh wsim_presets $(PRESETS); \
	  sh scripts/embed_presets.sh wsim_policies $(POLICIES); } > $@

$(BUILD)/sim/presets.o: $(BUILD)/sim/presets.c sim/presets.h
	$(CC) $(CFLAGS) -Isim -c $< -o $@

# The C model again, for lane masks of 64 bits (cmodel/mask.h: ~1.2x faster
# where a configuration fits): one relocatable object whose only global
# symbol is its table, renamed wsim_core64 (cmodel/wsim.h); wpusim runs the
# narrowest build that holds the configuration (--core).
CORE64_OBJS := $(LIB_SRCS:%.c=$(BUILD)/core64/%.o)
$(BUILD)/core64/cmodel/%.o: cmodel/%.c | $(GEN_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DWSIM_MAX_LANES=64 -I$(GEN) -Icmodel -MMD -MP -c $< -o $@
# core64_link OUT, OBJECTS...: partial link, every symbol local but the table
OBJCOPY ?= objcopy
NM ?= nm
define core64_link
	$(CC) -r -nostdlib $(2) -o $(1).all.o
	$(OBJCOPY) --keep-global-symbol=wsim_core $(1).all.o $(1).loc.o
	$(OBJCOPY) --redefine-sym wsim_core=wsim_core64 $(1).loc.o $(1)
	@rm -f $(1).all.o $(1).loc.o
	@test "$$($(NM) -g --defined-only $(1) | awk '{ print $$NF }')" = wsim_core64 \
	  || { echo "$(1): exports more than wsim_core64" >&2; rm -f $(1); exit 1; }
endef
$(BUILD)/core64.o: $(CORE64_OBJS)
	$(call core64_link,$@,$^)

$(BUILD)/sim/wpusim.o: EXTRA_SIM_FLAGS := -DWSIM_CORE64
$(WPUSIM): $(BUILD)/sim/wpusim.o $(BUILD)/sim/presets.o $(BUILD)/core64.o $(LIB)
	$(CC) $(CFLAGS) $^ $(WSIM_LIBS) -o $@

# The same simulator built with AddressSanitizer and UBSan (the test suite
# runs part of itself on it). A separate tree: its objects differ.
ASAN_BUILD := $(BUILD)/asan
ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g
$(ASAN_BUILD)/wpusim: $(LIB_SRCS) sim/wpusim.c $(BUILD)/sim/presets.c $(GEN_HDRS) \
                      $(wildcard cmodel/*.h cmodel/*/*.h cmodel/*.def cmodel/*/*.def sim/*.h sim/*.def)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) -DWSIM_MAX_LANES=64 -I$(GEN) -Icmodel -r -nostdlib $(LIB_SRCS) -o $(ASAN_BUILD)/core64.in.o
	$(call core64_link,$(ASAN_BUILD)/core64.o,$(ASAN_BUILD)/core64.in.o)
	$(CC) $(CFLAGS) $(ASAN_FLAGS) -DWSIM_CORE64 -I$(GEN) -Icmodel -Isim $(LIB_SRCS) sim/wpusim.c $(BUILD)/sim/presets.c \
	  $(ASAN_BUILD)/core64.o $(WSIM_LIBS) -o $@

# make -s print-VAR prints a variable of this build (the scripts' link flags)
print-%:
	@echo '$($*)'

# the compiler's dependency lists: absent until the first build
-include $(LIB_OBJS:.o=.d) $(CORE64_OBJS:.o=.d) $(BUILD)/sim/wpusim.d
# the fragments: required (a missing one is an error, not targets gone quietly)
include kernels/kernels.mk
include tests/isa/isa.mk
include tests/unit/softfloat.mk
include tests/unit/blocks.mk
include tests/tests.mk
include fuzz/fuzz.mk
include tb/flow.mk
include sim/rtl_loop.mk

# The default benchmark on the default configuration.
DEFAULT_KERNEL := mandel
# (the set-up check runs first: the kernels need Debian's clang and lld)
run: $(SETUP_STAMP)
	@$(MAKE) --no-print-directory $(WPUSIM) $(BUILD)/kernels/$(DEFAULT_KERNEL).elf
	$(WPUSIM) $(BUILD)/kernels/$(DEFAULT_KERNEL).elf

# The DWS benchmark suite's characterization: make suite SIZE=tiny|small|paper PRESET=dws
# [TASK=default|elem|chunk|K|paper] (the task mapping, docs/tasks.md)
SIZE ?= tiny
PRESET ?= dws
TASK ?= default
suite: $(SETUP_STAMP)
	@$(MAKE) --no-print-directory $(WPUSIM) kernels host-kernels
	python3 scripts/suite.py --size $(SIZE) --config $(PRESET) --task $(TASK)

bench: $(SETUP_STAMP)
	@$(MAKE) --no-print-directory $(WPUSIM) kernels host-kernels
	bash scripts/bench.sh

# Speedups of the papers' DWS/MAWS legends over Conv (docs/dws.md):
# make speedup SIZE=paper [TASK=paper]  (dws: 001's legends; maws-coherent, maws-bulksync: 000's)
speedup: $(SETUP_STAMP)
	@$(MAKE) --no-print-directory $(WPUSIM) kernels
	python3 scripts/speedup.py --size $(SIZE) --task $(TASK)

# Seed 002's diverge-on-miss experiments (Table 3, Figs. 4, 6-10) as Markdown tables
# (docs/dom.md, "002's experiments"): make dom-experiments SIZE=tiny|small [JOBS=2]
JOBS ?= 2
dom-experiments: $(SETUP_STAMP)
	@$(MAKE) --no-print-directory $(WPUSIM) kernels
	python3 scripts/dom_experiments.py --size $(SIZE) --jobs $(JOBS) --report $(BUILD)/dom-experiments-$(SIZE).html

# Seed 004's experiments on lwm (docs/lwm.md, "004's experiments"): make lwm-experiments SIZE=tiny|small|paper [JOBS=2]
lwm-experiments: $(SETUP_STAMP)
	@$(MAKE) --no-print-directory $(WPUSIM) kernels
	python3 scripts/lwm_experiments.py --size $(SIZE) --jobs $(JOBS) --report $(BUILD)/lwm-experiments-$(SIZE).html

# 003's experiments on the vector core (docs/irregular.md, Fig. 4): make irregular-experiments SIZE=tiny|small|paper [JOBS=2]
.PHONY: irregular-experiments
irregular-experiments: $(SETUP_STAMP)
	@$(MAKE) --no-print-directory $(WPUSIM) kernels
	python3 scripts/irregular_experiments.py --size $(SIZE) --jobs $(JOBS)

# Every table and plot of the DWS/MAWS reproduction into build/figures/SIZE (docs/figures.md):
# make figures SIZE=tiny|small|paper [JOBS=2] [FIGURES_FLAGS="--studies l2lat-001 --extra dom,lwm"]
.PHONY: figures
FIGURES_FLAGS ?=
figures: $(SETUP_STAMP)
	@$(MAKE) --no-print-directory $(WPUSIM) kernels
	python3 scripts/figures.py --size $(SIZE) --jobs $(JOBS) --out $(BUILD)/figures/$(SIZE) --build $(BUILD) $(FIGURES_FLAGS)

# The pictures of docs/see.md: timelines of three runs drawn by their report
# pages in headless Chromium (scripts/see_shots.sh)
.PHONY: see-shots
see-shots: $(SETUP_STAMP)
	@$(MAKE) --no-print-directory $(WPUSIM) kernels
	BUILD=$(BUILD) bash scripts/see_shots.sh docs/see

clean:
	rm -rf $(BUILD)
