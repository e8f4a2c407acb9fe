#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void cs_error_set(cs_error *err, const char *fmt, ...) {
    if (!err) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

void cs_error_prefix(cs_error *err, const char *fmt, ...) {
    if (!err) return;
    char prefix[256], old[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    size_t n = strlen(prefix);
    if (n > sizeof err->msg - 3) n = sizeof err->msg - 3;
    memcpy(err->msg, prefix, n);
    memcpy(err->msg + n, ": ", 2);
    size_t room = sizeof err->msg - n - 3;
    size_t m = strnlen(old, room);
    memcpy(err->msg + n + 2, old, m);
    err->msg[n + 2 + m] = 0;
}

double cs_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile sig_atomic_t stop_flag;
void cs_stop_request(void) { stop_flag = 1; }
bool cs_stop_requested(void) { return stop_flag != 0; }
void cs_stop_clear(void) { stop_flag = 0; }

/* The bar on the terminal now, and the expected length of the next run: the
 * terminal is one per process, so these are too. */
static cs_progress *progress_active;
static uint64_t progress_expected;

void progress_expect(uint64_t total) { progress_expected = total; }

void progress_start(cs_progress *p, const char *label, uint64_t total) {
    memset(p, 0, sizeof *p);
    p->label = label;
    p->total = total ? total : progress_expected;
    p->enabled = isatty(STDERR_FILENO) && !getenv("CYCLESCOPE_NO_PROGRESS");
    p->start = p->last_draw = cs_now();
    p->next_check = 1 << 16;
    /* CYCLESCOPE_PROGRESS_INTERVAL=0 draws at every look at the clock: the tests see a bar
     * however fast the machine finishes the run */
    const char *interval = getenv("CYCLESCOPE_PROGRESS_INTERVAL");
    char *end = NULL;
    p->interval = interval ? strtod(interval, &end) : 0.1;
    if (!interval || end == interval || *end || !(p->interval >= 0) || p->interval > 3600) p->interval = 0.1;
    if (p->enabled) progress_active = p;
}

void progress_interrupt(void) {
    cs_progress *p = progress_active;
    if (!p || !p->drawn) return;
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
    p->drawn = false;
}

/* "1.2 M", "45 k": counts on the bar. */
static void fmt_count(char *buf, size_t size, double x) {
    if (x >= 1e9) snprintf(buf, size, "%.2f G", x / 1e9);
    else if (x >= 1e6) snprintf(buf, size, "%.1f M", x / 1e6);
    else snprintf(buf, size, "%.0f k", x / 1e3);
}

void progress_draw(cs_progress *p, uint64_t done) {
    double now = cs_now();
    /* Look at the clock roughly every 50 ms worth of work. */
    double rate = done / (now - p->start + 1e-9);
    p->next_check = done + (uint64_t)(rate * 0.05) + 1024;
    if (now - p->last_draw < p->interval) return;
    p->last_draw = now;
    p->drawn = true;
    char d[32], ipc[32] = "";
    fmt_count(d, sizeof d, (double)done);
    if (p->cycles && *p->cycles) snprintf(ipc, sizeof ipc, "  IPC %.2f", (double)done / (double)*p->cycles);
    if (p->total) {
        double frac = (double)done / (double)p->total;
        if (frac > 1) frac = 1;
        int filled = (int)(frac * 30);
        char bar[31], t[32], eta[32] = "";
        for (int i = 0; i < 30; i++) bar[i] = i < filled ? '#' : '.';
        bar[30] = 0;
        fmt_count(t, sizeof t, (double)p->total);
        if (rate > 0 && done < p->total) {
            double left = (double)(p->total - done) / rate;
            if (left < 3600) snprintf(eta, sizeof eta, "  ETA %d:%02d", (int)left / 60, (int)left % 60);
            else snprintf(eta, sizeof eta, "  ETA %dh%02d", (int)(left / 3600), (int)left / 60 % 60);
        }
        fprintf(stderr, "\r\033[K%s [%s] %5.1f%% %s of %s instructions, %.1f M/s%s%s ", p->label, bar, frac * 100, d, t,
                rate / 1e6, ipc, eta);
    } else {
        fprintf(stderr, "\r\033[K%s %s instructions, %.1f M/s%s ", p->label, d, rate / 1e6, ipc);
    }
    fflush(stderr);
}

void progress_finish(cs_progress *p) {
    if (p->drawn) fprintf(stderr, "\r\033[K");
    p->drawn = false;
    p->enabled = false;
    if (progress_active == p) progress_active = NULL;
    progress_expected = 0;
}

static _Noreturn void out_of_memory(size_t size) {
    fprintf(stderr, "cyclescope: out of memory (%zu bytes)\n", size);
    fflush(stderr);
    _exit(125); /* EXIT_RUN_FAILED; no atexit handlers: they might allocate */
}

void *cs_malloc(size_t size) {
    void *p = malloc(size ? size : 1);
    if (!p) out_of_memory(size);
    return p;
}

void *cs_calloc(size_t count, size_t size) {
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) out_of_memory(cs_array_size(count, size));
    return p;
}

void *cs_aligned_calloc(size_t align, size_t count, size_t size) {
    size_t bytes = cs_array_size(count ? count : 1, size ? size : 1);
    void *p = NULL;
    if (posix_memalign(&p, align, bytes) != 0) out_of_memory(bytes);
    memset(p, 0, bytes);
    return p;
}

void *cs_realloc(void *ptr, size_t size) {
    void *p = realloc(ptr, size ? size : 1);
    if (!p) out_of_memory(size);
    return p;
}

char *cs_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *p = cs_malloc(n);
    memcpy(p, s, n);
    return p;
}

size_t cs_array_size(size_t count, size_t size) {
    size_t n;
    if (__builtin_mul_overflow(count, size, &n)) out_of_memory(SIZE_MAX);
    return n;
}

bool cs_read_file(const char *path, uint8_t **data, size_t *size, cs_error *err) {
    FILE *f = cs_fopen_input(path, err); /* a regular file, or an error naming it */
    if (!f) return false;
    /* Read whole, a file larger than half the machine's memory (a huge sparse file given by
     * mistake) would take the machine's memory, or hours, before failing: refused at once. */
    struct stat st;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t limit = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page / 2 : UINT64_MAX;
    if (fstat(fileno(f), &st) == 0 && (uint64_t)st.st_size > limit) {
        fclose(f);
        cs_error_set(err, "%s: %llu bytes, more than half this machine's memory (%llu MB): not read", path,
                     (unsigned long long)st.st_size, (unsigned long long)(limit >> 20));
        return false;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = cs_malloc(cap);
    for (;;) {
        if (len == cap) buf = cs_realloc(buf, cap *= 2);
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        cs_error_set(err, "%s: read error", path);
        return false;
    }
    *data = buf;
    *size = len;
    return true;
}

bool cs_parse_count(const char *text, uint64_t *out) {
    if (!text || !*text || *text == '-') return false;
    errno = 0;
    char *end;
    /* whole digits are read exactly: a double rounds past 2^53 (--seed 9007199254740993 became …992) */
    if (strspn(text, "0123456789") == strlen(text)) {
        unsigned long long n = strtoull(text, &end, 10);
        if (errno) return false;
        *out = n;
        return true;
    }
    /* decimal only, as users write counts ("2.5M", "1e6"): strtod alone also took "0x10", " 5",
       "inf" and "nan" */
    if (!isdigit((unsigned char)text[0]) && text[0] != '.') return false;
    if (strspn(text, "0123456789.eE+-") < strcspn(text, "kKMG")) return false;
    double v = strtod(text, &end);
    if (errno || end == text || !(v >= 0)) return false;
    uint64_t mult = 1;
    if (*end == 'k' || *end == 'K') mult = 1000, end++;
    else if (*end == 'M') mult = 1000000, end++;
    else if (*end == 'G') mult = 1000000000, end++;
    if (*end) return false;
    v *= (double)mult;
    if (v > 1.8e19) return false;
    *out = (uint64_t)v;
    return (double)*out == v;
}

size_t cs_edit_distance(const char *a, const char *b) {
    size_t n = strlen(b), row[128];
    if (n >= 128) return 1000;
    for (size_t j = 0; j <= n; j++) row[j] = j;
    for (size_t i = 1; a[i - 1]; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= n; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[n];
}

bool cs_grid_number(const char *p, const char **end, uint32_t *v) {
    if (*p < '0' || *p > '9') return false;
    uint64_t n = 0;
    while (*p >= '0' && *p <= '9') {
        n = n * 10 + (uint64_t)(*p++ - '0');
        if (n > UINT32_MAX) return false;
    }
    *end = p;
    *v = (uint32_t)n;
    return true;
}

int cs_grid_range(const char *axis, size_t len, unsigned max_values, uint32_t *lo, uint32_t *hi, cs_error *err) {
    const char *eq = memchr(axis, '=', len);
    const char *v = eq ? eq + 1 : axis, *stop = axis + len;
    const char *dots = NULL;
    for (const char *p = v; p + 1 < stop && !dots; p++)
        if (p[0] == '.' && p[1] == '.') dots = p;
    if (!dots) return 0;
    /* the digits are read from a copy: the axis may go on past len (the next axis) */
    char buf[64];
    size_t n = (size_t)(stop - v);
    const char *end;
    uint32_t a, b;
    if (n < sizeof buf) {
        memcpy(buf, v, n);
        buf[n] = 0;
        const char *d = buf + (dots - v);
        if (cs_grid_number(buf, &end, &a) && end == d && cs_grid_number(d + 2, &end, &b) && !*end && a <= b &&
            (uint64_t)b - a < max_values) {
            *lo = a;
            *hi = b;
            return 1;
        }
    }
    cs_error_set(err, "--grid %.*s: expected A..B with A <= B (at most %u values)", (int)len, axis, max_values);
    return -1;
}
