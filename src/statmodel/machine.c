/* Which machines the models express: a uarch configuration translated into
 * the thesis' parameters, or refused with what is not modelled. */
#include <string.h>

#include "statmodel.h"

static bool is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

static bool cache_blocks(const cache_config *c, bool perfect, const char *name, int *blocks, cs_error *err) {
    if (perfect) {
        *blocks = -1;
        return true;
    }
    uint32_t n = c->line ? c->size / c->line : 0;
    if (c->assoc != 0 && c->assoc != n) {
        cs_error_set(err, "%s: a %u-way cache is not modelled (fully associative LRU only, thesis §7.1)", name,
                     c->assoc);
        return false;
    }
    if (c->line != 16) {
        cs_error_set(err, "%s: %u-byte lines are not modelled (16-byte blocks, thesis §7.1)", name, c->line);
        return false;
    }
    if (!is_pow2(n) || n < (1u << SM_SD_FIRST_LOG2) || n > (1u << (SM_SD_FIRST_LOG2 + SM_SD_BINS - 2))) {
        cs_error_set(err, "%s: %u blocks is not modelled (a power of two from %u to %u blocks, thesis §7.3)", name, n,
                     1u << SM_SD_FIRST_LOG2, 1u << (SM_SD_FIRST_LOG2 + SM_SD_BINS - 2));
        return false;
    }
    if (c->latency != 0) {
        cs_error_set(err, "%s: a hit latency of %u is not modelled (hits cost nothing, thesis §7.1)", name, c->latency);
        return false;
    }
    *blocks = (int)n;
    return true;
}

bool sm_machine_depths_modelled(const sm_machine *m, cs_error *err) {
    if (!m->three) {
        if (m->depth[0] >= 1 && m->depth[0] <= SM_SMAX + 1) return true;
        cs_error_set(err, "a %u-stage pipe is not modelled: distances are analysed up to %d, so 1 to %d stages",
                     m->depth[0], SM_SMAX, SM_SMAX + 1);
        return false;
    }
    static const char *name[SM_PIPES] = {"int", "fp", "mem"};
    for (int t = 0; t < SM_PIPES; t++) {
        uint32_t max = t == SM_INT ? SM_SMAX_INT : SM_SMAX;
        if (m->depth[t] >= 1 && m->depth[t] <= max) continue;
        cs_error_set(err,
                     "pipe.%s with %u stages is not modelled: its dependence distances are analysed up to %u "
                     "(1 to %u stages)",
                     name[t], m->depth[t], max, max);
        return false;
    }
    return true;
}

bool sm_machine_from_config(const uarch_config *cfg, const sm_profile *p, sm_machine *m, cs_error *err) {
    memset(m, 0, sizeof *m);
    if (cfg->model != MODEL_INORDER) {
        cs_error_set(err,
                     "%s is an out-of-order configuration: the statistical models express only the thesis' "
                     "in-order machines (inorder1, inorder3; thesis §9.3)",
                     cfg->name);
        return false;
    }
    const inorder_config *io = &cfg->inorder;
    if (io->value_prediction) {
        for (int k = 0; k < SM_VP_SIZES; k++)
            if (io->vpt_entries == sm_vp_sizes[k] && io->ct_entries == sm_vp_sizes[k]) m->vp = k + 1;
        if (m->vp == 0) {
            cs_error_set(err,
                         "value prediction with a %u-entry VPT and a %u-entry CT was not analysed (equal tables of "
                         "128, 256 or 512 entries, thesis §8.3)",
                         io->vpt_entries, io->ct_entries);
            return false;
        }
        if (io->fetch_buffer != 2) {
            cs_error_set(err, "value prediction on the one-pipe machine is not modelled (thesis Ch. 8: three-pipe)");
            return false;
        }
        if (!p->vp[m->vp - 1].nnode) {
            cs_error_set(err,
                         "the profile has no value-prediction statistics (the µops carried no results: analyse "
                         "the program, or a .cst recorded with --values)");
            return false;
        }
    }
    if (cfg->ideal_alu) {
        cs_error_set(err, "ideal.alu is not modelled (pipe depths are the latencies, thesis §3.5)");
        return false;
    }
    if (cfg->itlb_entries || cfg->dtlb_entries || cfg->l2tlb_entries) {
        cs_error_set(err,
                     "TLBs (itlb/dtlb/l2tlb entries %u/%u/%u) are not modelled (the thesis' machines do not "
                     "translate addresses; set them to 0)",
                     cfg->itlb_entries, cfg->dtlb_entries, cfg->l2tlb_entries);
        return false;
    }
    if (io->resolve_delay != 0) {
        cs_error_set(err, "inorder.resolve_delay = %u is not modelled (branches resolve at issue, thesis §6.1)",
                     io->resolve_delay);
        return false;
    }
    if (io->mem_stall_stage != 1) {
        cs_error_set(err, "inorder.mem_stall_stage = %u is not modelled (misses wait in the first stage, §7.2)",
                     io->mem_stall_stage);
        return false;
    }
    if (io->fetch_buffer != io->issue_buffer || (io->fetch_buffer != 1 && io->fetch_buffer != 2)) {
        cs_error_set(err,
                     "fetch/issue buffers of %u/%u are not modelled (the one-pipe machine's 1/1 and the three-pipe "
                     "machine's 2/2, thesis §3.4-3.5)",
                     io->fetch_buffer, io->issue_buffer);
        return false;
    }
    m->three = io->fetch_buffer == 2;
    if (!m->three) {
        if (io->pipe_count != 1) {
            cs_error_set(err, "one-entry buffers with %u pipes are not modelled (the one-pipe machine, §3.4)",
                         io->pipe_count);
            return false;
        }
        m->depth[0] = io->pipe[0].stages;
        m->pipe_index[0] = 0;
    } else {
        if (io->pipe_count != 3) {
            cs_error_set(err, "two-entry buffers with %u pipes are not modelled (the three-pipe machine, §3.5)",
                         io->pipe_count);
            return false;
        }
        bool seen[SM_PIPES] = {false, false, false};
        for (uint32_t k = 0; k < 3; k++) {
            int t = -1;
            for (unsigned cls = 0; cls < OPC_COUNT; cls++) {
                if (!(io->pipe[k].classes & (1u << cls))) continue;
                int ty = sm_type_of_class(cls);
                if (ty == SM_BR) ty = SM_INT;
                if (t >= 0 && ty != t) {
                    cs_error_set(err,
                                 "pipe.%s mixes thesis types (class %s): the models need the integer/branch, FP and "
                                 "memory pipes of configs/inorder3.ini",
                                 io->pipe[k].name, isa_class_name((op_class)cls));
                    return false;
                }
                t = ty;
            }
            if (t < 0 || seen[t]) {
                cs_error_set(err, "pipe.%s: the models need one integer, one FP and one memory pipe", io->pipe[k].name);
                return false;
            }
            seen[t] = true;
            m->depth[t] = io->pipe[k].stages;
            m->pipe_index[t] = (int)k;
        }
    }
    if (!sm_machine_depths_modelled(m, err)) return false;
    if (cfg->perfect_bpred || cfg->bpred == BPRED_PERFECT) {
        m->pred = SM_PRED_PERFECT_MODEL;
    } else if (cfg->bpred == BPRED_NONE) {
        m->pred = SM_PRED_NONE_MODEL;
    } else if (cfg->bpred == BPRED_STATIC || cfg->bpred == BPRED_BIMODAL) {
        if (cfg->btb_entries != p->btb_entries || cfg->ras_entries != p->ras_entries) {
            cs_error_set(err, "bpred.btb_entries/ras_entries %u/%u: the profile analysed %u/%u", cfg->btb_entries,
                         cfg->ras_entries, p->btb_entries, p->ras_entries);
            return false;
        }
        if (cfg->bpred == BPRED_STATIC) {
            m->pred = SM_PRED_STATIC;
        } else {
            if (cfg->bpred_table_bits < SM_BIMODAL_MIN_BITS || cfg->bpred_table_bits > SM_BIMODAL_MAX_BITS) {
                cs_error_set(err, "a bimodal table of 2^%u counters was not analysed (2^%d to 2^%d)",
                             cfg->bpred_table_bits, SM_BIMODAL_MIN_BITS, SM_BIMODAL_MAX_BITS);
                return false;
            }
            m->pred = SM_PRED_STATIC + 1 + (int)(cfg->bpred_table_bits - SM_BIMODAL_MIN_BITS);
        }
    } else {
        cs_error_set(err, "the %s predictor is not modelled (none, static/loop, bimodal, perfect: thesis §6.1)",
                     bpred_kind_name(cfg->bpred));
        return false;
    }
    if (!m->three) {
        if (!cfg->perfect_icache || !cfg->perfect_dcache) {
            cs_error_set(err,
                         "caches on the one-pipe machine are not modelled (thesis Ch. 7 models them on the "
                         "three-pipe machine; set ideal.icache=yes ideal.dcache=yes)");
            return false;
        }
        m->icache_blocks = m->dcache_blocks = -1;
        return true;
    }
    if (!cache_blocks(&cfg->l1i, cfg->perfect_icache, "l1i", &m->icache_blocks, err) ||
        !cache_blocks(&cfg->l1d, cfg->perfect_dcache, "l1d", &m->dcache_blocks, err))
        return false;
    if (m->icache_blocks >= 0 || m->dcache_blocks >= 0) {
        if (cfg->l2.enabled || cfg->l3.enabled || cfg->mem_bandwidth) {
            cs_error_set(err, "an L2, L3 or memory bandwidth limit is not modelled (one miss cost, thesis §7.4)");
            return false;
        }
        m->miss_latency = cfg->mem_latency;
        if (m->miss_latency < 1 || m->miss_latency > 64) {
            cs_error_set(err, "memory.latency = %u is not modelled (1 to 64 cycles)", cfg->mem_latency);
            return false;
        }
    }
    return true;
}

bool sm_solve(const sm_profile *p, const sm_machine *m, sm_result *r, cs_error *err) {
    if (!m->three) return sm_solve_onepipe(&p->one, m, r, err);
    if (m->vp && !p->vp[m->vp - 1].nnode) {
        cs_error_set(err, "the profile has no value-prediction statistics");
        return false;
    }
    return sm_solve_threepipe(m->vp ? &p->vp[m->vp - 1] : &p->three, m, r, err);
}
