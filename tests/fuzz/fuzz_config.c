/* Fuzz target: the configuration (INI) loader and validator, and the
 * "section.key=value" overrides of --set. Each input is loaded as an .ini file
 * over the defaults; its first line is also applied as an override. A file is
 * either loaded and valid, or refused with a message; a loaded configuration
 * prints to an INI that loads back to the same printout. Nothing may crash,
 * hang or leak. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "uarch/config.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static char *print_config(const uarch_config *c) {
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) abort();
    uarch_config_print(c, f);
    fclose(f);
    return text;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    int fd = memfd_create("fuzz-config.ini", 0);
    if (fd < 0) return 0;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return 0;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    uarch_config c;
    uarch_config_default(&c);
    cs_error err = {{0}};
    if (uarch_config_load(&c, path, &err) && uarch_config_validate(&c, &err)) {
        /* the printout loads back to itself */
        char *text = print_config(&c);
        int fd2 = memfd_create("fuzz-config-back.ini", 0);
        if (fd2 >= 0 && write(fd2, text, strlen(text)) == (ssize_t)strlen(text)) {
            char path2[64];
            snprintf(path2, sizeof path2, "/proc/self/fd/%d", fd2);
            uarch_config back;
            uarch_config_default(&back);
            if (!uarch_config_load(&back, path2, &err) || !uarch_config_validate(&back, &err)) abort();
            char *again = print_config(&back);
            /* the same printout, but for its first line, which names the file */
            size_t first = strcspn(text, "\n"), first2 = strcspn(again, "\n");
            if (strcmp(text + first, again + first2) != 0) abort();
            free(again);
        }
        if (fd2 >= 0) close(fd2);
        free(text);
    } else if (!err.msg[0]) {
        abort(); /* a refusal without a message */
    }
    /* the first line as a --set override */
    char line[256];
    size_t n = 0;
    while (n < size && n < sizeof line - 1 && data[n] != '\n') line[n] = (char)data[n], n++;
    line[n] = 0;
    uarch_config_default(&c);
    memset(&err, 0, sizeof err);
    if (!uarch_config_set(&c, line, &err) && !err.msg[0]) abort();
    close(fd);
    return 0;
}
