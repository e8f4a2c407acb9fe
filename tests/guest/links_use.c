/* Symbolic and hard links as GNU patch makes them (a git diff creating a symlink: "Can't
 * create symbolic link ... : Function not implemented" before, symlinkat and linkat were
 * -ENOSYS with a warning; found by patch 2.7.6's own tests, docs/sandbox.md §4), and
 * Linux's refusals. Compared with qemu-riscv64:
 *   links_use DIR    (run with --allow-write DIR: everything happens in DIR/links)
 *   links_use outside DIR OUTSIDE_FILE (run with --allow-write DIR: a hard link to a
 *                    file outside DIR, and one through a symbolic link leaving DIR, refused) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void say(const char *what, int r) { printf("%s: %d (%s)\n", what, r, r < 0 ? strerror(errno) : "ok"); }

static void show_link(const char *path) {
    char target[256];
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n < 0) {
        printf("readlink %s: %s\n", path, strerror(errno));
        return;
    }
    target[n] = 0;
    printf("readlink %s: %s\n", path, target);
}

static void show_file(const char *path) {
    struct stat st;
    char text[64] = "";
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(text, sizeof text, f)) text[0] = 0;
        fclose(f);
    }
    text[strcspn(text, "\n")] = 0;
    if (lstat(path, &st) < 0) {
        printf("lstat %s: %s\n", path, strerror(errno));
        return;
    }
    printf("%s: %s, %ld links, reads \"%s\"\n", path, S_ISLNK(st.st_mode) ? "symlink" : "file", (long)st.st_nlink,
           text);
}

static int in_dir(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/links", dir);
    if (chdir(dir) < 0 || (mkdir("links", 0755) < 0 && errno != EEXIST) || chdir("links") < 0) {
        perror(path);
        return 1;
    }
    const char *names[] = {"sym", "sym2", "dangling", "hard", "hard2", "viasym", "sub/inner", "abs"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) unlink(names[i]);
    rmdir("sub");
    FILE *f = fopen("target1", "w");
    if (!f) {
        perror("target1");
        return 1;
    }
    fputs("a\n", f);
    fclose(f);

    say("symlink(target1, sym)", symlink("target1", "sym"));
    show_link("sym");
    show_file("sym");
    say("symlink again (EEXIST)", symlink("target1", "sym"));
    say("symlink empty target (ENOENT)", symlink("", "sym2"));
    say("symlink into a missing directory (ENOENT)", symlink("target1", "nodir/sym"));
    say("symlink(missing, dangling)", symlink("missing", "dangling"));
    show_link("dangling");
    show_file("dangling");
    int fd = open(".", O_RDONLY | O_DIRECTORY);
    say("mkdir sub", mkdir("sub", 0755));
    say("symlinkat(../target1, dirfd, sub/inner)", symlinkat("../target1", fd, "sub/inner"));
    show_file("sub/inner");
    say("symlink(/nonexistent-cs/abs, abs)", symlink("/nonexistent-cs/abs", "abs"));
    show_link("abs");

    say("link(target1, hard)", link("target1", "hard"));
    show_file("hard");
    show_file("target1");
    say("link again (EEXIST)", link("target1", "hard"));
    say("link missing (ENOENT)", link("missing", "hard2"));
    say("link a directory (EPERM)", link("sub", "hard2"));
    say("linkat(sym, viasym, 0): the link itself", linkat(AT_FDCWD, "sym", AT_FDCWD, "viasym", 0));
    show_file("viasym");
    unlink("viasym");
    say("linkat(sym, viasym, AT_SYMLINK_FOLLOW)", linkat(AT_FDCWD, "sym", AT_FDCWD, "viasym", AT_SYMLINK_FOLLOW));
    show_file("viasym");
    say("linkat(dangling, hard2, AT_SYMLINK_FOLLOW) (ENOENT)", linkat(fd, "dangling", fd, "hard2", AT_SYMLINK_FOLLOW));
    say("linkat bad flags (EINVAL)", linkat(fd, "target1", fd, "hard2", 0x8000));
    close(fd);

    /* a write through the link reaches its target, as patch's tests check */
    f = fopen("sym", "w");
    if (f) {
        fputs("b\n", f);
        fclose(f);
    }
    show_file("target1");
    show_file("hard");
    say("unlink target1", unlink("target1"));
    show_file("sym");
    show_file("hard");
    return 0;
}

static int outside(const char *dir, const char *file) {
    char path[4096], link_out[4096];
    snprintf(path, sizeof path, "%s/hard_out", dir);
    snprintf(link_out, sizeof link_out, "%s/sym_out", dir);
    unlink(path);
    unlink(link_out);
    say("link(outside file, DIR/hard_out)", link(file, path));
    say("symlink(outside file, DIR/sym_out)", symlink(file, link_out));
    say("linkat(DIR/sym_out, DIR/hard_out, AT_SYMLINK_FOLLOW)",
        linkat(AT_FDCWD, link_out, AT_FDCWD, path, AT_SYMLINK_FOLLOW));
    int fd = open(link_out, O_WRONLY | O_APPEND);
    say("open(DIR/sym_out, O_WRONLY)", fd);
    snprintf(path, sizeof path, "%s.sym", file);
    say("symlink(x, OUTSIDE_FILE.sym)", symlink("x", path));
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2) return in_dir(argv[1]);
    if (argc == 4 && !strcmp(argv[1], "outside")) return outside(argv[2], argv[3]);
    fprintf(stderr, "usage: links_use DIR | links_use outside DIR OUTSIDE_FILE\n");
    return 2;
}
