/* Files: opening beneath a directory without races, opening inputs (regular
 * files only, remembered so that no output replaces one), and writing outputs
 * through a temporary file that is renamed into place on success. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util.h"

#ifndef SYS_openat2
#define SYS_openat2 437 /* the same number on every architecture */
#endif

/* ---- opening beneath a directory ------------------------------------------------ */

/* The fallback for kernels without openat2 (before 5.6): walk the path one
 * component at a time from root_fd, each step an openat relative to the
 * directory fd of the step before with O_NOFOLLOW, so that no symbolic link is
 * ever followed and ".." pops our own stack of directory fds rather than asking
 * the kernel for the parent. Stricter than openat2: a symbolic link anywhere in
 * the path is refused (ELOOP), even one that stays beneath root_fd. */
/* The last component of a walk written with a trailing slash ("name/"), which Linux reads
 * as "name, which must be a directory", following a symbolic link there even under
 * O_NOFOLLOW. The walk never follows a link for an open, so the answers Linux gives without
 * opening anything through the link are found by stat (a read, which the sandbox does not
 * confine), and a link to a directory opened read-only, the one open Linux would make
 * through it, is refused (ELOOP) as everywhere in the walk. */
static int open_last_with_slash(int parent_fd, const char *name, int flags, mode_t mode) {
    if (flags & O_CREAT) return -EISDIR; /* Linux refuses it before looking the name up */
    int dir = openat(parent_fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dir >= 0) { /* a directory: open it as "." to get open's own answer (EISDIR for a write) */
        int fd = openat(dir, ".", flags | O_CLOEXEC, mode);
        int result = fd < 0 ? -errno : fd;
        close(dir);
        return result;
    }
    int err = errno;
    struct stat st;
    if (err != ENOTDIR || fstatat(parent_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(st.st_mode))
        return -err; /* ENOENT; ENOTDIR for a file */
    if (fstatat(parent_fd, name, &st, 0) != 0) return errno == ENOENT || errno == ELOOP ? -errno : -ENOTDIR;
    if (!S_ISDIR(st.st_mode)) return -ENOTDIR;
    return (flags & O_ACCMODE) != O_RDONLY ? -EISDIR : -ELOOP;
}

static int open_beneath_walk(int root_fd, const char *rel, int flags, mode_t mode) {
    enum { MAX_DEPTH = 256 };
    int stack[MAX_DEPTH];
    int depth = 0, result = -EINVAL;
    stack[0] = root_fd; /* never closed here */
    size_t rel_len = strlen(rel);
    bool trailing_slash = rel_len > 0 && rel[rel_len - 1] == '/';
    char *copy = cs_strdup(rel), *save = NULL;
    char *comp = strtok_r(copy, "/", &save);
    /* ".", ".." and the root itself are opened as "." of their directory with the flags
     * asked for, so that the kernel answers as for the path (O_CREAT: EISDIR, with O_EXCL:
     * EEXIST) */
    if (!comp) { /* the root itself */
        int fd = openat(root_fd, ".", flags | O_NOFOLLOW | O_CLOEXEC, mode);
        free(copy);
        return fd < 0 ? -errno : fd;
    }
    while (comp) {
        char *next = strtok_r(NULL, "/", &save);
        if (strcmp(comp, ".") == 0) {
            if (!next) { /* trailing "/." names the directory itself */
                int fd = openat(stack[depth], ".", flags | O_CLOEXEC, mode);
                result = fd < 0 ? -errno : fd;
                break;
            }
        } else if (strcmp(comp, "..") == 0) {
            if (depth == 0) {
                result = -EXDEV; /* as openat2 with RESOLVE_BENEATH */
                break;
            }
            close(stack[depth--]);
            if (!next) {
                int fd = openat(stack[depth], ".", flags | O_CLOEXEC, mode);
                result = fd < 0 ? -errno : fd;
                break;
            }
        } else if (next) {
            if (depth + 1 >= MAX_DEPTH) {
                result = -ENAMETOOLONG;
                break;
            }
            int fd = openat(stack[depth], comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (fd < 0) {
                result = errno == ENOTDIR ? -ELOOP : -errno; /* a symbolic link, or not a directory */
                if (result == -ELOOP) {
                    struct stat st;
                    if (fstatat(stack[depth], comp, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISLNK(st.st_mode))
                        result = -ENOTDIR;
                }
                break;
            }
            stack[++depth] = fd;
        } else if (trailing_slash) {
            result = open_last_with_slash(stack[depth], comp, flags, mode);
            break;
        } else {
            int fd = openat(stack[depth], comp, flags | O_NOFOLLOW | O_CLOEXEC, mode);
            result = fd < 0 ? -errno : fd;
            break;
        }
        comp = next;
    }
    while (depth > 0) close(stack[depth--]);
    free(copy);
    return result;
}

int cs_open_beneath(int root_fd, const char *rel, int flags, unsigned mode, bool force_walk) {
    if (!force_walk) {
        struct open_how how = {0};
        how.flags = (uint64_t)(flags | O_CLOEXEC);
        how.mode = (flags & (O_CREAT | O_TMPFILE)) ? (mode & 07777) : 0;
        how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
        long fd;
        do fd = syscall(SYS_openat2, root_fd, rel, &how, sizeof how);
        while (fd < 0 && errno == EAGAIN); /* a rename elsewhere raced the lookup: try again */
        if (fd >= 0) return (int)fd;
        if (errno != ENOSYS) return -errno;
    }
    return open_beneath_walk(root_fd, rel, flags, (mode_t)mode);
}

/* ---- inputs ---------------------------------------------------------------------- */

/* The files opened as inputs in this process, by device and inode: an output
 * may never replace one of them. */
static struct input_id {
    dev_t dev;
    ino_t ino;
} * inputs;
static size_t input_count, input_capacity; /* every input, however many (a program's libraries) */
static bool protect_inputs;

void cs_protect_inputs(void) { protect_inputs = true; }

static void input_remember(dev_t dev, ino_t ino) {
    if (!protect_inputs) return;
    for (size_t i = 0; i < input_count; i++)
        if (inputs[i].dev == dev && inputs[i].ino == ino) return;
    if (input_count == input_capacity) {
        input_capacity = input_capacity ? 2 * input_capacity : 16;
        inputs = cs_realloc(inputs, input_capacity * sizeof *inputs);
    }
    inputs[input_count++] = (struct input_id){dev, ino};
}

void cs_input_forget(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return;
    for (size_t i = 0; i < input_count; i++)
        if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) inputs[i] = inputs[--input_count];
}

static bool is_input(dev_t dev, ino_t ino) {
    for (size_t i = 0; i < input_count; i++)
        if (inputs[i].dev == dev && inputs[i].ino == ino) return true;
    return false;
}

bool cs_check_input_fd(int fd, const char *path, cs_error *err) {
    struct stat st;
    if (fstat(fd, &st) != 0) {
        cs_error_set(err, "%s: cannot read: %s", path, strerror(errno));
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        cs_error_set(err, "%s: is a directory", path);
        return false;
    }
    if (!S_ISREG(st.st_mode)) { /* /dev/zero, a FIFO, a terminal: no end, or no second reading */
        cs_error_set(err, "%s: not a regular file", path);
        return false;
    }
    input_remember(st.st_dev, st.st_ino);
    return true;
}

int cs_open_input(const char *path, cs_error *err) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* O_NONBLOCK: a FIFO must not hang the open */
    if (fd < 0) {
        cs_error_set(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (!cs_check_input_fd(fd, path, err)) {
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

FILE *cs_fopen_input(const char *path, cs_error *err) {
    int fd = cs_open_input(path, err);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        cs_error_set(err, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

/* ---- outputs --------------------------------------------------------------------- */

/* Refuse an output that is one of the inputs (same device and inode). */
static bool output_is_input(const char *path, cs_error *err) {
    struct stat st;
    if (stat(path, &st) == 0 && is_input(st.st_dev, st.st_ino)) {
        cs_error_set(err, "%s: the output is also an input; refusing to overwrite it", path);
        return true;
    }
    return false;
}

bool cs_output_is_input(const char *path, cs_error *err) { return output_is_input(path, err); }

FILE *cs_output_open(cs_output *o, const char *path, cs_error *err) {
    memset(o, 0, sizeof *o);
    if (output_is_input(path, err)) return NULL;
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        cs_error_set(err, "%s: is a directory", path);
        return NULL;
    }
    /* Replace the file a symbolic link names, not the link. /dev/stdout,
     * /proc/self/fd/N and anything not a regular file (/dev/null, a FIFO, a
     * terminal) have no directory to rename in: they are written in place. */
    char target[PATH_MAX];
    const char *final = path;
    struct stat lst;
    bool in_place = exists && !S_ISREG(st.st_mode);
    if (!in_place && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        in_place = !exists || !realpath(path, target) || !strncmp(target, "/proc/", 6) ||
            !strncmp(target, "/dev/", 5) || strstr(target, " (deleted)");
        final = target;
    }
    if (in_place) {
        o->f = fopen(path, "wb");
        if (!o->f) cs_error_set(err, "%s: cannot create: %s", path, strerror(errno));
        else o->path = cs_strdup(path);
        return o->f;
    }
    if (exists && access(final, W_OK) != 0) { /* renaming over it would bypass its permissions */
        cs_error_set(err, "%s: cannot create: %s", path, strerror(errno));
        return NULL;
    }
    size_t n = strlen(final);
    o->path = cs_strdup(final);
    o->tmp = cs_malloc(n + 16);
    /* the temporary file in the same directory, so that rename() is atomic */
    snprintf(o->tmp, n + 16, "%s.tmp-XXXXXX", final);
    int fd = mkostemp(o->tmp, O_CLOEXEC);
    if (fd < 0) {
        cs_error_set(err, "%s: cannot create: %s", path, strerror(errno));
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return NULL;
    }
    /* mkostemp makes it 0600; give it the permissions a plain create would */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        cs_error_set(err, "%s: cannot create: %s", path, strerror(errno));
        close(fd);
        unlink(o->tmp);
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
    }
    return o->f;
}

bool cs_output_commit(cs_output *o, cs_error *err) {
    if (!o->f) return false;
    bool ok = fflush(o->f) == 0 && !ferror(o->f);
    int saved = errno;
    if (fclose(o->f) != 0 && ok) ok = false, saved = errno;
    o->f = NULL;
    if (!o->tmp) { /* written in place */
        if (!ok) cs_error_set(err, "%s: write error: %s", o->path, strerror(saved));
        free(o->path);
        o->path = NULL;
        return ok;
    }
    if (ok && output_is_input(o->path, err)) ok = false, saved = 0; /* an input opened after the output */
    else if (!ok) cs_error_set(err, "%s: write error: %s", o->path, strerror(saved));
    if (ok && rename(o->tmp, o->path) != 0) {
        cs_error_set(err, "%s: cannot rename the finished output into place: %s", o->path, strerror(errno));
        ok = false;
    }
    if (!ok) unlink(o->tmp);
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    return ok;
}

void cs_output_discard(cs_output *o) {
    if (!o->f && !o->tmp && !o->path) return;
    if (o->f) fclose(o->f);
    if (o->tmp) unlink(o->tmp);
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

bool cs_write_file(const char *path, const void *data, size_t size, cs_error *err) {
    cs_output out;
    FILE *f = cs_output_open(&out, path, err);
    if (!f) return false;
    bool ok = fwrite(data, 1, size, f) == size;
    if (ok) ok = cs_output_commit(&out, err);
    else cs_error_set(err, "%s: write failed: %s", path, strerror(errno));
    cs_output_discard(&out);
    return ok;
}
