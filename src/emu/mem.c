#include "mem.h"

#include <stdlib.h>
#include <sys/mman.h>

enum { LEVEL_BITS = 9, LEVEL_SIZE = 1 << LEVEL_BITS, LEVELS = 4 };
#define VA_LIMIT (1ull << GUEST_VA_BITS)

typedef struct table {
    void *slot[LEVEL_SIZE];
} table;

static void tlb_flush(mem *m) {
    for (unsigned i = 0; i < TLB_SIZE; i++) {
        m->tlb_read[i].vpn = ~0ull;
        m->tlb_write[i].vpn = ~0ull;
    }
}

/* Decoded code costs far more than the page it decodes (a dinsn per halfword,
 * 32 times the page); host memory for it and for page tables is allowed on
 * top of the guest's own pages: a quarter of the limit, at least 256 MiB. */
#define HOST_OVERHEAD(limit) ((limit) / 4 > (256ull << 20) ? (limit) / 4 : (256ull << 20))
/* Linux's default vm.max_map_count: past it mmap fails with ENOMEM. */
#define MAX_REGIONS          65530
#define CODE_BYTES           ((PAGE_SIZE / 2) * sizeof(dinsn))

void mem_init(mem *m) {
    memset(m, 0, sizeof *m);
    tlb_flush(m);
    m->root = cs_calloc(1, sizeof(table));
    mem_set_limit(m, VA_LIMIT);
}

void mem_set_limit(mem *m, uint64_t map_limit) {
    m->map_limit = map_limit;
    m->host_limit = map_limit + HOST_OVERHEAD(map_limit);
}

/* Account for n more host bytes; false (over_limit set) if that passes the limit. */
static bool host_charge(mem *m, uint64_t n) {
    if (m->host_bytes + n > m->host_limit) {
        m->over_limit = true;
        return false;
    }
    m->host_bytes += n;
    return true;
}

static void free_tree(void *node, int level) {
    if (!node) return;
    if (level == LEVELS - 1) {
        page *leaf = node;
        for (unsigned i = 0; i < LEVEL_SIZE; i++) {
            if (leaf[i].shared) munmap(leaf[i].data, PAGE_SIZE);
            else free(leaf[i].data);
            free(leaf[i].code);
        }
    } else {
        table *t = node;
        for (unsigned i = 0; i < LEVEL_SIZE; i++) free_tree(t->slot[i], level + 1);
    }
    free(node);
}

void mem_free(mem *m) {
    free_tree(m->root, 0);
    free(m->vmas);
    memset(m, 0, sizeof *m);
}

/* The page-table entry of vpn; created when `create` is set. */
static page *walk(mem *m, uint64_t vpn, bool create) {
    table *t = m->root;
    for (int level = 0; level < LEVELS - 1; level++) {
        unsigned idx = (vpn >> (LEVEL_BITS * (LEVELS - 1 - level))) & (LEVEL_SIZE - 1);
        void *next = t->slot[idx];
        if (!next) {
            if (!create) return NULL;
            size_t bytes = (level == LEVELS - 2) ? LEVEL_SIZE * sizeof(page) : sizeof(table);
            if (!host_charge(m, bytes)) return NULL;
            next = cs_calloc(1, bytes);
            t->slot[idx] = next;
        }
        if (level == LEVELS - 2) return &((page *)next)[vpn & (LEVEL_SIZE - 1)];
        t = next;
    }
    return NULL;
}

/* ---- regions ------------------------------------------------------------------ */

static const vma *find_vma(const mem *m, uint64_t addr) {
    size_t lo = 0, hi = m->vma_count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->vmas[mid].end <= addr) lo = mid + 1;
        else hi = mid;
    }
    if (lo < m->vma_count && m->vmas[lo].start <= addr) return &m->vmas[lo];
    return NULL;
}

static void vma_insert(mem *m, size_t at, vma v) {
    if (m->vma_count == m->vma_cap) {
        m->vma_cap = m->vma_cap ? m->vma_cap * 2 : 16;
        m->vmas = cs_realloc(m->vmas, m->vma_cap * sizeof(vma));
    }
    memmove(&m->vmas[at + 1], &m->vmas[at], (m->vma_count - at) * sizeof(vma));
    m->vmas[at] = v;
    m->vma_count++;
    m->mapped += v.end - v.start;
}

/* Remove [start, end) from the region list, splitting regions that straddle it. */
static void vma_remove(mem *m, uint64_t start, uint64_t end) {
    for (size_t i = 0; i < m->vma_count;) {
        vma *v = &m->vmas[i];
        if (v->end <= start || v->start >= end) {
            i++;
            continue;
        }
        if (v->start < start && v->end > end) { /* split in two */
            vma tail = {end, v->end, v->prot};
            m->mapped -= v->end - start;
            v->end = start;
            vma_insert(m, i + 1, tail);
            return;
        }
        if (v->start < start) {
            m->mapped -= v->end - start;
            v->end = start;
            i++;
        } else if (v->end > end) {
            m->mapped -= end - v->start;
            v->start = end;
            i++;
        } else {
            m->mapped -= v->end - v->start;
            memmove(v, v + 1, (m->vma_count - i - 1) * sizeof(vma));
            m->vma_count--;
        }
    }
}

/* The entry of vpn if its tables exist; otherwise NULL and *span, the number of
 * pages (aligned) that share the missing table, so a walk can skip them all. */
static page *lookup(const mem *m, uint64_t vpn, uint64_t *span) {
    const table *t = m->root;
    for (int level = 0; level < LEVELS - 1; level++) {
        int shift = LEVEL_BITS * (LEVELS - 1 - level);
        void *next = t->slot[(vpn >> shift) & (LEVEL_SIZE - 1)];
        if (!next) {
            *span = 1ull << shift;
            return NULL;
        }
        if (level == LEVELS - 2) return &((page *)next)[vpn & (LEVEL_SIZE - 1)];
        t = next;
    }
    return NULL;
}

/* Apply fn to every page entry whose tables exist in [start, end): the cost
 * follows the tables, never the length of the range. */
static void for_pages(mem *m, uint64_t start, uint64_t end, void (*fn)(mem *, page *, uint8_t), uint8_t arg) {
    for (uint64_t vpn = start >> PAGE_SHIFT; vpn < end >> PAGE_SHIFT;) {
        uint64_t span = 1;
        page *p = lookup(m, vpn, &span);
        if (!p) {
            vpn = (vpn & ~(span - 1)) + span;
            continue;
        }
        fn(m, p, arg);
        vpn++;
    }
}

static void page_release(mem *m, page *p, uint8_t unused) {
    (void)unused;
    if (p->data) m->host_bytes -= PAGE_SIZE;
    if (p->code) m->host_bytes -= CODE_BYTES;
    if (p->shared) munmap(p->data, PAGE_SIZE); /* this process' view; the others keep theirs */
    else free(p->data);
    free(p->code);
    p->data = NULL;
    p->code = NULL;
    p->prot = 0;
    p->shared = false;
    p->bus = false;
}

static void page_set_prot(mem *m, page *p, uint8_t prot) {
    (void)m;
    p->prot = prot;
}

static void page_zero(mem *m, page *p, uint8_t unused) {
    (void)m, (void)unused;
    if (p->data && (p->prot & PROT_W) && !p->shared) memset(p->data, 0, PAGE_SIZE);
}

/* A shared page becomes a private copy of itself. */
static void page_unshare(mem *m, page *p, uint8_t unused) {
    (void)m, (void)unused;
    if (!p->shared) return;
    uint8_t *copy = cs_malloc(PAGE_SIZE);
    memcpy(copy, p->data, PAGE_SIZE);
    munmap(p->data, PAGE_SIZE);
    p->data = copy;
    p->shared = false;
}

static bool range_ok(uint64_t start, uint64_t len) {
    return (start & PAGE_MASK) == 0 && len <= VA_LIMIT && start <= VA_LIMIT - len;
}

bool mem_map(mem *m, uint64_t start, uint64_t len, uint8_t prot) {
    len = (len + PAGE_MASK) & ~PAGE_MASK;
    if (!range_ok(start, len) || len == 0) return false;
    uint64_t overlap = 0;
    for (size_t i = 0; i < m->vma_count; i++) {
        const vma *v = &m->vmas[i];
        uint64_t lo = v->start > start ? v->start : start, hi = v->end < start + len ? v->end : start + len;
        if (lo < hi) overlap += hi - lo;
    }
    if (m->mapped - overlap + len > m->map_limit) return false;
    if (m->vma_count >= MAX_REGIONS) return false;
    mem_unmap(m, start, len);
    size_t at = 0;
    while (at < m->vma_count && m->vmas[at].start < start) at++;
    vma_insert(m, at, (vma){start, start + len, prot});
    return true;
}

bool mem_map_shared(mem *m, uint64_t start, uint64_t len, uint8_t prot) {
    len = (len + PAGE_MASK) & ~PAGE_MASK;
    if (!range_ok(start, len) || len == 0) return false;
    if (m->host_bytes + len > m->host_limit) return false; /* its pages are charged at once */
    uint8_t *host = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (host == MAP_FAILED) return false;
    /* every page's table entry before the region: when the host limit refuses one, nothing
     * was replaced */
    for (uint64_t off = 0; off < len; off += PAGE_SIZE)
        if (!walk(m, (start + off) >> PAGE_SHIFT, true)) {
            munmap(host, len);
            m->over_limit = false; /* the guest's mmap fails (ENOMEM): the run goes on */
            return false;
        }
    if (!mem_map(m, start, len, prot)) {
        munmap(host, len);
        return false;
    }
    for (uint64_t off = 0; off < len; off += PAGE_SIZE) {
        page *p = walk(m, (start + off) >> PAGE_SHIFT, false);
        p->data = host + off;
        p->shared = true;
        p->prot = prot;
        m->host_bytes += PAGE_SIZE;
        m->pages_allocated++;
    }
    return true;
}

bool mem_mark_bus(mem *m, uint64_t start, uint64_t len) {
    len = (len + PAGE_MASK) & ~PAGE_MASK;
    if (!range_ok(start, len)) return false;
    for (uint64_t off = 0; off < len; off += PAGE_SIZE) {
        page *p = walk(m, (start + off) >> PAGE_SHIFT, true);
        if (!p) {
            m->over_limit = false; /* the guest's call fails (ENOMEM): the run goes on */
            return false;
        }
        const vma *v = find_vma(m, start + off);
        uint8_t prot = v ? v->prot : 0;
        page_release(m, p, 0);
        p->prot = prot;
        p->bus = v != NULL;
    }
    tlb_flush(m);
    return true;
}

void mem_unshare(mem *m) {
    for_pages(m, 0, VA_LIMIT, page_unshare, 0);
    tlb_flush(m);
}

void mem_unmap(mem *m, uint64_t start, uint64_t len) {
    len = (len + PAGE_MASK) & ~PAGE_MASK;
    if (!range_ok(start, len)) return;
    vma_remove(m, start, start + len);
    for_pages(m, start, start + len, page_release, 0);
    tlb_flush(m);
}

bool mem_move(mem *m, uint64_t from, uint64_t len, uint64_t to, uint64_t new_len, uint8_t prot) {
    len = (len + PAGE_MASK) & ~PAGE_MASK;
    new_len = (new_len + PAGE_MASK) & ~PAGE_MASK;
    if (!range_ok(from, len) || !range_ok(to, new_len) || new_len < len || !mem_is_mapped(m, from, len) ||
        !mem_is_free(m, to, new_len))
        return false;
    if (m->mapped - len + new_len > m->map_limit || m->vma_count >= MAX_REGIONS) return false;
    /* the destination's tables first: when the host limit refuses one, nothing has moved yet */
    uint64_t from_vpn = from >> PAGE_SHIFT, to_vpn = to >> PAGE_SHIFT, pages = len >> PAGE_SHIFT;
    for (uint64_t i = 0; i < pages;) {
        uint64_t span = 1;
        const page *p = lookup(m, from_vpn + i, &span);
        if (!p) {
            i = ((from_vpn + i) & ~(span - 1)) + span - from_vpn;
            continue;
        }
        if ((p->data || p->bus) && !walk(m, to_vpn + i, true)) return false;
        i++;
    }
    for (uint64_t i = 0; i < pages;) {
        uint64_t span = 1;
        page *p = lookup(m, from_vpn + i, &span);
        if (!p) {
            i = ((from_vpn + i) & ~(span - 1)) + span - from_vpn;
            continue;
        }
        if (p->data || p->bus) {
            page *q = walk(m, to_vpn + i, false);
            q->data = p->data;
            q->prot = prot;
            q->shared = p->shared;
            q->bus = p->bus;
            p->data = NULL;
            p->shared = p->bus = false;
        }
        page_release(m, p, 0); /* decoded code stays behind: it knows its addresses */
        i++;
    }
    vma_remove(m, from, from + len);
    size_t at = 0;
    while (at < m->vma_count && m->vmas[at].start < to) at++;
    vma_insert(m, at, (vma){to, to + new_len, prot});
    tlb_flush(m);
    return true;
}

bool mem_protect(mem *m, uint64_t start, uint64_t len, uint8_t prot) {
    len = (len + PAGE_MASK) & ~PAGE_MASK;
    if (!range_ok(start, len)) return false;
    uint64_t end = start + len;
    for (uint64_t a = start; a < end;) { /* all of it must be mapped (ENOMEM otherwise) */
        const vma *v = find_vma(m, a);
        if (!v) return false;
        a = v->end;
    }
    vma_remove(m, start, end);
    size_t at = 0;
    while (at < m->vma_count && m->vmas[at].start < start) at++;
    vma_insert(m, at, (vma){start, end, prot});
    for_pages(m, start, end, page_set_prot, prot);
    tlb_flush(m);
    return true;
}

bool mem_is_mapped(const mem *m, uint64_t start, uint64_t len) {
    if (!range_ok(start, len)) return false;
    uint64_t end = start + len, covered = 0;
    for (size_t i = 0; i < m->vma_count; i++) {
        const vma *v = &m->vmas[i];
        uint64_t lo = v->start > start ? v->start : start, hi = v->end < end ? v->end : end;
        if (lo < hi) covered += hi - lo;
    }
    return covered == len;
}

bool mem_zero_range(mem *m, uint64_t start, uint64_t len) {
    len = (len + PAGE_MASK) & ~PAGE_MASK;
    if (!range_ok(start, len)) return false;
    uint64_t end = start + len, covered = 0;
    for (size_t i = 0; i < m->vma_count; i++) {
        const vma *v = &m->vmas[i];
        uint64_t lo = v->start > start ? v->start : start, hi = v->end < end ? v->end : end;
        if (lo >= hi) continue;
        covered += hi - lo;
        for_pages(m, lo, hi, page_zero, 0);
    }
    return covered == len;
}

bool mem_is_free(const mem *m, uint64_t start, uint64_t len) {
    if (!range_ok(start, len)) return false;
    for (size_t i = 0; i < m->vma_count; i++)
        if (m->vmas[i].start < start + len && m->vmas[i].end > start) return false;
    return true;
}

uint64_t mem_find_free(const mem *m, uint64_t len, uint64_t below) {
    len = (len + PAGE_MASK) & ~PAGE_MASK;
    uint64_t top = below & ~PAGE_MASK;
    for (size_t i = m->vma_count; i-- > 0;) {
        const vma *v = &m->vmas[i];
        if (v->start >= top) continue;
        if (v->end <= top && top - v->end >= len) return top - len;
        top = v->start;
    }
    return top >= len + PAGE_SIZE ? top - len : 0;
}

/* ---- pages ------------------------------------------------------------------------ */

const uint8_t *mem_peek(mem *m, uint64_t addr) {
    if (addr >= VA_LIMIT) return NULL;
    page *p = walk(m, addr >> PAGE_SHIFT, false);
    return p ? p->data : NULL;
}

page *mem_page(mem *m, uint64_t addr) {
    if (addr >= VA_LIMIT) return NULL;
    uint64_t vpn = addr >> PAGE_SHIFT;
    page *p = walk(m, vpn, false);
    if (p && p->data) return p;
    if (p && p->bus) return NULL; /* SIGBUS for an access, EFAULT for a system call */
    const vma *v = find_vma(m, addr);
    if (!v) return NULL;
    if (!p) p = walk(m, vpn, true);
    if (!p || !host_charge(m, PAGE_SIZE)) return NULL;
    p->data = cs_calloc(1, PAGE_SIZE);
    p->prot = v->prot;
    m->pages_allocated++;
    return p;
}

static bool access_page(mem *m, uint64_t addr, uint8_t need, page **out) {
    page *p = mem_page(m, addr);
    if (!p || !(p->prot & need)) {
        m->fault_addr = addr;
        m->fault_kind = need;
        const page *entry = p ? NULL : walk(m, addr >> PAGE_SHIFT, false);
        m->fault_bus = entry && entry->bus && (entry->prot & need);
        return false;
    }
    *out = p;
    return true;
}

bool mem_read_slow(mem *m, uint64_t addr, void *out, size_t size) {
    uint8_t *dst = out;
    while (size) {
        page *p;
        if (!access_page(m, addr, PROT_R, &p)) return false;
        uint64_t vpn = addr >> PAGE_SHIFT;
        m->tlb_read[vpn & (TLB_SIZE - 1)] = (tlb_entry){vpn, p->data};
        size_t off = addr & PAGE_MASK, n = PAGE_SIZE - off < size ? PAGE_SIZE - off : size;
        memcpy(dst, p->data + off, n);
        dst += n, addr += n, size -= n;
    }
    return true;
}

/* The host address of ADDR about to be written (NULL with the fault set if it may not be): a
 * page holding decoded instructions has them dropped, any other enters the write TLB. */
static uint8_t *writable_at(mem *m, uint64_t addr) {
    page *p;
    if (!access_page(m, addr, PROT_W, &p)) return NULL;
    uint64_t vpn = addr >> PAGE_SHIFT;
    if (p->code) /* stale decoded instructions: decode again when next executed */
        memset(p->code, 0, (PAGE_SIZE / 2) * sizeof(dinsn));
    else m->tlb_write[vpn & (TLB_SIZE - 1)] = (tlb_entry){vpn, p->data};
    return p->data + (addr & PAGE_MASK);
}

bool mem_write_slow(mem *m, uint64_t addr, const void *in, size_t size) {
    const uint8_t *src = in;
    while (size) {
        uint8_t *to = writable_at(m, addr);
        if (!to) return false;
        size_t off = addr & PAGE_MASK, n = PAGE_SIZE - off < size ? PAGE_SIZE - off : size;
        memcpy(to, src, n);
        src += n, addr += n, size -= n;
    }
    return true;
}

void *mem_atomic_slow(mem *m, uint64_t addr) { return writable_at(m, addr); }

static bool copy_page_range(mem *m, uint64_t addr, uint8_t *buf, size_t size, bool in, uint8_t need) {
    while (size) {
        page *p = mem_page(m, addr);
        if (!p || (p->prot & need) != need) {
            m->fault_addr = addr;
            m->fault_kind = in ? PROT_W : PROT_R;
            return false;
        }
        size_t off = addr & PAGE_MASK, n = PAGE_SIZE - off < size ? PAGE_SIZE - off : size;
        if (in) {
            memcpy(p->data + off, buf, n);
            if (p->code) memset(p->code, 0, (PAGE_SIZE / 2) * sizeof(dinsn));
        } else {
            memcpy(buf, p->data + off, n);
        }
        buf += n, addr += n, size -= n;
    }
    return true;
}

bool mem_copy_in(mem *m, uint64_t addr, const void *in, size_t size) {
    return copy_page_range(m, addr, (uint8_t *)in, size, true, 0);
}

bool mem_copy_out(mem *m, uint64_t addr, void *out, size_t size) {
    return copy_page_range(m, addr, out, size, false, 0);
}

bool mem_user_copy_in(mem *m, uint64_t addr, const void *in, size_t size) {
    return copy_page_range(m, addr, (uint8_t *)in, size, true, PROT_W);
}

bool mem_user_copy_out(mem *m, uint64_t addr, void *out, size_t size) {
    return copy_page_range(m, addr, out, size, false, PROT_R);
}

bool mem_read_string(mem *m, uint64_t addr, char *out, size_t max) {
    for (size_t i = 0; i < max; i++) {
        page *p = mem_page(m, addr + i);
        if (!p || !(p->prot & PROT_R)) return false;
        out[i] = (char)p->data[(addr + i) & PAGE_MASK];
        if (!out[i]) return true;
    }
    return false; /* too long */
}

dinsn *mem_code(mem *m, uint64_t pc) {
    page *p;
    if (!access_page(m, pc, PROT_X, &p)) return NULL;
    if (!p->code) {
        if (!host_charge(m, CODE_BYTES)) {
            m->fault_addr = pc;
            m->fault_kind = PROT_X;
            return NULL;
        }
        p->code = cs_aligned_calloc(64, PAGE_SIZE / 2, sizeof(dinsn));
        uint64_t vpn = pc >> PAGE_SHIFT;
        tlb_entry *w = &m->tlb_write[vpn & (TLB_SIZE - 1)];
        if (w->vpn == vpn) w->vpn = ~0ull; /* stores to this page must now take the slow path */
    }
    return p->code;
}
