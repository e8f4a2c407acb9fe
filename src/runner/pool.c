/* Many runs in parallel, each in its own process (the validation's machines,
 * sweeps, ground truth).
 *
 * Notes:
 *  - Each job runs in its own process (fork), with its own µop source
 *    (emulator or trace reader) and core; its results come back through a
 *    pipe. Processes rather than threads because the guest program writes to
 *    the real stdout, and a descriptor table is per process: every job's
 *    stdout and stderr go to a temporary file of its own, write-only as a
 *    shell's `> FILE` is (copied out at the end
 *    for the jobs that ask; the others are discarded) and its stdin is the
 *    caller's when that is a regular file (each job reading it from the caller's
 *    offset), /dev/null otherwise. The same kind of file for every job matters: glibc's stdio asks
 *    what stdout is (a terminal? a device?) and a different answer changes the
 *    instruction count by a few dozen. Processes also keep any state in the
 *    emulator private to its run.
 *  - The message a job sends: a header (ok, error, statistics, the number of
 *    analyses), then per analysis its result bytes and its JSON text, each
 *    with its length. A job that dies or sends a short message is a failed
 *    job; the others go on.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner.h"

typedef struct msg_header {
    uint64_t magic;
    bool ok;
    cs_error err;
    core_stats stats;
    int32_t guest_status;
    int32_t count;
} msg_header;

typedef struct msg_part {
    uint64_t result_size, json_size;
} msg_part;

enum { MSG_MAGIC = 0x72756e6e65720a01ull };

/* ---- byte buffers ---- */

typedef struct bytes {
    char *p;
    size_t len, cap;
} bytes;

static void put(bytes *b, const void *data, size_t n) {
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 4096;
        while (cap < b->len + n) cap *= 2;
        b->p = cs_realloc(b->p, cap);
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, data, n);
    b->len += n;
}

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

/* A fresh unnamed temporary file, write-only, or -1: a shell's `> FILE` and `| cmd` give the
 * program a write-only stdout, and the guest can tell (fcntl F_GETFL: glibc's fdopen
 * branches on it), so a job on tmpfile()'s read-write one ran other instructions than
 * `run > FILE` (whatif --verify refused brotli's baseline). tmpfile() where the directory
 * has no O_TMPFILE. */
static int temp_fd(void) {
    int fd = open(P_tmpdir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
    FILE *f = tmpfile();
    if (!f) return -1;
    fd = dup(fileno(f));
    fclose(f);
    return fd;
}

/* A descriptor that reads the temporary file `fd` (write-only) from its start, to copy a
 * job's output out; -1 if none. */
static int temp_reader(int fd) {
    if (fd < 0) return -1;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    return open(path, O_RDONLY | O_CLOEXEC);
}

/* ---- the child ---- */

static void __attribute__((noreturn)) child_run(const run_job *job, int fd, int out, int err) {
    /* stdin: the caller's when it is a file (`< FILE`), opened anew at its offset so the
     * jobs read it side by side, each from where the caller stood; /dev/null otherwise
     * (a terminal, a pipe: one job would take what another should read) */
    int in = -1;
    struct stat st;
    if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode)) {
        off_t at = lseek(STDIN_FILENO, 0, SEEK_CUR);
        in = at < 0 ? -1 : open("/proc/self/fd/0", O_RDONLY);
        if (in >= 0 && lseek(in, at, SEEK_SET) != at) close(in), in = -1;
    }
    if (in < 0) in = open("/dev/null", O_RDONLY);
    if (in >= 0) dup2(in, STDIN_FILENO);
    if (out < 0) out = temp_fd();
    if (err < 0) err = temp_fd();
    if (out >= 0) dup2(out, STDOUT_FILENO);
    if (err >= 0) dup2(err, STDERR_FILENO);
    msg_header h;
    memset(&h, 0, sizeof h);
    h.magic = MSG_MAGIC;
    run_result r;
    memset(&r, 0, sizeof r);
    bool have = false;
    uop_source *src = job->source.open(job->source.ctx, &h.err);
    if (src) {
        run_spec spec = {&job->cfg, job->opt, job->analyses, job->program};
        spec.opt.progress_label = NULL;
        if (runner_run_origin(&spec, &job->origin, src, &r, &h.err)) {
            have = true;
            h.ok = r.ok;
            h.stats = r.stats;
            if (!r.ok) h.err = r.err;
        }
        if (job->source.guest_status) h.guest_status = job->source.guest_status(job->source.ctx);
        cs_error cerr;
        if (!job->source.close(job->source.ctx, src, &cerr) && h.ok) {
            h.ok = false;
            h.err = cerr;
        }
    }
    bytes b = {0};
    h.count = have ? r.count : 0;
    put(&b, &h, sizeof h);
    for (int i = 0; i < h.count; i++) {
        const analysis_ops *ops = r.ops[i];
        char *json = NULL;
        if (ops->json) {
            cJSON *j = ops->json(r.self[i]);
            if (j) json = cJSON_PrintUnformatted(j);
            cJSON_Delete(j);
        }
        msg_part part = {ops->result_size && ops->result ? ops->result_size : 0, json ? strlen(json) : 0};
        put(&b, &part, sizeof part);
        if (part.result_size) put(&b, ops->result(r.self[i]), part.result_size);
        if (part.json_size) put(&b, json, part.json_size);
        free(json);
    }
    bool sent = write_all(fd, b.p, b.len);
    fflush(NULL);
    _exit(sent ? 0 : 1);
}

/* ---- the parent ---- */

typedef struct child {
    pid_t pid;
    int fd;
    int job;
    bytes got;
} child;

static int online_cpus(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* Turn a job's message into its result. */
static void decode(const run_job *job, const bytes *m, int status, job_result *res) {
    memset(res, 0, sizeof *res);
    msg_header h;
    if (m->len < sizeof h) {
        if (WIFSIGNALED(status))
            cs_error_set(&res->err, "%s: the run died with signal %d", job->name, WTERMSIG(status));
        else cs_error_set(&res->err, "%s: the run ended without a result", job->name);
        return;
    }
    memcpy(&h, m->p, sizeof h);
    if (h.magic != MSG_MAGIC || h.count < 0 || h.count > RUN_MAX_ANALYSES) {
        cs_error_set(&res->err, "%s: the run sent a malformed result", job->name);
        return;
    }
    size_t at = sizeof h;
    for (int i = 0; i < h.count; i++) {
        msg_part part;
        if (m->len - at < sizeof part) goto short_message;
        memcpy(&part, m->p + at, sizeof part);
        at += sizeof part;
        if (part.result_size > m->len - at || part.json_size > m->len - at - part.result_size) goto short_message;
        if (part.result_size) {
            res->result[i] = cs_malloc(part.result_size);
            memcpy(res->result[i], m->p + at, part.result_size);
        }
        at += part.result_size;
        if (part.json_size) res->json[i] = cJSON_ParseWithLength(m->p + at, part.json_size);
        at += part.json_size;
    }
    res->count = h.count;
    res->ok = h.ok;
    res->stats = h.stats;
    res->guest_status = h.guest_status;
    res->err = h.err;
    if (!h.ok) cs_error_prefix(&res->err, "%s", job->name);
    return;
short_message:
    job_result_free(res);
    cs_error_set(&res->err, "%s: the run sent a truncated result", job->name);
}

/* Copy what a job's program wrote (captured in `from`) to `to`. */
/* A job's output (its temporary file `written`) copied to `to`. */
static void replay(int written, FILE *to) {
    int from = temp_reader(written);
    if (from < 0) return;
    fflush(to);
    char buf[8192];
    ssize_t n;
    while ((n = read(from, buf, sizeof buf)) > 0)
        if (!write_all(fileno(to), buf, (size_t)n)) break;
    close(from);
}

bool runner_pool(const run_job *jobs, int n, int parallel, job_result *results, cs_error *err) {
    int max = parallel > 0 ? parallel : online_cpus();
    if (max > n) max = n;
    if (max < 1) max = 1;
    child *kids = cs_calloc((size_t)max, sizeof *kids);
    struct pollfd *pfd = cs_calloc((size_t)max, sizeof *pfd);
    int *out = cs_calloc((size_t)(n ? n : 1), sizeof *out), *errf = cs_calloc((size_t)(n ? n : 1), sizeof *errf);
    for (int i = 0; i < n; i++) {
        memset(&results[i], 0, sizeof results[i]);
        out[i] = errf[i] = -1;
        if (jobs[i].show_output) out[i] = temp_fd(), errf[i] = temp_fd();
    }
    int running = 0, next = 0, done = 0;
    bool ok = true;
    fflush(NULL); /* nothing buffered may be written twice by the children */
    while (ok && done < n) {
        while (ok && next < n && running < max) {
            int p[2];
            if (pipe(p) != 0) {
                cs_error_set(err, "runner: pipe: %s", strerror(errno));
                ok = false;
                break;
            }
            pid_t pid = fork();
            if (pid < 0) {
                cs_error_set(err, "runner: fork: %s", strerror(errno));
                close(p[0]);
                close(p[1]);
                ok = false;
                break;
            }
            if (pid == 0) {
                close(p[0]);
                for (int i = 0; i < running; i++) close(kids[i].fd);
                child_run(&jobs[next], p[1], out[next], errf[next]);
            }
            close(p[1]);
            kids[running++] = (child){pid, p[0], next, {0}};
            next++;
        }
        if (!ok || !running) break;
        for (int i = 0; i < running; i++) pfd[i] = (struct pollfd){kids[i].fd, POLLIN, 0};
        if (poll(pfd, (nfds_t)running, -1) < 0) {
            if (errno == EINTR) continue;
            cs_error_set(err, "runner: poll: %s", strerror(errno));
            ok = false;
            break;
        }
        for (int i = 0; i < running; i++) {
            if (!pfd[i].revents) continue;
            child *c = &kids[i];
            char buf[65536];
            ssize_t r = read(c->fd, buf, sizeof buf);
            if (r < 0 && errno == EINTR) continue;
            if (r > 0) {
                put(&c->got, buf, (size_t)r);
                continue;
            }
            /* end of file (or a read error): the job is over */
            close(c->fd);
            int status = 0;
            while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {
            }
            decode(&jobs[c->job], &c->got, status, &results[c->job]);
            free(c->got.p);
            kids[i] = kids[--running];
            pfd[i] = pfd[running];
            i--;
            done++;
        }
    }
    /* the pool itself failed: stop and collect the jobs still going (our own children only) */
    for (int i = 0; i < running; i++) {
        kill(kids[i].pid, SIGTERM);
        close(kids[i].fd);
        while (waitpid(kids[i].pid, NULL, 0) < 0 && errno == EINTR) {
        }
        free(kids[i].got.p);
    }
    for (int i = 0; i < n; i++) {
        if (ok && jobs[i].show_output) {
            replay(out[i], stdout);
            replay(errf[i], stderr);
        }
        if (out[i] >= 0) close(out[i]);
        if (errf[i] >= 0) close(errf[i]);
    }
    if (!ok)
        for (int i = 0; i < n; i++) job_result_free(&results[i]);
    free(kids);
    free(pfd);
    free(out);
    free(errf);
    return ok;
}

void job_result_free(job_result *r) {
    for (int i = 0; i < RUN_MAX_ANALYSES; i++) {
        free(r->result[i]);
        cJSON_Delete(r->json[i]);
        r->result[i] = NULL;
        r->json[i] = NULL;
    }
    r->count = 0;
}
