/* What `rpstacks` and `whatif` share: the µop source of an RpStacks origin
 * (a program run in the emulator with the fixed environment and the guest options it was
 * given, or a .cst trace),
 * opened once per run — in this process or in each pool job's process. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "rpstacks/rpstacks.h"
#include "runner/runner.h"

static uop_source *origin_open(void *ctx, cs_error *err) {
    rps_source *s = ctx;
    const rps_origin *o = s->origin;
    if (o->is_trace) {
        cst_reader *r = cli_cst_open(o->argv[0], err);
        return r ? cst_reader_source(r) : NULL;
    }
    cli_guest_options g;
    cli_guest_defaults(&g);
    g.env_fixed = true; /* always: the cycles do not depend on where whatif runs it */
    g.emu.seed = o->seed;
    g.emu.memory_limit = o->guest_memory;
    g.emu.host_time = o->host_time;
    g.emu.strict_syscalls = o->strict_syscalls;
    g.emu.allow_write_dir = o->allow_write[0] ? o->allow_write : NULL;
    s->emu = cli_guest_open(&g, o->argc, o->argv, err);
    return s->emu ? emu_source_create(s->emu) : NULL;
}

static bool origin_close(void *ctx, uop_source *src, cs_error *err) {
    rps_source *s = ctx;
    bool ok = true;
    /* a guest killed by a fault (a signal) ended as Linux would end it: what ran is the run;
     * only what cyclescope cannot do fails it */
    if (s->emu && emu_state(s->emu) == EMU_FAILED && !emu_fault_signal(s->emu)) {
        cs_error_set(err, "%s", emu_error(s->emu));
        ok = false;
    }
    uop_source_destroy(src);
    if (s->emu) emu_destroy(s->emu);
    s->emu = NULL;
    return ok;
}

run_source rps_run_source(rps_source *s, const rps_origin *origin) {
    s->origin = origin;
    s->emu = NULL;
    return (run_source){s, origin_open, origin_close, NULL};
}

bool rps_origin_config(const rps_origin *o, uarch_config *cfg, cs_error *err) {
    uarch_config_default(cfg);
    if (!uarch_config_load(cfg, o->config, err)) return false;
    for (int k = 0; k < o->set_count; k++)
        if (!uarch_config_set(cfg, o->sets[k], err)) return false;
    return true;
}
