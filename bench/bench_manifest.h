/* The bundled workloads as workloads/manifest.txt lists them (name, category,
 * small argument), for the benchmarks that walk all of them. */
#ifndef CYCLESCOPE_BENCH_MANIFEST_H
#define CYCLESCOPE_BENCH_MANIFEST_H

#include <stdio.h>
#include <string.h>

typedef struct bench_workload {
    char name[64], small[64]; /* small: the argument for a short run */
} bench_workload;

/* Up to max entries, in the manifest's order; 0 if it cannot be read. */
static inline int bench_read_manifest(bench_workload *w, int max) {
    FILE *f = fopen(CYCLESCOPE_MANIFEST, "r");
    if (!f) return 0;
    char line[512];
    int n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        char name[64], cat[32], arg[64];
        if (line[0] == '#' || sscanf(line, "%63s %31s %63s", name, cat, arg) != 3) continue;
        snprintf(w[n].name, sizeof w[n].name, "%s", name);
        snprintf(w[n].small, sizeof w[n].small, "%s", arg);
        n++;
    }
    fclose(f);
    return n;
}

/* A workload named on the command line: NAME or NAME=ARG (ARG: its argument). */
static inline bench_workload bench_workload_from_arg(const char *arg) {
    bench_workload w;
    const char *eq = strchr(arg, '=');
    snprintf(w.name, sizeof w.name, "%.*s", eq ? (int)(eq - arg) : 63, arg);
    snprintf(w.small, sizeof w.small, "%s", eq ? eq + 1 : "");
    return w;
}

#endif
