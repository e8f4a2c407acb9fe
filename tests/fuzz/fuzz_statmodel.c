/* Fuzz target: the statmodel profile reader (docs/statmodel.md). An input is
 * refused with a message, or it is a profile the models can solve without
 * crashing: both graphs are consistent, so the one-pipe and three-pipe
 * models run on it (small state limits keep each run short). */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "statmodel/statmodel.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void one(const unsigned char *data, size_t size) {
    cs_error err = {{0}};
    sm_profile *p = sm_profile_parse(data, size, &err);
    if (!p) {
        if (!err.msg[0]) abort();
        return;
    }
    if (p->one.nnode <= 64 && p->three.nnode <= 64) {
        sm_machine m = {0};
        m.depth[0] = 2;
        m.pred = SM_PRED_NONE_MODEL;
        m.icache_blocks = m.dcache_blocks = -1;
        m.max_states = 20000;
        sm_result r;
        if (sm_solve(p, &m, &r, &err) && !(r.ipc >= 0 && r.ipc <= 1.000001)) abort();
        m.three = true;
        m.depth[SM_INT] = 1, m.depth[SM_FP] = 5, m.depth[SM_MEM] = 2;
        m.icache_blocks = m.dcache_blocks = 256;
        m.miss_latency = 4;
        if (sm_solve(p, &m, &r, &err) && !(r.ipc >= 0 && r.ipc <= 2.000001)) abort();
    }
    sm_profile_free(p);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    one(data, size);
    if (size >= 12) { /* again with the checksum made right, to reach the checks behind it */
        unsigned char *fixed = malloc(size);
        memcpy(fixed, data, size);
        uint32_t c = (uint32_t)crc32(crc32(0L, Z_NULL, 0), fixed, (uInt)(size - 4));
        for (int i = 0; i < 4; i++) fixed[size - 4 + (size_t)i] = (unsigned char)(c >> (8 * i));
        one(fixed, size);
        free(fixed);
    }
    return 0;
}
