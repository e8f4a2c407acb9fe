/* Fuzz target: the ChampSim importer (raw, xz or gzip by the data's first bytes)
 * in its three readings — 64-byte records, 96-byte cloudsuite records, and
 * --riscv — then the export of what was imported and its import again. Nothing
 * may crash, hang or leak; a refusal comes with a message naming the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

enum { KEEP = 4096 };

static long import_all(const char *path, const champsim_options *opt, uop *keep, size_t *kept) {
    cs_error err = {{0}};
    uop_source *s = champsim_open(path, opt, &err);
    if (!s) {
        if (!strstr(err.msg, path)) abort();
        return -1;
    }
    uop buf[100];
    long n, total = 0;
    *kept = 0;
    while ((n = uop_source_read(s, buf, 100, &err)) > 0) {
        for (long i = 0; i < n && *kept < KEEP; i++) keep[(*kept)++] = buf[i];
        total += n;
    }
    if (n < 0 && !strstr(err.msg, path)) abort();
    uop_source_destroy(s);
    return n < 0 ? -1 : total;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    int fd = memfd_create("fuzz-champsim", 0);
    int out = memfd_create("fuzz-champsim-out", 0);
    if (fd < 0 || out < 0 || write(fd, data, size) != (ssize_t)size) goto done;
    char path[64], opath[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    snprintf(opath, sizeof opath, "/proc/self/fd/%d", out);
    static uop keep[KEEP], again[KEEP];
    for (int mode = 0; mode < 3; mode++) {
        champsim_options opt = {.cloudsuite = mode == 1, .riscv = mode == 2};
        size_t kept, kept2;
        if (import_all(path, &opt, keep, &kept) < 0) continue;
        /* export what was imported and import it again */
        cs_error err = {{0}};
        champsim_writer *w = champsim_writer_create(opath, &opt, mode == 2 ? CST_ISA_RV64GC : CST_ISA_CHAMPSIM, &err);
        if (!w) abort();
        if (!champsim_writer_write(w, keep, kept, &err)) abort();
        champsim_export_stats st;
        if (!champsim_writer_finish(w, &st, &err)) abort();
        long n = import_all(opath, &opt, again, &kept2);
        if (n < 0) abort(); /* our own export must import */
    }
done:
    if (fd >= 0) close(fd);
    if (out >= 0) close(out);
    return 0;
}
