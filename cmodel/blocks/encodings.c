/* The encodings of the port tables (the BLOCK_ENCODING rows of the
 * blocks' .def files: what tb/gtkw.py names in GTKWave) hold the C
 * constants the blocks and the pipeline use: a constant that moves without
 * its row, or a row that names the wrong value, does not compile. */
#include "asc.h"
#include "mdt.h"
#include "wst.h"

#define ENCODING_HOLDS(name, constant, value) \
    _Static_assert((constant) == (value), #constant " is not " #value ", the value its port table names");

#define BLOCK_ENCODING ENCODING_HOLDS
#include "asc.def"
#define BLOCK_ENCODING ENCODING_HOLDS
#include "mdt.def"
#define BLOCK_ENCODING ENCODING_HOLDS
#include "wst.def"

/* (a translation unit with only static assertions) */
int block_encodings_checked;
