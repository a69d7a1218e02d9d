# The RTL flow: lint, testbenches, synthesis and waveforms for every block
# in RTL_BLOCKS and every parameter set of its tb/<block>.params
# (docs/rtl.md). Included by the top Makefile.
#
#   make rtl-lint               verilator -Wall and yosys structural checks, every set
#   make tb                     build every testbench (RTL and post-synthesis)
#   make rtl-test               lint + a short random run per set + post-synthesis runs
#   make rtl-long               millions of random clocks per set (RTL_LONG_CYCLES)
#   make synth                  area report per block and set, and build/synth/summary.md
#   make wave BLOCK=wst [SET=dws] [SEED=1]   a short traced run, opened in GTKWave
#   make wave-shot BLOCK=wst [SET=dws]      the same, as GTKWave shows it, to a PNG (Xvfb)
#   make formal BLOCK=b [FORMAL_SETS="s .."] [FORMAL_DEPTH=N]  prove the block's assertions (Yosys sat)
#
# A block <b> is its files plus one word in RTL_BLOCKS:
#   rtl/ws_<b>.sv (top module ws_<b>, may include rtl/*.svh), tb/<b>_tb.cpp
#   (the harness: tb/common/tb.h), tb/<b>.params (parameter sets),
#   cmodel/blocks/<b>.c (its C model), tb/<b>.gtkw (waveform layout).

RTL_BLOCKS := wst mdt fetcharb asc colpick prt

VERILATOR ?= verilator
YOSYS     ?= yosys
GTKWAVE   ?= gtkwave
RTL_OUT   := $(BUILD)/rtl
SYNTH_OUT := $(BUILD)/synth
# clocks of the random run per set in rtl-test (make test) and in rtl-long
RTL_CYCLES      ?= 200000
RTL_LONG_CYCLES ?= 3000000
# The sets whose synthesized netlists make tb builds and make test (and
# rtl-test) simulate (rtl-long and make test-long: every set's). The small
# sets whose netlists also run a hand-worked test or a recorded trace, which
# the netlist must pass as the RTL does: RTL_NET_SETS, or a block's own
# RTL_NET_SETS_<block> where its set names differ. (The netlists of the
# papers' sizes, dws or dom, take 30 s each to compile: make test-long.)
# hand6's netlist, which has no assertions, also runs tests/blocks/wst/past_table
RTL_NET_SETS ?= hand6
# (hand: its netlist also runs tests/blocks/mdt/basic)
RTL_NET_SETS_mdt ?= hand
# (timeout, lwmt300: their netlists also run the hand-worked test and a
# recorded trace whose timeouts fire)
RTL_NET_SETS_fetcharb ?= lwmt300 timeout
# (rules: its netlist also runs tests/blocks/asc/rules)
RTL_NET_SETS_asc ?= rules
# (hand2, k2: their netlists also run the hand-worked tests)
RTL_NET_SETS_colpick ?= hand2 k2
# (hand: its netlist also runs tests/blocks/prt/basic)
RTL_NET_SETS_prt ?= hand
# The sets make test builds and runs (tb-BLOCK; RTL_TIER=long, make
# test-long: every set of tb/<block>.params, every netlist): those its
# tests name — the logged random run and the set that refuses it
# (tests/groups/rtl-blocks.tsv), the hand-worked tests' (tests/blocks/),
# the recorded kernels' (rtl-records.tsv), the mutant's, the waveform's
# (the first set) — each with a random run. The others (corner widths and
# sizes) run in make test-long.
RTL_TEST_SETS_wst      ?= dws maws hand hand6
RTL_TEST_SETS_mdt      ?= dom n1 n16 dws hand
RTL_TEST_SETS_fetcharb ?= lwm lwmt lwm2lev lwmt300 g3s3t5 rotate roundrobin timeout twolevel
RTL_TEST_SETS_asc      ?= dom4 dom1 dom16 paper straddle rules adapt
RTL_TEST_SETS_colpick  ?= lwm k2 k4 k16 fig6 dep4 hand2
RTL_TEST_SETS_prt      ?= vector aurora t16 hand
RTL_TIER ?= test
RTL_SEED ?= 1

RTL_SV_COMMON := $(wildcard rtl/*.svh)
TB_COMMON     := tb/common/tb.h tb/common/tb_main.cpp tb/common/tb_block.h tb/common/block_glue.inc tb/common/rtl_port.h
# Each Verilator build runs its own make (MAKEFLAGS= keeps ours out of it).
# The waveforms' unit is 1 ns, a clock 10 ns: tb/common/tb.h.
VL_FLAGS := --cc --exe --trace-fst --timescale 1ns/1ns --prefix Vdut -Wno-fatal
# How a model is compiled (make test builds ~40 of them: this is most of its
# RTL time): one translation unit per model (VM_PARALLEL_BUILDS=0, Verilator's
# own mode for small designs: each .cpp of a model re-reads verilated.h, and
# a block's model is a dozen of them: 7 s instead of 14 s for the WST), and
# Verilator's run-time (verilated.o, verilated_fst_c.o, verilated_threads.o:
# 9 s of compiling) built once into $(VL_RT) and linked by every testbench
# and by wpusim-rtl, not compiled again in each build directory.
# OBJCACHE: a compiler cache in front of g++ (ccache, when installed:
# Verilator's own hook), so a testbench whose C++ did not change is not
# compiled again by the next run of the suite on this machine (a fresh
# clone, a clean build); OBJCACHE= turns it off.
OBJCACHE ?= $(shell command -v ccache 2>/dev/null)
VL_RT := $(RTL_OUT)/vlrt/libverilated.a
VL_MAKE = MAKEFLAGS= MFLAGS= $(MAKE) --no-print-directory VM_PARALLEL_BUILDS=0 VK_GLOBAL_OBJS= OBJCACHE="$(OBJCACHE)"

# Verilator's run-time library, with the flags Verilator's makefile gives it
# (a one-line stub module generates that makefile).
$(VL_RT): tb/flow.mk
	@rm -rf $(@D) && mkdir -p $(@D)
	@echo "  VERILATE run-time library"
	@printf 'module vl_runtime_stub (input wire clk_i);\nendmodule\n' > $(@D)/stub.sv
	@MAKEFLAGS= MFLAGS= $(VERILATOR) --cc --trace-fst --prefix Vrt -Mdir $(@D) $(@D)/stub.sv > $(@D)/build.log 2>&1 \
	  && $(VL_MAKE) -C $(@D) -f Vrt.mk OBJCACHE="$(OBJCACHE)" verilated.o verilated_fst_c.o verilated_threads.o >> $(@D)/build.log 2>&1 \
	  && $(AR) rcs $@ $(@D)/verilated.o $(@D)/verilated_fst_c.o $(@D)/verilated_threads.o \
	  || { tail -n 30 $(@D)/build.log; exit 1; }

# the synthesized netlists are large flat C++: compile them without optimization
VL_NET_FLAGS  := -Wno-lint -Wno-style -Wno-UNOPTFLAT
VL_NET_MAKE   := OPT_FAST=-O0 OPT_SLOW=-O0

# $(call rtl_sets,B): the set names of block B; $(call rtl_params,B,S): its KEY=VALUE words
rtl_sets   = $(shell sed -n 's/^\([A-Za-z0-9_]*\)[[:space:]].*=.*/\1/p' tb/$(1).params)
rtl_params = $(shell sed -n 's/^$(2)[[:space:]][[:space:]]*//p' tb/$(1).params)
# every block:set pair
RTL_PAIRS := $(foreach b,$(RTL_BLOCKS),$(foreach s,$(call rtl_sets,$(b)),$(b)/$(s)))

.PHONY: rtl-tools rtl-lint tb rtl-test rtl-long synth wave wave-shot formal

rtl-tools:
	@command -v $(VERILATOR) >/dev/null && command -v $(YOSYS) >/dev/null || \
	  { echo "rtl: verilator and yosys are needed (make setup, or: apt-get install verilator yosys gtkwave)" >&2; exit 1; }

# The C model of a block and the generic block code (block.c), compiled as
# C for the harness. Every block's C model is linked: block.c's block_list
# (the trace reader's blocks) names them all. Their masks (wmask_t,
# cmodel/mask.h) hold 256 lanes, as wpusim's widest build; a block with a
# wider set names its lanes, TB_LANES_<block>, and its testbench (harness and
# C objects, $(RTL_OUT)/cobj<lanes>) is built with masks of that width: the
# column picker's k16 is 004's 512-thread large warp (Fig. 10), one C picker
# of 512 threads. (Only there: 512-lane masks make the WST's and the MDT's
# random runs 25-30 % slower.)
TB_LANES_colpick := 512
BLOCK_COBJS := $(patsubst cmodel/blocks/%.c,$(RTL_OUT)/cobj/%.o,$(wildcard cmodel/blocks/*.c))
tb_cobjs = $(BLOCK_COBJS:$(RTL_OUT)/cobj/%=$(RTL_OUT)/cobj$(TB_LANES_$(1))/%)
# $(call TB_COBJ_RULE,LANES): the objects of $(RTL_OUT)/cobjLANES (none: mask.h's lanes)
define TB_COBJ_RULE
$(RTL_OUT)/cobj$(1)/%.o: cmodel/blocks/%.c $(wildcard cmodel/blocks/*.h cmodel/blocks/*.def) cmodel/mask.h
	@mkdir -p $$(dir $$@)
	$(CC) $(CFLAGS) $(if $(1),-DWSIM_MAX_LANES=$(1) )-c $$< -o $$@
endef
$(eval $(call TB_COBJ_RULE,))
$(foreach l,$(sort $(foreach b,$(RTL_BLOCKS),$(TB_LANES_$(b)))),$(eval $(call TB_COBJ_RULE,$(l))))

# $(call verilate_tb,BLOCK,SET,DIR,FLAGS,SOURCES[,MAKEVARS]): build DIR/BLOCK_tb, the
# block's testbench (tb/BLOCK_tb.cpp on tb/common, its C objects) on the
# Verilog SOURCES with Verilator FLAGS; its log is DIR/build.log. The RTL's,
# the netlist's and a mutant's testbenches are built by this one command.
define verilate_tb
@MAKEFLAGS= MFLAGS= $(VERILATOR) $(VL_FLAGS) $(4) --top-module ws_$(1) -Mdir $(3) \
  -CFLAGS "$(RTL_TB_CFLAGS_$(1)_$(2))" $(5) $(CURDIR)/tb/$(1)_tb.cpp $(CURDIR)/tb/common/tb_main.cpp \
  $(abspath $(call tb_cobjs,$(1))) -o $(1)_tb > $(3)/build.log 2>&1 \
  && $(VL_MAKE) -C $(3) -f Vdut.mk LIBS="$(abspath $(VL_RT)) -lz -pthread" $(6) $(1)_tb >> $(3)/build.log 2>&1 \
  || { tail -n 30 $(3)/build.log; exit 1; }
endef

# Rules per block and set:
#   $(RTL_OUT)/B/S/lint.ok        verilator -Wall and yosys checks passed
#   $(RTL_OUT)/B/S/rtl/B_tb       the testbench on the RTL
#   $(RTL_OUT)/B/S/net/B_tb       the testbench on the synthesized netlist
#   $(SYNTH_OUT)/B-S.stat         yosys statistics (cells, area), netlist B-S.v
define RTL_SET_RULES
RTL_P_$(1)_$(2) := $$(call rtl_params,$(1),$(2))
RTL_TB_COBJS_$(1) := $(call tb_cobjs,$(1))
RTL_TB_DEPS_$(1) := tb/$(1)_tb.cpp tb/$(1).params $(TB_COMMON) $$(RTL_TB_COBJS_$(1)) $(VL_RT)
RTL_TB_CFLAGS_$(1)_$(2) := -I$(CURDIR)/tb/common -iquote $(CURDIR)/cmodel -DTB_ROOT=$(CURDIR) $$(RTL_P_$(1)_$(2):%=-DTB_%) \
  $(if $(TB_LANES_$(1)),-DWSIM_MAX_LANES=$(TB_LANES_$(1)))

$(RTL_OUT)/$(1)/$(2)/lint.ok: rtl/ws_$(1).sv $(RTL_SV_COMMON) tb/$(1).params synth/lint.ys
	@mkdir -p $$(dir $$@)
	@$(VERILATOR) --lint-only -Wall -Irtl --top-module ws_$(1) $$(RTL_P_$(1)_$(2):%=-G%) rtl/ws_$(1).sv \
	  > $$(dir $$@)lint.log 2>&1 || { cat $$(dir $$@)lint.log; echo "rtl-lint: verilator -Wall: $(1) $(2)"; exit 1; }
	@$(YOSYS) -q -l $$(dir $$@)yosys-lint.log -p "read_verilog -sv -Irtl rtl/ws_$(1).sv; \
	  chparam $$(foreach p,$$(RTL_P_$(1)_$(2)),-set $$(subst =, ,$$(p))) ws_$(1); script synth/lint.ys" \
	  > /dev/null 2>&1 || { grep -i "warning\|error" $$(dir $$@)yosys-lint.log | head -20; echo "rtl-lint: yosys: $(1) $(2)"; exit 1; }
	@touch $$@

$(RTL_OUT)/$(1)/$(2)/rtl/$(1)_tb: rtl/ws_$(1).sv $(RTL_SV_COMMON) $$(RTL_TB_DEPS_$(1))
	@mkdir -p $$(dir $$@)
	@echo "  VERILATE $(1) $(2) (RTL)"
	@rm -f $$@ # Verilator's own make does not relink for a changed C object (cobj/)
	$$(call verilate_tb,$(1),$(2),$$(@D),--assert -Irtl $$(RTL_P_$(1)_$(2):%=-G%),rtl/ws_$(1).sv)

$(SYNTH_OUT)/$(1)-$(2).v $(SYNTH_OUT)/$(1)-$(2).stat &: rtl/ws_$(1).sv $(RTL_SV_COMMON) tb/$(1).params synth/synth.ys synth/cells45.lib
	@mkdir -p $(SYNTH_OUT)
	@echo "  SYNTH    $(1) $(2)"
	@$(YOSYS) -q -l $(SYNTH_OUT)/$(1)-$(2).log -p "read_verilog -sv -Irtl rtl/ws_$(1).sv; \
	  chparam $$(foreach p,$$(RTL_P_$(1)_$(2)),-set $$(subst =, ,$$(p))) ws_$(1); script synth/synth.ys; \
	  tee -q -o $(SYNTH_OUT)/$(1)-$(2).stat stat -liberty synth/cells45.lib; \
	  write_verilog -noattr $(SYNTH_OUT)/$(1)-$(2).v" > /dev/null 2>&1 || \
	  { grep -i "error" $(SYNTH_OUT)/$(1)-$(2).log | head; echo "synth: yosys failed: $(1) $(2)"; exit 1; }

$(RTL_OUT)/$(1)/$(2)/net/$(1)_tb: $(SYNTH_OUT)/$(1)-$(2).v synth/cells45.v $$(RTL_TB_DEPS_$(1))
	@mkdir -p $$(dir $$@)
	@echo "  VERILATE $(1) $(2) (netlist)"
	@rm -f $$@
	$$(call verilate_tb,$(1),$(2),$$(@D),$(VL_NET_FLAGS),$(SYNTH_OUT)/$(1)-$(2).v synth/cells45.v,$(VL_NET_MAKE))
endef
$(foreach b,$(RTL_BLOCKS),$(foreach s,$(call rtl_sets,$(b)),$(eval $(call RTL_SET_RULES,$(b),$(s)))))

# make mutant-tb BLOCK=b SET=s MUTANT_SV=file MUTANT_OUT=dir: the RTL
# testbench of one set built from another source, dir/b_tb (the mutants of
# tests/groups/rtl-mutants.tsv that the random testbench must catch).
mutant-tb: $(call tb_cobjs,$(BLOCK)) $(VL_RT)
	@test -n "$(MUTANT_SV)" -a -n "$(MUTANT_OUT)" -a -n "$(RTL_P_$(BLOCK)_$(SET))" || \
	  { echo "mutant-tb: give BLOCK, SET (a set of tb/$(BLOCK).params), MUTANT_SV and MUTANT_OUT" >&2; exit 2; }
	@mkdir -p $(MUTANT_OUT)
	$(call verilate_tb,$(BLOCK),$(SET),$(MUTANT_OUT),--assert -Irtl $(RTL_P_$(BLOCK)_$(SET):%=-G%),$(abspath $(MUTANT_SV)))
.PHONY: mutant-tb

RTL_LINT_OK := $(RTL_PAIRS:%=$(RTL_OUT)/%/lint.ok)
rtl_tb      = $(RTL_OUT)/$(1)/rtl/$(firstword $(subst /, ,$(1)))_tb
net_tb      = $(RTL_OUT)/$(1)/net/$(firstword $(subst /, ,$(1)))_tb
RTL_NET_PAIRS := $(foreach b,$(RTL_BLOCKS),$(filter $(foreach s,$(or $(RTL_NET_SETS_$(b)),$(RTL_NET_SETS)),$(b)/$(s)),$(RTL_PAIRS)))
# the suite's tier (make test: RTL_TIER=test; make test-long: long)
RTL_TIER_PAIRS := $(if $(filter long,$(RTL_TIER)),$(RTL_PAIRS),$(foreach b,$(RTL_BLOCKS),$(filter $(addprefix $(b)/,$(RTL_TEST_SETS_$(b))),$(RTL_PAIRS))))
RTL_TIER_NET_PAIRS := $(if $(filter long,$(RTL_TIER)),$(RTL_PAIRS),$(RTL_NET_PAIRS))

rtl-lint: rtl-tools $(RTL_LINT_OK)
	@echo "rtl-lint: $(words $(RTL_LINT_OK)) block/set pairs clean"

tb: rtl-tools $(foreach p,$(RTL_PAIRS),$(call rtl_tb,$(p))) $(foreach p,$(RTL_NET_PAIRS),$(call net_tb,$(p)))

# make tb-BLOCK: one block's testbenches of the tier (RTL_TIER=test: its
# RTL_TEST_SETS_<block> and netlists; long: every set and netlist): the test
# suite's rtl-BLOCK groups build only their own, side by side, after make
# rtl-prereqs has built what every testbench links (the blocks' C objects and
# Verilator's run-time).
$(foreach b,$(RTL_BLOCKS),$(eval tb-$(b): rtl-tools $(foreach p,$(filter $(b)/%,$(RTL_TIER_PAIRS)),$(call rtl_tb,$(p))) \
  $(foreach p,$(filter $(b)/%,$(RTL_TIER_NET_PAIRS)),$(call net_tb,$(p)))))
rtl-prereqs: rtl-tools $(VL_RT) $(sort $(foreach b,$(RTL_BLOCKS),$(call tb_cobjs,$(b))))
.PHONY: rtl-prereqs $(RTL_BLOCKS:%=tb-%)

# A random run per set on the RTL, then on the chosen netlists.
rtl-test: rtl-lint tb
	@set -e; for p in $(RTL_PAIRS); do b=$${p%%/*}; echo "== $$p (RTL)"; \
	  $(RTL_OUT)/$$p/rtl/$${b}_tb +seed=$(RTL_SEED) +cycles=$(RTL_CYCLES) +quiet; done
	@set -e; for p in $(RTL_NET_PAIRS); do b=$${p%%/*}; echo "== $$p (netlist)"; \
	  $(RTL_OUT)/$$p/net/$${b}_tb +seed=$(RTL_SEED) +cycles=$$(($(RTL_CYCLES) / 4)) +quiet; done

rtl-long: rtl-lint $(foreach p,$(RTL_PAIRS),$(call rtl_tb,$(p)) $(call net_tb,$(p)))
	@set -e; for p in $(RTL_PAIRS); do b=$${p%%/*}; for seed in 11 12 13; do echo "== $$p (RTL) seed $$seed"; \
	  $(RTL_OUT)/$$p/rtl/$${b}_tb +seed=$$seed +cycles=$(RTL_LONG_CYCLES) +quiet; done; done
	@set -e; for p in $(RTL_PAIRS); do b=$${p%%/*}; echo "== $$p (netlist)"; \
	  $(RTL_OUT)/$$p/net/$${b}_tb +seed=21 +cycles=$$(($(RTL_LONG_CYCLES) / 10)) +quiet; done

# Area: one report per block and set, and the summary (synth/area.py).
RTL_STATS := $(foreach p,$(RTL_PAIRS),$(SYNTH_OUT)/$(subst /,-,$(p)).stat)
$(SYNTH_OUT)/summary.md: $(RTL_STATS) synth/area.py synth/wpu_area.def
	python3 synth/area.py --out $(SYNTH_OUT) $(foreach p,$(RTL_PAIRS),$(subst /, ,$(p))=$(SYNTH_OUT)/$(subst /,-,$(p)).stat)
synth: rtl-tools $(SYNTH_OUT)/summary.md
	@cat $(SYNTH_OUT)/summary.md

# A short traced run of one block and set, opened with the block's GTKWave layout.
BLOCK ?= wst
SET   ?= $(firstword $(call rtl_sets,$(BLOCK)))
SEED  ?= 1
WAVE_DIR := $(RTL_OUT)/$(BLOCK)/$(SET)
# make wave: a short traced run; opened in GTKWave when there is a display,
# else the file's path and the command to open it. The testbench writes the
# view beside the waveform (its .gtkw: the block's save file opened on the
# busiest 96 clocks of operations, logged by +log; values named by
# the port table's encodings). Exit 0 only when the waveform was written.
wave: rtl-tools $(call rtl_tb,$(BLOCK)/$(SET))
	@rm -f $(WAVE_DIR)/$(BLOCK).fst $(WAVE_DIR)/$(BLOCK).gtkw
	cd $(WAVE_DIR) && ./rtl/$(BLOCK)_tb +seed=$(SEED) +cycles=2000 +trace=$(BLOCK).fst +log=$(BLOCK).ops +quiet
	@test -s $(WAVE_DIR)/$(BLOCK).fst || { echo "wave: no waveform written ($(WAVE_DIR)/$(BLOCK).fst)" >&2; exit 1; }
	@test -s $(WAVE_DIR)/$(BLOCK).gtkw || { echo "wave: no view written ($(WAVE_DIR)/$(BLOCK).gtkw)" >&2; exit 1; }
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ] && command -v $(GTKWAVE) >/dev/null; then \
	  $(GTKWAVE) $(WAVE_DIR)/$(BLOCK).fst $(WAVE_DIR)/$(BLOCK).gtkw >/dev/null 2>&1 & \
	  echo "wave: $(WAVE_DIR)/$(BLOCK).fst opened in GTKWave"; \
	else \
	  echo "wave: wrote $(WAVE_DIR)/$(BLOCK).fst; no display here: open it with"; \
	  echo "      gtkwave $(WAVE_DIR)/$(BLOCK).fst $(WAVE_DIR)/$(BLOCK).gtkw   (or make wave-shot: a PNG)"; \
	fi

# make wave-shot: the same waveform as GTKWave shows it, on a virtual display
# (Xvfb), saved as $(WAVE_DIR)/$(BLOCK).png: what a user sees, without a display.
wave-shot: wave
	bash scripts/wave_shot.sh $(WAVE_DIR)/$(BLOCK).fst $(WAVE_DIR)/$(BLOCK).gtkw $(WAVE_DIR)/$(BLOCK).png

# make formal BLOCK=<b> [FORMAL_SETS="s1 s2" | SET=s] [FORMAL_DEPTH=N] [FORMAL_SV=file]:
# Yosys proves the block's named assertions (rtl/ws_assert.svh under FORMAL)
# for each set by temporal induction, the base case from reset
# (synth/formal.sh, synth/formal.ys; docs/rtl.md, "Formal"). The sets:
# FORMAL_SETS, else SET given on the command line, else the block's own list
# FORMAL_SETS_<b>, else its set named formal, else its first. Per set: the
# log $(RTL_OUT)/<b>/<set>/formal.log, a counterexample formal.vcd beside it.
# FORMAL_SV proves another source (the mutants of tests/rtl.sh). Exit 0 only
# when every set is proven. FORMAL_ENGINE=sat|pdr (default the block's
# FORMAL_ENGINE_<b>, else sat): pdr is ABC's property-directed reachability,
# which proves the column picker at 32 and 64 lanes where k-induction does
# not finish (every colpick set in 0.01-12 s of PDR) and the warp-split
# table at 001's 16 x 16 in 25 s where k-induction takes 3.3 min (docs/rtl.md,
# Formal).
FORMAL_SETS_mdt      ?= hand small dom
FORMAL_DEPTH_fetcharb ?= 20
FORMAL_SETS_asc      ?= rules small w2 straddle
FORMAL_SETS_colpick  ?= dep4 lwm
FORMAL_ENGINE_colpick ?= pdr
FORMAL_SETS_prt      ?= hand scarce aurora
FORMAL_SETS_wst      ?= dws
FORMAL_ENGINE_wst    ?= pdr
FORMAL_SETS  ?= $(if $(filter command line environment,$(origin SET)),$(SET),$(or $(FORMAL_SETS_$(BLOCK)),$(filter formal,$(call rtl_sets,$(BLOCK))),$(firstword $(call rtl_sets,$(BLOCK)))))
FORMAL_DEPTH ?= $(or $(FORMAL_DEPTH_$(BLOCK)),12)
FORMAL_SV    ?= rtl/ws_$(BLOCK).sv
FORMAL_ENGINE ?= $(or $(FORMAL_ENGINE_$(BLOCK)),sat)
formal: rtl-tools
	@set -e; for s in $(FORMAL_SETS); do \
	  YOSYS=$(YOSYS) FORMAL_ENGINE=$(FORMAL_ENGINE) bash synth/formal.sh $(BLOCK) $$s $(FORMAL_SV) $(FORMAL_DEPTH) \
	    $(RTL_OUT)/$(BLOCK)/$$s; done

# The block/set pairs, for tests/rtl.sh.
rtl-pairs:
	@echo $(RTL_PAIRS)
.PHONY: rtl-pairs
# The sets of BLOCK the tier tests, and those whose netlists it simulates, for tests/rtl.sh.
rtl-sets:
	@echo $(patsubst $(BLOCK)/%,%,$(filter $(BLOCK)/%,$(RTL_TIER_PAIRS)))
.PHONY: rtl-sets
rtl-net-sets:
	@echo $(patsubst $(BLOCK)/%,%,$(filter $(BLOCK)/%,$(RTL_TIER_NET_PAIRS)))
.PHONY: rtl-net-sets
