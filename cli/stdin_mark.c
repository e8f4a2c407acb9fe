/* What a program read of its stdin, recorded when it is analysed (`model analyze`, `rpstacks`)
 * and checked before it is run again to be timed (`model solve --compare-sim`, `whatif
 * --verify`): a re-run given another input times another stream. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

cli_stdin_mark cli_stdin_mark_take(void) {
    struct stat st;
    cli_stdin_mark m = {false, 0};
    if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode)) {
        m.start = lseek(STDIN_FILENO, 0, SEEK_CUR);
        m.file = m.start >= 0;
    }
    return m;
}

bool cli_stdin_mark_read(const cli_stdin_mark *m, uint64_t *bytes, uint8_t sha256[CS_SHA256_BYTES]) {
    off_t end = m->file ? lseek(STDIN_FILENO, 0, SEEK_CUR) : -1;
    *bytes = 0;
    memset(sha256, 0, CS_SHA256_BYTES);
    if (!m->file || end < m->start) return false;
    uint64_t n = (uint64_t)(end - m->start);
    if (!cs_sha256_fd_range(STDIN_FILENO, (uint64_t)m->start, n, sha256, NULL)) {
        memset(sha256, 0, CS_SHA256_BYTES);
        return false;
    }
    *bytes = n;
    return true;
}

bool cli_stdin_check(const char *what, uint64_t bytes, const uint8_t sha256[CS_SHA256_BYTES]) {
    if (bytes == 0) return true; /* it read nothing */
    struct stat st;
    off_t at = -1;
    if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode)) at = lseek(STDIN_FILENO, 0, SEEK_CUR);
    char hex[2 * CS_SHA256_BYTES + 1];
    cs_hex_encode(sha256, CS_SHA256_BYTES, hex);
    if (at < 0) {
        cli_fail("%s: the analysed program read %llu bytes of its stdin (SHA-256 %.16s…) and this stdin is no "
                 "file: give it the same input (< FILE)",
                 what, (unsigned long long)bytes, hex);
        return false;
    }
    uint8_t now[CS_SHA256_BYTES];
    uint64_t got = 0;
    if (!cs_sha256_fd_range(STDIN_FILENO, (uint64_t)at, bytes, now, &got) || memcmp(now, sha256, sizeof now) != 0) {
        cli_fail("%s: stdin is not the input the analysed program read (its %llu bytes, SHA-256 %.16s…; here %s): "
                 "give it the same input (< FILE)",
                 what, (unsigned long long)bytes, hex, got < bytes ? "fewer bytes" : "other bytes");
        return false;
    }
    return true;
}
