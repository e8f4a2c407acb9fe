/* The user and group databases (NSS) from a dynamically linked program: glibc asks nscd
 * through a socket first and reads /etc/passwd and /etc/group when that fails. cyclescope
 * refuses sockets quietly, so the run's stderr is the program's, as under qemu-riscv64
 * (found by the 2026-11-28 hunt: a warning for socket preceded every getpwuid's output). */
#include <grp.h>
#include <pwd.h>
#include <stdio.h>

int main(void) {
    struct passwd *p = getpwuid(0);
    printf("getpwuid(0): %s home %s\n", p ? p->pw_name : "(none)", p ? p->pw_dir : "-");
    p = getpwnam("root");
    printf("getpwnam(root): uid %d\n", p ? (int)p->pw_uid : -1);
    p = getpwnam("no-such-user-cyclescope");
    printf("getpwnam(no-such-user): %s\n", p ? "found" : "none");
    struct group *g = getgrgid(0);
    printf("getgrgid(0): %s\n", g ? g->gr_name : "(none)");
    fprintf(stderr, "done\n");
    return 0;
}
