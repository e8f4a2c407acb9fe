/* Fuzz target: the profile reader. An input is either refused with a message
 * or read into a profile that is consistent (pcs increasing, the samples at
 * pcs plus the idle ones adding up to the samples taken, a sane period), and
 * that writes back and reads back the same (the configuration's source and
 * overrides included). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/profile.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    cs_error err = {{0}};
    profile_data p;
    if (!profile_parse(data, size, "fuzz.prof", &p, &err)) {
        if (!err.msg[0]) abort(); /* refused without a reason */
        return 0;
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
    profile_data_free(&q);
    profile_data_free(&p);
    return 0;
}
