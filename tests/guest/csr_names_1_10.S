/* The same CSR numbers under privileged spec 1.10 (the attributes say so):
 * objdump names them as that spec did (satp, pmpcfg0-3 but no mcountinhibit,
 * pmpcfg4 or senvcfg), and
 * so must `cyclescope disasm` (issue 11 item 11). Never run: the CSRs are
 * privileged. */
    .attribute priv_spec, 1
    .attribute priv_spec_minor, 10
    .text
    .globl _start
_start:
    .insn 0x00002573 /* csrr a0, 0x000 (ustatus before 1.12) */
    .insn 0x00402573 /* 0x004 uie before 1.12 */
    .insn 0x10a02573 /* senvcfg since 1.12 */
    .insn 0x3a402573 /* pmpcfg4 since 1.12 */
    .insn 0x3c002573 /* pmpaddr16 since 1.12 */
    .insn 0x34a02573 /* mtinst since 1.12 */
    .insn 0x32002573 /* mcountinhibit since 1.11 */
    .insn 0x18002573 /* satp since 1.10 */
    .insn 0x30002573 /* mstatus: every spec */
