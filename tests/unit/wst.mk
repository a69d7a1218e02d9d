# wst.mk - the warp-split table's C unit test (tests/unit/test_wst.c).
WST_TEST := $(BUILD)/tests/test_wst
$(WST_TEST): tests/unit/test_wst.c cmodel/blocks/wst.c cmodel/blocks/wst.h cmodel/mask.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Icmodel -o $@ tests/unit/test_wst.c cmodel/blocks/wst.c
