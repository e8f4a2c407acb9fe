/* Guest memory (internal to emu): a sparse 48-bit address space of 4 KiB
 * pages, allocated on first touch inside mapped regions, with a direct-mapped
 * software TLB in front for loads and stores.
 *
 * Notes:
 *  - Mapped regions (VMAs) decide what is legal; pages are materialised lazily
 *    and zero-filled, the way Linux demand-pages anonymous memory.
 *  - Pages holding decoded instructions are never entered in the store TLB, so
 *    a store to code takes the slow path and invalidates the decoded entries
 *    (self-modifying code stays correct without a check on the fast path).
 *  - Misaligned accesses are allowed (Linux emulates them for user code); an
 *    access that crosses a page boundary is split byte by byte.
 */
#ifndef CYCLESCOPE_EMU_MEM_H
#define CYCLESCOPE_EMU_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trace/trace.h"

enum { PAGE_SHIFT = 12, PAGE_SIZE = 1 << PAGE_SHIFT, TLB_SIZE = 16384 };
#define PAGE_MASK     ((uint64_t)PAGE_SIZE - 1)
#define GUEST_VA_BITS 48

enum { PROT_R = 1, PROT_W = 2, PROT_X = 4 };

/* A decoded instruction, cached per code page at each halfword offset. Entries are
 * 64 bytes on 64-byte boundaries: at the natural 56 bytes one entry in eight had its
 * first 16 bytes (every field the fast-forward loop reads) split across two host cache
 * lines, and the loop indexed them with a multiply; math/big's word loops ran 15% slower
 * (docs/sandbox.md §21). */
typedef struct dinsn {
    _Alignas(64) int64_t imm;
    uint16_t op;    /* isa_op */
    uint8_t length; /* 0 = not decoded yet */
    uint8_t rd;     /* integer destinations x0 are redirected to the sink register 32 */
    uint8_t rs1, rs2, rs3;
    uint8_t rm;
    uop tmpl; /* the static part of this instruction's µop record */
} dinsn;
_Static_assert(sizeof(dinsn) == 64,
               "one decoded instruction per host cache line; a larger entry doubles the code cache");

typedef struct page {
    uint8_t *data; /* PAGE_SIZE bytes, NULL until touched */
    dinsn *code;   /* PAGE_SIZE/2 decoded entries, NULL if never executed */
    uint8_t prot;
    bool shared; /* data is a page of a host MAP_SHARED mapping (mem_map_shared): munmap, not free */
    /* past the end of the shared memory its mapping grew beyond (mem_mark_bus): never
     * materialised, an access faults with SIGBUS (fault_bus) */
    bool bus;
} page;

typedef struct vma {
    uint64_t start, end; /* [start, end), page aligned */
    uint8_t prot;
} vma;

typedef struct tlb_entry {
    uint64_t vpn;  /* virtual page number, ~0 when empty */
    uint8_t *host; /* the page's data */
} tlb_entry;

typedef struct mem {
    tlb_entry tlb_read[TLB_SIZE];
    tlb_entry tlb_write[TLB_SIZE];
    void *root; /* 4-level radix tree of 512-entry tables; leaves are page[512] */
    vma *vmas;  /* sorted, non-overlapping */
    size_t vma_count, vma_cap;
    uint64_t pages_allocated;
    /* Limits (--guest-memory). `mapped` is the bytes of all regions, kept at
     * or below map_limit like RLIMIT_AS (mem_map fails past it: ENOMEM for the
     * guest); host_bytes is what the guest's pages, page tables and decoded
     * code cost on the host, kept at or below host_limit (an access that would
     * pass it fails with over_limit set, and the run ends with an error). */
    uint64_t mapped, map_limit, host_bytes, host_limit;
    bool over_limit;
    /* set by a failed access, for the caller's message */
    uint64_t fault_addr;
    int fault_kind; /* PROT_R, PROT_W or PROT_X */
    bool fault_bus; /* ... on a page past its shared memory's end (SIGBUS, not SIGSEGV) */
} mem;

void mem_init(mem *m);
void mem_free(mem *m);

/* Regions. mem_map fails (returns false) for addresses outside the 48-bit
 * space and when the regions would pass map_limit. Mapping over an existing
 * range replaces it (MAP_FIXED). */
bool mem_map(mem *m, uint64_t start, uint64_t len, uint8_t prot);
/* mem_map whose pages are a host MAP_SHARED|MAP_ANONYMOUS mapping, made at once: a host
 * fork() of the emulator shares them with the child, as the guest's MAP_SHARED memory is
 * shared with its forked children on Linux (each process' writes seen by the other at once,
 * whatever ends the writer, SIGKILL included). Their contents survive MADV_DONTNEED
 * (mem_zero_range), as shmem's pages do. */
bool mem_map_shared(mem *m, uint64_t start, uint64_t len, uint8_t prot);
/* The mapped pages of [start, start+len) lie past the end of the shared memory object their
 * mapping shows (a MAP_SHARED|MAP_ANONYMOUS mapping mremap grew: Linux's shmem object keeps
 * its size, and shmem_fault answers an access past it with SIGBUS): their contents are
 * dropped, and an access, or a system call's copy, faults with fault_bus set. False when the
 * host limit refuses a page table. */
bool mem_mark_bus(mem *m, uint64_t start, uint64_t len);
/* Every shared page becomes a private copy (a SimPoint copy of the run must not write into
 * the memory the run goes on with). */
void mem_unshare(mem *m);
void mem_unmap(mem *m, uint64_t start, uint64_t len);
bool mem_protect(mem *m, uint64_t start, uint64_t len, uint8_t prot); /* false: not all mapped */
bool mem_is_free(const mem *m, uint64_t start, uint64_t len);
/* Move the mapped range [from, from+len) to the free range [to, to+new_len)
 * (new_len >= len; the rest reads as zeros), as mremap MREMAP_MAYMOVE: the
 * pages go over without a copy, so the limit sees only mapped - len + new_len.
 * False, nothing moved, past map_limit or the host limit. */
bool mem_move(mem *m, uint64_t from, uint64_t len, uint64_t to, uint64_t new_len, uint8_t prot);
bool mem_is_mapped(const mem *m, uint64_t start, uint64_t len); /* every page of the range */
/* Set the limits: map_limit bytes of regions, and host memory for them. */
void mem_set_limit(mem *m, uint64_t map_limit);
/* Zero the materialised writable pages of [start, start+len) (MADV_DONTNEED on
 * private memory); costs follow the pages that exist, not len. False if part
 * of the range is not mapped (ENOMEM); the mapped part is zeroed anyway. */
bool mem_zero_range(mem *m, uint64_t start, uint64_t len);
/* Highest free, page-aligned range of `len` bytes that ends at or below `below`. */
uint64_t mem_find_free(const mem *m, uint64_t len, uint64_t below);

/* The page holding addr, materialised if mapped; NULL if unmapped. */
page *mem_page(mem *m, uint64_t addr);
/* The bytes of the page holding addr if it was ever touched; NULL for a page
 * that reads as zeros (or is unmapped). Allocates nothing. */
const uint8_t *mem_peek(mem *m, uint64_t addr);

/* Slow paths, also usable directly: copy with permission checks. */
bool mem_read_slow(mem *m, uint64_t addr, void *out, size_t size);
bool mem_write_slow(mem *m, uint64_t addr, const void *in, size_t size);
/* Loader and system-call access: no permission checks beyond being mapped. */
bool mem_copy_in(mem *m, uint64_t addr, const void *in, size_t size);
bool mem_copy_out(mem *m, uint64_t addr, void *out, size_t size);
/* System-call access, as the kernel's copy_to_user / copy_from_user: the pages
 * must be writable (in) or readable (out); false (EFAULT) otherwise. */
bool mem_user_copy_in(mem *m, uint64_t addr, const void *in, size_t size);
bool mem_user_copy_out(mem *m, uint64_t addr, void *out, size_t size);
/* Read a NUL-terminated guest string of at most max-1 bytes. */
bool mem_read_string(mem *m, uint64_t addr, char *out, size_t max);

/* The decoded-instruction array of the page holding pc (fetch permission
 * checked), created empty on first use. NULL with fault set if not executable. */
dinsn *mem_code(mem *m, uint64_t pc);

/* The host address of an aligned SIZE-byte word the guest may write (NULL with the fault set
 * if it may not), for atomic instructions: done on it with the host's atomic operations, so
 * they stay atomic against another process writing the same shared page at the same time. */
void *mem_atomic_slow(mem *m, uint64_t addr);
static inline void *mem_atomic(mem *m, uint64_t addr) {
    uint64_t vpn = addr >> PAGE_SHIFT;
    tlb_entry *e = &m->tlb_write[vpn & (TLB_SIZE - 1)];
    if (__builtin_expect(e->vpn == vpn, 1)) return e->host + (addr & PAGE_MASK);
    return mem_atomic_slow(m, addr);
}

static inline bool mem_read(mem *m, uint64_t addr, void *out, size_t size) {
    uint64_t vpn = addr >> PAGE_SHIFT;
    tlb_entry *e = &m->tlb_read[vpn & (TLB_SIZE - 1)];
    if (__builtin_expect(e->vpn == vpn && (addr & PAGE_MASK) <= PAGE_SIZE - size, 1)) {
        memcpy(out, e->host + (addr & PAGE_MASK), size);
        return true;
    }
    return mem_read_slow(m, addr, out, size);
}

static inline bool mem_write(mem *m, uint64_t addr, const void *in, size_t size) {
    uint64_t vpn = addr >> PAGE_SHIFT;
    tlb_entry *e = &m->tlb_write[vpn & (TLB_SIZE - 1)];
    if (__builtin_expect(e->vpn == vpn && (addr & PAGE_MASK) <= PAGE_SIZE - size, 1)) {
        memcpy(e->host + (addr & PAGE_MASK), in, size);
        return true;
    }
    return mem_write_slow(m, addr, in, size);
}

#endif
