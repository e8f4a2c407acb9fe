/* A program finding its own file, as programs that locate their data beside them do:
 * realpath("/proc/self/exe") (glibc follows the link /proc/self to /proc/PID, then reads
 * /proc/PID/exe), and the same by that PID: the program's path, as under qemu-riscv64
 * (it was cyclescope's own path). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    char *real = realpath("/proc/self/exe", NULL);
    char self[64] = "", by_pid[PATH_MAX + 32], link[PATH_MAX] = "";
    ssize_t n = readlink("/proc/self", self, sizeof self - 1);
    if (n > 0) self[n] = 0;
    snprintf(by_pid, sizeof by_pid, "/proc/%s/exe", self);
    n = readlink(by_pid, link, sizeof link - 1);
    if (n > 0) link[n] = 0;
    char magic[4] = {0};
    FILE *f = fopen(by_pid, "rb");
    if (f) {
        if (fread(magic, 1, 4, f) != 4) magic[0] = 0;
        fclose(f);
    }
    const char *base = real ? strrchr(real, '/') : NULL;
    printf("realpath: %s\n", base ? base + 1 : "(failed)");
    printf("same as readlink(/proc/self/exe): %s\n", real && !strcmp(real, link) ? "yes" : "no");
    printf("its first bytes: %s\n",
           !memcmp(magic,
                   "\x7f"
                   "ELF",
                   4)
               ? "ELF"
               : "not ELF");
    free(real);
    return 0;
}
