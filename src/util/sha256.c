/* SHA-256 of a file or a buffer: the identity of a run's program or trace in its JSON
 * (docs/json-schema.md). The hash itself is nettle's (Debian's nettle-dev);
 * checked against sha256sum by tests/scripts/json_schema.sh. */
#include <errno.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

_Static_assert(CS_SHA256_BYTES == SHA256_DIGEST_SIZE, "a SHA-256 digest is 32 bytes");

void cs_hex_encode(const uint8_t *data, size_t n, char *hex) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        hex[2 * i] = digits[data[i] >> 4];
        hex[2 * i + 1] = digits[data[i] & 15];
    }
    hex[2 * n] = '\0';
}

void cs_sha256_hex(const void *data, size_t n, char hex[65]) {
    struct sha256_ctx ctx;
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_init(&ctx);
    sha256_update(&ctx, n, data);
    sha256_digest(&ctx, sizeof digest, digest);
    cs_hex_encode(digest, sizeof digest, hex);
}

bool cs_sha256_file(const char *path, char hex[65], uint64_t *bytes, cs_error *err) {
    uint8_t digest[CS_SHA256_BYTES];
    if (!cs_sha256_file_digest(path, digest, bytes, err)) return false;
    cs_hex_encode(digest, sizeof digest, hex);
    return true;
}

bool cs_sha256_file_digest(const char *path, uint8_t digest[CS_SHA256_BYTES], uint64_t *bytes, cs_error *err) {
    FILE *f = cs_fopen_input(path, err); /* a regular file, never a device or FIFO */
    if (!f) return false;
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    uint8_t buf[64 * 1024];
    uint64_t total = 0;
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        sha256_update(&ctx, n, buf);
        total += n;
    }
    bool ok = !ferror(f);
    fclose(f);
    if (!ok) {
        cs_error_set(err, "%s: cannot read", path);
        return false;
    }
    sha256_digest(&ctx, CS_SHA256_BYTES, digest);
    if (bytes) *bytes = total;
    return true;
}

bool cs_sha256_fd_range(int fd, uint64_t offset, uint64_t n, uint8_t digest[CS_SHA256_BYTES], uint64_t *got) {
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    uint8_t buf[64 * 1024];
    uint64_t done = 0;
    while (done < n) {
        size_t want = n - done < sizeof buf ? (size_t)(n - done) : sizeof buf;
        ssize_t r = pread(fd, buf, want, (off_t)(offset + done));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break; /* the end of the file, or an error: fewer than n */
        sha256_update(&ctx, (size_t)r, buf);
        done += (uint64_t)r;
    }
    if (got) *got = done;
    sha256_digest(&ctx, CS_SHA256_BYTES, digest);
    return done == n;
}
