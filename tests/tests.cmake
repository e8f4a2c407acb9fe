# Script-driven tests, included from tests/CMakeLists.txt. One block per
# subject; append new blocks below.

# ---- disassembler vs objdump ---------------------------------------------------
# isa_disasm must print exactly what riscv64-linux-gnu-objdump -d prints.
#   disasm.all_insns           every table op and every RV64C form (tests/guest/all_insns.S),
#                              assembled by the fixture test disasm.all_insns.assemble
#   disasm.workload.<name>     every instruction of each bundled static workload binary
# Skipped, with a message, when the cross toolchain is not installed.
find_program(CYCLESCOPE_RISCV_CC riscv64-linux-gnu-gcc)
find_program(CYCLESCOPE_RISCV_OBJDUMP riscv64-linux-gnu-objdump)
if(NOT CYCLESCOPE_RISCV_CC OR NOT CYCLESCOPE_RISCV_OBJDUMP)
  message(STATUS "cyclescope: riscv64-linux-gnu-gcc/objdump not found; disasm.* tests are skipped")
else()
  set(_disasm_script ${CMAKE_CURRENT_SOURCE_DIR}/scripts/disasm_vs_objdump.sh)
  set(_all_insns_obj ${CMAKE_CURRENT_BINARY_DIR}/all_insns.o)

  add_test(NAME disasm.all_insns.assemble
           COMMAND ${CYCLESCOPE_RISCV_CC} -c -march=rv64gc -mabi=lp64d
                   -o ${_all_insns_obj} ${CMAKE_CURRENT_SOURCE_DIR}/guest/all_insns.S)
  set_tests_properties(disasm.all_insns.assemble PROPERTIES FIXTURES_SETUP disasm_all_insns)

  add_test(NAME disasm.all_insns
           COMMAND ${_disasm_script} ${CYCLESCOPE_RISCV_OBJDUMP} $<TARGET_FILE:disasm_check>
                   ${_all_insns_obj} --every-op)
  set_tests_properties(disasm.all_insns PROPERTIES FIXTURES_REQUIRED disasm_all_insns)

  if(CYCLESCOPE_HAVE_WORKLOADS)
    foreach(_workload IN LISTS CYCLESCOPE_WORKLOADS)
      add_test(NAME disasm.workload.${_workload}
               COMMAND ${_disasm_script} ${CYCLESCOPE_RISCV_OBJDUMP} $<TARGET_FILE:disasm_check>
                       ${CYCLESCOPE_WORKLOAD_DIR}/${_workload})
    endforeach()
  else()
    message(STATUS "cyclescope: no workloads built; disasm.workload.* tests are skipped")
  endif()
endif()
# ---- end disassembler vs objdump -------------------------------------------------
