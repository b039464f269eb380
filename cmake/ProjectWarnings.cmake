# Warnings are errors in cushim's own targets (tests, examples, tools), never in consumers'.
# With CUSHIM_USE_BOOST_DLL they all load through Boost.DLL (include/cushim/detail/platform_boost_dll.hpp);
# with CUSHIM_PORTABLE_STUBS their stubs are C++ functions on x86-64 Linux too (detail/stubs/stub_resolvers.hpp).
function(cushim_project_target target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Werror)
  target_link_libraries(${target} PRIVATE cushim::cushim)
  if(CUSHIM_USE_BOOST_DLL)
    target_compile_definitions(${target} PRIVATE CUSHIM_USE_BOOST_DLL)
    target_link_libraries(${target} PRIVATE cushim_boost)
  endif()
  if(CUSHIM_PORTABLE_STUBS)
    target_compile_definitions(${target} PRIVATE CUSHIM_PORTABLE_STUBS)
  endif()
endfunction()
