/* Runs a libFuzzer target over files and directories of inputs, without
 * libFuzzer: the corpus seeds become a regression test in every build. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/util.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int replay_file(const char *path) {
    uint8_t *data;
    size_t size;
    cs_error err;
    if (!cs_read_file(path, &data, &size, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

int main(int argc, char **argv) {
    int files = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "%s: no such file or directory\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            bad += replay_file(argv[i]);
            files++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *ent;
        while ((d && (ent = readdir(d)))) {
            if (ent->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], ent->d_name);
            bad += replay_file(path);
            files++;
        }
        if (d) closedir(d);
    }
    printf("replayed %d inputs\n", files);
    return bad || files == 0;
}
