# <cushim/cushim.hpp> must stay light: a TU that includes it may include no file that a TU with
# only <cuda_runtime_api.h> and <cudnn.h> does not, apart from cushim's own headers. Compares the
# compiler's own lists of included files (-M), so it does not depend on timing or on include-guard
# names. The control, status.cpp, must show <string>, <string_view> and <vector>: proof that the
# lists hold the C++ standard headers and that an empty difference means something.
#
#   cmake -DCXX=<compiler> -DSOURCE_DIR=<tests/light_header> -DINCLUDE_DIRS="<cushim>;<cuda>;<cudnn>"
#         -DWORK_DIR=<folder> -P check_light_header.cmake
cmake_minimum_required(VERSION 3.25)

foreach(_var CXX SOURCE_DIR INCLUDE_DIRS WORK_DIR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "check_light_header: -D${_var}=... is required")
  endif()
endforeach()
file(MAKE_DIRECTORY ${WORK_DIR})

set(_include_flags "")
foreach(_dir ${INCLUDE_DIRS})
  list(APPEND _include_flags -isystem ${_dir})
endforeach()

# The files a TU includes, as real paths, sorted.
function(included_files source out)
  execute_process(COMMAND ${CXX} -std=c++17 -M ${_include_flags} ${SOURCE_DIR}/${source}
    OUTPUT_VARIABLE _deps ERROR_VARIABLE _errors RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "check_light_header: ${CXX} -M ${source} failed (${_rc}):\n${_errors}")
  endif()
  string(REPLACE "\\\n" " " _deps "${_deps}")
  string(REPLACE "\\ " "<space>" _deps "${_deps}")
  string(REGEX REPLACE "^[^:]*: *" "" _deps "${_deps}")
  string(REGEX REPLACE "[ \t\r\n]+" ";" _deps "${_deps}")
  set(_files "")
  foreach(_file ${_deps})
    string(REPLACE "<space>" " " _file "${_file}")
    if(_file STREQUAL "" OR _file STREQUAL "${SOURCE_DIR}/${source}")
      continue()
    endif()
    file(REAL_PATH "${_file}" _real)
    list(APPEND _files "${_real}")
  endforeach()
  list(REMOVE_DUPLICATES _files)
  list(SORT _files)
  file(WRITE ${WORK_DIR}/${source}.files "${_files}")
  set(${out} "${_files}" PARENT_SCOPE)
endfunction()

# The names among `files` (by file name) of the standard headers cushim.hpp must not include.
set(_heavy string string_view vector memory functional map iostream)
function(heavy_headers files out)
  set(_found "")
  foreach(_file ${files})
    get_filename_component(_name "${_file}" NAME)
    if(_name IN_LIST _heavy)
      list(APPEND _found "<${_name}> (${_file})")
    endif()
  endforeach()
  set(${out} "${_found}" PARENT_SCOPE)
endfunction()

# light.cpp, which calls every function cushim.hpp declares, compiles with nothing else included.
execute_process(COMMAND ${CXX} -std=c++17 -fsyntax-only -Wall -Wextra -Werror ${_include_flags}
  ${SOURCE_DIR}/light.cpp ERROR_VARIABLE _errors RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "check_light_header: light.cpp does not compile with <cushim/cushim.hpp> alone:\n${_errors}")
endif()

included_files(plain.cpp _plain)
included_files(light.cpp _light)
included_files(status.cpp _status)

# The control: the same compiler call does list the standard headers <cushim/status.hpp> needs.
foreach(_needed string string_view vector)
  set(_seen FALSE)
  foreach(_file ${_status})
    get_filename_component(_name "${_file}" NAME)
    if(_name STREQUAL _needed)
      set(_seen TRUE)
    endif()
  endforeach()
  if(NOT _seen)
    message(FATAL_ERROR "check_light_header: the list of files status.cpp includes lacks <${_needed}>; "
                        "the check cannot see standard headers with this compiler (${CXX})")
  endif()
endforeach()

heavy_headers("${_light}" _heavy_found)
set(_extra ${_light})
list(REMOVE_ITEM _extra ${_plain})
# cushim's own headers: cushim.hpp and the detail/types/ headers it includes (the NVIDIA headers, the
# enums), none of which may include a standard header, as the list above shows.
list(GET INCLUDE_DIRS 0 _cushim_include)
file(REAL_PATH "${_cushim_include}" _cushim_include)
set(_allowed "")
foreach(_file ${_extra})
  string(FIND "${_file}" "${_cushim_include}/cushim/" _at)
  if(_at EQUAL 0)
    list(APPEND _allowed "${_file}")
  endif()
endforeach()
list(LENGTH _allowed _allowed_count)
if(_allowed_count GREATER 0)
  list(REMOVE_ITEM _extra ${_allowed})
endif()
if(_heavy_found OR _extra)
  set(_text "check_light_header: <cushim/cushim.hpp> is no longer light.\n")
  if(_heavy_found)
    list(JOIN _heavy_found "\n  " _heavy_text)
    string(APPEND _text "Standard headers it brings:\n  ${_heavy_text}\n")
  endif()
  list(JOIN _extra "\n  " _extra_text)
  string(APPEND _text "Files it includes beyond <cuda_runtime_api.h> and <cudnn.h>:\n  ${_extra_text}\n")
  message(FATAL_ERROR "${_text}Move what needs them to <cushim/status.hpp>.")
endif()
list(LENGTH _plain _plain_count)
list(LENGTH _light _light_count)
list(LENGTH _status _status_count)
message("check_light_header: <cushim/cushim.hpp> includes ${_light_count} files, the NVIDIA headers alone "
        "${_plain_count} (the difference: cushim's own headers); <cushim/status.hpp> ${_status_count}")
