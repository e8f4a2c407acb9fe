/* Path edge cases, each answered as Linux answers them (found by GNU m4 1.4.19's gnulib
 * tests, docs/sandbox.md §19): a trailing slash on a path that a call creates, changes or
 * removes; `//` and `///`, which name `/`; rmdir, unlink and mkdir of `/`, `.` and `..`;
 * access(W_OK) against the permission bits; socket calls on a descriptor that is no socket.
 * Compared with qemu-riscv64:
 *   path_edges DIR [no-listing]   (run with --allow-write DIR: everything happens in DIR/edges;
 *                                  no-listing: not what opendir("//") lists, see slash_slash) */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* the result and errno's name (strerror's text is the same under both, but a name is clearer) */
static const char *errno_name(int err) {
    switch (err) {
    case ENOENT: return "ENOENT";
    case ENOTDIR: return "ENOTDIR";
    case EISDIR: return "EISDIR";
    case EEXIST: return "EEXIST";
    case EBUSY: return "EBUSY";
    case EINVAL: return "EINVAL";
    case ENOTEMPTY: return "ENOTEMPTY";
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    case ELOOP: return "ELOOP";
    case EBADF: return "EBADF";
    case ENOTSOCK: return "ENOTSOCK";
    case ENOSYS: return "ENOSYS";
    case EXDEV: return "EXDEV";
    default: return "other";
    }
}

static void say(const char *what, long r) {
    if (r < 0) printf("%s: -1 %s\n", what, errno_name(errno));
    else printf("%s: ok\n", what);
}

/* open, print, and close what it opened */
static void try_open(const char *what, const char *path, int flags) {
    int fd = open(path, flags, 0644);
    say(what, fd);
    if (fd >= 0) close(fd);
}

static void exists(const char *path) {
    struct stat st;
    if (lstat(path, &st) < 0) printf("  %s: absent\n", path);
    else printf("  %s: %s\n", path, S_ISDIR(st.st_mode) ? "directory" : S_ISLNK(st.st_mode) ? "symlink" : "file");
}

static void make_file(const char *path, mode_t mode) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    if (fd < 0 || write(fd, "x\n", 2) != 2) perror(path);
    if (fd >= 0) close(fd);
    chmod(path, mode);
}

static const char *const names[] = {"f",  "g",  "h",  "new", "nd", "nd2", "s",   "lf",
                                    "ld", "ln", "ro", "rw",  "e",  "lup", "lup2"};

static void clean(void) {
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        unlink(names[i]);
        rmdir(names[i]);
    }
    rmdir("d/sub");
    rmdir("d");
}

static void trailing_slash(void) {
    printf("-- a trailing slash\n");
    try_open("open(f/, O_RDONLY)", "f/", O_RDONLY);
    try_open("open(f/, O_WRONLY)", "f/", O_WRONLY);
    try_open("open(f/, O_WRONLY|O_CREAT)", "f/", O_WRONLY | O_CREAT);
    try_open("open(f/, O_RDONLY|O_CREAT)", "f/", O_RDONLY | O_CREAT);
    try_open("open(new/, O_WRONLY|O_CREAT)", "new/", O_WRONLY | O_CREAT);
    try_open("open(new/, O_WRONLY|O_CREAT|O_EXCL)", "new/", O_WRONLY | O_CREAT | O_EXCL);
    try_open("open(new//, O_RDWR|O_CREAT)", "new//", O_RDWR | O_CREAT);
    exists("new");
    try_open("open(new/, O_WRONLY)", "new/", O_WRONLY);
    try_open("open(d/, O_WRONLY)", "d/", O_WRONLY);
    try_open("open(d/, O_RDONLY)", "d/", O_RDONLY);
    try_open("open(d/, O_WRONLY|O_CREAT)", "d/", O_WRONLY | O_CREAT);
    try_open("open(d/, O_RDONLY|O_CREAT)", "d/", O_RDONLY | O_CREAT);
    try_open("open(d/., O_WRONLY|O_CREAT)", "d/.", O_WRONLY | O_CREAT);
    try_open("open(d/., O_RDONLY|O_CREAT)", "d/.", O_RDONLY | O_CREAT);
    try_open("open(d/., O_RDONLY|O_CREAT|O_EXCL)", "d/.", O_RDONLY | O_CREAT | O_EXCL);
    try_open("open(f/x, O_WRONLY|O_CREAT)", "f/x", O_WRONLY | O_CREAT);
    try_open("open(lf/, O_WRONLY)", "lf/", O_WRONLY);
    try_open("open(lf/, O_WRONLY|O_CREAT)", "lf/", O_WRONLY | O_CREAT);
    try_open("open(ld/, O_WRONLY)", "ld/", O_WRONLY);
    try_open("open(ln/, O_WRONLY)", "ln/", O_WRONLY);
    try_open("open(ln/, O_WRONLY|O_CREAT)", "ln/", O_WRONLY | O_CREAT);
    exists("nothing");
    say("mkdir(f/)", mkdir("f/", 0755));
    say("mkdir(nd/)", mkdir("nd/", 0755));
    say("mkdir(nd2//)", mkdir("nd2//", 0755));
    say("mkdir(lf/)", mkdir("lf/", 0755));
    say("mkdir(ln/)", mkdir("ln/", 0755));
    exists("nd");
    exists("nd2");
    say("rmdir(f/)", rmdir("f/"));
    say("rmdir(lf/)", rmdir("lf/"));
    say("rmdir(ld/)", rmdir("ld/"));
    say("rmdir(nd/)", rmdir("nd/"));
    say("rmdir(nd2//)", rmdir("nd2//"));
    exists("nd");
    say("unlink(f/)", unlink("f/"));
    say("unlink(d/)", unlink("d/"));
    say("unlink(lf/)", unlink("lf/"));
    say("unlink(ld/)", unlink("ld/"));
    say("unlink(ln/)", unlink("ln/"));
    say("unlink(new/)", unlink("new/"));
    exists("f");
    exists("lf");
    exists("ln");
    say("rename(f/, g)", rename("f/", "g"));
    say("rename(f, g/)", rename("f", "g/"));
    say("rename(lf/, g)", rename("lf/", "g"));
    say("rename(d/, e/)", rename("d/", "e/"));
    say("rename(e/, d)", rename("e/", "d"));
    say("rename(f, d/)", rename("f", "d/"));
    say("rename(d, f/)", rename("d", "f/"));
    exists("f");
    exists("g");
    exists("d");
    say("link(f, h/)", link("f", "h/"));
    say("link(f/, h)", link("f/", "h"));
    say("link(lf/, h)", link("lf/", "h"));
    exists("h");
    say("symlink(f, s/)", symlink("f", "s/"));
    exists("s");
    say("chmod(f/)", chmod("f/", 0644));
    say("chmod(d/)", chmod("d/", 0755));
    say("utimensat(f/)", utimensat(AT_FDCWD, "f/", NULL, 0));
    try_open("open(f/, O_WRONLY|O_TRUNC)", "f/", O_WRONLY | O_TRUNC);
}

static void root_and_dots(void) {
    printf("-- /, ., ..\n");
    say("rmdir(/)", rmdir("/"));
    say("rmdir(//)", rmdir("//"));
    say("unlink(/)", unlink("/"));
    say("mkdir(/)", mkdir("/", 0755));
    say("mkdir(///)", mkdir("///", 0755));
    say("rmdir(.)", rmdir("."));
    say("rmdir(..)", rmdir(".."));
    say("rmdir(d/.)", rmdir("d/."));
    say("rmdir(d/..)", rmdir("d/.."));
    say("rmdir(missing/.)", rmdir("missing/."));
    say("rmdir(f/.)", rmdir("f/."));
    say("unlink(.)", unlink("."));
    say("unlink(d/..)", unlink("d/.."));
    say("mkdir(.)", mkdir(".", 0755));
    say("mkdir(d/..)", mkdir("d/..", 0755));
    say("mkdir(missing/..)", mkdir("missing/..", 0755));
    say("rename(., g)", rename(".", "g"));
    say("rename(f, .)", rename("f", "."));
    say("rename(f, d/..)", rename("f", "d/.."));
    say("rename(/, g)", rename("/", "g"));
    say("link(f, .)", link("f", "."));
    say("symlink(f, d/.)", symlink("f", "d/."));
    /* a link to the --allow-write directory itself is a name in it (gnulib's test-stat) */
    say("symlink(.., lup)", symlink("..", "lup"));
    say("rename(lup, lup2)", rename("lup", "lup2"));
    say("unlink(lup2)", unlink("lup2"));
    exists("lup2");
    exists("f");
    exists("d");
}

/* with_listing 0: not what opendir lists (qemu -L, which a dynamic program needs, opens "//"
 * under its prefix, while it stats "//" as the root; Linux lists the root) */
static void slash_slash(int with_listing) {
    printf("-- // and ///\n");
    struct stat root, st;
    stat("/", &root);
    const char *paths[] = {"//", "///", "//.", "/./"};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        int r = stat(paths[i], &st);
        printf("stat(%s): %s\n", paths[i],
               r < 0                                                      ? errno_name(errno)
                   : st.st_ino == root.st_ino && st.st_dev == root.st_dev ? "the root"
                                                                          : "another directory");
        printf("access(%s, R_OK): %s\n", paths[i], access(paths[i], R_OK) < 0 ? errno_name(errno) : "ok");
        if (!with_listing) continue;
        DIR *dir = opendir(paths[i]);
        int has_proc = 0;
        struct dirent *ent;
        while (dir && (ent = readdir(dir))) has_proc |= strcmp(ent->d_name, "proc") == 0;
        printf("opendir(%s): %s\n", paths[i], !dir ? errno_name(errno) : has_proc ? "lists proc" : "no proc");
        if (dir) closedir(dir);
    }
    int fd = open("//proc/self/status", O_RDONLY);
    say("open(//proc/self/status)", fd);
    if (fd >= 0) close(fd);
}

static void access_bits(void) {
    printf("-- access(W_OK)\n");
    make_file("rw", 0644);
    make_file("ro", 0444);
    say("access(rw, W_OK)", access("rw", W_OK));
    say("access(rw, R_OK)", access("rw", R_OK));
    say("access(rw, X_OK)", access("rw", X_OK));
    /* root may write anything; anyone else may not write a file without a write bit (the
     * answer the gnulib tests check when geteuid() is not 0) */
    int r = access("ro", W_OK);
    int err = errno;
    int as_linux = geteuid() == 0 ? r == 0 : r < 0 && err == EACCES;
    printf("access(ro, W_OK): %s\n", as_linux ? "as Linux answers this euid" : "not as Linux answers this euid");
    say("access(ro, R_OK)", access("ro", R_OK));
    say("access(missing, W_OK)", access("missing", W_OK));
    say("access(ro/, W_OK)", access("ro/", W_OK));
    say("access(d, W_OK)", access("d", W_OK));
}

static void sockets_on_files(void) {
    printf("-- socket calls on descriptors that are no sockets\n");
    int fd = open("rw", O_RDWR);
    int bad = 77; /* closed */
    close(bad);
    struct sockaddr_storage sa;
    socklen_t len = sizeof sa;
    memset(&sa, 0, sizeof sa);
    sa.ss_family = AF_UNIX;
    char buf[8] = "abc";
    int one = 1;
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    struct iovec iov = {buf, sizeof buf};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    int fds[2] = {fd, bad};
    const char *kind[2] = {"file", "closed"};
    for (int i = 0; i < 2; i++) {
        char what[64];
#define TRY(name, call) (snprintf(what, sizeof what, "%s(%s)", name, kind[i]), say(what, call))
        TRY("bind", bind(fds[i], (struct sockaddr *)&sa, sizeof(sa_family_t) + 2));
        TRY("listen", listen(fds[i], 1));
        TRY("accept", accept(fds[i], NULL, NULL));
        TRY("accept4", accept4(fds[i], NULL, NULL, SOCK_CLOEXEC));
        TRY("connect", connect(fds[i], (struct sockaddr *)&sa, sizeof(sa_family_t) + 2));
        len = sizeof sa;
        TRY("getsockname", getsockname(fds[i], (struct sockaddr *)&sa, &len));
        len = sizeof sa;
        TRY("getpeername", getpeername(fds[i], (struct sockaddr *)&sa, &len));
        TRY("setsockopt", setsockopt(fds[i], SOL_SOCKET, SO_REUSEADDR, &one, sizeof one));
        len = sizeof one;
        TRY("getsockopt", getsockopt(fds[i], SOL_SOCKET, SO_TYPE, &one, &len));
        TRY("send", send(fds[i], buf, 3, 0));
        TRY("sendto", sendto(fds[i], buf, 3, 0, NULL, 0));
        TRY("recv", recv(fds[i], buf, sizeof buf, MSG_DONTWAIT));
        TRY("recvfrom", recvfrom(fds[i], buf, sizeof buf, MSG_DONTWAIT, NULL, NULL));
        TRY("sendmsg", sendmsg(fds[i], &msg, 0));
        TRY("recvmsg", recvmsg(fds[i], &msg, MSG_DONTWAIT));
        TRY("shutdown", shutdown(fds[i], SHUT_RDWR));
#undef TRY
    }
    say("accept4(file, bad flags)", accept4(fd, NULL, NULL, 0x40000000));
    close(fd);
}

int main(int argc, char **argv) {
    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "no-listing") != 0)) {
        fprintf(stderr, "usage: path_edges DIR [no-listing]\n");
        return 2;
    }
    if (chdir(argv[1]) < 0 || (mkdir("edges", 0755) < 0 && errno != EEXIST) || chdir("edges") < 0) {
        perror(argv[1]);
        return 1;
    }
    clean();
    make_file("f", 0644);
    if (mkdir("d", 0755) < 0 || symlink("f", "lf") < 0 || symlink("d", "ld") < 0 || symlink("nothing", "ln") < 0) {
        perror("setup");
        return 1;
    }
    setvbuf(stdout, NULL, _IONBF, 0);
    trailing_slash();
    root_and_dots();
    slash_slash(argc == 2);
    access_bits();
    sockets_on_files();
    clean();
    return 0;
}
