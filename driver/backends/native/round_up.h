/* The one rounding helper of the plugin's headers: each kernel pads its packed weight
 * and its rows to steps of its own (4 k for VNNI, 16 columns for AMX, 2 MiB pages for
 * packed memory). */

#ifndef MLC_ROUND_UP_H_
#define MLC_ROUND_UP_H_

#include <stddef.h>

/* The least multiple of `step` at or above `value`. */
static inline size_t round_up(size_t value, size_t step) { return (value + step - 1) / step * step; }

#endif  /* MLC_ROUND_UP_H_ */
