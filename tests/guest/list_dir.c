/* opendir/readdir of a host directory (getdents64), as a program listing its input files
 * does: the names sorted, with their d_type, then pread at a negative offset (EINVAL).
 *   list_dir DIR */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return 1;
    }
    char *names[4096];
    int n = 0;
    struct dirent *ent;
    errno = 0;
    while ((ent = readdir(d)) && n < 4096) {
        char line[300];
        snprintf(line, sizeof line, "%s %s", ent->d_name,
                 ent->d_type == DT_DIR       ? "dir"
                     : ent->d_type == DT_REG ? "file"
                                             : "other");
        names[n++] = strdup(line);
    }
    printf("readdir ended: %s\n", errno ? strerror(errno) : "end of directory");
    qsort(names, (size_t)n, sizeof names[0], by_name);
    for (int i = 0; i < n; i++) printf("%s\n", names[i]);
    rewinddir(d);
    int again = 0;
    while (readdir(d)) again++;
    printf("%d entries, %d after rewinddir\n", n, again);
    closedir(d);

    int fd = open(argv[0], O_RDONLY);
    char c;
    errno = 0;
    long r = (long)pread(fd, &c, 1, -1);
    printf("pread at offset -1: %ld (%s)\n", r, strerror(errno));
    return 0;
}
