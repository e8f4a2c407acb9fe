/* The user and group id calls (docs/sandbox.md §4):
 *   ids        what qemu-riscv64 shows too: each id set to the process' own or left (-1)
 *              succeeds, getresuid/getresgid agree with getuid/getgid, setuid(-1) is EINVAL
 *   ids guest  cyclescope's guest is uid and gid 1000, not privileged: becoming root is EPERM
 *              (qemu runs as the host's user, root here, and may); posix_spawn with
 *              POSIX_SPAWN_RESETIDS (whose child calls setresuid, as GNU make's does) reaches
 *              its execve: ENOENT for a missing program, as Linux returns (ENOSYS before; qemu
 *              runs vfork as a fork, so its posix_spawn cannot report the child's error: 0) */
#define _GNU_SOURCE
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *result(int r) { return r == 0 ? "ok" : strerror(errno); }

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "guest")) {
        printf("uid %u gid %u\n", getuid(), getgid());
        printf("setuid(0): %s\n", result(setuid(0)));
        printf("setresgid(0, -1, -1): %s\n", result(setresgid(0, -1, -1)));
        printf("setreuid(-1, 0): %s\n", result(setreuid(-1, 0)));
        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_RESETIDS);
        char *args[] = {"missing", NULL};
        pid_t pid;
        int rc = posix_spawn(&pid, "/nonexistent/program", NULL, &attr, args, NULL);
        printf("posix_spawn with RESETIDS of a missing program: %s\n", rc ? strerror(rc) : "spawned");
        return 0;
    }
    uid_t u = getuid(), r, e, s;
    gid_t g = getgid(), gr, ge, gs;
    printf("getresuid: %s, the same as getuid: %s\n", result(getresuid(&r, &e, &s)),
           r == u && e == geteuid() && s == u ? "yes" : "no");
    printf("getresgid: %s, the same as getgid: %s\n", result(getresgid(&gr, &ge, &gs)),
           gr == g && ge == getegid() && gs == g ? "yes" : "no");
    printf("setuid(own): %s\n", result(setuid(u)));
    printf("setgid(own): %s\n", result(setgid(g)));
    printf("setreuid(-1, own): %s\n", result(setreuid(-1, u)));
    printf("setregid(own, -1): %s\n", result(setregid(g, -1)));
    printf("setresuid(-1, own, -1): %s\n", result(setresuid(-1, u, -1)));
    printf("setresgid(own, own, own): %s\n", result(setresgid(g, g, g)));
    printf("setuid(-1): %s\n", result(setuid((uid_t)-1)));
    printf("seteuid(own): %s\n", result(seteuid(u)));
    return 0;
}
