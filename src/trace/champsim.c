/* ChampSim traces: import (a uop_source) and export. docs/trace-format.md,
 * "ChampSim", is the specification. Notes:
 *  - Record layouts follow ChampSim's inc/trace_instruction.h (input_instr,
 *    64 bytes; cloudsuite_instr, 96 bytes), little-endian, read field by field.
 *  - champsim_branch_type is ChampSim's own inference (inc/instruction.h, the
 *    ooo_model_instr constructor): zero registers are dropped first, then the
 *    reads/writes of SP (6), FLAGS (25) and IP (26) decide the type.
 *  - A branch's target is the next record's ip (src/tracereader.cc,
 *    apply_branch_target); the last record's next pc is unknown and set to 0.
 *  - ChampSim carries no operation class, access size or encoding: imports are
 *    branch kinds, loads, stores and int-alu µops; accesses are 8 bytes. */
#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "trace.h"

/* ---- ChampSim's branch inference ------------------------------------------------------ */

const char *champsim_branch_name(champsim_branch b) {
    static const char *const names[] = {"not-branch",  "direct-jump",   "indirect", "conditional",
                                        "direct-call", "indirect-call", "return",   "other"};
    return (unsigned)b < sizeof names / sizeof names[0] ? names[b] : "?";
}

static bool has_reg(const uint8_t *r, size_t n, uint8_t reg) {
    for (size_t i = 0; i < n; i++)
        if (r[i] == reg) return true;
    return false;
}

static bool is_special(uint8_t r) { return r == CHAMPSIM_REG_SP || r == CHAMPSIM_REG_FLAGS || r == CHAMPSIM_REG_IP; }

static bool has_other(const uint8_t *r, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (r[i] && !is_special(r[i])) return true;
    return false;
}

champsim_branch champsim_branch_type(const uint8_t *dst, size_t ndst, const uint8_t *src, size_t nsrc) {
    bool writes_sp = has_reg(dst, ndst, CHAMPSIM_REG_SP), writes_ip = has_reg(dst, ndst, CHAMPSIM_REG_IP);
    bool reads_sp = has_reg(src, nsrc, CHAMPSIM_REG_SP), reads_flags = has_reg(src, nsrc, CHAMPSIM_REG_FLAGS);
    bool reads_ip = has_reg(src, nsrc, CHAMPSIM_REG_IP), reads_other = has_other(src, nsrc);
    /* the order and the conditions of ChampSim's if/else chain */
    if (!reads_sp && !reads_flags && writes_ip && !reads_other) return CHAMPSIM_DIRECT_JUMP;
    if (!reads_sp && !reads_ip && !reads_flags && writes_ip && reads_other) return CHAMPSIM_INDIRECT;
    if (!reads_sp && reads_ip && !writes_sp && writes_ip && (reads_flags || reads_other)) return CHAMPSIM_CONDITIONAL;
    if (reads_sp && reads_ip && writes_sp && writes_ip && !reads_flags && !reads_other) return CHAMPSIM_DIRECT_CALL;
    if (reads_sp && reads_ip && writes_sp && writes_ip && !reads_flags && reads_other) return CHAMPSIM_INDIRECT_CALL;
    if (reads_sp && !reads_ip && writes_sp && writes_ip) return CHAMPSIM_RETURN;
    if (writes_ip) return CHAMPSIM_OTHER;
    return CHAMPSIM_NOT_BRANCH;
}

/* ---- records -------------------------------------------------------------------------- */

/* little-endian 64-bit fields (ChampSim traces are written on x86) */
static inline uint64_t rd64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}
static inline void le64(uint8_t *p, uint64_t v) {
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, 8);
}

/* Field offsets: standard: ip 0, is_branch 8, taken 9, dst regs 10 (2), src regs
 * 12 (4), dst mem 16 (2x8), src mem 32 (4x8). cloudsuite: ip 0, is_branch 8,
 * taken 9, dst regs 10 (4), src regs 14 (4), padding 18, dst mem 24 (4x8), src
 * mem 56 (4x8), asid 88 (2), padding 90..95. */
void champsim_record_decode(champsim_record *r, const uint8_t *b, bool cloudsuite) {
    memset(r, 0, sizeof *r);
    r->ip = rd64(b);
    r->is_branch = b[8];
    r->branch_taken = b[9];
    int nd = cloudsuite ? 4 : 2;
    size_t src_regs = cloudsuite ? 14 : 12, dst_mem = cloudsuite ? 24 : 16, src_mem = cloudsuite ? 56 : 32;
    for (int i = 0; i < nd; i++) r->dst_regs[i] = b[10 + i];
    for (int i = 0; i < 4; i++) r->src_regs[i] = b[src_regs + i];
    for (int i = 0; i < nd; i++) r->dst_mem[i] = rd64(b + dst_mem + 8 * i);
    for (int i = 0; i < 4; i++) r->src_mem[i] = rd64(b + src_mem + 8 * i);
    if (cloudsuite) r->asid[0] = b[88], r->asid[1] = b[89];
}

void champsim_record_encode(const champsim_record *r, uint8_t *b, bool cloudsuite) {
    memset(b, 0, cloudsuite ? CHAMPSIM_CLOUDSUITE_RECORD_SIZE : CHAMPSIM_RECORD_SIZE);
    le64(b, r->ip);
    b[8] = r->is_branch;
    b[9] = r->branch_taken;
    int nd = cloudsuite ? 4 : 2;
    size_t src_regs = cloudsuite ? 14 : 12, dst_mem = cloudsuite ? 24 : 16, src_mem = cloudsuite ? 56 : 32;
    for (int i = 0; i < nd; i++) b[10 + i] = r->dst_regs[i];
    for (int i = 0; i < 4; i++) b[src_regs + i] = r->src_regs[i];
    for (int i = 0; i < nd; i++) le64(b + dst_mem + 8 * i, r->dst_mem[i]);
    for (int i = 0; i < 4; i++) le64(b + src_mem + 8 * i, r->src_mem[i]);
    if (cloudsuite) b[88] = r->asid[0], b[89] = r->asid[1];
}

/* ---- import: one record to µops -------------------------------------------------------- */

static uint8_t class_of_branch(champsim_branch b) {
    switch (b) {
    case CHAMPSIM_DIRECT_JUMP: return OPC_JUMP;
    case CHAMPSIM_INDIRECT: return OPC_JUMP_INDIRECT;
    case CHAMPSIM_DIRECT_CALL:
    case CHAMPSIM_INDIRECT_CALL: return OPC_CALL;
    case CHAMPSIM_RETURN: return OPC_RETURN;
    /* ChampSim takes the direction of "other" branches from the trace, as for
     * conditional ones: a conditional branch is the class that can say that */
    case CHAMPSIM_CONDITIONAL:
    case CHAMPSIM_OTHER: return OPC_BRANCH;
    default: return OPC_INT_ALU;
    }
}

static bool taken_of_branch(champsim_branch b, const champsim_record *r) {
    switch (b) {
    case CHAMPSIM_NOT_BRANCH: return false;
    case CHAMPSIM_CONDITIONAL:
    case CHAMPSIM_OTHER: return r->branch_taken != 0;
    default: return true; /* ChampSim sets branch_taken for jumps, calls and returns */
    }
}

int champsim_record_to_uops(const champsim_record *r, uint64_t next_ip, const champsim_options *opt, uop *out,
                            cs_error *err) {
    const int nd = opt->cloudsuite ? 4 : 2;
    uint8_t src[4], dst[4];
    size_t ns = 0, ndst = 0;
    for (int i = 0; i < 4; i++)
        if (r->src_regs[i]) src[ns++] = r->src_regs[i];
    for (int i = 0; i < nd; i++)
        if (r->dst_regs[i]) dst[ndst++] = r->dst_regs[i];
    champsim_branch b = champsim_branch_type(dst, ndst, src, ns);
    bool taken = taken_of_branch(b, r);
    uint64_t loads[4], stores[4];
    int nl = 0, nw = 0;
    for (int i = 0; i < 4; i++)
        if (r->src_mem[i]) loads[nl++] = r->src_mem[i];
    for (int i = 0; i < nd; i++)
        if (r->dst_mem[i]) stores[nw++] = r->dst_mem[i];

    /* registers as µop ids: the instruction pointer is the control flow itself
     * (class, taken, next_pc), not a dependence; in riscv mode the three special
     * registers only encode the branch kind and the rest map back to the isa. */
    uint8_t rs[4], rd[4];
    size_t nrs = 0, nrd = 0;
    for (int pass = 0; pass < 2; pass++) {
        const uint8_t *in = pass ? dst : src;
        size_t n = pass ? ndst : ns;
        uint8_t *o = pass ? rd : rs;
        size_t *no = pass ? &nrd : &nrs;
        for (size_t i = 0; i < n; i++) {
            uint8_t reg = in[i];
            if (reg == CHAMPSIM_REG_IP) continue;
            if (opt->riscv) {
                if (reg == CHAMPSIM_REG_SP || reg == CHAMPSIM_REG_FLAGS || reg == CHAMPSIM_RISCV_REG_BASE) continue;
                if (reg <= CHAMPSIM_RISCV_REG_BASE || reg >= CHAMPSIM_RISCV_REG_BASE + ISA_REG_COUNT) {
                    cs_error_set(err, "register %u is outside cyclescope's RISC-V mapping (64..127)", reg);
                    return -1;
                }
                reg = (uint8_t)(reg - CHAMPSIM_RISCV_REG_BASE);
            }
            o[(*no)++] = reg;
        }
    }

    if (opt->riscv) {
        uop *u = &out[0];
        memset(u, 0, sizeof *u);
        u->pc = r->ip;
        u->next_pc = next_ip;
        if (nrs > 3 || nrd > 1 || nl > 1 || nw > 1 || (nl && nw && loads[0] != stores[0]) ||
            (b != CHAMPSIM_NOT_BRANCH && (nl || nw))) {
            cs_error_set(err,
                         "record with %zu sources, %zu destinations, %d loads and %d stores: not one RISC-V "
                         "instruction",
                         nrs, nrd, nl, nw);
            return -1;
        }
        memcpy(u->src, rs, nrs);
        u->dst = nrd ? rd[0] : 0;
        if (b != CHAMPSIM_NOT_BRANCH) u->op_class = class_of_branch(b);
        else u->op_class = nl && nw ? OPC_ATOMIC : nl ? OPC_LOAD : nw ? OPC_STORE : OPC_INT_ALU;
        if (taken) u->flags |= UOP_TAKEN;
        if (nl) u->flags |= UOP_MEM_READ, u->mem_addr = loads[0];
        if (nw) u->flags |= UOP_MEM_WRITE, u->mem_addr = stores[0];
        if (nl || nw) u->mem_size = 8;
        return 1;
    }

    /* µops: the branch (if any), then one per load, then one per store; an
     * instruction with none of these is one int-alu µop. Sources go 3 to a µop,
     * destinations 1, in order; extra int-alu µops hold what is left. */
    int n = 0;
    if (b != CHAMPSIM_NOT_BRANCH) {
        memset(&out[n], 0, sizeof out[n]);
        out[n].op_class = class_of_branch(b);
        if (taken) out[n].flags = UOP_TAKEN;
        n++;
    }
    for (int i = 0; i < nl; i++, n++) {
        memset(&out[n], 0, sizeof out[n]);
        out[n].op_class = OPC_LOAD;
        out[n].flags = UOP_MEM_READ;
        out[n].mem_addr = loads[i];
        out[n].mem_size = 8;
    }
    for (int i = 0; i < nw; i++, n++) {
        memset(&out[n], 0, sizeof out[n]);
        out[n].op_class = OPC_STORE;
        out[n].flags = UOP_MEM_WRITE;
        out[n].mem_addr = stores[i];
        out[n].mem_size = 8;
    }
    int need = (int)((nrs + 2) / 3 > nrd ? (nrs + 2) / 3 : nrd);
    if (need < 1) need = 1;
    for (; n < need; n++) {
        memset(&out[n], 0, sizeof out[n]);
        out[n].op_class = OPC_INT_ALU;
    }
    for (size_t i = 0; i < nrs; i++) out[i / 3].src[i % 3] = rs[i];
    for (size_t i = 0; i < nrd; i++) out[i].dst = rd[i];
    for (int i = 0; i < n; i++) {
        out[i].pc = r->ip;
        out[i].next_pc = next_ip;
        if (i) out[i].flags |= UOP_CONTINUES;
    }
    return n;
}

/* ---- compressed input ----------------------------------------------------------------- */

typedef enum { KIND_RAW, KIND_XZ, KIND_GZ } file_kind;

/* xz -9 needs 65 MiB; a stream asking for more than this is refused. */
#define XZ_MEMLIMIT ((uint64_t)1 << 30)

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

typedef struct input {
    FILE *f;
    const char *path;
    file_kind kind;
    uint8_t buf[1 << 16];
    size_t len, pos;   /* compressed bytes buffered */
    uint64_t consumed; /* compressed bytes handed to the decoder */
    bool eof, done;
    lzma_stream xz;
    z_stream gz;
    bool xz_init, gz_init;
} input;

static bool refill(input *in, cs_error *err) {
    if (in->pos < in->len || in->eof) return true;
    in->len = fread(in->buf, 1, sizeof in->buf, in->f);
    in->pos = 0;
    if (in->len == 0) {
        if (ferror(in->f)) {
            cs_error_set(err, "%s: read error at offset %llu: %s", in->path, (unsigned long long)in->consumed,
                         strerror(errno));
            return false;
        }
        in->eof = true;
    }
    return true;
}

/* Up to n decompressed bytes; fewer only at the end. -1 on error. */
static long input_read(input *in, uint8_t *out, size_t n, cs_error *err) {
    size_t got = 0;
    while (got < n && !in->done) {
        if (!refill(in, err)) return -1;
        size_t avail = in->len - in->pos;
        if (in->kind == KIND_RAW) {
            if (in->eof) {
                in->done = true;
                break;
            }
            size_t k = avail < n - got ? avail : n - got;
            memcpy(out + got, in->buf + in->pos, k);
            in->pos += k, got += k, in->consumed += k;
        } else if (in->kind == KIND_XZ) {
            in->xz.next_in = in->buf + in->pos;
            in->xz.avail_in = avail;
            in->xz.next_out = out + got;
            in->xz.avail_out = n - got;
            lzma_ret ret = lzma_code(&in->xz, in->eof ? LZMA_FINISH : LZMA_RUN);
            size_t used = avail - in->xz.avail_in;
            in->pos += used, in->consumed += used;
            size_t made = (n - got) - in->xz.avail_out;
            got += made;
            if (ret == LZMA_STREAM_END) {
                in->done = true;
            } else if (ret != LZMA_OK) {
                const char *what = ret == LZMA_FORMAT_ERROR ? "not xz data"
                    : ret == LZMA_DATA_ERROR                ? "corrupt xz data"
                    : ret == LZMA_BUF_ERROR                 ? "truncated xz data"
                    : ret == LZMA_MEM_ERROR                 ? "out of memory decompressing xz"
                    : ret == LZMA_MEMLIMIT_ERROR            ? "xz data needing more than 1 GiB to decompress"
                                                            : "xz decoding failed";
                cs_error_set(err, "%s: %s at offset %llu", in->path, what, (unsigned long long)in->consumed);
                return -1;
            } else if (in->eof && used == 0 && made == 0) {
                cs_error_set(err, "%s: truncated xz data at offset %llu", in->path, (unsigned long long)in->consumed);
                return -1;
            }
        } else {
            in->gz.next_in = in->buf + in->pos;
            in->gz.avail_in = (uInt)avail;
            in->gz.next_out = out + got;
            in->gz.avail_out = (uInt)(n - got);
            int ret = inflate(&in->gz, Z_NO_FLUSH);
            size_t used = avail - in->gz.avail_in;
            in->pos += used, in->consumed += used;
            size_t made = (n - got) - in->gz.avail_out;
            got += made;
            if (ret == Z_STREAM_END) {
                /* another gzip member may follow (concatenated files) */
                if (!refill(in, err)) return -1;
                if (in->eof) in->done = true;
                else inflateReset(&in->gz);
            } else if (ret != Z_OK && ret != Z_BUF_ERROR) {
                cs_error_set(err, "%s: corrupt gzip data (%s) at offset %llu", in->path,
                             in->gz.msg ? in->gz.msg : "inflate failed", (unsigned long long)in->consumed);
                return -1;
            } else if (in->eof && used == 0 && made == 0) {
                cs_error_set(err, "%s: truncated gzip data at offset %llu", in->path, (unsigned long long)in->consumed);
                return -1;
            }
        }
    }
    return (long)got;
}

static bool input_open(input *in, const char *path, cs_error *err) {
    memset(in, 0, sizeof *in);
    in->path = path;
    in->f = cs_fopen_input(path, err);
    if (!in->f) return false;
    if (!refill(in, err)) return false;
    static const uint8_t xz_magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0};
    if (ends_with(path, ".xz")) in->kind = KIND_XZ;
    else if (ends_with(path, ".gz")) in->kind = KIND_GZ;
    else if (in->len >= 6 && !memcmp(in->buf, xz_magic, 6)) in->kind = KIND_XZ;
    else if (in->len >= 2 && in->buf[0] == 0x1f && in->buf[1] == 0x8b) in->kind = KIND_GZ;
    else in->kind = KIND_RAW;
    if (in->kind == KIND_XZ) {
        in->xz = (lzma_stream)LZMA_STREAM_INIT;
        if (lzma_stream_decoder(&in->xz, XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK) {
            cs_error_set(err, "%s: cannot start the xz decoder", path);
            return false;
        }
        in->xz_init = true;
    } else if (in->kind == KIND_GZ) {
        if (inflateInit2(&in->gz, 15 + 16) != Z_OK) {
            cs_error_set(err, "%s: cannot start the gzip decoder", path);
            return false;
        }
        in->gz_init = true;
    }
    return true;
}

static void input_close(input *in) {
    if (in->f) fclose(in->f);
    if (in->xz_init) lzma_end(&in->xz);
    if (in->gz_init) inflateEnd(&in->gz);
}

/* ---- import as a uop_source ----------------------------------------------------------- */

enum { RECORD_BATCH = 1024 };

typedef struct champsim_source {
    uop_source base;
    char *path;
    champsim_options opt;
    size_t rsize;
    input in;
    uint8_t *rbuf;
    size_t rlen, rpos;
    uint64_t rbase; /* decompressed offset of rbuf[0] */
    champsim_record cur;
    uint64_t cur_offset;
    bool have_cur, started;
    uop pend[CHAMPSIM_MAX_UOPS];
    int npend, ipend;
    uint64_t records;
    bool failed;
    cs_error failure;
} champsim_source;

/* The next record: 1, 0 at the end, -1 on error. */
static int next_record(champsim_source *s, champsim_record *r, uint64_t *offset, cs_error *err) {
    if (s->rpos == s->rlen) {
        s->rbase += s->rlen;
        s->rpos = s->rlen = 0;
        long n = input_read(&s->in, s->rbuf, s->rsize * RECORD_BATCH, err);
        if (n < 0) return -1;
        s->rlen = (size_t)n;
        if (n == 0) return 0;
        if (s->rlen % s->rsize) {
            uint64_t total = s->rbase + s->rlen;
            uint64_t at = s->rbase + s->rlen / s->rsize * s->rsize;
            bool packed = s->in.kind != KIND_RAW;
            cs_error_set(err,
                         "%s: truncated record: the %slength, %llu bytes, is not a multiple of the %zu-byte "
                         "ChampSim %srecord at %soffset %llu",
                         s->path, packed ? "decompressed " : "", (unsigned long long)total, s->rsize,
                         s->opt.cloudsuite ? "cloudsuite " : "", packed ? "decompressed " : "", (unsigned long long)at);
            return -1;
        }
    }
    champsim_record_decode(r, s->rbuf + s->rpos, s->opt.cloudsuite);
    *offset = s->rbase + s->rpos;
    s->rpos += s->rsize;
    return 1;
}

static long champsim_read(uop_source *src, uop *buf, size_t max, cs_error *err) {
    champsim_source *s = (champsim_source *)src;
    if (s->failed) {
        *err = s->failure;
        return -1;
    }
    size_t n = 0;
    while (n < max) {
        if (s->ipend < s->npend) {
            buf[n++] = s->pend[s->ipend++];
            continue;
        }
        if (!s->started) {
            s->started = true;
            int got = next_record(s, &s->cur, &s->cur_offset, err);
            if (got < 0) goto fail;
            s->have_cur = got > 0;
        }
        if (!s->have_cur) {
            if (s->records == 0) { /* an empty trace is an error, not a run of 0 instructions */
                cs_error_set(err, "%s: empty ChampSim trace (no records)", s->path);
                goto fail;
            }
            break;
        }
        champsim_record next;
        uint64_t next_offset = 0;
        int got = next_record(s, &next, &next_offset, err);
        if (got < 0) goto fail;
        cs_error why;
        int k = champsim_record_to_uops(&s->cur, got ? next.ip : 0, &s->opt, s->pend, &why);
        if (k < 0) {
            cs_error_set(err, "%s: %s at offset %llu", s->path, why.msg, (unsigned long long)s->cur_offset);
            goto fail;
        }
        s->records++;
        s->npend = k;
        s->ipend = 0;
        s->cur = next;
        s->cur_offset = next_offset;
        s->have_cur = got > 0;
    }
    return (long)n;
fail:
    s->failed = true;
    s->failure = *err;
    return -1;
}

static long long champsim_fast_forward(uop_source *src, uint64_t n, cs_error *err) {
    uop scratch[256];
    uint64_t done = 0;
    while (done < n) {
        long k = champsim_read(src, scratch, n - done < 256 ? (size_t)(n - done) : 256, err);
        if (k < 0) return -1;
        if (k == 0) break;
        done += (uint64_t)k;
    }
    return (long long)done;
}

static void champsim_destroy(uop_source *src) {
    champsim_source *s = (champsim_source *)src;
    input_close(&s->in);
    free(s->rbuf);
    free(s->path);
    free(s);
}

static const uop_source_ops champsim_ops = {"champsim", champsim_read, champsim_fast_forward, champsim_destroy};

uop_source *champsim_open(const char *path, const champsim_options *opt, cs_error *err) {
    champsim_source *s = cs_calloc(1, sizeof *s);
    s->base.ops = &champsim_ops;
    s->path = cs_strdup(path);
    s->opt = *opt;
    s->rsize = opt->cloudsuite ? CHAMPSIM_CLOUDSUITE_RECORD_SIZE : CHAMPSIM_RECORD_SIZE;
    s->rbuf = cs_malloc(s->rsize * RECORD_BATCH);
    if (!input_open(&s->in, s->path, err)) {
        champsim_destroy(&s->base);
        return NULL;
    }
    return &s->base;
}

uint64_t champsim_source_records(const uop_source *src) { return ((const champsim_source *)src)->records; }

/* A user-space code address, as every ChampSim tracer writes (x86-64 and RISC-V Sv48
 * user addresses are below 2^47); text or other data read as a record rarely gives one. */
static bool plausible_ip(uint64_t ip) { return ip != 0 && ip < ((uint64_t)1 << 48); }

/* The first records of one layout: a whole number of them (all of a short file)
 * and each with a plausible ip. */
static bool probe_layout(const char *path, bool cloudsuite) {
    enum { PROBE_RECORDS = 16 };
    const size_t rsize = cloudsuite ? CHAMPSIM_CLOUDSUITE_RECORD_SIZE : CHAMPSIM_RECORD_SIZE;
    uint8_t bytes[PROBE_RECORDS * CHAMPSIM_CLOUDSUITE_RECORD_SIZE];
    input *in = cs_malloc(sizeof *in);
    cs_error err;
    long got = input_open(in, path, &err) ? input_read(in, bytes, rsize * PROBE_RECORDS, &err) : -1;
    input_close(in);
    free(in);
    if (got <= 0 || (size_t)got % rsize) return false;
    for (size_t at = 0; at < (size_t)got; at += rsize) {
        champsim_record r;
        champsim_record_decode(&r, bytes + at, cloudsuite);
        if (!plausible_ip(r.ip)) return false;
    }
    return true;
}

bool champsim_probe(const char *path, bool *cloudsuite) {
    if (cst_probe(path)) return false;
    for (int layout = 0; layout < 2; layout++) {
        if (probe_layout(path, layout == 1)) {
            if (cloudsuite) *cloudsuite = layout == 1;
            return true;
        }
    }
    return false;
}

/* ---- export: µops to one record ------------------------------------------------------- */

typedef struct reglist {
    uint8_t r[16];
    size_t n;
} reglist;

static void push(reglist *l, uint8_t reg) {
    if (l->n < sizeof l->r) l->r[l->n++] = reg;
}

/* Regular registers first, as many as fit beside the special ones. */
static void fill_regs(uint8_t *slots, size_t cap, const reglist *regular, const reglist *special, uint64_t *dropped) {
    size_t keep = regular->n;
    if (keep + special->n > cap) {
        keep = cap - special->n;
        *dropped += regular->n - keep;
    }
    size_t k = 0;
    for (size_t i = 0; i < keep; i++) slots[k++] = regular->r[i];
    for (size_t i = 0; i < special->n; i++) slots[k++] = special->r[i];
}

void champsim_record_from_uops(const uop *u, size_t n, cst_isa isa, bool cloudsuite, champsim_record *r,
                               champsim_export_stats *stats) {
    memset(r, 0, sizeof *r);
    if (!n) return;
    const bool rv = isa == CST_ISA_RV64GC;
    const size_t nd = cloudsuite ? 4 : 2;
    r->ip = u[0].pc;
    reglist srcs = {0}, dsts = {0}, ssp = {0}, dsp = {0};
    const uop *ctl = NULL;
    size_t nl = 0, nw = 0;
    for (size_t i = 0; i < n; i++) {
        if (!ctl && uop_is_control(&u[i])) ctl = &u[i];
        for (int j = 0; j < 4; j++) {
            uint8_t reg = j < 3 ? u[i].src[j] : u[i].dst;
            if (!reg) continue;
            if (rv ? reg >= ISA_REG_COUNT : reg == CHAMPSIM_REG_IP) {
                stats->dropped_regs++; /* not representable: would read as control flow */
                continue;
            }
            push(j < 3 ? &srcs : &dsts, rv ? (uint8_t)(CHAMPSIM_RISCV_REG_BASE + reg) : reg);
        }
        if (u[i].flags & (UOP_MEM_READ | UOP_MEM_WRITE) && !u[i].mem_addr) stats->dropped_mem++;
        if ((u[i].flags & UOP_MEM_READ) && u[i].mem_addr) {
            if (nl < 4) r->src_mem[nl++] = u[i].mem_addr;
            else stats->dropped_mem++;
        }
        if ((u[i].flags & UOP_MEM_WRITE) && u[i].mem_addr) {
            if (nw < nd) r->dst_mem[nw++] = u[i].mem_addr;
            else stats->dropped_mem++;
        }
    }
    /* The special registers that make ChampSim infer our class (docs: "Export"). */
    if (ctl) {
        bool src_sp = has_reg(srcs.r, srcs.n, CHAMPSIM_REG_SP), dst_sp = has_reg(dsts.r, dsts.n, CHAMPSIM_REG_SP);
        switch (ctl->op_class) {
        case OPC_BRANCH:
            if (!has_other(srcs.r, srcs.n) && !has_reg(srcs.r, srcs.n, CHAMPSIM_REG_FLAGS))
                push(&ssp, CHAMPSIM_REG_FLAGS);
            push(&ssp, CHAMPSIM_REG_IP);
            push(&dsp, CHAMPSIM_REG_IP);
            break;
        case OPC_JUMP: push(&dsp, CHAMPSIM_REG_IP); break;
        case OPC_JUMP_INDIRECT:
            if (rv && !has_other(srcs.r, srcs.n)) push(&ssp, CHAMPSIM_RISCV_REG_BASE); /* stands for x0 */
            push(&dsp, CHAMPSIM_REG_IP);
            break;
        case OPC_CALL:
            if (!src_sp) push(&ssp, CHAMPSIM_REG_SP);
            push(&ssp, CHAMPSIM_REG_IP);
            if (!dst_sp) push(&dsp, CHAMPSIM_REG_SP);
            push(&dsp, CHAMPSIM_REG_IP);
            break;
        case OPC_RETURN:
            if (!src_sp) push(&ssp, CHAMPSIM_REG_SP);
            if (!dst_sp) push(&dsp, CHAMPSIM_REG_SP);
            push(&dsp, CHAMPSIM_REG_IP);
            break;
        default: break;
        }
        r->is_branch = 1;
        r->branch_taken = (ctl->flags & UOP_TAKEN) != 0;
    }
    fill_regs(r->src_regs, 4, &srcs, &ssp, &stats->dropped_regs);
    fill_regs(r->dst_regs, nd, &dsts, &dsp, &stats->dropped_regs);
}

/* ---- export writer -------------------------------------------------------------------- */

struct champsim_writer {
    cs_output file; /* a temporary file, renamed over the target by champsim_writer_finish */
    FILE *f;        /* file.f */
    char *path;
    file_kind kind;
    bool cloudsuite;
    cst_isa isa;
    size_t rsize;
    lzma_stream xz;
    z_stream gz;
    bool xz_init, gz_init;
    uint8_t *rbuf; /* records waiting for compression */
    size_t rlen;
    uint8_t out[1 << 16];
    uop *group; /* the µops of the instruction being gathered */
    size_t ngroup, group_cap;
    champsim_export_stats stats;
    bool failed;
};

static bool out_write(champsim_writer *w, const uint8_t *p, size_t n, cs_error *err) {
    if (n && fwrite(p, 1, n, w->f) != n) {
        cs_error_set(err, "%s: write error: %s", w->path, strerror(errno));
        w->failed = true;
        return false;
    }
    return true;
}

/* Compress (or copy) the buffered records; `finish` ends the stream. */
static bool drain(champsim_writer *w, bool finish, cs_error *err) {
    if (w->kind == KIND_RAW) {
        bool ok = out_write(w, w->rbuf, w->rlen, err);
        w->rlen = 0;
        return ok;
    }
    if (w->kind == KIND_XZ) {
        w->xz.next_in = w->rbuf;
        w->xz.avail_in = w->rlen;
        for (;;) {
            w->xz.next_out = w->out;
            w->xz.avail_out = sizeof w->out;
            lzma_ret ret = lzma_code(&w->xz, finish ? LZMA_FINISH : LZMA_RUN);
            if (ret != LZMA_OK && ret != LZMA_STREAM_END) {
                cs_error_set(err, "%s: xz compression failed (error %d)", w->path, (int)ret);
                w->failed = true;
                return false;
            }
            if (!out_write(w, w->out, sizeof w->out - w->xz.avail_out, err)) return false;
            if (finish ? ret == LZMA_STREAM_END : w->xz.avail_in == 0) break;
        }
    } else {
        w->gz.next_in = w->rbuf;
        w->gz.avail_in = (uInt)w->rlen;
        for (;;) {
            w->gz.next_out = w->out;
            w->gz.avail_out = sizeof w->out;
            int ret = deflate(&w->gz, finish ? Z_FINISH : Z_NO_FLUSH);
            if (ret == Z_STREAM_ERROR) {
                cs_error_set(err, "%s: gzip compression failed", w->path);
                w->failed = true;
                return false;
            }
            if (!out_write(w, w->out, sizeof w->out - w->gz.avail_out, err)) return false;
            if (finish ? ret == Z_STREAM_END : (w->gz.avail_in == 0 && w->gz.avail_out != 0)) break;
        }
    }
    w->rlen = 0;
    return true;
}

static bool emit_group(champsim_writer *w, cs_error *err) {
    if (!w->ngroup) return true;
    champsim_record r;
    champsim_record_from_uops(w->group, w->ngroup, w->isa, w->cloudsuite, &r, &w->stats);
    champsim_record_encode(&r, w->rbuf + w->rlen, w->cloudsuite);
    w->rlen += w->rsize;
    w->stats.records++;
    w->ngroup = 0;
    if (w->rlen == w->rsize * RECORD_BATCH) return drain(w, false, err);
    return true;
}

champsim_writer *champsim_writer_create(const char *path, const champsim_options *opt, cst_isa isa, cs_error *err) {
    cs_output file;
    FILE *f = cs_output_open(&file, path, err);
    if (!f) return NULL;
    champsim_writer *w = cs_calloc(1, sizeof *w);
    w->file = file;
    w->f = f;
    w->path = cs_strdup(path);
    w->cloudsuite = opt->cloudsuite;
    w->isa = isa;
    w->rsize = opt->cloudsuite ? CHAMPSIM_CLOUDSUITE_RECORD_SIZE : CHAMPSIM_RECORD_SIZE;
    w->rbuf = cs_malloc(w->rsize * RECORD_BATCH);
    w->kind = ends_with(path, ".xz") ? KIND_XZ : ends_with(path, ".gz") ? KIND_GZ : KIND_RAW;
    if (w->kind == KIND_XZ) {
        w->xz = (lzma_stream)LZMA_STREAM_INIT;
        uint32_t preset = (opt->level ? (uint32_t)opt->level : 6) | (opt->extreme ? LZMA_PRESET_EXTREME : 0);
        long threads = opt->threads > 0 ? opt->threads : sysconf(_SC_NPROCESSORS_ONLN);
        if (threads < 1) threads = 1;
        if (threads > 16) threads = 16;
        /* several threads: liblzma's block-parallel encoder (one xz stream of independent
         * blocks, which every xz decoder reads); one: the plain encoder, as xz -T1 */
        lzma_mt mt = {.flags = 0, .threads = (uint32_t)threads, .preset = preset, .check = LZMA_CHECK_CRC64};
        lzma_ret started =
            threads > 1 ? lzma_stream_encoder_mt(&w->xz, &mt) : lzma_easy_encoder(&w->xz, preset, LZMA_CHECK_CRC64);
        if (started != LZMA_OK) {
            cs_error_set(err, "%s: cannot start the xz encoder", path);
            champsim_writer_discard(w);
            return NULL;
        }
        w->xz_init = true;
    } else if (w->kind == KIND_GZ) {
        if (deflateInit2(&w->gz, opt->level ? opt->level : 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            cs_error_set(err, "%s: cannot start the gzip encoder", path);
            champsim_writer_discard(w);
            return NULL;
        }
        w->gz_init = true;
    }
    return w;
}

bool champsim_writer_write(champsim_writer *w, const uop *u, size_t n, cs_error *err) {
    if (w->failed) {
        cs_error_set(err, "%s: an earlier write failed", w->path);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if (!(u[i].flags & UOP_CONTINUES) && !emit_group(w, err)) return false;
        if (w->ngroup == w->group_cap) {
            w->group_cap = w->group_cap ? 2 * w->group_cap : 16;
            w->group = cs_realloc(w->group, w->group_cap * sizeof *w->group);
        }
        w->group[w->ngroup++] = u[i];
    }
    return true;
}

static void writer_free(champsim_writer *w) {
    cs_output_discard(&w->file); /* nothing left when finished */
    if (w->xz_init) lzma_end(&w->xz);
    if (w->gz_init) deflateEnd(&w->gz);
    free(w->rbuf);
    free(w->group);
    free(w->path);
    free(w);
}

void champsim_writer_discard(champsim_writer *w) {
    if (!w) return;
    writer_free(w); /* removes the temporary file: an earlier output stays as it was */
}

bool champsim_writer_finish(champsim_writer *w, champsim_export_stats *stats, cs_error *err) {
    if (w->failed) cs_error_set(err, "%s: an earlier write failed", w->path);
    if (w->failed || !emit_group(w, err) || !drain(w, true, err)) {
        champsim_writer_discard(w);
        return false;
    }
    w->f = NULL;
    if (!cs_output_commit(&w->file, err)) {
        writer_free(w);
        return false;
    }
    if (stats) *stats = w->stats;
    writer_free(w);
    return true;
}
