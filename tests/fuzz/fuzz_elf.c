/* Fuzz target: the ELF inspector (sections, symbols) and the loader plus a
 * short run of whatever the file contains. Nothing may crash, hang or leak;
 * every rejection must come with a message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu/emu.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
    int fd = memfd_create("fuzz-elf", 0);
    if (fd < 0) return 0;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return 0;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);

    cs_error err = {{0}};
    elf_image *img = elf_open(path, &err);
    if (img) {
        uint64_t sum = elf_entry(img);
        for (size_t i = 0; i < elf_section_count(img); i++) {
            const elf_section *s = elf_section_at(img, i);
            sum += s->size + strlen(s->name);
            if (s->data && s->size) sum += s->data[s->size - 1];
        }
        for (size_t i = 0; i < elf_symbol_count(img); i++) sum += strlen(elf_symbol_at(img, i)->name);
        for (size_t i = 0; i < elf_fde_count(img); i++) { /* .eh_frame's ranges: sorted, not empty */
            const elf_code_range *r = elf_fde_at(img, i);
            if (r->end <= r->start || (i && r->start < elf_fde_at(img, i - 1)->start)) abort();
            sum += r->end - r->start;
        }
        const elf_symbol *sym = elf_symbol_for(img, sum);
        if (sym) sum += sym->addr;
        elf_close(img);
    } else if (!err.msg[0]) {
        abort(); /* a rejection without a message */
    }

    const char *argv[] = {"fuzzed", NULL};
    emu_options opt = {.argc = 1, .argv = argv, .quiet = true};
    memset(&err, 0, sizeof err);
    emu_t *e = emu_create(path, &opt, &err);
    if (e) {
        uop buf[256];
        emu_run_uops(e, buf, 256);
        emu_run(e, 20000);
        if (emu_state(e) == EMU_FAILED && !emu_error(e)[0]) abort();
        emu_destroy(e);
    } else if (!err.msg[0]) {
        abort();
    }
    close(fd);
    return 0;
}
