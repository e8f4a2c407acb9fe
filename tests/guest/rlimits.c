/* setrlimit as Linux answers it (docs/sandbox.md §4):
 *   rlimits        what qemu-riscv64 shows too: a soft limit above the hard one is EINVAL;
 *                  a lowered RLIMIT_NOFILE bounds open, dup2 and F_DUPFD; raised again up to
 *                  the hard limit; mbedtls' test raises the soft limit to FD_SETSIZE + 1 and
 *                  then dup2s to FD_SETSIZE: the two must agree (cyclescope said yes to the
 *                  first and no to the second)
 *   rlimits guest  cyclescope's own guest (uid 1000, not privileged): a hard limit above the
 *                  current one is EPERM; a lowered RLIMIT_AS bounds mmap (qemu applies
 *                  neither: it runs as the host's user and keeps RLIMIT_AS for itself)
 *   rlimits exec   limits lowered (RLIMIT_NOFILE soft 12, RLIMIT_CORE 0/0, RLIMIT_AS 64 MiB),
 *                  then an execve of this program (rlimits show): Linux keeps them, the new
 *                  program sees and is bound by them (qemu-riscv64 cannot exec a RISC-V
 *                  program on a host without binfmt_misc) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <unistd.h>

static const char *result(int r) { return r == 0 ? "ok" : strerror(errno); }

static int common(void) {
    struct rlimit lim, bad;
    getrlimit(RLIMIT_NOFILE, &lim);
    bad = lim;
    if (bad.rlim_max != RLIM_INFINITY) {
        bad.rlim_cur = bad.rlim_max + 1;
        printf("soft above hard: %s\n", result(setrlimit(RLIMIT_NOFILE, &bad)));
    }
    struct rlimit low = {10, lim.rlim_max};
    printf("soft limit 10: %s\n", result(setrlimit(RLIMIT_NOFILE, &low)));
    struct rlimit now;
    getrlimit(RLIMIT_NOFILE, &now);
    printf("getrlimit: soft %llu, hard the same as before: %s\n", (unsigned long long)now.rlim_cur,
           now.rlim_max == lim.rlim_max ? "yes" : "no");
    int opened = 0, fd;
    while ((fd = open("/dev/null", O_RDONLY)) >= 0) opened++;
    printf("opened %d more, then: %s\n", opened, strerror(errno));
    printf("dup2 to 9: %s\n", dup2(0, 9) == 9 ? "ok" : strerror(errno));
    printf("dup2 to 10: %s\n", dup2(0, 10) == 10 ? "ok" : strerror(errno));
    printf("F_DUPFD from 10: %s\n", fcntl(0, F_DUPFD, 10) >= 0 ? "ok" : strerror(errno));
    printf("soft limit back: %s\n", result(setrlimit(RLIMIT_NOFILE, &lim)));
    printf("dup2 to 10 now: %s\n", dup2(0, 10) == 10 ? "ok" : strerror(errno));
    /* mbedtls' test_suite_net, poll_beyond_fd_setsize */
    struct rlimit big = {FD_SETSIZE + 1, lim.rlim_max};
    int raised = lim.rlim_cur >= FD_SETSIZE + 1 || setrlimit(RLIMIT_NOFILE, &big) == 0;
    int duped = dup2(0, FD_SETSIZE) == FD_SETSIZE;
    printf("descriptor %d: setrlimit and dup2 %s\n", FD_SETSIZE, raised == duped ? "agree" : "disagree");
    printf("bad resource: %s\n", result(getrlimit(99, &now)));
    return 0;
}

static int guest_only(void) {
    struct rlimit lim;
    getrlimit(RLIMIT_NOFILE, &lim);
    struct rlimit higher = {lim.rlim_max + 1, lim.rlim_max + 1};
    printf("hard limit raised: %s\n", result(setrlimit(RLIMIT_NOFILE, &higher)));
    struct rlimit as = {64 << 20, 64 << 20};
    printf("RLIMIT_AS 64 MiB: %s\n", result(setrlimit(RLIMIT_AS, &as)));
    void *p = mmap(NULL, 128 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mmap 128 MiB: %s\n", p == MAP_FAILED ? strerror(errno) : "mapped");
    p = mmap(NULL, 4 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mmap 4 MiB: %s\n", p == MAP_FAILED ? strerror(errno) : "mapped");
    struct rlimit as_more = {128 << 20, 128 << 20};
    printf("RLIMIT_AS raised again: %s\n", result(setrlimit(RLIMIT_AS, &as_more)));
    return 0;
}

static int lower_then_exec(void) {
    struct rlimit lim, nofile, core = {0, 0}, as = {64 << 20, 64 << 20};
    getrlimit(RLIMIT_NOFILE, &lim);
    nofile = (struct rlimit){12, lim.rlim_max};
    printf("lowered: %s %s %s\n", result(setrlimit(RLIMIT_NOFILE, &nofile)), result(setrlimit(RLIMIT_CORE, &core)),
           result(setrlimit(RLIMIT_AS, &as)));
    fflush(stdout);
    char *argv[] = {"rlimits", "show", NULL};
    execv("/proc/self/exe", argv);
    printf("execv: %s\n", strerror(errno));
    return 1;
}

static int show(void) {
    struct rlimit nofile, core, as;
    getrlimit(RLIMIT_NOFILE, &nofile), getrlimit(RLIMIT_CORE, &core), getrlimit(RLIMIT_AS, &as);
    printf("after exec: NOFILE soft %llu, CORE %llu/%llu, AS %llu/%llu MiB\n", (unsigned long long)nofile.rlim_cur,
           (unsigned long long)core.rlim_cur, (unsigned long long)core.rlim_max, (unsigned long long)as.rlim_cur >> 20,
           (unsigned long long)as.rlim_max >> 20);
    int highest = -1, fd;
    while ((fd = open("/dev/null", O_RDONLY)) >= 0) highest = fd;
    printf("highest descriptor %d, then: %s\n", highest, strerror(errno));
    void *p = mmap(NULL, 128 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mmap 128 MiB: %s\n", p == MAP_FAILED ? strerror(errno) : "mapped");
    return 0;
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "guest")) return guest_only();
    if (argc > 1 && !strcmp(argv[1], "exec")) return lower_then_exec();
    if (argc > 1 && !strcmp(argv[1], "show")) return show();
    return common();
}
