/* What the sampling files share (internal to sampling). */
#ifndef CYCLESCOPE_SAMPLING_INTERNAL_H
#define CYCLESCOPE_SAMPLING_INTERNAL_H

#include <stdarg.h>

#include "sampling.h"

/* zlib's CRC-32 over any length. */
uint32_t sampling_crc(uint32_t crc, const void *data, size_t len);
/* Write the parts to path through a temporary file renamed into place. */
bool sampling_write_file(const char *path, const char *const *parts, const size_t *lens, int count, cs_error *err);

#endif
