/* eh_frame_ranges FILE: the function ranges the ELF reader takes from FILE's .eh_frame (its
 * FDEs), one "START..END" a line in hex, as `readelf --debug-dump=frames` prints an FDE's
 * pc=START..END; the test profile.eh_frame_ranges compares the two. */
#include <inttypes.h>
#include <stdio.h>

#include "emu/emu.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: eh_frame_ranges FILE\n");
        return 2;
    }
    cs_error err = {{0}};
    elf_image *img = elf_open(argv[1], &err);
    if (!img) {
        fprintf(stderr, "eh_frame_ranges: %s\n", err.msg);
        return 1;
    }
    for (size_t i = 0; i < elf_fde_count(img); i++) {
        const elf_code_range *r = elf_fde_at(img, i);
        printf("%016" PRIx64 "..%016" PRIx64 "\n", r->start, r->end);
    }
    elf_close(img);
    return 0;
}
