/* emu — a RISC-V RV64GC Linux user-mode emulator: the functional front end.
 *
 * Loads a statically linked ELF64 RISC-V executable (ET_EXEC or static-pie),
 * builds the initial stack as Linux does, and executes it, serving the Linux
 * system calls a static glibc program makes. Either fast-forwards (no
 * records) or fills one µop record per executed instruction.
 *
 * Deterministic by default: the time the guest sees is derived from the
 * instruction count, and AT_RANDOM / getrandom come from a fixed seed.
 */
#ifndef CYCLESCOPE_EMU_H
#define CYCLESCOPE_EMU_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace.h"
#include "util/util.h"

typedef struct emu emu_t;

typedef struct emu_options {
    int argc; /* guest argv; argv[0] is the program as the guest sees it */
    const char *const *argv;
    const char *const *envp;     /* NULL-terminated; NULL gives the guest an empty environment */
    bool host_time;              /* guest clocks follow the host instead of the instruction count */
    const char *allow_write_dir; /* NULL: the guest may write only to stdout and stderr */
    const char *sysroot;         /* --sysroot: the guest library prefix, where a dynamically linked
                                  * program's interpreter and libraries are looked up (like
                                  * qemu-riscv64 -L); NULL: CYCLESCOPE_SYSROOT, else
                                  * emu_sysroot_default(); "": none */
    uint64_t seed;               /* for AT_RANDOM and getrandom */
    bool quiet;                  /* no notices on stderr (denied writes, ...) */
    bool record_values;          /* µop records carry their results (UOP_HAS_VALUE), for value
                               * prediction; costs a little record speed */
    uint64_t memory_limit;       /* bytes of guest mappings (like RLIMIT_AS; past it mmap and brk
                                  * give ENOMEM); 0: EMU_DEFAULT_MEMORY */
    bool strict_syscalls;        /* an unknown system call ends the run (default: -ENOSYS and
                                  * one warning per call number) */
    bool env_fixed;              /* --env-fixed: envp is ignored for a fixed minimal environment,
                                  * the guest sees its program as EMU_FIXED_DIR/NAME (argv[0],
                                  * AT_EXECFN, /proc/self/exe) and its inherited standard streams
                                  * as pipes, so that neither the caller's environment nor where
                                  * the files live or stdout leads changes the cycles (glibc
                                  * mallocs the /proc/self/exe path at start-up: its length
                                  * moves the heap) */
    bool streams_fixed;          /* only the last part of env_fixed: the inherited standard
                                  * streams look like pipes (model analyze and its --compare-sim
                                  * re-run, whose stdout leads elsewhere) */
    uint64_t thread_quantum;     /* instructions a thread of the guest runs before the next
                                  * runnable one takes the hart; 0: EMU_DEFAULT_THREAD_QUANTUM */
    int32_t vpid, parent_vpid;   /* the guest's pid and parent pid; 0: 1000 and 1 (an execve of a
                                  * child passes its own on: process.c) */
    bool may_exec;               /* a guest execve replaces this host process by `cyclescope exec`
                                  * of the new program (the exec verb, forked children); false: it
                                  * ends the run in one line (a timed run observes one program) */
} emu_options;

#define EMU_DEFAULT_THREAD_QUANTUM 100000

#define EMU_FIXED_DIR "/guest"

#define EMU_DEFAULT_MEMORY (4ull << 30)

typedef enum emu_status {
    EMU_RUNNING,
    EMU_EXITED, /* the guest called exit/exit_group, or was killed by a signal it raised */
    EMU_FAILED  /* the run stopped: fault, illegal instruction, unsupported call; see emu_error */
} emu_status;

emu_t *emu_create(const char *path, const emu_options *opt, cs_error *err);
/* The guest library prefix used when neither --sysroot nor CYCLESCOPE_SYSROOT gives one:
 * /usr/riscv64-linux-gnu (Debian's cross libc) when it exists, else NULL. */
const char *emu_sysroot_default(void);
/* The process a guest execve made (`cyclescope exec --exec-state FD`, docs/sandbox.md): the
 * program, argv, envp, options, descriptors and pids the memfd FD holds. */
emu_t *emu_create_exec_state(int fd, cs_error *err);
void emu_destroy(emu_t *emu);

/* Execute up to max instructions without records. Returns the number executed. */
uint64_t emu_run(emu_t *emu, uint64_t max);

/* Execute up to max instructions, one µop record each. Returns the number filled. */
uint64_t emu_run_uops(emu_t *emu, uop *out, uint64_t max);

/* ---- basic-block vectors (SimPoint) ----
 * A block is the run of instructions from a pc control reached to the next
 * control transfer (a branch, taken or not, jal, jalr), named by its first
 * pc; ids are 0, 1, 2… in order of first execution. emu_run_bbv costs one
 * table lookup per block on top of emu_run (bench_emu measures it). */
typedef struct emu_bbv emu_bbv;
emu_bbv *emu_bbv_create(void);
void emu_bbv_destroy(emu_bbv *b);
/* Execute up to max instructions without records, adding each to its block's
 * count. A block cut by max goes on in the next call. Returns the number executed. */
uint64_t emu_run_bbv(emu_t *emu, emu_bbv *b, uint64_t max);
/* Add instructions to the block starting at block_pc (for other µop sources). */
void emu_bbv_count(emu_bbv *b, uint64_t block_pc, uint64_t instructions);
uint32_t emu_bbv_block_count(const emu_bbv *b);
uint64_t emu_bbv_block_pc(const emu_bbv *b, uint32_t id);
/* The blocks counted since the last take: ids and instruction counts, in order
 * of first count; the counts restart from 0. ids and counts need room for
 * emu_bbv_block_count() entries. Returns how many were written. */
size_t emu_bbv_take(emu_bbv *b, uint32_t *ids, uint64_t *counts);

emu_status emu_state(const emu_t *emu);
int emu_exit_code(const emu_t *emu);     /* valid when EMU_EXITED */
const char *emu_error(const emu_t *emu); /* valid when EMU_FAILED */
const char *emu_path(const emu_t *emu);  /* the program as given to emu_create (messages name it) */
/* When EMU_FAILED: the signal Linux would have killed the guest with
 * (SIGSEGV, SIGILL, SIGBUS, SIGTRAP for a fault; any other the guest sent itself without a
 * handler, as abort()'s SIGABRT), or 0 for what cyclescope does not support (a system call,
 * a feature). */
int emu_fault_signal(const emu_t *emu);
/* A child process of the guest's (made by a guest's fork, then execve) that ended: the host
 * process ends as the guest did, killed by its signal or with its exit code, for its
 * parent's wait (docs/sandbox.md §15). Returns for the first process, and while it runs. */
void emu_end_child_process(emu_t *emu);
uint64_t emu_icount(const emu_t *emu); /* instructions executed so far */

/* In a process forked from the one that ran the guest so far (a simulation point timed
 * on a copy of the fast-forward): give each of the guest's regular files an open file
 * description of this process' own, at the same offset and with the same access, so the
 * copy's reads, writes and seeks no longer move the other process' offsets (a fork
 * shares them). Descriptors that shared an offset keep sharing one. Pipes and devices
 * stay shared. */
void emu_private_files(emu_t *emu);

/* A uop_source reading from the emulator (which stays owned by the caller).
 * Its read() returns 0 when the guest exits or is killed by a fault (emu_state then
 * says EMU_FAILED with a signal) and -1 when the run failed for what cyclescope does
 * not support (fault signal 0). */
uop_source *emu_source_create(emu_t *emu);

/* The emulator behind a source emu_source_create made (its kind UOP_SOURCE_KIND_EMULATOR), NULL
 * for any other source. */
emu_t *emu_source_emu(uop_source *src);

/* ---- the code images the guest mapped (the profile's loadmap: docs/profile.md) ----
 * Every executable mapping of a file the guest has had, as /proc/self/maps would list it: the
 * interpreter the loader placed, and each mmap with PROT_EXEC of a file (the libraries ld.so
 * maps, dlopen'd ones), in the order made. Kept after an munmap, so that a sample taken before
 * a dlclose still finds its library; a later one overlapping it replaces it. The executable
 * itself is not listed (emu_path). */
typedef struct emu_code_map {
    const char *guest_path; /* the file as the guest named it */
    const char *host_path;  /* the file read (through the sysroot), absolute when known */
    uint64_t start, end;    /* [start, end), page aligned */
    uint64_t offset;        /* the file offset mapped at start */
} emu_code_map;
size_t emu_code_map_count(const emu_t *emu);
const emu_code_map *emu_code_map_at(const emu_t *emu, size_t i);

/* ---- ELF inspection (the disassembler and the DCPI analysis need it) ---- */

typedef struct elf_image elf_image;

typedef struct elf_section {
    const char *name;
    uint64_t addr, size;
    const uint8_t *data; /* NULL for NOBITS */
    bool exec;
} elf_section;

typedef struct elf_symbol {
    const char *name;
    uint64_t addr, size;
    uint32_t index;   /* position in the ELF symbol table */
    uint16_t section; /* section index; 0xfff1 (SHN_ABS) for absolute symbols */
    uint8_t bind;     /* STB_LOCAL 0, STB_GLOBAL 1, STB_WEAK 2 */
    bool func, object;
    bool synthetic; /* made by the reader, as objdump makes them: a PLT stub's "NAME@plt" */
} elf_symbol;

elf_image *elf_open(const char *path, cs_error *err);
void elf_close(elf_image *img);
uint64_t elf_entry(const elf_image *img);
/* What the emulator adds to the program's link addresses when it loads it: the static-pie
 * base for a PIE (static or dynamically linked), 0 otherwise. */
uint64_t elf_load_bias(const elf_image *img);
/* A pc of the running program at its link address (*link) when it lies in one of the
 * executable's own code sections as loaded (less elf_load_bias); false for any other pc —
 * a dynamically linked program's loader and libraries, code the program generated. */
bool elf_code_link_address(const elf_image *img, uint64_t pc, uint64_t *link);
/* The link address at file offset `offset` by the program headers (the PT_LOAD holding it):
 * with a code map's start and offset, a shared library's load bias. False when none holds it. */
bool elf_file_offset_address(const elf_image *img, uint64_t offset, uint64_t *addr);
size_t elf_section_count(const elf_image *img);
const elf_section *elf_section_at(const elf_image *img, size_t i);
/* Symbols sorted by address; at one address in the order objdump prefers
 * them (functions, objects, non-local, global, larger, then by name). */
size_t elf_symbol_count(const elf_image *img);
/* Whether the symbols are a .symtab's (every function's); false when the file is stripped: only
 * .dynsym's exported ones, if any. */
bool elf_has_symtab(const elf_image *img);
/* A function's code as its frame description in .eh_frame (an FDE) gives it: [start, end). */
typedef struct elf_code_range {
    uint64_t start, end;
} elf_code_range;
/* The FDEs' ranges, sorted by start (none without .eh_frame; malformed entries are left out). */
size_t elf_fde_count(const elf_image *img);
const elf_code_range *elf_fde_at(const elf_image *img, size_t i);
const elf_symbol *elf_symbol_at(const elf_image *img, size_t i);
/* Is addr in data, by the mapping symbols of its section (code when none says
 * so)? *until: the address of the next mapping symbol there, UINT64_MAX if
 * none. *isa: what the mapping symbol that decides (the last at or below
 * addr) says of the ISA: the ISA_EXT_* extensions of a $x<isa>, -1 for a plain
 * $x, a $d or none; *next_isa: the same for the first $x after addr. objdump
 * keeps the ISA of the last $x<isa> it met while disassembling, so a plain
 * $x continues it (see cmd_disasm.c). */
bool elf_code_state(const elf_image *img, uint16_t section, uint64_t addr, uint64_t *until, int *isa, int *next_isa);
/* The ISA_EXT_* extensions the file's .riscv.attributes Tag_RISCV_arch names
 * (ISA_EXT_C, objdump's default rv64gc, without one). */
unsigned elf_file_extensions(const elf_image *img);
/* The privileged-spec version in the file's .riscv.attributes (major, minor,
 * revision; zeros when not given), which decides the CSR names objdump prints. */
void elf_priv_spec(const elf_image *img, unsigned spec[3]);
/* The symbol objdump would name for addr: the last symbol at or below addr
 * in the section holding addr. NULL if none. */
const elf_symbol *elf_symbol_for(const elf_image *img, uint64_t addr);

#endif
