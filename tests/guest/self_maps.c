/* /proc/self/maps read by the guest: its own mappings, as Linux and qemu-riscv64 list them
 * (gnulib's c-stack in GNU grep, diff and cmp reads it at start-up to find the stack;
 * glibc's pthread_getattr_np does for the main thread).
 *   self_maps find   the permissions of the lines holding the program's code, a local
 *                    variable (and that line's name, [stack]), a malloc'd block, a read-only
 *                    mapping; the same under qemu
 *   self_maps dump   the whole file (two runs under cyclescope give the same) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The permissions and the name of the line of /proc/self/maps holding `addr`. */
static void show(const char *what, const void *addr) {
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) {
        printf("%-24s cannot open /proc/self/maps\n", what);
        return;
    }
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned long long start, end;
        char perms[8], name[256] = "";
        if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %255s", &start, &end, perms, name) < 3) continue;
        if ((uintptr_t)addr < start || (uintptr_t)addr >= end) continue;
        printf("%-24s %s %s\n", what, perms, strcmp(name, "[stack]") == 0 ? name : "");
        fclose(f);
        return;
    }
    printf("%-24s not listed\n", what);
    fclose(f);
}

int main(int argc, char **argv) {
    if (argc == 2 && !strcmp(argv[1], "dump")) {
        FILE *f = fopen("/proc/self/maps", "r");
        int c;
        while (f && (c = getc(f)) != EOF) putchar(c);
        return f ? 0 : 1;
    }
    if (argc != 2 || strcmp(argv[1], "find")) {
        fprintf(stderr, "usage: self_maps find|dump\n");
        return 2;
    }
    int local = 0;
    char *block = malloc(100);
    void *ro = mmap(NULL, 3 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    show("code (main)", (const void *)(uintptr_t)main);
    show("a local variable", &local);
    show("a malloc'd block", block);
    show("a read-only mapping", (char *)ro + 4096);
    munmap(ro, 3 * 4096);
    show("that mapping unmapped", (char *)ro + 4096);
    free(block);
    return 0;
}
