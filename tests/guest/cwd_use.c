#define _GNU_SOURCE
/* chdir/fchdir/getcwd (ENOSYS before) and relative paths after them, resolved as Linux
 * resolves them; writes stay beneath --allow-write DIR whatever the working directory.
 *   cwd_use DIR          DIR: an empty directory the program may write beneath (--allow-write DIR)
 *   cwd_use DIR escape   chdir out of DIR, then try to create, rename and mkdir there:
 *                        refused (EACCES) under --allow-write DIR, and nothing appears
 * Prints only paths relative to DIR: never the host's absolute names. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char top[PATH_MAX];

static void check(const char *what, long got) {
    printf("%-32s %ld%s%s\n", what, got, got < 0 ? " errno " : "", got < 0 ? strerror(errno) : "");
}

/* the working directory relative to DIR */
static void where(void) {
    char now[PATH_MAX];
    if (!getcwd(now, sizeof now)) {
        printf("getcwd: %s\n", strerror(errno));
        return;
    }
    size_t n = strlen(top);
    printf("cwd: %s\n", strncmp(now, top, n) == 0 ? (now[n] ? now + n : "(DIR)") : "(outside DIR)");
}

static int escape(const char *dir) {
    check("chdir DIR", chdir(dir));
    if (!getcwd(top, sizeof top)) return 3;
    int fd = open("inside", O_WRONLY | O_CREAT, 0644);
    check("create inside", fd >= 0 ? 0 : -1);
    close(fd);
    check("chdir out of DIR", chdir(".."));
    fd = open("escaped-by-chdir", O_WRONLY | O_CREAT, 0644);
    check("create outside after chdir", fd >= 0 ? 0 : -1);
    check("mkdir outside", mkdir("escaped-dir", 0755));
    char in[PATH_MAX + 16];
    snprintf(in, sizeof in, "%s/inside", top);
    check("rename out of DIR", rename(in, "escaped-rename"));
    check("chdir back", chdir(top));
    check("rename to ../", rename("inside", "../escaped-rename"));
    check("unlink ../", unlink("../escaped-rename"));
    check("outside file exists",
          access("../escaped-by-chdir", F_OK) == 0 || access("../escaped-rename", F_OK) == 0 ||
              access("../escaped-dir", F_OK) == 0);
    check("unlink inside", unlink("inside"));
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    if (argc > 2 && !strcmp(argv[2], "escape")) return escape(argv[1]);
    check("chdir DIR", chdir(argv[1]));
    if (!getcwd(top, sizeof top)) return 3;
    where();
    /* tmpfile()'s first try: an unnamed file in a directory, DIR itself (it was refused) */
    int t = open(".", O_TMPFILE | O_RDWR, 0600);
    check("O_TMPFILE in DIR", t >= 0 ? 0 : -1);
    if (t >= 0) {
        char back[8] = {0};
        check("write tmpfile", write(t, "unnamed", 7));
        check("read it back", pread(t, back, 7, 0));
        printf("tmpfile: %s\n", back);
        close(t);
    }
    check("mkdir sub", mkdir("sub", 0755));
    check("mkdir sub again", mkdir("sub", 0755));
    check("chdir sub", chdir("sub"));
    where();
    int fd = open("made-in-sub", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    check("create relative", fd >= 0 ? 0 : -1);
    check("write", write(fd, "in sub\n", 7));
    close(fd);
    check("chdir ..", chdir(".."));
    where();
    check("access sub/made-in-sub", access("sub/made-in-sub", R_OK));
    check("stat relative", ({
              struct stat st;
              stat("sub/made-in-sub", &st) == 0 ? (long)st.st_size : -1L;
          }));
    int dfd = open("sub", O_RDONLY | O_DIRECTORY);
    check("open sub", dfd >= 0 ? 0 : -1);
    check("fchdir sub", fchdir(dfd));
    where();
    char link[PATH_MAX] = {0};
    ssize_t got = readlink("/proc/self/cwd", link, sizeof link - 1);
    check("readlink /proc/self/cwd", got > 0 && !strncmp(link, top, strlen(top)) ? 0 : -1);
    printf("it names: %s\n", got > 0 ? link + strlen(top) : "-");
    char buf[32] = {0};
    fd = open("made-in-sub", O_RDONLY);
    check("read relative after fchdir", read(fd, buf, sizeof buf - 1));
    printf("content: %s", buf);
    close(fd);
    /* the same file through /proc/self/cwd/: the guest's directory, not the emulator's */
    memset(buf, 0, sizeof buf);
    fd = open("/proc/self/cwd/made-in-sub", O_RDONLY);
    check("read by /proc/self/cwd/", fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1);
    if (fd >= 0) close(fd);
    check("access by /proc/self/cwd/", access("/proc/self/cwd/made-in-sub", R_OK));
    check("fchdir of a file", fchdir(0) == 0 ? 0 : (errno == ENOTDIR ? -2 : -1)); /* stdin is no directory */
    check("fchdir bad fd", fchdir(99));
    check("chdir missing", chdir("no-such-dir"));
    check("chdir a file", chdir("made-in-sub"));
    check("chdir empty", chdir(""));
    check("chdir fault", chdir((const char *)8));
    char small[2];
    check("getcwd too small", getcwd(small, sizeof small) ? 0 : -1);
    /* renames beneath DIR */
    check("rename", rename("made-in-sub", "renamed"));
    check("renameat dirfd", renameat(dfd, "renamed", AT_FDCWD, "../top-level"));
    check("rename missing", rename("no-such-file", "x"));
    check("chdir .. (to DIR)", chdir(".."));
    where();
    check("rename dir", rename("sub", "sub2"));
    check("rmdir", rmdir("sub2"));
    check("rmdir again", rmdir("sub2"));
    check("unlink", unlink("top-level"));
    check("unlink again", unlink("top-level"));
    check("mkdir+rmdir", mkdir("tmpd", 0700) || rmdir("tmpd"));
    close(dfd);
    return 0;
}
