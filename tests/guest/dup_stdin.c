/* Moves a file onto its stdin (dup2) and ends: the emulator must close that host descriptor
 * when it is destroyed (unit.emu: emu_destroy closed only the guest's descriptors from 3 up). */
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv) {
    (void)argc;
    int fd = open(argv[0], O_RDONLY);
    if (fd < 0 || dup2(fd, 0) != 0) return 1;
    close(fd);
    return 0;
}
