# kernels/kernels.mk — builds the WarpSplit kernels (included by the top-level Makefile).
#
#   make kernels        build/kernels/NAME.elf   RISC-V RV32IMF kernel for wpusim
#   make host-kernels   build/host/NAME          the same source, run natively by host_runner.c
#   make kernels-check  static checks of the ELFs and host runs (kernels/tools/check.py)
#   make kernel SRC=/path/to/foo.c [OUT=dir] [ARGS="wpusim options"] [RUN=0]
#                       a kernel from any folder: OUT/foo.elf (RISC-V) and OUT/foo (host),
#                       built as the suite's are; then run once on wpusim and on the host,
#                       their results compared (docs/see.md, "Your own kernel")
#   make tasks-kernels  build/kernels/tasks/NAME.elf, build/host/tasks/NAME: the kernels that
#                       include tasks.h, built with -DWSIM_TASKS (the mapping from --task;
#                       docs/tasks.md)
#
# Standalone: make -f kernels/kernels.mk kernels host-kernels   (from the repository root)
# Every kernels/*.c is a kernel; KERNELS lists their names.  kernels/selftest/*.c are
# small ABI/runtime tests (KERNELS_SELFTEST), built next to them as
# build/kernels/selftest/NAME.elf and build/host/selftest/NAME.

ifeq ($(words $(MAKEFILE_LIST)),1)
KERNELS_STANDALONE := 1
endif
KERNELS_SAVED_GOAL := $(.DEFAULT_GOAL)

BUILD ?= build
RV_CC ?= clang
RV_CFLAGS ?= --target=riscv32 -march=rv32imf -mabi=ilp32f -mno-relax -fno-jump-tables -O2 \
             -ffreestanding -nostdlib -ffp-contract=off
ifeq ($(origin CC),default)
CC := cc
endif

KERNELS_SRCDIR := kernels
KERNELS_RT := $(KERNELS_SRCDIR)/runtime
KERNELS := $(sort $(basename $(notdir $(wildcard $(KERNELS_SRCDIR)/*.c))))
# The suite kernels whose loops are WSIM_FOR (kernels/runtime/tasks.h).
KERNELS_TASKS := $(sort $(basename $(notdir $(shell grep -l '^\#include "tasks.h"' $(KERNELS_SRCDIR)/*.c))))
KERNELS_SELFTEST := $(sort $(basename $(notdir $(wildcard $(KERNELS_SRCDIR)/selftest/*.c))))
# 003's irregular-grid kernels (docs/irregular.md): build/kernels/irregular/NAME.elf and
# build/host/irregular/NAME. Apart from KERNELS: they need their input (--input), so the
# suites that run every kernel with its default arguments do not take them.
KERNELS_IRREGULAR := $(sort $(basename $(notdir $(wildcard $(KERNELS_SRCDIR)/irregular/*.c))))

# Added to RV_CFLAGS for the kernels and their runtime.  -fno-optimize-sibling-calls
# keeps every call a call (auipc+jalr with ra) and every return a ret: no tail jumps
# into other functions, which keeps the simulator's static control-flow graph
# (re-convergence points) per function.  Function/data sections + --gc-sections drop
# the runtime routines a kernel does not use; --discard-locals drops .L labels, so the
# symbol table holds only real functions and objects.
# -fconvergent-functions: clang must not duplicate a wsim_barrier() into two
# paths (it does, to thread jumps over a repeated `if (tid < n)`), which
# would leave a warp's threads waiting at two different barriers.
KERNELS_RV_EXTRA := -std=c11 -Wall -Wextra -Werror -fno-optimize-sibling-calls -Xclang -fconvergent-functions \
                    -ffunction-sections -fdata-sections -I$(KERNELS_RT)
KERNELS_RV_LDFLAGS := -fuse-ld=lld -Wl,-T,$(KERNELS_RT)/link.ld -Wl,--no-relax \
                      -Wl,--discard-locals -Wl,--gc-sections -static

# The host build: the same kernel source with the host compiler.  -ffp-contract=off:
# no fused multiply-add the RISC-V build would not do either.
KERNELS_HOST_CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror -ffp-contract=off -I$(KERNELS_RT)
KERNELS_HOST_LDLIBS := -lm

KERNELS_ELFS := $(KERNELS:%=$(BUILD)/kernels/%.elf) \
                $(KERNELS_SELFTEST:%=$(BUILD)/kernels/selftest/%.elf) \
                $(KERNELS_IRREGULAR:%=$(BUILD)/kernels/irregular/%.elf)
KERNELS_HOSTBINS := $(KERNELS:%=$(BUILD)/host/%) \
                    $(KERNELS_SELFTEST:%=$(BUILD)/host/selftest/%) \
                    $(KERNELS_IRREGULAR:%=$(BUILD)/host/irregular/%)
KERNELS_RT_OBJS := $(BUILD)/kernels/runtime/crt0.o $(BUILD)/kernels/runtime/libc.o
KERNELS_DEPS := $(KERNELS_RT)/warpsplit.h $(KERNELS_RT)/tasks.h cmodel/csr.def $(KERNELS_SRCDIR)/kernels.mk

KERNELS_TASKS_BINS := $(KERNELS_TASKS:%=$(BUILD)/kernels/tasks/%.elf) \
                      $(KERNELS_TASKS:%=$(BUILD)/host/tasks/%)

.PHONY: kernels host-kernels tasks-kernels kernels-check kernels-clean kernel

kernels: $(KERNELS_ELFS) $(KERNELS_HOSTBINS) $(KERNELS_TASKS_BINS)   # the README's cmp example needs both

host-kernels: $(KERNELS_HOSTBINS)

tasks-kernels: $(KERNELS_TASKS_BINS)

kernels-check: kernels host-kernels
	python3 $(KERNELS_SRCDIR)/tools/check.py $(BUILD) $(KERNELS) -- $(KERNELS_SELFTEST)

kernels-clean:
	rm -rf $(BUILD)/kernels $(BUILD)/host

$(BUILD)/kernels/runtime/crt0.o: $(KERNELS_RT)/crt0.S $(KERNELS_DEPS)
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) $(KERNELS_RV_EXTRA) -c $< -o $@

$(BUILD)/kernels/runtime/libc.o: $(KERNELS_RT)/libc.c $(KERNELS_DEPS)
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) $(KERNELS_RV_EXTRA) -c $< -o $@

$(BUILD)/kernels/selftest/%.o: $(KERNELS_SRCDIR)/selftest/%.c $(KERNELS_DEPS)
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) $(KERNELS_RV_EXTRA) -c $< -o $@

$(BUILD)/kernels/irregular/%.o: $(KERNELS_SRCDIR)/irregular/%.c $(KERNELS_DEPS)
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) $(KERNELS_RV_EXTRA) -c $< -o $@

$(BUILD)/kernels/%.o: $(KERNELS_SRCDIR)/%.c $(KERNELS_DEPS)
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) $(KERNELS_RV_EXTRA) -c $< -o $@

$(BUILD)/kernels/tasks/%.o: $(KERNELS_SRCDIR)/%.c $(KERNELS_DEPS)
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) $(KERNELS_RV_EXTRA) -DWSIM_TASKS -c $< -o $@

$(BUILD)/kernels/tasks/%.elf: $(BUILD)/kernels/tasks/%.o $(KERNELS_RT_OBJS) $(KERNELS_RT)/link.ld
	$(RV_CC) $(RV_CFLAGS) $(KERNELS_RV_LDFLAGS) $(KERNELS_RT_OBJS) $< -o $@

# crt0.o first: _start is in .text.start, which link.ld places first anyway.
$(BUILD)/kernels/%.elf: $(BUILD)/kernels/%.o $(KERNELS_RT_OBJS) $(KERNELS_RT)/link.ld
	$(RV_CC) $(RV_CFLAGS) $(KERNELS_RV_LDFLAGS) $(KERNELS_RT_OBJS) $< -o $@

$(BUILD)/host/runtime/host_runner.o: $(KERNELS_RT)/host_runner.c $(KERNELS_DEPS)
	@mkdir -p $(@D)
	$(CC) $(KERNELS_HOST_CFLAGS) -c $< -o $@

$(BUILD)/host/selftest/%.o: $(KERNELS_SRCDIR)/selftest/%.c $(KERNELS_DEPS)
	@mkdir -p $(@D)
	$(CC) $(KERNELS_HOST_CFLAGS) -c $< -o $@

$(BUILD)/host/irregular/%.o: $(KERNELS_SRCDIR)/irregular/%.c $(KERNELS_DEPS)
	@mkdir -p $(@D)
	$(CC) $(KERNELS_HOST_CFLAGS) -c $< -o $@

$(BUILD)/host/%.o: $(KERNELS_SRCDIR)/%.c $(KERNELS_DEPS)
	@mkdir -p $(@D)
	$(CC) $(KERNELS_HOST_CFLAGS) -c $< -o $@

$(BUILD)/host/tasks/%.o: $(KERNELS_SRCDIR)/%.c $(KERNELS_DEPS)
	@mkdir -p $(@D)
	$(CC) $(KERNELS_HOST_CFLAGS) -DWSIM_TASKS -c $< -o $@

$(BUILD)/host/tasks/%: $(BUILD)/host/tasks/%.o $(BUILD)/host/runtime/host_runner.o
	$(CC) $(KERNELS_HOST_CFLAGS) $^ -o $@ $(KERNELS_HOST_LDLIBS)

$(BUILD)/host/%: $(BUILD)/host/%.o $(BUILD)/host/runtime/host_runner.o
	$(CC) $(KERNELS_HOST_CFLAGS) $^ -o $@ $(KERNELS_HOST_LDLIBS)

.PRECIOUS: $(BUILD)/kernels/%.o $(BUILD)/host/%.o $(BUILD)/kernels/selftest/%.o \
          $(BUILD)/kernels/irregular/%.o $(BUILD)/host/irregular/%.o \
          $(BUILD)/host/selftest/%.o $(BUILD)/kernels/tasks/%.o $(BUILD)/host/tasks/%.o

# make kernel SRC=/path/to/foo.c [OUT=dir] [ARGS=...] [RUN=0]: one kernel from any
# folder, with the suite's flags and runtime (its folder is on the include path,
# for its own headers); RUN=1 (default) runs it on wpusim with ARGS and on the
# host, and compares the WSIM_RESULT regions when it has any.
KERNEL_SRC = $(abspath $(SRC))
KERNEL_NAME = $(basename $(notdir $(SRC)))
KERNEL_OUT = $(abspath $(or $(OUT),$(BUILD)/user))
RUN ?= 1
kernel: $(KERNELS_RT_OBJS) $(BUILD)/host/runtime/host_runner.o
	@test -n "$(SRC)" || { echo "make kernel: name the source: make kernel SRC=/path/to/foo.c [OUT=dir] (docs/see.md)" >&2; exit 2; }
	@test -f "$(KERNEL_SRC)" || { echo "make kernel: SRC=$(SRC): no such file (a path from $(CURDIR), or absolute: SRC=\$$PWD/foo.c)" >&2; exit 2; }
	@mkdir -p $(KERNEL_OUT)
	$(RV_CC) $(RV_CFLAGS) $(KERNELS_RV_EXTRA) -I$(dir $(KERNEL_SRC)) -c $(KERNEL_SRC) -o $(KERNEL_OUT)/$(KERNEL_NAME).o
	$(RV_CC) $(RV_CFLAGS) $(KERNELS_RV_LDFLAGS) $(KERNELS_RT_OBJS) $(KERNEL_OUT)/$(KERNEL_NAME).o -o $(KERNEL_OUT)/$(KERNEL_NAME).elf
	$(CC) $(KERNELS_HOST_CFLAGS) -I$(dir $(KERNEL_SRC)) $(KERNEL_SRC) $(BUILD)/host/runtime/host_runner.o \
	  -o $(KERNEL_OUT)/$(KERNEL_NAME) $(KERNELS_HOST_LDLIBS)
	@echo "kernel: $(KERNEL_OUT)/$(KERNEL_NAME).elf (wpusim) and $(KERNEL_OUT)/$(KERNEL_NAME) (the host build)"
ifneq ($(RUN),0)
	@$(MAKE) -s --no-print-directory $(BUILD)/wpusim
	@sh $(KERNELS_SRCDIR)/tools/run_pair.sh $(BUILD)/wpusim $(KERNEL_OUT)/$(KERNEL_NAME) "$(ARGS)"
endif

# Do not take over the includer's default goal; standalone, the default is `kernels`.
ifdef KERNELS_STANDALONE
.DEFAULT_GOAL := kernels
else
.DEFAULT_GOAL := $(KERNELS_SAVED_GOAL)
endif
