# ---- style: the C sources follow .clang-format ------------------------------------------
add_test(NAME format.check COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/scripts/format_check.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(format.check PROPERTIES SKIP_RETURN_CODE 77)
