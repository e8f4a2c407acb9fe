/* Writes to paths that name no file: "" and a path whose directory does not exist. Linux
 * answers ENOENT (ENOTDIR under a file), whatever the permissions; cyclescope without
 * --allow-write refused them as writes outside the sandbox (EACCES) and printed its notice
 * (found by jansson's test_dump: fopen("", "w"), and gawk's writea("/nonexistent/dump")).
 * A write into a directory that exists stays refused (EACCES and the notice: not here, where
 * stderr is compared with qemu's). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void report(const char *call, int r) { printf("%s: %d %s\n", call, r, r < 0 ? strerror(errno) : "ok"); }

int main(int argc, char **argv) {
    (void)argc;
    char under_file[4096];
    snprintf(under_file, sizeof under_file, "%s/x", argv[0]); /* the program is a file, not a directory */
    report("open(\"\", O_WRONLY|O_CREAT)", open("", O_WRONLY | O_CREAT, 0644));
    report("open(\"\", O_RDONLY)", open("", O_RDONLY));
    report("mkdir(\"\")", mkdir("", 0755));
    report("unlink(\"\")", unlink(""));
    report("rmdir(\"\")", rmdir(""));
    report("rename(\"\", \"x\")", rename("", "x"));
    report("chmod(\"\")", chmod("", 0644));
    FILE *f = fopen("", "w");
    printf("fopen(\"\", \"w\"): %s\n", f ? "opened" : strerror(errno));
    report("open(/nonexistent-cs/dir/out, O_CREAT)", open("/nonexistent-cs/dir/out", O_WRONLY | O_CREAT, 0644));
    report("open(nonexistent-cs/out, O_CREAT)", open("nonexistent-cs/out", O_WRONLY | O_CREAT, 0644));
    report("mkdir(/nonexistent-cs/d)", mkdir("/nonexistent-cs/d", 0755));
    report("unlink(/nonexistent-cs/f)", unlink("/nonexistent-cs/f"));
    report("rename(/nonexistent-cs/a, /nonexistent-cs/b)", rename("/nonexistent-cs/a", "/nonexistent-cs/b"));
    report("open(PROG/x, O_CREAT)", open(under_file, O_WRONLY | O_CREAT, 0644));
    f = fopen("/nonexistent-cs/out.txt", "w");
    printf("fopen(/nonexistent-cs/out.txt, \"w\"): %s\n", f ? "opened" : strerror(errno));
    return 0;
}
