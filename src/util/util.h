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
/* count * size zeroed bytes at an address that is a multiple of `align` (a power of two
 * and a multiple of sizeof(void *)), for arrays whose elements must not straddle cache
 * lines; free() releases them. */
void *cs_aligned_calloc(size_t align, size_t count, size_t size);
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
    double interval; /* seconds between two draws: 0.1, or CYCLESCOPE_PROGRESS_INTERVAL */
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

/* Levenshtein distance (for "did you mean"); strings of 127 bytes or more: 1000. */
size_t cs_edit_distance(const char *a, const char *b);

/* The SHA-256 of a file as its 32 bytes (CS_SHA256_BYTES), and its size. */
enum { CS_SHA256_BYTES = 32 };
bool cs_sha256_file_digest(const char *path, uint8_t digest[CS_SHA256_BYTES], uint64_t *bytes, cs_error *err);
/* The SHA-256 of the `n` bytes of the open file `fd` from `offset` (pread: its offset stays).
 * False when it holds fewer (*got: how many it held, up to n) or cannot be read. */
bool cs_sha256_fd_range(int fd, uint64_t offset, uint64_t n, uint8_t digest[CS_SHA256_BYTES], uint64_t *got);
/* `n` bytes as 2n lower-case hex digits and a terminating NUL (hex: 2n + 1 bytes), the one
 * formatter of every digest the tool prints. */
void cs_hex_encode(const uint8_t *data, size_t n, char *hex);
/* The SHA-256 of a file as 64 hex digits (cs_sha256_file_digest, cs_hex_encode), and its size. */
bool cs_sha256_file(const char *path, char hex[65], uint64_t *bytes, cs_error *err);
/* The SHA-256 of `n` bytes as 64 hex digits. */
void cs_sha256_hex(const void *data, size_t n, char hex[65]);

/* The git commit the tool was built from: 40 hex digits, "-dirty" after them
 * when the tree had uncommitted changes, "unknown" when built outside git
 * (generated at each build by scripts/build_commit.cmake). */
extern const char cs_build_commit[];

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

/* A --grid axis "KEY=A..B" (whatif, sweep and model solve read ranges alike): A and B decimal
 * digits within uint32_t, A <= B, at most max_values values. axis is len characters (the
 * axis need not end in a NUL). Returns 0 when the value has no "..": a list, the caller's;
 * 1 with the range in *lo, *hi; -1 for a malformed range ("1..", "8..1", "1..8..2"), *err
 * naming the axis. */
int cs_grid_range(const char *axis, size_t len, unsigned max_values, uint32_t *lo, uint32_t *hi, cs_error *err);
/* A decimal number in a grid: digits only (strtoul would take " 3", "+3", "-1" and "" as
 * numbers) and within uint32_t (4294967297 was read as 1). *end is past its digits. */
bool cs_grid_number(const char *p, const char **end, uint32_t *v);

/* ---- files (files.c) ---- */

/* Open `rel` relative to the directory root_fd so that the path, every
 * symbolic link on the way included, resolves beneath root_fd, in one step:
 * openat2 with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS, or where the kernel has
 * no openat2 (ENOSYS) a component-by-component walk with O_NOFOLLOW directory
 * fds that follows no symbolic link at all. force_walk takes the fallback
 * (for tests). Returns the fd (close-on-exec) or -errno; -EXDEV when the path
 * would leave root_fd. */
int cs_open_beneath(int root_fd, const char *rel, int flags, unsigned mode, bool force_walk);

/* Inputs: open a file for reading and refuse at once anything but a regular
 * file ("not a regular file", "is a directory"), naming it. After
 * cs_protect_inputs (the CLI calls it once, at start) every input is
 * remembered for the life of the process so that no output can replace it;
 * without it (library users such as tests that write, read back and rewrite
 * one file) nothing is remembered. */
void cs_protect_inputs(void);
int cs_open_input(const char *path, cs_error *err); /* fd or -1 */
/* PATH read was one's own output, to be replaced (a sweep's point file, run again when
 * damaged or failed): no longer protected as an input. */
void cs_input_forget(const char *path);
FILE *cs_fopen_input(const char *path, cs_error *err);
/* The same check on an fd opened otherwise. */
bool cs_check_input_fd(int fd, const char *path, cs_error *err);

/* Outputs: every writer goes through these. The data goes to a temporary file
 * in the target's directory, renamed over the target by cs_output_commit only
 * when everything was written, so a failed or interrupted run never leaves a
 * truncated output nor destroys an earlier one. An output that is the same
 * file (device and inode) as an input of this process is refused. A target
 * that is not a regular file (/dev/null) is written in place. Callers that
 * take "-" for stdout handle it before. */
typedef struct cs_output {
    FILE *f;
    char *path, *tmp;
} cs_output;
FILE *cs_output_open(cs_output *o, const char *path, cs_error *err); /* NULL on error */
/* true (with *err naming it) when PATH is one of the inputs read so far (same device and inode) */
bool cs_output_is_input(const char *path, cs_error *err);
bool cs_output_commit(cs_output *o, cs_error *err); /* flush, close, rename */
void cs_output_discard(cs_output *o);               /* close and remove the temporary */
/* A whole buffer to an output, through cs_output. */
bool cs_write_file(const char *path, const void *data, size_t size, cs_error *err);

#endif
