/* Validation of the stacks (Eyerman et al. §IV, §V-A): the baseline machine
 * and the idealised ones, timed in parallel; the actual CPI reduction of each
 * idealisation against the range the dispatch, issue and commit stacks give.
 *
 * Notes:
 *  - Each machine runs in its own process (fork), with its own µop source
 *    (emulator or trace reader) and core; results come back through a pipe as
 *    plain structs. Processes rather than threads because the guest program
 *    writes to the real stdout, and a descriptor table is per process: every
 *    run's stdout and stderr go to a temporary file of its own (the
 *    baseline's is copied out at the end; the others are discarded) and its
 *    stdin comes from /dev/null. The same kind of file for every run matters:
 *    glibc's stdio asks what stdout is (a terminal? a device?) and a different
 *    answer changes the instruction count by a few dozen. Processes also keep
 *    any state in the emulator private to its run.
 *  - All machines time the same instructions (same warm-up and limit, and the
 *    emulator is deterministic by default); a run that times a different
 *    count is an error, not a comparison.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stacks.h"

bool stacks_run(const uarch_config *cfg, uop_source *src, const core_run_options *opt, stacks_result *out,
                core_stats *stats, cs_error *err) {
    memset(out, 0, sizeof *out);
    memset(stats, 0, sizeof *stats);
    core_t *core = core_create(cfg, err);
    if (!core) return false;
    stacks_observer *obs = stacks_observer_create();
    probe_observer p = stacks_observer_probe(obs);
    core_observe(core, &p);
    bool ok = core_run(core, src, opt, stats, err);
    *out = *stacks_observer_result(obs);
    stacks_observer_destroy(obs);
    core_destroy(core);
    return ok;
}

void stacks_ideal_config(uarch_config *cfg, ideal_kind k) {
    switch (k) {
    case IDEAL_ICACHE: cfg->perfect_icache = true; break;
    case IDEAL_DCACHE: cfg->perfect_dcache = true; break;
    case IDEAL_BPRED: cfg->perfect_bpred = true; break;
    case IDEAL_ALU: cfg->ideal_alu = true; break;
    case IDEAL_DCACHE_ALU: cfg->perfect_dcache = cfg->ideal_alu = true; break;
    case IDEAL_BPRED_DCACHE: cfg->perfect_bpred = cfg->perfect_dcache = true; break;
    default: break;
    }
}

double stacks_ideal_component(const cpi_stack *s, ideal_kind k) {
    const double *c = s->cycles;
    double icache = c[COMP_ICACHE_L2] + c[COMP_ICACHE_L3] + c[COMP_ICACHE_MEM];
    double dcache = c[COMP_DCACHE_L2] + c[COMP_DCACHE_L3] + c[COMP_DCACHE_MEM];
    double alu = c[COMP_LONGLAT_INT] + c[COMP_LONGLAT_FP];
    switch (k) {
    case IDEAL_ICACHE: return icache;
    case IDEAL_DCACHE: return dcache;
    case IDEAL_BPRED: return c[COMP_BPRED];
    case IDEAL_ALU: return alu;
    case IDEAL_DCACHE_ALU: return dcache + alu;
    case IDEAL_BPRED_DCACHE: return c[COMP_BPRED] + dcache;
    default: return 0;
    }
}

/* §V-A: a component matters when it is at least 10% of CPI in some stack. */
#define RELEVANT_SHARE    0.10
/* A pair's reduction equal to the sum of its singles within this share of the
 * baseline CPI shows neither hidden stalls nor overlap. */
#define INTERACTION_SHARE 0.005

void validation_evaluate(validation_result *v, const stacks_result *base, const double ideal_cpi[IDEAL_COUNT]) {
    double insns = base->instructions ? (double)base->instructions : 1;
    v->base_cpi = (double)base->cycles / insns;
    v->base = *base;
    for (int k = 0; k < IDEAL_COUNT; k++) {
        validation_case *c = &v->cases[k];
        memset(c, 0, sizeof *c);
        c->kind = (ideal_kind)k;
        c->cpi = ideal_cpi[k];
        c->reduction = v->base_cpi - c->cpi;
        for (int s = 0; s < STACK_STAGES; s++) {
            c->predicted[s] = stacks_ideal_component(&base->stage[s], (ideal_kind)k) / insns;
            if (s == 0 || c->predicted[s] < c->lo) c->lo = c->predicted[s];
            if (s == 0 || c->predicted[s] > c->hi) c->hi = c->predicted[s];
        }
        c->within = c->lo <= c->reduction && c->reduction <= c->hi;
        if (!c->within) { /* the distance to the closest of the three stacks */
            c->error = c->reduction < c->lo ? c->lo - c->reduction : c->reduction - c->hi;
        }
        c->relevant = c->hi >= RELEVANT_SHARE * v->base_cpi;
    }
    static const ideal_kind pairs[][3] = {{IDEAL_DCACHE_ALU, IDEAL_DCACHE, IDEAL_ALU},
                                          {IDEAL_BPRED_DCACHE, IDEAL_BPRED, IDEAL_DCACHE}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        validation_case *c = &v->cases[pairs[i][0]];
        c->sum_of_singles = v->cases[pairs[i][1]].reduction + v->cases[pairs[i][2]].reduction;
        double d = c->reduction - c->sum_of_singles, eps = INTERACTION_SHARE * v->base_cpi;
        c->interaction = d > eps ? 1 : d < -eps ? -1 : 0;
    }
}

/* ---- the parallel driver ---- */

enum { RUNS = 1 + IDEAL_COUNT }; /* run 0 is the baseline, run 1 + k idealisation k */

typedef struct run_msg {
    bool ok;
    cs_error err;
    core_stats stats;
    stacks_result stacks;
} run_msg;

static bool write_all(int fd, const void *buf, size_t n) {
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* A fresh unnamed temporary file, or -1. */
static int temp_fd(void) {
    FILE *f = tmpfile();
    if (!f) return -1;
    int fd = dup(fileno(f));
    fclose(f);
    return fd;
}

/* In the child: time machine `run`, send the result, exit. out/err: the
 * baseline's capture files (-1 for the others: they make their own). */
static void __attribute__((noreturn)) child_run(const validation_options *opt, int run, int fd, int out, int err) {
    int in = open("/dev/null", O_RDONLY);
    if (in >= 0) dup2(in, STDIN_FILENO);
    if (out < 0) out = temp_fd();
    if (err < 0) err = temp_fd();
    if (out >= 0) dup2(out, STDOUT_FILENO);
    if (err >= 0) dup2(err, STDERR_FILENO);
    static run_msg m; /* static: a child's only message, kept off the stack */
    memset(&m, 0, sizeof m);
    uarch_config cfg = opt->cfg;
    if (run) stacks_ideal_config(&cfg, (ideal_kind)(run - 1));
    core_run_options ro = opt->run;
    ro.progress_label = NULL;
    uop_source *src = opt->source.open(opt->source.ctx, &m.err);
    if (src) {
        m.ok = stacks_run(&cfg, src, &ro, &m.stacks, &m.stats, &m.err);
        cs_error cerr;
        if (!opt->source.close(opt->source.ctx, src, &cerr) && m.ok) {
            m.ok = false;
            m.err = cerr;
        }
    }
    bool sent = write_all(fd, &m, sizeof m);
    _exit(sent ? 0 : 1);
}

typedef struct child {
    pid_t pid;
    int fd;
    int run;
    size_t got;
} child;

static int online_cpus(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static const char *run_name(int run) { return run ? ideal_kind_name((ideal_kind)(run - 1)) : "baseline"; }

/* Copy what the baseline's program wrote (captured in `from`) to `to`. */
static void replay(int from, FILE *to) {
    if (from < 0) return;
    fflush(to);
    char buf[8192];
    ssize_t n;
    if (lseek(from, 0, SEEK_SET) == 0)
        while ((n = read(from, buf, sizeof buf)) > 0)
            if (!write_all(fileno(to), buf, (size_t)n)) break;
    close(from);
}

bool stacks_validate(const validation_options *opt, validation_result *out, core_stats *base_stats,
                     stacks_result *ideal, cs_error *err) {
    run_msg *msg = cs_calloc(RUNS, sizeof *msg);
    int jobs = opt->jobs > 0 ? opt->jobs : online_cpus();
    if (jobs > RUNS) jobs = RUNS;
    child kids[RUNS];
    int running = 0, next = 0, done = 0;
    bool ok = true;
    fflush(NULL); /* nothing buffered may be written twice by the children */
    int base_out = temp_fd(), base_err = temp_fd();
    while (ok && done < RUNS) {
        while (ok && next < RUNS && running < jobs) {
            int p[2];
            if (pipe(p) != 0) {
                cs_error_set(err, "validation: pipe: %s", strerror(errno));
                ok = false;
                break;
            }
            pid_t pid = fork();
            if (pid < 0) {
                cs_error_set(err, "validation: fork: %s", strerror(errno));
                close(p[0]);
                close(p[1]);
                ok = false;
                break;
            }
            if (pid == 0) {
                close(p[0]);
                for (int i = 0; i < running; i++) close(kids[i].fd);
                child_run(opt, next, p[1], next == 0 ? base_out : -1, next == 0 ? base_err : -1);
            }
            close(p[1]);
            kids[running++] = (child){pid, p[0], next, 0};
            next++;
        }
        if (!ok || !running) break;
        struct pollfd pfd[RUNS];
        for (int i = 0; i < running; i++) pfd[i] = (struct pollfd){kids[i].fd, POLLIN, 0};
        if (poll(pfd, (nfds_t)running, -1) < 0) {
            if (errno == EINTR) continue;
            cs_error_set(err, "validation: poll: %s", strerror(errno));
            ok = false;
            break;
        }
        for (int i = 0; i < running && ok; i++) {
            if (!pfd[i].revents) continue;
            child *c = &kids[i];
            ssize_t r = read(c->fd, (char *)&msg[c->run] + c->got, sizeof msg[0] - c->got);
            if (r < 0 && errno == EINTR) continue;
            if (r > 0) {
                c->got += (size_t)r;
                continue;
            }
            /* end of file: the run is over */
            close(c->fd);
            int status = 0;
            while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {
            }
            if (c->got != sizeof msg[0]) {
                if (WIFSIGNALED(status))
                    cs_error_set(err, "validation: the %s run died with signal %d", run_name(c->run), WTERMSIG(status));
                else cs_error_set(err, "validation: the %s run ended without a result", run_name(c->run));
                ok = false;
            } else if (!msg[c->run].ok) {
                *err = msg[c->run].err;
                cs_error_prefix(err, "validation (%s machine)", run_name(c->run));
                ok = false;
            }
            kids[i] = kids[--running];
            pfd[i] = pfd[running];
            i--;
            done++;
        }
    }
    /* on failure: stop and collect the runs still going (our own children only) */
    for (int i = 0; i < running; i++) {
        kill(kids[i].pid, SIGTERM);
        close(kids[i].fd);
        while (waitpid(kids[i].pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    if (opt->show_output) {
        replay(base_out, stdout);
        replay(base_err, stderr);
    } else {
        if (base_out >= 0) close(base_out);
        if (base_err >= 0) close(base_err);
    }
    if (!ok) {
        free(msg);
        return false;
    }

    const stacks_result *base = &msg[0].stacks;
    double cpi[IDEAL_COUNT];
    for (int k = 0; k < IDEAL_COUNT; k++) {
        const stacks_result *s = &msg[1 + k].stacks;
        if (s->instructions != base->instructions) {
            cs_error_set(err,
                         "validation: the %s machine timed %llu instructions, the baseline %llu; the runs must time "
                         "the same instructions (a deterministic program, no --host-time)",
                         run_name(1 + k), (unsigned long long)s->instructions, (unsigned long long)base->instructions);
            free(msg);
            return false;
        }
        cpi[k] = s->instructions ? (double)s->cycles / (double)s->instructions : 0;
        if (ideal) ideal[k] = *s;
    }
    char program[sizeof out->program];
    memcpy(program, out->program, sizeof program);
    memset(out, 0, sizeof *out);
    memcpy(out->program, program, sizeof program);
    snprintf(out->config, sizeof out->config, "%s", opt->cfg.name);
    validation_evaluate(out, base, cpi);
    if (base_stats) *base_stats = msg[0].stats;
    free(msg);
    return true;
}
