/* What compressors and databases do to the files they write, reduced from bzip2 1.0.8
 * and SQLite 3.40 (docs/sandbox.md §12): the output given the input's mode, owner and
 * times (fchmod, fchown to itself, utime, futimens, chmod; zstd 1.5.4's chown to itself,
 * docs/sandbox.md §14), and SQLite's record locks
 * (fcntl F_SETLK/F_GETLK/F_SETLKW, the OFD forms) with Linux's refusals.
 *   file_attrs attrs DIR     (run with --allow-write DIR)
 *   file_attrs locks DIR     (run with --allow-write DIR)
 *   file_attrs outside PATH  (a file outside --allow-write: changing it is refused) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
#include <utime.h>

static void say(const char *what, int r) { printf("%s: %d (%s)\n", what, r, r < 0 ? strerror(errno) : "ok"); }

static void show(const char *path) {
    struct stat st;
    if (stat(path, &st) < 0) {
        perror(path);
        return;
    }
    printf("mode %o atime %lld.%09ld mtime %lld.%09ld\n", (unsigned)(st.st_mode & 07777), (long long)st.st_atim.tv_sec,
           st.st_atim.tv_nsec, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

static int attrs(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/attrs.out", dir);
    unlink(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600); /* as bzip2 opens its output */
    if (fd < 0) {
        perror(path);
        return 1;
    }
    say("write", (int)write(fd, "compressed\n", 11));
    struct stat st;
    fstat(fd, &st);
    say("fchmod 0640", fchmod(fd, 0640));
    say("fchown to its own owner", fchown(fd, st.st_uid, st.st_gid));
    say("fchown -1 -1", fchown(fd, (uid_t)-1, (gid_t)-1));
    struct timespec ts[2] = {{1000000000, 250}, {1234567890, 123456789}};
    say("futimens", futimens(fd, ts));
    show(path);
    say("fchownat AT_EMPTY_PATH", fchownat(fd, "", st.st_uid, st.st_gid, AT_EMPTY_PATH));
    say("fchown closed", fchown(99, st.st_uid, st.st_gid));
    say("fchmod closed", fchmod(99, 0600));
    close(fd);
    struct utimbuf ub = {.actime = 1500000000, .modtime = 1600000000}; /* bzip2's utime() */
    say("utime", utime(path, &ub));
    show(path);
    struct timespec omit[2] = {{0, UTIME_OMIT}, {1700000000, 5}};
    say("utimensat omit atime", utimensat(AT_FDCWD, path, omit, 0));
    show(path);
    say("chmod 0604", chmod(path, 0604));
    say("chmod 0755", chmod(path, 0755));
    show(path);
    struct timespec bad[2] = {{0, 1000000000}, {0, 0}};
    say("utimensat bad nsec", utimensat(AT_FDCWD, path, bad, 0));
    say("utimensat bad flags", utimensat(AT_FDCWD, path, NULL, 0x4000));
    snprintf(path, sizeof path, "%s/no-such-file", dir);
    say("utime missing", utime(path, &ub));
    say("chmod missing", chmod(path, 0600));
    say("chown missing", chown(path, st.st_uid, st.st_gid));
    snprintf(path, sizeof path, "%s/attrs.out", dir);
    say("chown to its own owner", chown(path, st.st_uid, st.st_gid)); /* zstd's */
    say("lchown -1 -1", lchown(path, (uid_t)-1, (gid_t)-1));
    say("fchownat bad flags", fchownat(AT_FDCWD, path, st.st_uid, st.st_gid, 0x4000));
    return 0;
}

static int lock(int fd, int cmd, short type) {
    struct flock fl = {.l_type = type, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    return fcntl(fd, cmd, &fl);
}

static int locks(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/locks.db", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        perror(path);
        return 1;
    }
    say("write", (int)write(fd, "SQLite format 3", 16));
    say("F_SETLK read lock", lock(fd, F_SETLK, F_RDLCK));
    say("F_SETLK write lock", lock(fd, F_SETLK, F_WRLCK));
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 1073741824, .l_len = 510};
    say("F_GETLK", fcntl(fd, F_GETLK, &fl));
    printf("F_GETLK finds l_type %s\n", fl.l_type == F_UNLCK ? "F_UNLCK" : "a lock");
    say("F_SETLKW write lock", lock(fd, F_SETLKW, F_WRLCK));
    say("F_SETLK unlock", lock(fd, F_SETLK, F_UNLCK));
    say("F_GETLK of F_UNLCK", lock(fd, F_GETLK, F_UNLCK));
    say("F_SETLK bad type", lock(fd, F_SETLK, 7));
    struct flock whence = {.l_type = F_RDLCK, .l_whence = 9};
    say("F_SETLK bad whence", fcntl(fd, F_SETLK, &whence));
    say("F_OFD_SETLK", lock(fd, F_OFD_SETLK, F_WRLCK));
    say("F_SETLK on a closed descriptor", lock(99, F_SETLK, F_RDLCK));
    close(fd);
    int ro = open(path, O_RDONLY);
    say("write lock on a read-only descriptor", lock(ro, F_SETLK, F_WRLCK));
    say("read lock on a read-only descriptor", lock(ro, F_SETLK, F_RDLCK));
    close(ro);
    int wo = open(path, O_WRONLY);
    say("read lock on a write-only descriptor", lock(wo, F_SETLK, F_RDLCK));
    say("write lock on a write-only descriptor", lock(wo, F_SETLK, F_WRLCK));
    close(wo);
    return 0;
}

static int outside(const char *path) {
    struct utimbuf ub = {.actime = 1, .modtime = 2};
    say("utime outside", utime(path, &ub));
    say("chmod outside", chmod(path, 0600));
    say("chown outside", chown(path, (uid_t)-1, (gid_t)-1));
    int fd = open(path, O_RDONLY);
    say("fchmod read-only descriptor", fchmod(fd, 0600));
    say("futimens read-only descriptor", futimens(fd, NULL));
    say("fchmod stdout", fchmod(1, 0600));
    close(fd);
    return 0;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: file_attrs attrs|locks DIR | outside PATH\n");
        return 2;
    }
    if (!strcmp(argv[1], "attrs")) return attrs(argv[2]);
    if (!strcmp(argv[1], "locks")) return locks(argv[2]);
    if (!strcmp(argv[1], "outside")) return outside(argv[2]);
    return 2;
}
