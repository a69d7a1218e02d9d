# blocks.mk - the blocks' C tests: the WST's and the fetch arbiter's unit tests
# (tests/unit/test_wst.c, test_fetcharb.c) and the port-trace replayer of every block (tests/unit/replay_block.c),
# which runs tests/blocks/<block>/*.in against their .expect files.
BLOCK_SRCS := $(wildcard cmodel/blocks/*.c)
BLOCK_HDRS := $(wildcard cmodel/blocks/*.h cmodel/blocks/*.def) cmodel/mask.h
WST_TEST := $(BUILD)/tests/test_wst
FETCHARB_TEST := $(BUILD)/tests/test_fetcharb
REPLAY_BLOCK := $(BUILD)/tests/replay_block
$(WST_TEST): tests/unit/test_wst.c $(BLOCK_SRCS) $(BLOCK_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icmodel -o $@ tests/unit/test_wst.c $(BLOCK_SRCS) $(WSIM_LIBS)
$(REPLAY_BLOCK): tests/unit/replay_block.c $(BLOCK_SRCS) $(BLOCK_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icmodel -o $@ tests/unit/replay_block.c $(BLOCK_SRCS) $(WSIM_LIBS)
$(FETCHARB_TEST): tests/unit/test_fetcharb.c $(BLOCK_SRCS) $(BLOCK_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icmodel -o $@ tests/unit/test_fetcharb.c $(BLOCK_SRCS) $(WSIM_LIBS)
