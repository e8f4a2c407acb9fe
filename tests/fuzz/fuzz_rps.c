/* Fuzz target: the .rps file. An input is refused with a message, or read into
 * a result whose offsets are in order and whose predictions are finite. Each
 * input is tried as it is and with its CRC recomputed, so that the fuzzer
 * reaches the checks behind the checksum. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "rpstacks/rpstacks.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void check(const uint8_t *data, size_t size) {
    rps_result r;
    cs_error err;
    if (!rps_parse(data, size, &r, &err)) {
        if (!err.msg[0]) abort(); /* refused: always with a reason */
        return;
    }
    for (uint32_t k = 0; k < r.segments; k++)
        if (r.seg_first[k] > r.seg_first[k + 1]) abort();
    if (r.seg_first[r.segments] != r.stack_count) abort();
    uint32_t lat[RPS_DIMS];
    double scale[RPS_DIMS];
    memcpy(lat, r.base_latency, sizeof lat);
    if (rps_scales(&r, lat, scale, &err)) {
        if (!isfinite(rps_predict(&r, scale)) || !isfinite(rps_predict_cp1(&r, scale)) ||
            !isfinite(rps_predict_fmt(&r, scale)))
            abort();
    }
    rps_result_free(&r);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    check(data, size);
    if (size >= 12) {
        uint8_t *copy = malloc(size);
        if (!copy) return 0;
        memcpy(copy, data, size);
        uint32_t c = (uint32_t)crc32(0L, copy, (uInt)(size - 4));
        copy[size - 4] = (uint8_t)c, copy[size - 3] = (uint8_t)(c >> 8);
        copy[size - 2] = (uint8_t)(c >> 16), copy[size - 1] = (uint8_t)(c >> 24);
        check(copy, size);
        free(copy);
    }
    return 0;
}
