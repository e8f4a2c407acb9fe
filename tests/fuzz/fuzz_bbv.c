/* Fuzz target: the .bb reader (ours and other tools'). An input is either
 * refused with a message or read into a profile that is consistent (counts
 * sum to the intervals, blocks in range), that writes back and reads back the
 * same, and that clusters. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sampling/sampling.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    cs_error err = {{0}};
    bbv_profile *p = bbv_parse((const char *)data, size, "fuzz.bb", &err);
    if (!p) {
        if (!err.msg[0]) abort(); /* refused without a reason */
        return 0;
    }
    uint64_t total = 0;
    for (size_t i = 0; i < p->interval_count; i++) {
        const bbv_interval *iv = &p->intervals[i];
        uint64_t sum = 0;
        if (iv->n == 0 || iv->first + iv->n > p->entry_count) abort();
        for (uint32_t j = 0; j < iv->n; j++) {
            const bbv_entry *e = &p->entries[iv->first + j];
            if (e->block < 1 || e->block > p->blocks || e->count == 0) abort();
            if (j && e->block <= p->entries[iv->first + j - 1].block) abort();
            sum += e->count;
        }
        if (sum != iv->instructions) abort();
        total += sum;
    }
    if (total != p->instructions || p->interval == 0) abort();

    char path[] = "/tmp/fuzz-bbv-XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) {
        close(fd);
        if (!bbv_write(p, path, &err)) abort();
        bbv_profile *q = bbv_read(path, &err);
        if (!q || q->interval_count != p->interval_count || q->entry_count != p->entry_count ||
            q->instructions != p->instructions)
            abort();
        for (size_t i = 0; i < p->entry_count; i++)
            if (q->entries[i].block != p->entries[i].block || q->entries[i].count != p->entries[i].count) abort();
        bbv_profile_free(q);
        unlink(path);
    }
    if (p->interval_count <= 200 && p->entry_count <= 20000) {
        simpoint_options o;
        simpoint_options_default(&o);
        o.max_k = 5;
        o.seeds = 1;
        simpoint_result r;
        if (!simpoint_cluster(p, &o, &r, &err)) abort();
        double w = 0;
        for (size_t i = 0; i < r.point_count; i++) w += r.points[i].weight;
        if (r.point_count == 0 || w < 0.999999 || w > 1.000001) abort();
        simpoint_result_free(&r);
    }
    bbv_profile_free(p);
    return 0;
}
