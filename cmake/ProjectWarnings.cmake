# Warnings are errors in cushim's own targets (tests, examples, tools), never in consumers'.
function(cushim_project_target target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
  target_link_libraries(${target} PRIVATE cushim::cushim)
endfunction()
