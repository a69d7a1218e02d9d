/* Configuration presets compiled into wpusim (sim/presets/NAME.cfg). */
#ifndef WSIM_PRESETS_H
#define WSIM_PRESETS_H

typedef struct wsim_preset {
    const char *name, *text;
} wsim_preset_t;

extern const wsim_preset_t wsim_presets[]; /* ends with {NULL, NULL} */
/* The papers' legends: mechanism keys only (sim/policies/NAME.cfg). */
extern const wsim_preset_t wsim_policies[];

#define WSIM_DEFAULT_PRESET "dws"

#endif
