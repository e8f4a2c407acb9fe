/* system() and popen() (glibc: posix_spawn of /bin/sh -c COMMAND), for the tests of execve
 * through --sysroot (docs/sandbox.md §17): the statuses and what popen read. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

static void describe(const char *what, int status) {
    if (status == -1) printf("%s: -1\n", what);
    else if (WIFEXITED(status)) printf("%s: exited %d\n", what, WEXITSTATUS(status));
    else if (WIFSIGNALED(status)) printf("%s: killed by signal %d\n", what, WTERMSIG(status));
    else printf("%s: status 0x%x\n", what, status);
}

int main(void) {
    fflush(stdout);
    describe("system(\"echo hi there\")", system("echo hi there"));
    describe("system(\"exit 3\")", system("exit 3"));
    FILE *f = popen("echo x y", "r");
    if (!f) {
        printf("popen: NULL\n"); /* posix_spawn failed (glibc's popen leaves errno as it was) */
        return 1;
    }
    char line[128];
    int lines = 0;
    while (fgets(line, sizeof line, f)) printf("popen read %d: %s", ++lines, line);
    printf("popen lines: %d\n", lines);
    describe("pclose", pclose(f));
    return 0;
}
