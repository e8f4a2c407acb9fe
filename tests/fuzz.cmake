# Fuzz targets: tests/fuzz/fuzz_<name>.c. Every build replays the corpus seeds in
# tests/corpus/<name>/ through the target (CTest fuzz.<name>.corpus); with
# -DCYCLESCOPE_FUZZ=ON and clang, fuzz_<name> is also built as a libFuzzer binary:
#   ./fuzz_elf -max_total_time=60 ../tests/corpus/elf
file(GLOB FUZZ_TARGETS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_*.c)
foreach(src ${FUZZ_TARGETS})
  get_filename_component(name ${src} NAME_WE)
  string(REPLACE "fuzz_" "" short ${name})
  add_executable(${name}_replay ${src} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/replay_main.c)
  target_link_libraries(${name}_replay PRIVATE cyclescope_core)
  add_test(NAME fuzz.${short}.corpus COMMAND ${name}_replay ${CMAKE_CURRENT_SOURCE_DIR}/corpus/${short})
  if(CYCLESCOPE_FUZZ)
    add_executable(${name} ${src})
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_libraries(${name} PRIVATE cyclescope_core)
  endif()
endforeach()
