/* util — errors as values, time, progress bar: what every module shares. */
#ifndef CYCLESCOPE_UTIL_H
#define CYCLESCOPE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* An error travels up as a value; the CLI prints "cyclescope: <msg>" once.
 * The message names the input (file, key, pc) and says what is wrong. */
typedef struct cs_error {
    char msg[512];
} cs_error;

void cs_error_set(cs_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prefix an existing message: "<prefix>: <old message>". */
void cs_error_prefix(cs_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The one allocation policy: these never return NULL. Out of memory is not
 * something a run can recover from, so it ends the process with one line,
 * "cyclescope: out of memory (N bytes)", and exit status 125 — never a crash
 * or a half-written result (outputs are written to a temporary file and
 * renamed). Sizes that come from input are checked against the input first,
 * so a corrupt file is an error value, not an out-of-memory exit. */
void *cs_malloc(size_t size);
void *cs_calloc(size_t count, size_t size);
void *cs_realloc(void *ptr, size_t size);
char *cs_strdup(const char *s);
/* count * size, or exit as out of memory when it overflows. */
size_t cs_array_size(size_t count, size_t size);

/* Monotonic wall-clock seconds. */
double cs_now(void);

/* A progress bar on stderr, drawn only when stderr is a terminal and at most
 * ten times a second; costs one comparison per update otherwise. */
typedef struct cs_progress {
    const char *label;
    uint64_t total;         /* 0 = unknown */
    uint64_t next_check;    /* done-count at which to look at the clock again */
    const uint64_t *cycles; /* optional, set after progress_start: the running IPC is done / *cycles */
    double start, last_draw;
    bool enabled, drawn;
} cs_progress;

/* `total` 0: the total given to progress_expect, if any, else unknown. */
void progress_start(cs_progress *p, const char *label, uint64_t total);
/* The length of the next run when only the caller knows it (a trace's
 * instruction count): the progress bar shows the share done and an ETA. */
void progress_expect(uint64_t total);
/* Erase the bar before something else is written to the terminal (the guest's
 * output); it is drawn again at the next update. */
void progress_interrupt(void);
void progress_draw(cs_progress *p, uint64_t done);
static inline void progress_update(cs_progress *p, uint64_t done) {
    if (p->enabled && done >= p->next_check) progress_draw(p, done);
}
void progress_finish(cs_progress *p);

/* The SHA-256 of a file as 64 hex digits, and its size. */
bool cs_sha256_file(const char *path, char hex[65], uint64_t *bytes, cs_error *err);

/* A request to stop a run early (Ctrl-C): set from a signal handler, read by
 * the timing models where stopping is safe (between batches of µops: the
 * pipeline then drains, so every statistic is of whole instructions). */
void cs_stop_request(void); /* async-signal-safe */
bool cs_stop_requested(void);
void cs_stop_clear(void);

/* Read a whole file into a malloc'ed buffer. */
bool cs_read_file(const char *path, uint8_t **data, size_t *size, cs_error *err);

/* Parse an unsigned integer with an optional K/M/G suffix (powers of 1000:
 * instruction counts) — "10M" = 10000000. */
bool cs_parse_count(const char *text, uint64_t *out);

#endif
