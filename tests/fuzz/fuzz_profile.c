/* Fuzz target: the profile reader. An input is either refused with a message
 * or read into a profile that is consistent (pcs increasing, the samples at
 * pcs plus the idle ones adding up to the samples taken, a sane period), and
 * that writes back and reads back the same (the configuration's source and
 * overrides included, and version 7's images: each range its own image's).
 *
 * Almost every mutation breaks the CRC-32 of the last line, so each input is read
 * twice: as given (the envelope checks), then with its checksum line made right
 * (replaced, or added when missing), so the fuzzer's changes reach the parser. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "profile/profile.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void check_one(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    check_one(data, size);
    /* the body: everything before a last line "checksum crc32:…", or all of it */
    size_t body = size;
    if (body && data[body - 1] == '\n') {
        size_t last = body - 1;
        while (last > 0 && data[last - 1] != '\n') last--;
        if (size - last >= 15 && memcmp(data + last, "checksum crc32:", 15) == 0) body = last;
    }
    if (body && data[body - 1] != '\n') return 0; /* the checksum needs a line of its own */
    unsigned char *patched = malloc(body + 32);
    if (!patched) abort();
    if (body) memcpy(patched, data, body);
    uLong crc = crc32(crc32(0L, Z_NULL, 0), patched, (uInt)body);
    int n = snprintf((char *)patched + body, 32, "checksum crc32:%08lx\n", (unsigned long)crc);
    check_one(patched, body + (size_t)n);
    free(patched);
    return 0;
}

static void check_one(const unsigned char *data, size_t size) {
    cs_error err = {{0}};
    profile_data p;
    if (!profile_parse(data, size, "fuzz.prof", &p, &err)) {
        if (!err.msg[0]) abort(); /* refused without a reason */
        return;
    }
    uint64_t sum = p.idle_samples;
    for (size_t i = 0; i < p.npcs; i++) {
        if (i && p.pcs[i].pc <= p.pcs[i - 1].pc) abort();
        sum += p.pcs[i].count[PROF_CYCLES];
    }
    if (sum != p.samples || p.period_min == 0 || p.period_max < p.period_min) abort();
    char path[] = "/tmp/fuzz_profile_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) abort();
    close(fd);
    if (!profile_write(path, &p, &err)) abort();
    profile_data q;
    if (!profile_read(path, &q, &err)) abort();
    unlink(path);
    if (q.npcs != p.npcs || q.samples != p.samples || q.exe_hash != p.exe_hash || strcmp(q.program, p.program) ||
        strcmp(q.config_text, p.config_text) || strcmp(q.config_source, p.config_source) ||
        q.noverrides != p.noverrides || (p.npcs && memcmp(q.pcs, p.pcs, p.npcs * sizeof *p.pcs)) || q.seed != p.seed ||
        q.nruns != (p.nruns ? p.nruns : 1) ||
        (p.nruns && memcmp(q.run_seeds, p.run_seeds, p.nruns * sizeof *p.run_seeds)))
        abort();
    for (size_t i = 0; i < p.noverrides; i++)
        if (strcmp(q.overrides[i], p.overrides[i])) abort();
    /* version 7's images: the same files, places and ranges; no pc in two of them */
    if (q.nimages != p.nimages) abort();
    for (size_t i = 0; i < p.nimages; i++) {
        const profile_image *x = &p.images[i], *y = &q.images[i];
        if (strcmp(x->path, y->path) || strcmp(x->host_path, y->host_path) || x->size != y->size ||
            x->hash != y->hash || x->bias != y->bias || x->nranges != y->nranges ||
            (x->nranges && memcmp(x->ranges, y->ranges, x->nranges * sizeof *x->ranges)))
            abort();
        for (size_t k = 0; k < x->nranges; k++)
            if (x->ranges[k][1] <= x->ranges[k][0] || profile_image_of(&p, x->ranges[k][0]) != (long)i) abort();
    }
    profile_data_free(&q);
    profile_data_free(&p);
}
