/* "" as the path of calls that write: Linux answers ENOENT (the name is no file), whatever
 * --allow-write allows; cyclescope refused it as a write outside the sandbox, with its
 * notice on stderr (found by jansson's test_dump: fopen("", "w")). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void report(const char *call, int r) { printf("%s: %d %s\n", call, r, r < 0 ? strerror(errno) : "ok"); }

int main(void) {
    report("open(\"\", O_WRONLY|O_CREAT)", open("", O_WRONLY | O_CREAT, 0644));
    report("open(\"\", O_RDONLY)", open("", O_RDONLY));
    report("mkdir(\"\")", mkdir("", 0755));
    report("unlink(\"\")", unlink(""));
    report("rmdir(\"\")", rmdir(""));
    report("rename(\"\", \"x\")", rename("", "x"));
    report("chmod(\"\")", chmod("", 0644));
    FILE *f = fopen("", "w");
    printf("fopen(\"\", \"w\"): %s\n", f ? "opened" : strerror(errno));
    return 0;
}
