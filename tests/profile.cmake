# ---- profile: DCPI-style sampling and analysis (docs/profile.md) -------------------------
#   unit.profile               (tests/unit/test_profile.c) equivalence classes on hand-worked
#                              CFGs, static schedules against the in-order closed forms, the
#                              profile file both ways, the bubble charged to the next
#                              instruction, the lowering to the flow constraints, merge
#   profile.cli                record / run --analysis profile / report / annotate / JSON /
#                              HTML, merge end to end, and the bad inputs (one line naming the file)
#   profile.paths              the program recorded absolute (record, run --analysis profile): a
#                              report from another directory, of a moved tree, of a relative path
#                              (before 2026-11-27) found beside the profile; another file there refused
#   profile.grade.inorder1     estimates against the truth on inorder1 (two programs, two
#                              seeds): asserts the issue's frequency and edge goals, which
#                              this machine meets; prints the culprit figures (not asserted)
#   profile.grade.ooo4_commit_slot  the same goals asserted on ooo4's commit-slot samples for three
#                              programs that meet them (memcopy 4096, list 10000, dep_add 200000:
#                              docs/profile.md "Out-of-order machines" for the workloads that do not)
#   profile.grade.ooo4_commit_cycle  the same goals on ooo4's commit-cycle samples (the default out
#                              of order), the eight workloads of bench/profile_grade.sh with three
#                              runs merged (seeds 1+2+3): one run does not meet them (docs/profile.md)
#   profile.grade.ooo4_commit_cycle_low  single runs: the samples off by > 15% marked low (>= 95%)
#   profile.grade.ooo4_commit_cycle_single  single runs: every frequency and edge goal
#   profile.sampled_ran_once   ooo4 at commit points: a sampled instruction's count is one execution
#                              at least, and the flow constraints still hold
#   profile.calls_between_procedures  sort's quicksort (entered only by jal): its estimated entry
#                              count is the sum of its call sites' (the least squares across procedures)
#   fuzz.profile.corpus        (tests/fuzz.cmake) replays tests/corpus/profile (versions 3 to 7)
set(_cs $<TARGET_FILE:cyclescope>)
set(_scripts ${CMAKE_CURRENT_SOURCE_DIR}/scripts)
set(_prof_out ${CMAKE_CURRENT_BINARY_DIR}/profile-out)
file(MAKE_DIRECTORY ${_prof_out})
add_test(NAME cli.help.profile COMMAND ${_cs} profile --help)
set_tests_properties(cli.help.profile PROPERTIES PASS_REGULAR_EXPRESSION "usage: cyclescope profile record")
if(CYCLESCOPE_HAVE_WORKLOADS)
  # --period P spreads over [P - P/32, P + P/32], at least +-1 from P = 2: below 32 it was the
  # one value P, a fixed period that aliases with loops of a fixed cycle count
  add_test(NAME profile.period_spread COMMAND bash -c "set -eu; cs=$1 out=$2 prog=$3; mkdir -p $out
    for spec in 1:1-1 2:1-3 20:19-21 6400:6200-6600; do
      $cs profile record --max 20000 --period \${spec%:*} --config inorder1 -o $out/p.prof $prog >/dev/null 2>&1
      $cs profile report $out/p.prof | grep -q \"cycles (\${spec#*:})\" || { echo \"--period \${spec%:*} is not \${spec#*:}\"; exit 1; }
    done" _ ${_cs} ${_prof_out}/period-spread ${CYCLESCOPE_WORKLOAD_DIR}/dep_add)
  add_test(NAME profile.cli COMMAND ${_scripts}/profile_cli.sh ${_cs} ${_prof_out}/cli
           ${CYCLESCOPE_WORKLOAD_DIR}/sort ${CYCLESCOPE_WORKLOAD_DIR}/tree)
  add_test(NAME profile.paths COMMAND ${_scripts}/profile_paths.sh ${_cs} ${CYCLESCOPE_WORKLOAD_DIR}/sort
           ${CYCLESCOPE_WORKLOAD_DIR}/tree)
  add_test(NAME profile.grade.inorder1 COMMAND ${_scripts}/profile_grade.sh ${_cs} ${_prof_out}/grade inorder1 100 1,2
           "${CYCLESCOPE_WORKLOAD_DIR}/sort 10000" "${CYCLESCOPE_WORKLOAD_DIR}/tree 5000")
  # ooo4 sampled at the commit slots (the default out of order): a streaming loop, a list
  # walk and a dependence chain, whose counts the emulator knows; at the head of issue
  # (profile version 4) memcopy 4096 had none of its samples within 15% and no edge within
  # 10%, and the cluster rule on all the commit-slot samples (not the retiring ones) had
  # dep_add at 0% within 15% (every instruction of its loop waits)
  add_test(NAME profile.grade.ooo4_commit_slot COMMAND ${_scripts}/profile_grade.sh ${_cs} ${_prof_out}/grade-ooo4
           ooo4:commit-slot 100 1,2 "${CYCLESCOPE_WORKLOAD_DIR}/memcopy 4096" "${CYCLESCOPE_WORKLOAD_DIR}/list 10000"
           "${CYCLESCOPE_WORKLOAD_DIR}/dep_add 200000")
  # ooo4 at every commit slot of a sample cycle (commit-cycle, profile version 6): the bench's
  # eight workloads at period 100, each the merge of three runs — single runs give 82.0 / 91.3 /
  # 94.0% within 5 / 10 / 15% (the 10% and 15% goals not met), three merged 91.1 / 95.0 / 95.8%,
  # edges 92.8% (docs/profile.md, "Single runs")
  set(_ooo_workloads)
  foreach(_w "sort 10000" "hash 10000" "list 10000" "tree 5000" "interp 250" "matmul 4" "fft 2048" "strsearch 12000")
    list(APPEND _ooo_workloads "${CYCLESCOPE_WORKLOAD_DIR}/${_w}")
  endforeach()
  add_test(NAME profile.grade.ooo4_commit_cycle COMMAND ${_scripts}/profile_grade.sh ${_cs}
           ${_prof_out}/grade-ooo4-cycle ooo4 100 1+2+3 ${_ooo_workloads})
  # and single runs (seeds 1, 2, 3): the issue's "nearly all samples off by more than 15% marked
  # low" (100%; 88.5% when the analysis took the grouped slot-samples as independent)
  add_test(NAME profile.grade.ooo4_commit_cycle_low COMMAND ${CMAKE_COMMAND} -E env PROFILE_GRADE_ASSERT=low
           ${_scripts}/profile_grade.sh ${_cs} ${_prof_out}/grade-ooo4-cycle-low ooo4 100 1,2,3 ${_ooo_workloads})
  # single runs (seeds 1, 2, 3) meet every frequency and edge goal since a sampled class is held
  # at one execution at least (docs/profile.md, "A sampled block ran"): 83.7 / 93.1 / 95.9% within
  # 5 / 10 / 15%, edges 88.4%; before 82.0 / 91.4 / 94.1% (the 10% and 15% goals not met)
  add_test(NAME profile.grade.ooo4_commit_cycle_single COMMAND ${_scripts}/profile_grade.sh ${_cs}
           ${_prof_out}/grade-ooo4-cycle-single ooo4 100 1,2,3 ${_ooo_workloads})
  # a sample at a commit point names an instruction that commits: every sampled instruction's
  # count is one execution at least (start-up code waiting on cold misses, and procedures that
  # never return, were estimated at 0-0.1 execution), and the solution still meets each block's
  # flow constraint (its count the sum of its in-edges', no edge below 0) where least squares
  # solved it (no missing edges, at most 400 independent cycles) — commit cycles and commit slots;
  # before: 347 and 413 sampled instructions below one execution, 158 and 83 blocks off their flow
  add_test(NAME profile.sampled_ran_once COMMAND bash -c "set -eu; cs=$1 out=$2 prog=$3; mkdir -p \"$out\"
    for point in commit-cycle commit-slot; do
      \"$cs\" profile record --env-fixed --config ooo4 --sample-point $point --period 100 --sample-seed 1 \\
        -o \"$out\"/s.prof \"$prog\" 10000 >/dev/null 2>&1
      \"$cs\" profile report --json \"$out\"/s.json \"$out\"/s.prof >/dev/null 2>&1
      jq -e '[.procedures[].instructions[] | select(.samples > 0)] as \$s
        | (\$s | length) > 100 and all(\$s[]; .count >= 1 - 1e-9)' \"$out\"/s.json >/dev/null ||
        { echo \"$point: sampled instructions run less than once: $(jq -c '[.procedures[] | .name as \$n
            | .instructions[] | select(.samples > 0 and .count < 1 - 1e-9) | [\$n, .pc, .samples, .count]] | .[:5]' \"$out\"/s.json)\"; exit 1; }
      jq -e '[.procedures[] | select((.missing_edges | not) and (.edges | length) - ([.instructions[].block] | max + 1) <= 400)
        | . as \$p | (\$p.instructions | group_by(.block)[] | .[0]) as \$b | [\$p.edges[] | select(.to == \$b.block) | .count] as \$in
        | select((\$in | length) > 0 and all(\$in[]; . != null) and ((\$b.count - (\$in | add)) | fabs) > 1e-6 * (1 + \$b.count))]
        | length == 0' \"$out\"/s.json >/dev/null ||
        { echo \"$point: a block's count is not the sum of its in-edges'\"; exit 1; }
    done" _ ${_cs} ${_prof_out}/sampled-ran-once ${CYCLESCOPE_WORKLOAD_DIR}/sort)
  # the calls between procedures (docs/profile.md "The calls between procedures"): sort's
  # quicksort is entered only by jal (from main and from itself), so its estimated entry count
  # is the sum of its call sites' counts (1112.6 against 969.0 before, each procedure alone)
  add_test(NAME profile.calls_between_procedures COMMAND bash -c "set -eu; cs=$1 out=$2 prog=$3; mkdir -p \"$out\"
    \"$cs\" profile record --env-fixed --config ooo4 --period 100 --sample-seed 1 -o \"$out\"/s.prof \"$prog\" 10000 >/dev/null 2>&1
    \"$cs\" profile report --json \"$out\"/s.json \"$out\"/s.prof >/dev/null 2>&1
    jq -e '(.procedures[] | select(.name == \"quicksort\")) as \$q
      | (\$q.edges[] | select(.from == \"entry\") | .count) as \$entry
      | ([.procedures[].instructions[] | select(.insn == (\"jal\\t\" + (\$q.start | ltrimstr(\"0x\")))) | .count]) as \$sites
      | (\$sites | length) >= 2 and \$entry > 100 and ((\$entry - (\$sites | add)) | fabs) < 1e-6 * \$entry' \"$out\"/s.json"
    _ ${_cs} ${_prof_out}/calls ${CYCLESCOPE_WORKLOAD_DIR}/sort)
endif()
#   profile.infinite_loop      a procedure that never returns (tests/guest/spin_forever.c,
#                              cut by --max): classes by DCPI's infinite-loop extension,
#                              estimates graded against the truth
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.infinite_loop COMMAND ${_scripts}/profile_infinite_loop.sh ${_cs} ${_prof_out}/infinite
           ${CYCLESCOPE_GUEST_DIR}/spin_forever)
endif()
#   profile.cut_recursion      a deep recursion cut by --max (tests/guest/deep_recursion.c): its
#                              call site ran once a level, what follows the call never; on ooo4
#                              the points after the call are left out of the class' estimate
#                              (docs/profile.md "Calls that do not return"): descend's samples
#                              within 10% >= 95% (inorder3: 100% at seeds 1-3; ooo4 before: 12.7%)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.cut_recursion COMMAND bash -c "set -eu; cs=$1 out=$2 prog=$3; mkdir -p \"$out\"
    \"$cs\" profile record --env-fixed --config ooo4 --period 100 --sample-seed 1 --max 400000 --truth \"$out\"/r.truth -o \"$out\"/r.prof \"$prog\" >/dev/null 2>&1
    \"$cs\" profile report --function descend --truth \"$out\"/r.truth --json \"$out\"/r.json \"$out\"/r.prof >/dev/null 2>&1
    jq -e '.procedures[0].segments_left_out >= 1' \"$out\"/r.json
    jq -e '.grade.samples > 1000 and .grade.within10 >= 0.95 and .grade.off15_marked_low == 1' \"$out\"/r.json ||
      { jq -c .grade \"$out\"/r.json; exit 1; }" _ ${_cs} ${_prof_out}/cut-recursion ${CYCLESCOPE_GUEST_DIR}/deep_recursion)
endif()
#   profile.asm_labels         hand-written assembly without .type/.size (tests/guest/asm_labels.S):
#                              procedures named by its labels, `work` of its 7 instructions (it
#                              ran into the next label's code, named proc_ADDR), estimates graded
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.asm_labels COMMAND bash -c "set -eu; cs=$1 out=$2 prog=$3; mkdir -p \"$out\"
    \"$cs\" profile record --env-fixed --config inorder3 --period 100 --truth \"$out\"/a.truth -o \"$out\"/a.prof \"$prog\" >/dev/null 2>&1
    \"$cs\" profile report --truth \"$out\"/a.truth --json \"$out\"/a.json \"$out\"/a.prof >/dev/null 2>&1
    jq -e '[.procedures[] | {(.name): (.instructions | length)}] | add | .work == 7 and ._start == 8' \"$out\"/a.json
    jq -e '.grade.within10 > 0.9' \"$out\"/a.json" _ ${_cs} ${_prof_out}/asm-labels ${CYCLESCOPE_GUEST_DIR}/asm_labels)
endif()
#   profile.long_block         a long block run seldom (tests/guest/long_block.c: 160 adds, ~10-20
#                              samples a point at period 200): the 1.5x cut went through the noise
#                              and the estimate was where it fell (-10 to -40%: within 10% at 1 of
#                              the 6 runs below); the points above it that agree within noise are
#                              pooled back (docs/profile.md, "The cut through the noise"): `mix`
#                              within 10% at every run, inorder1 and inorder3, seeds 1-3
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.long_block COMMAND bash -c "set -eu; cs=$1 out=$2 prog=$3; mkdir -p $out
    for config in inorder1 inorder3; do for seed in 1 2 3; do
      $cs profile record --env-fixed --config $config --period 200 --sample-seed $seed --truth $out/l.truth -o $out/l.prof $prog >/dev/null 2>&1
      $cs profile report --function mix --truth $out/l.truth --json $out/l.json $out/l.prof >/dev/null 2>&1
      jq -e '.grade.samples > 1000 and .grade.within10 >= 0.9' $out/l.json >/dev/null ||
        { echo \"$config seed $seed: $(jq -c .grade $out/l.json)\"; exit 1; }
    done; done" _ ${_cs} ${_prof_out}/long-block ${CYCLESCOPE_GUEST_DIR}/long_block)
endif()
#   profile.jump_table_into    a switch whose bound branches into its jump table (`bgeu K, I, table`,
#                              tests/guest/jump_table_into.S; glibc's vfscanf): the table is read, its
#                              five targets are the jump's edges and the procedure is not missing
#                              edges (before: missing edges, every block its own class); and a
#                              table indexed through a mask (`andi I, X, 3`), no bound: four edges
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_into COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/jump-table-into
           ${CYCLESCOPE_GUEST_DIR}/jump_table_into dispatch:5 masked:4)
endif()
#   profile.jump_table_zba     a switch compiled with Zba (tests/guest/bitmanip_switch.c): the table
#                              indexed by sh2add, not slli + add; its nine targets are the jump's
#                              edges (before: missing edges, every block its own class)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_zba COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/jump-table-zba
           ${CYCLESCOPE_GUEST_DIR}/bitmanip_switch step:9)
endif()
#   profile.jump_table_two_level  a jump through a byte table of classes, then a table of labels
#                              addressed from an anchor (tests/guest/jump_table_two_level.S; glibc's
#                              vfprintf): the four labels the classes name are the jump's edges, the
#                              fifth label none (before: missing edges)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_two_level COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/jump-table-two-level
           ${CYCLESCOPE_GUEST_DIR}/jump_table_two_level classify:4)
endif()
#   profile.jump_table_clang   clang's dispatch forms (tests/guest/jump_table_clang.S): a switch at -O0
#                              (bound on the stored index, the shift on the reloaded one) and a computed
#                              goto through a table of label addresses, an object of its own, its base
#                              set once far above: both read, the jumps' edges 5 and 4, the procedures
#                              not missing edges (before: missing edges, every block its own class); and
#                              a virtual call as a tail jump after the epilogue: one edge, to the exit
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_clang COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/jump-table-clang
           ${CYCLESCOPE_GUEST_DIR}/jump_table_clang spilled:5 threaded:4 virtual_tail:tail)
endif()
#   profile.jump_table_masked  Lua 5.4's dispatch under GCC (tests/guest/jump_table_masked.S): one
#                              `goto *disptab[i & 0x7f]` through a table of 5 label addresses, an object
#                              of its own: read up to the object's end, 5 edges, not missing edges (before:
#                              the mask's 128 entries ran past the table, missing edges)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_masked COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/jump-table-masked
           ${CYCLESCOPE_GUEST_DIR}/jump_table_masked vm:5)
endif()
#   profile.jump_table_zext    bzip2's `switch (s->state)` under GCC (tests/guest/jump_table_zext.S): the
#                              bound on the index's sext.w, the index zero-extended and shifted in two
#                              (slli 32, srli 30): read, 5 edges; and mawk's switch on a short, bounded on
#                              its zext.h (slli 48, srli 48): 4 edges; neither missing edges (before: both)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_zext COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/jump-table-zext
           ${CYCLESCOPE_GUEST_DIR}/jump_table_zext state_step:5 short_switch:4)
endif()
#   profile.jump_table_hoisted gawk's r_interpret under GCC (tests/guest/jump_table_hoisted.S): the table's
#                              base kept in s4 from the entry (the epilogue restores it), the bound set
#                              before a jump to a dispatch block below the epilogue: 5 edges, not missing
#                              edges (before: missing)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_hoisted COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/jump-table-hoisted
           ${CYCLESCOPE_GUEST_DIR}/jump_table_hoisted interp:5)
endif()
#   profile.jump_table_reload  xz's `switch (coder->sequence)` under GCC (tests/guest/jump_table_reload.S): the
#                              bound on a first load of the field, the shift on a second load of it (same
#                              base and offset, no store between): read, 5 edges, not missing edges (before:
#                              missing edges)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_reload COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/jump-table-reload
           ${CYCLESCOPE_GUEST_DIR}/jump_table_reload decode_step:5)
endif()
#   profile.jump_table_branch_in  zstd's ZSTD_decompressSequences_default under GCC
#                              (tests/guest/jump_table_branch_in.S): the table's block entered only by the
#                              bound's conditional branch, below another block whose `bltu a5, s0` comes first
#                              in address order: the bound followed along the one way in, 5 edges, not missing
#                              edges (before: missing edges)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_branch_in COMMAND ${_scripts}/profile_jump_table.sh ${_cs}
           ${_prof_out}/jump-table-branch-in ${CYCLESCOPE_GUEST_DIR}/jump_table_branch_in decode_seq:5)
endif()
#   profile.jump_table_copied_base  brotli's ReadHuffmanCode under GCC -O3 (tests/guest/jump_table_copied_base.S):
#                              the bound on a first load of a field through the pointer argument, the
#                              prologue's saves, the shift on a second load through its copy (`mv s0, a0`):
#                              read, 5 edges, not missing edges (before: missing edges); copy_after (the
#                              copy made below the first load: BrotliCreateBackwardReferences) the same;
#                              copy_moved moves the copy on 4 bytes, another field: it stays missing
#                              edges (a guard)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_copied_base COMMAND ${_scripts}/profile_jump_table.sh ${_cs}
           ${_prof_out}/jump-table-copied-base ${CYCLESCOPE_GUEST_DIR}/jump_table_copied_base copied_base:5 copy_after:5
           copy_moved:missing)
endif()
#   profile.jump_table_no_return  zstd's main under GCC -O3 (tests/guest/jump_table_no_return.S): the table's
#                              base in s1 over an option loop, s1 a count in a part ending in `call exit`
#                              with a case laid out after the call: the call does not fall through, the
#                              base is the one constant, 5 edges, not missing edges (before: missing edges)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_no_return COMMAND ${_scripts}/profile_jump_table.sh ${_cs}
           ${_prof_out}/jump-table-no-return ${CYCLESCOPE_GUEST_DIR}/jump_table_no_return options:5)
endif()
#   profile.jump_table_gcc_o0  two switches as GCC -O0 writes them (tests/guest/jump_table_gcc_o0.S; brotli's main
#                              and EncodeData): the entry sign-extended and the base set again after the
#                              load; the bound on the sign extension of a first load of a spilled index, its
#                              register reused by the bound, or on a copy of the index, or (offset_switch:
#                              zstd's ZSTD_cParam_getBounds) on the sign extension of an index the shift
#                              reads zero-extended into another register: 5 edges each, not missing edges
#                              (before: missing edges)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_gcc_o0 COMMAND ${_scripts}/profile_jump_table.sh ${_cs}
           ${_prof_out}/jump-table-gcc-o0 ${CYCLESCOPE_GUEST_DIR}/jump_table_gcc_o0 spilled_switch:5 field_switch:5
           offset_switch:5)
endif()
#   profile.sibling_call_ptr   SQLite's leaves under GCC (tests/guest/sibling_call_ptr.S): `jr R` after `ld R, K(B)`
#                              with no frame, B an argument, a loaded method table or a global's address: a
#                              sibling call, one edge to the exit, not missing edges (before: missing edges);
#                              table_leaf (an index added to B) stays missing edges (a guard)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.sibling_call_ptr COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/sibling-call-ptr
           ${CYCLESCOPE_GUEST_DIR}/sibling_call_ptr field_method:tail vtable_method:tail global_pointer:2 table_leaf:missing)
endif()
#   profile.jump_table_together  two switches whose bound is one constant kept in s4 over the loop, as in
#                              ld.so's _dl_relocate_object (tests/guest/jump_table_together.S): found only
#                              over the CFG, which needs each table's edges for the other's; read together,
#                              5 edges, not missing edges (before: missing edges); twice_guard (its second
#                              jump through a loaded pointer) stays missing edges (a guard)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_together COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/jump-table-together
           ${CYCLESCOPE_GUEST_DIR}/jump_table_together twice:5 twice_guard:missing)
endif()
#   profile.resolver_tail_jump  ld.so's lazy-binding trampoline (tests/guest/resolver_tail_jump.S): prologue, a call
#                              returning a function, epilogue, `jr t1` in one block: a tail call, one edge
#                              to the exit, not missing edges (before: missing edges)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.resolver_tail_jump COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/resolver-tail-jump
           ${CYCLESCOPE_GUEST_DIR}/resolver_tail_jump resolve:tail)
endif()
#   profile.jump_table_two_ways_in  the same with a second branch into the table's block, bounded by another
#                              constant (tests/guest/jump_table_two_ways_in.S): the bound is not proven on
#                              every path, the procedure stays missing edges (a guard: no table read past)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_two_ways_in COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/jump-table-two-ways-in
           ${CYCLESCOPE_GUEST_DIR}/jump_table_two_ways_in decode_seq:missing)
endif()
#   profile.jump_table_index_rewritten  the index written between its bound's branch and the shift
#                              (tests/guest/jump_table_index_rewritten.S): `addi I, I, 3` after the bound
#                              (rewritten), or between the sext.w the bound tests and the branch (widened):
#                              the bound no longer bounds the index, both procedures missing edges (before:
#                              the table's first 5 entries taken as the targets; the truth's transfers to
#                              entries 5-7 of 8 not in the CFG); and extended_wider, bounded on the index's
#                              zext.h, then the index sign-extended from 32 bits in place (bits 16-31 not
#                              bounded; before: 5 edges); and joined, the index not written but a second way in
#                              between the bound and the shift, on index 6 (before: 5 edges, the transfer to
#                              entry 6 not in the CFG), and masked_joined, the same below a mask (`andi I, I, 3`;
#                              before: 4 edges). For all eight procedures of the program: every taken transfer
#                              of the truth inside one not missing edges is an edge of its CFG
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_index_rewritten COMMAND bash -c "set -eu; cs=$1 out=$2 prog=$3; mkdir -p $out
    $cs profile record --env-fixed --config inorder1 --period 100 --truth $out/j.truth -o $out/j.prof $prog >/dev/null 2>&1
    awk '/^edges/ { e = 1; next } e { print \"0x\" $1, \"0x\" $2 }' $out/j.truth > $out/transfers
    for fn in rewritten widened benign extended extended_wider joined joined_bounded masked_joined; do
      $cs profile report --function $fn --truth $out/j.truth --json $out/$fn.json $out/j.prof >/dev/null 2>&1
      jq -e --rawfile t $out/transfers '.procedures[0] as $p | $p.missing_edges or
        (($p.instructions | map({key: .pc, value: .block}) | from_entries) as $b |
         [$p.edges[] | (.from | tostring) + \" \" + (.to | tostring)] as $cfg |
         all($t | split(\"\\n\")[] | select(length > 0) | split(\" \") | select($b[.[0]] != null and $b[.[1]] != null) |
             ($b[.[0]] | tostring) + \" \" + ($b[.[1]] | tostring); . as $x | any($cfg[]; . == $x)))' $out/$fn.json >/dev/null ||
        { echo \"$fn: a transfer of the truth not in the CFG\"; exit 1; }
    done
    for fn in rewritten widened extended_wider joined masked_joined; do
      jq -e '.procedures[0].missing_edges == true' $out/$fn.json >/dev/null || { echo \"$fn: not missing edges\"; exit 1; }
    done" _ ${_cs} ${_prof_out}/jump-table-index-rewritten ${CYCLESCOPE_GUEST_DIR}/jump_table_index_rewritten)
endif()
#   profile.jump_table_index_kept  the same program's benign: another register written between the bound and
#                              the shift, the index not: the bound holds, 5 edges, not missing edges (a guard);
#                              and extended (sqlite's yy_destructor): the bound on the index's zext.h, the index
#                              then zero-extended in place the same way, which keeps the bounded value: 5 edges;
#                              and joined_bounded: a second way in between the bound and the shift, a branch into
#                              the table on the same bound (gawk's addtok_mb, glibc's vfscanf): 5 edges
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_index_kept COMMAND ${_scripts}/profile_jump_table.sh ${_cs}
           ${_prof_out}/jump-table-index-kept ${CYCLESCOPE_GUEST_DIR}/jump_table_index_rewritten benign:5 extended:5
           joined_bounded:5)
endif()
#   profile.jump_table_far_base  sed's execute_program under GCC (tests/guest/jump_table_far_base.S): the
#                              table's base set in the loop's preheader into s8, 56 instructions above the
#                              jump, s8 holding other values earlier: its value on every path into the jump
#                              followed over the CFG, 4 edges, not missing edges (before: missing edges)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_far_base COMMAND ${_scripts}/profile_jump_table.sh ${_cs}
           ${_prof_out}/jump-table-far-base ${CYCLESCOPE_GUEST_DIR}/jump_table_far_base far_base:4)
endif()
#   profile.jump_table_base_disagrees  the same program's two_bases: one opcode sets s8 to a second table
#                              before the next dispatch, the paths into the jump disagree: stays missing
#                              edges (a guard: no base taken from one path of several)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_base_disagrees COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/jump-table-base-disagrees
           ${CYCLESCOPE_GUEST_DIR}/jump_table_far_base two_bases:missing)
endif()
#   profile.jump_to_argument   glibc's __tunable_get_val (tests/guest/jump_to_argument.S): `jr a2` to the
#                              callback the caller passed, a2 unwritten on every path from the entry: a
#                              tail call, one edge to the exit (before: missing edges)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_to_argument COMMAND ${_scripts}/profile_jump_table.sh ${_cs}
           ${_prof_out}/jump-to-argument ${CYCLESCOPE_GUEST_DIR}/jump_to_argument apply:tail)
endif()
#   profile.jump_to_argument_written  the same program's maybe_loaded: its jump's register loaded from memory
#                              on one path: stays missing edges (a guard)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_to_argument_written COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/jump-to-argument-written
           ${CYCLESCOPE_GUEST_DIR}/jump_to_argument maybe_loaded:missing)
endif()
#   profile.jump_to_argument_entry_loop  its entry_loop: the register loaded before a jump back to the entry:
#                              stays missing edges (a guard: the walk goes on through the entry's ways in)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_to_argument_entry_loop COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/jump-to-argument-entry-loop
           ${CYCLESCOPE_GUEST_DIR}/jump_to_argument entry_loop:missing)
endif()
#   profile.jump_table_frame_store  sed's match_an_address_p under GCC (tests/guest/jump_table_frame_copy.S):
#                              the bound on a first load of a field through an argument, the shift on a
#                              second, the prologue's `sd ra, 8(sp)` between: a store to the procedure's own
#                              frame, 4 edges (before: missing edges)
#   profile.jump_table_copy    mawk's cast1_to_d: the shift on a copy (`mv a5, a4`) of the bounded register,
#                              4 edges (before: missing edges)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_frame_store COMMAND ${_scripts}/profile_jump_table.sh ${_cs}
           ${_prof_out}/jump-table-frame-store ${CYCLESCOPE_GUEST_DIR}/jump_table_frame_copy frame_field:4)
  add_test(NAME profile.jump_table_copy COMMAND ${_scripts}/profile_jump_table.sh ${_cs}
           ${_prof_out}/jump-table-copy ${CYCLESCOPE_GUEST_DIR}/jump_table_frame_copy copy_index:4)
endif()
#   profile.jump_table_frame_store_outside  the same program's frame_outside: its store between the loads
#                              lies past its frame, in its caller's: stays missing edges (a guard)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_frame_store_outside COMMAND ${_scripts}/profile_jump_table.sh ${_cs} ${_prof_out}/jump-table-frame-store-outside
           ${CYCLESCOPE_GUEST_DIR}/jump_table_frame_copy frame_outside:missing)
endif()
#   profile.jump_table_field_apart  libyaml's yaml_emitter_emit_node under GCC (tests/guest/jump_table_field_apart.S):
#                              a field loaded twice through s0 (no frame pointer), a store to another field
#                              between, a store to the field itself on another path above (no spill): 4 edges
#                              (before: missing edges)
#   profile.jump_table_bound_hoisted  the same file's bound_hoisted: the bound K in s5, set before the loop past
#                              the look-back, s5 a counter before that: K the one constant on every path, 4
#                              edges (before: missing edges)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.jump_table_field_apart COMMAND ${_scripts}/profile_jump_table.sh ${_cs}
           ${_prof_out}/jump-table-field-apart ${CYCLESCOPE_GUEST_DIR}/jump_table_field_apart field_apart:4)
  add_test(NAME profile.jump_table_bound_hoisted COMMAND ${_scripts}/profile_jump_table.sh ${_cs}
           ${_prof_out}/jump-table-bound-hoisted ${CYCLESCOPE_GUEST_DIR}/jump_table_field_apart bound_hoisted:4)
endif()
#   profile.stripped_gap       a stripped program whose hot function follows the linker's zero fill and is
#                              reached through a pointer (tests/guest/stripped_gap.S): it is a procedure of
#                              its own, its samples estimated (before: the procedure before the fill held
#                              them, none of its instructions, estimated 0: within 10% 0%)
find_program(CYCLESCOPE_RISCV_STRIP riscv64-linux-gnu-strip)
if(CYCLESCOPE_RISCV_CC AND CYCLESCOPE_RISCV_STRIP)
  add_test(NAME profile.stripped_gap COMMAND bash -c "set -eu; cs=$1 out=$2 prog=$3 strip=$4; mkdir -p $out
    $strip -o $out/stripped $prog
    $cs profile record --env-fixed --config inorder1 --period 100 --truth $out/s.truth -o $out/s.prof $out/stripped >/dev/null 2>&1
    $cs profile report --truth $out/s.truth --json $out/s.json $out/s.prof >/dev/null 2>&1
    jq -e '[.procedures[] | select(.samples > 0)] | length == 1 and .[0].missing_edges == false and .[0].cycles > 0' $out/s.json
    jq -e '.grade.within10 >= 0.9' $out/s.json" _ ${_cs} ${_prof_out}/stripped-gap ${CYCLESCOPE_GUEST_DIR}/stripped_gap ${CYCLESCOPE_RISCV_STRIP})
endif()
#   profile.stripped_fde       a stripped program whose hot function follows the function before it without a
#                              gap and is reached through a pointer (tests/guest/stripped_fde.S, stripped by
#                              the test): its frame description in .eh_frame makes it a procedure of its own,
#                              starting where its symbol did, with all the samples (before: _start's
#                              procedure held them)
if(CYCLESCOPE_RISCV_CC AND CYCLESCOPE_RISCV_STRIP)
  add_test(NAME profile.stripped_fde COMMAND bash -c "set -eu; cs=$1 out=$2 prog=$3 strip=$4; mkdir -p $out
    work=0x$(\${strip%strip}nm $prog | awk '$3 == \"work\" {print $1}' | sed 's/^0*//')
    $strip -o $out/stripped $prog
    $cs profile record --env-fixed --config inorder1 --period 100 --truth $out/s.truth -o $out/s.prof $out/stripped >/dev/null 2>&1
    $cs profile report --truth $out/s.truth --json $out/s.json $out/s.prof >/dev/null 2>&1
    jq -e --arg work $work '[.procedures[] | select(.samples > 0)] | length == 1 and .[0].start == $work and .[0].missing_edges == false' $out/s.json
    jq -e '.grade.within10 >= 0.9' $out/s.json" _ ${_cs} ${_prof_out}/stripped-fde ${CYCLESCOPE_GUEST_DIR}/stripped_fde ${CYCLESCOPE_RISCV_STRIP})
endif()
#   profile.eh_frame_ranges    the function ranges the ELF reader takes from .eh_frame (its FDEs: CIE
#                              augmentations, pc-relative sdata4 addresses) are readelf's, for the RISC-V
#                              libraries (libc, libstdc++, libgcc_s, ld.so), a C++ program and a static workload
find_program(CYCLESCOPE_RISCV_READELF riscv64-linux-gnu-readelf)
if(CYCLESCOPE_RISCV_READELF)
  set(_lib /usr/riscv64-linux-gnu/lib)
  add_test(NAME profile.eh_frame_ranges COMMAND ${_scripts}/eh_frame_ranges.sh $<TARGET_FILE:eh_frame_ranges>
           ${CYCLESCOPE_RISCV_READELF} ${_lib}/libc.so.6 ${_lib}/libstdc++.so.6 ${_lib}/libgcc_s.so.1
           ${_lib}/ld-linux-riscv64-lp64d.so.1 ${CYCLESCOPE_GUEST_DIR}/cxx_exceptions_dynamic
           ${CYCLESCOPE_GUEST_DIR}/stripped_fde ${CYCLESCOPE_WORKLOAD_DIR}/sort)
  set_tests_properties(profile.eh_frame_ranges PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
#   profile.library_procs      the procedures of libraries and PLT stubs (tests/scripts/profile_library_procs.sh):
#                              a C++ program's unwinder functions in libstdc++, libgcc_s and ld.so, reached
#                              through pointers, are procedures of their own by their FDEs (before: 12 671
#                              samples in procedures that ran over the next function's start); the PLT stubs'
#                              jumps through their GOT slots are tail calls, no stub missing edges (before: all)
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.library_procs COMMAND ${_scripts}/profile_library_procs.sh ${_cs} ${_prof_out}/library-procs
           ${CYCLESCOPE_GUEST_DIR} $<TARGET_FILE:eh_frame_ranges>)
  set_tests_properties(profile.library_procs PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endif()
#   profile.shared_libs        a dynamically linked program whose time is in libc.so
#                              (tests/guest/dynamic/libc_heavy.c): ld.so and libc.so.6 recorded in
#                              the profile (version 7), libc.so.6:strlen and :memcpy named, every
#                              sample counted once, libc's frequencies graded against the truth,
#                              a missing or changed library one line and IMAGE:unknown
#                              (docs/profile.md, "Shared libraries")
if(CYCLESCOPE_RISCV_CC)
  add_test(NAME profile.shared_libs COMMAND ${_scripts}/profile_shared_libs.sh ${_cs} ${_prof_out}/shared-libs
           ${CYCLESCOPE_GUEST_DIR})
  set_tests_properties(profile.shared_libs PROPERTIES SKIP_RETURN_CODE 77)
endif()
