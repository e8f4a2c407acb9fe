/* SHA-256 of a file or a buffer: the identity of a run's program or trace in its JSON
 * (docs/json-schema.md). The hash itself is nettle's (Debian's nettle-dev);
 * checked against sha256sum by tests/scripts/json_schema.sh. */
#include <errno.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

static void digest_hex(struct sha256_ctx *ctx, char hex[65]) {
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(ctx, sizeof digest, digest);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++) snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

void cs_sha256_hex(const void *data, size_t n, char hex[65]) {
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    sha256_update(&ctx, n, data);
    digest_hex(&ctx, hex);
}

bool cs_sha256_file(const char *path, char hex[65], uint64_t *bytes, cs_error *err) {
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
    digest_hex(&ctx, hex);
    if (bytes) *bytes = total;
    return true;
}
