/* The guest's own /proc/self files: cmdline, environ, auxv, comm.
 *   self_proc check   whether cmdline holds the program's argv and auxv the vector on its
 *                     stack (what glibc's getauxval reads), by /proc/self/ and by
 *                     /proc/<getpid()>/; the same under qemu-riscv64, which serves both itself
 *                     (its environ is its own environment: the guest's envp in another order)
 *   self_proc show    the files' text: cmdline's arguments, comm, environ's variables and
 *                     whether they are envp, read by /proc/self/, /proc/thread-self/ and
 *                     /proc/<getpid()>/
 *   self_proc stat    stat's name, and whether its pid, ppid and startstack are the
 *                     process' (what qemu-riscv64 serves; the rest it leaves 0)
 *   self_proc status  status's Name, State, Tgid, Pid, PPid, TracerPid, Uid and Threads
 *                     lines, then thread-self's read by a second thread (qemu shows its
 *                     own process': not compared) */
#include <elf.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

extern char **environ;

/* The whole of a /proc file (they have no size to stat); NULL if it cannot be opened. */
static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096;
    char *text = malloc(cap);
    *len = 0;
    size_t n;
    while ((n = fread(text + *len, 1, cap - *len, f)) > 0)
        if ((*len += n) == cap) text = realloc(text, cap *= 2);
    fclose(f);
    return text;
}

/* Whether `text` is the NUL-terminated strings of `list`, one after another. */
static int same_strings(const char *text, size_t len, char *const *list) {
    size_t at = 0;
    for (; *list; list++) {
        size_t n = strlen(*list) + 1;
        if (at + n > len || memcmp(text + at, *list, n)) return 0;
        at += n;
    }
    return at == len;
}

static void check(const char *dir, char **argv, const uint64_t *stack_auxv, size_t auxv_bytes) {
    char path[64];
    size_t len;
    char *text;
    snprintf(path, sizeof path, "%s/cmdline", dir);
    text = slurp(path, &len);
    printf("cmdline: %s\n", !text ? "cannot open" : same_strings(text, len, argv) ? "argv" : "not argv");
    free(text);
    snprintf(path, sizeof path, "%s/auxv", dir);
    text = slurp(path, &len);
    if (!text) {
        printf("auxv: cannot open\n");
        return;
    }
    int same = len == auxv_bytes && !memcmp(text, stack_auxv, len);
    /* and what the pairs say, as getauxval, through which programs read them */
    int agree = len % 16 == 0 && len >= 16, pairs = (int)(len / 16);
    for (int i = 0; agree && i < pairs; i++) {
        uint64_t pair[2];
        memcpy(pair, text + 16 * i, 16);
        if (i == pairs - 1) agree = pair[0] == AT_NULL;
        else if (pair[0] != AT_NULL) agree = getauxval(pair[0]) == pair[1] || pair[0] == AT_IGNORE;
    }
    printf("auxv: %s the stack's, %s getauxval, AT_NULL last\n", same ? "same as" : "not",
           agree ? "agrees with" : "not");
    free(text);
}

static void show(const char *dir) {
    char path[64];
    size_t len;
    snprintf(path, sizeof path, "%s/cmdline", dir);
    char *text = slurp(path, &len);
    printf("%s:", path);
    for (size_t at = 0; text && at < len; at += strlen(text + at) + 1) printf(" [%s]", text + at);
    printf("\n");
    free(text);
    snprintf(path, sizeof path, "%s/comm", dir);
    text = slurp(path, &len);
    printf("%s: %.*s", path, text ? (int)len : 0, text ? text : "\n");
    free(text);
    snprintf(path, sizeof path, "%s/environ", dir);
    text = slurp(path, &len);
    printf("%s:", path);
    for (size_t at = 0; text && at < len; at += strlen(text + at) + 1) printf(" [%s]", text + at);
    printf("\n");
    printf("%s: %s\n", path, !text ? "cannot open" : same_strings(text, len, environ) ? "envp" : "not envp");
    free(text);
}

/* stat's name, and whether its pid, ppid and startstack (the stack pointer at entry: argc's
 * address, below argv) are the process' own; qemu-riscv64 serves these, the rest 0. */
static void stat_fields(const char *path, char **argv) {
    size_t len;
    char *text = slurp(path, &len);
    if (!text || !len) {
        printf("%s: cannot open\n", path);
        free(text);
        return;
    }
    text[len - 1] = 0;
    char *close = strrchr(text, ')'), *open = strchr(text, '(');
    if (!close || !open) {
        printf("%s: no (name)\n", path);
        free(text);
        return;
    }
    *close = 0;
    unsigned long long field[64] = {0};
    int n = 2;
    for (char *f = strtok(close + 2, " "); f && n < 64; f = strtok(NULL, " ")) field[++n] = strtoull(f, NULL, 10);
    printf("%s: name (%s), pid %s, ppid %s, startstack %s\n", strncmp(path, "/proc/self/", 11) ? "by pid" : path,
           open + 1, strtoull(text, NULL, 10) == (unsigned long long)getpid() ? "getpid()" : "not getpid()",
           field[4] == (unsigned long long)getppid() ? "getppid()" : "not getppid()",
           field[28] == (uintptr_t)(argv - 1) ? "argc's address" : "elsewhere");
    free(text);
}

/* status's lines that say who the process is and what it does */
static void status_lines(const char *path) {
    static const char *const keys[] = {"Name:", "State:", "Tgid:", "Pid:", "PPid:", "TracerPid:", "Uid:", "Threads:"};
    FILE *f = fopen(path, "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (!strncmp(line, keys[i], strlen(keys[i]))) printf("%s %s", path, line);
    if (f) fclose(f);
    else printf("%s: cannot open\n", path);
}

/* a second thread's view: its own Pid in thread-self's status, the process' threads */
static void *second_thread(void *arg) {
    (void)arg;
    status_lines("/proc/thread-self/status");
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2 ||
        (strcmp(argv[1], "check") && strcmp(argv[1], "show") && strcmp(argv[1], "stat") && strcmp(argv[1], "status"))) {
        fprintf(stderr, "usage: self_proc check|show|stat|status\n");
        return 2;
    }
    char own[32];
    snprintf(own, sizeof own, "/proc/%d", (int)getpid());
    if (!strcmp(argv[1], "stat") || !strcmp(argv[1], "status")) {
        const char *dirs[] = {"/proc/self", own, "/proc/thread-self"};
        for (int i = 0; i < 3; i++) {
            char path[64];
            snprintf(path, sizeof path, "%s/%s", dirs[i], argv[1]);
            /* qemu-riscv64 7.2 serves stat by self/ and the pid only */
            if (argv[1][4] == 0 && i == 2) break;
            if (argv[1][4] == 0) stat_fields(path, argv);
            else status_lines(path);
        }
        if (argv[1][4] != 0) { /* status: and from a second thread, while it runs */
            pthread_t t;
            if (pthread_create(&t, NULL, second_thread, NULL) || pthread_join(t, NULL)) return 1;
        }
        return 0;
    }
    if (!strcmp(argv[1], "show")) {
        show("/proc/self");
        show("/proc/thread-self");
        show(own);
        return 0;
    }
    /* the auxiliary vector on the stack: past envp's NULL */
    char **p = environ;
    while (*p) p++;
    const uint64_t *stack_auxv = (const uint64_t *)(p + 1), *end = stack_auxv;
    while (end[0] != AT_NULL) end += 2;
    size_t auxv_bytes = (size_t)((const char *)(end + 2) - (const char *)stack_auxv);
    check("/proc/self", argv, stack_auxv, auxv_bytes);
    check(own, argv, stack_auxv, auxv_bytes);
    return 0;
}
