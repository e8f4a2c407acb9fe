/* Fuzz target: the simpoint.json manifest reader. An input is refused with a
 * message or gives a consistent set: points sorted by start, inside the run,
 * weights summing to 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <cjson/cJSON.h>

#include "sampling/sampling.h"

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
    simpoint_set *s = simpoint_parse_manifest((const char *)data, size, "fuzz.json", &err);
    if (!s) {
        if (!err.msg[0]) abort();
        return;
    }
    double w = 0;
    for (size_t i = 0; i < s->count; i++) {
        const simpoint_point *p = &s->points[i];
        if (i && p->start <= s->points[i - 1].start) abort();
        if (p->start + p->length > s->instructions || p->interval >= s->interval_count) abort();
        w += p->weight;
    }
    if (s->count == 0 || w < 0.999999 || w > 1.000001 || s->id.argc < 1) abort();
    simpoint_set_free(s);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    one(data, size);
    char *fixed = with_checksum(data, size);
    if (fixed) one((const unsigned char *)fixed, strlen(fixed));
    free(fixed);
    return 0;
}
