/* A program that writes a file, syncs it and cuts it short (ftruncate, fsync,
 * fdatasync), and the refusals Linux gives: a read-only descriptor, a negative length.
 *   truncate_sync DIR   (run with --allow-write DIR) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void say(const char *what, int r) { printf("%s: %d (%s)\n", what, r, r < 0 ? strerror(errno) : "ok"); }

int main(int argc, char **argv) {
    char path[4096];
    snprintf(path, sizeof path, "%s/truncate_sync.txt", argc > 1 ? argv[1] : ".");
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    for (int i = 0; i < 500; i++) fprintf(f, "line %d\n", i);
    fflush(f);
    say("fsync", fsync(fileno(f)));
    say("fdatasync", fdatasync(fileno(f)));
    say("ftruncate to 100", ftruncate(fileno(f), 100));
    say("ftruncate to -1", ftruncate(fileno(f), -1));
    struct stat st;
    fstat(fileno(f), &st);
    printf("size %ld\n", (long)st.st_size);
    say("ftruncate to 5000", ftruncate(fileno(f), 5000));
    fstat(fileno(f), &st);
    printf("size %ld\n", (long)st.st_size);
    fclose(f);
    int fd = open(path, O_RDONLY);
    say("ftruncate read-only", ftruncate(fd, 10));
    char buf[16] = {0};
    say("read", (int)read(fd, buf, 12));
    printf("starts with %.12s\n", buf);
    close(fd);
    say("fsync closed", fsync(fd));
    return 0;
}
