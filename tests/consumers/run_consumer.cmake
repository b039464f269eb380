# Drives one consumer test: builds a separate project that uses cushim the way KIND says, runs
# the program it builds and checks that the program does not link cuDNN or the CUDA runtime.
#
#   cmake -DKIND=<install|find_package|add_subdirectory|meson|meson_self|pkg_config|cuda|meson_cuda> -D... -P run_consumer.cmake
#
# Inputs (all set by tests/consumers/CMakeLists.txt): SOURCE_DIR (the cushim tree), CONSUMERS_DIR
# (this folder), WORK_ROOT (<build>/consumers), PREFIX (the install prefix the install test fills),
# PARENT_BINARY_DIR (the build tree that is installed), GENERATOR, MAKE_PROGRAM, CXX_COMPILER,
# CUDA_ROOT, CUDNN_INCLUDE_DIR, CUDA_INCLUDE_DIR, MESON, PKG_CONFIG, MAKE, NVCC, READELF.
# Prints "cushim-consumer: SKIP ..." (the test's SKIP_REGULAR_EXPRESSION) when a tool is missing.
cmake_minimum_required(VERSION 3.25)

set(WORK ${WORK_ROOT}/${KIND})
string(TIMESTAMP _start "%s")

# run(<what> <command>...): runs the command in WORK, shows its output when it fails.
function(run what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out
    ERROR_VARIABLE _out)
  if(NOT _rc EQUAL 0)
    list(JOIN ARGN " " _cmd)
    message(FATAL_ERROR "cushim-consumer: ${what} failed (${_rc}): ${_cmd}\n${_out}")
  endif()
  set(RUN_OUTPUT "${_out}" PARENT_SCOPE)
endfunction()

function(skip_without tool path)
  if(NOT path)
    message("cushim-consumer: SKIP: ${tool} not found (scripts/install-deps.sh installs it)")
    set(SKIPPED TRUE PARENT_SCOPE)
  endif()
endfunction()

# The program built by a consumer: it ran, the versions matched, and no CUDA library is NEEDED.
function(check_app app)
  if(NOT EXISTS ${app})
    message(FATAL_ERROR "cushim-consumer: ${app} was not built")
  endif()
  run("running ${app}" ${app})
  message("${RUN_OUTPUT}")
  if(NOT RUN_OUTPUT MATCHES "cushim-consumer: versions match")
    message(FATAL_ERROR "cushim-consumer: ${app} did not report matching versions")
  endif()
  run("readelf" ${READELF} -d ${app})
  if(NOT RUN_OUTPUT MATCHES "\\(NEEDED\\)")
    message(FATAL_ERROR "cushim-consumer: readelf -d ${app} lists no NEEDED entry:\n${RUN_OUTPUT}")
  endif()
  string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*" _needed "${RUN_OUTPUT}")
  list(JOIN _needed "\n" _needed)
  message("${_needed}")
  if(_needed MATCHES "libcudnn|libcudart")
    message(FATAL_ERROR "cushim-consumer: ${app} links cuDNN or the CUDA runtime:\n${_needed}")
  endif()
endfunction()

# The program with kernels a consumer built: it reached main and its end (launches return the
# runtime's own error without a GPU), printing the optional pattern, and libcudart is not NEEDED.
function(check_kernel_app app)
  run("running ${app}" ${app})
  message("${RUN_OUTPUT}")
  if(NOT RUN_OUTPUT MATCHES "reached_main=1" OR NOT RUN_OUTPUT MATCHES "reached_end=1")
    message(FATAL_ERROR "cushim-consumer: ${app} did not run to its end")
  endif()
  if(ARGC GREATER 1 AND NOT RUN_OUTPUT MATCHES "${ARGV1}")
    message(FATAL_ERROR "cushim-consumer: ${app} printed no ${ARGV1}")
  endif()
  run("readelf" ${READELF} -d ${app})
  if(NOT RUN_OUTPUT MATCHES "\\(NEEDED\\)" OR RUN_OUTPUT MATCHES "libcudart|libcudnn")
    message(FATAL_ERROR "cushim-consumer: ${app} should need libraries, none of CUDA's:\n${RUN_OUTPUT}")
  endif()
endfunction()

# Configures and builds a CMake consumer project from <source> into WORK/build.
function(cmake_consumer source)
  set(_args -S ${source} -B ${WORK}/build -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER})
  if(MAKE_PROGRAM)
    list(APPEND _args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
  endif()
  run("configuring ${source}" ${CMAKE_COMMAND} ${_args} ${ARGN})
  run("building ${source}" ${CMAKE_COMMAND} --build ${WORK}/build)
endfunction()

# A clean start every time: no cache or object from an earlier run can hide a fault.
if(EXISTS ${WORK}/src/subprojects/cushim)
  file(REMOVE ${WORK}/src/subprojects/cushim)  # the link to the cushim tree, never what it points to
endif()
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
unset(ENV{DESTDIR})
unset(ENV{CMAKE_PREFIX_PATH})
set(SKIPPED FALSE)

if(KIND STREQUAL "install")
  # cmake --install of the build tree that runs this test, into a prefix under it.
  file(REMOVE_RECURSE ${PREFIX})
  run("cmake --install" ${CMAKE_COMMAND} --install ${PARENT_BINARY_DIR} --prefix ${PREFIX})
  file(GLOB_RECURSE _headers RELATIVE ${SOURCE_DIR}/include ${SOURCE_DIR}/include/cushim/*)
  foreach(_file ${_headers} ../share/cmake/cushim/cushimConfig.cmake ../share/cmake/cushim/cushimConfigVersion.cmake
      ../share/cmake/cushim/cushimTargets.cmake ../share/cmake/cushim/cushimNvidiaHeaders.cmake
      ../share/cmake/cushim/cushimCuda.cmake
      ../share/pkgconfig/cushim.pc)
    if(NOT EXISTS ${PREFIX}/include/${_file})
      message(FATAL_ERROR "cushim-consumer: ${PREFIX}/include/${_file} was not installed")
    endif()
  endforeach()
  # The exported target must not carry this machine's CUDA folders or the source tree.
  file(GLOB _package ${PREFIX}/share/cmake/cushim/cushimTargets*.cmake)
  foreach(_file ${_package})
    file(READ ${_file} _text)
    foreach(_path ${CUDA_INCLUDE_DIR} ${CUDNN_INCLUDE_DIR} ${SOURCE_DIR} ${PARENT_BINARY_DIR})
      string(FIND "${_text}" "${_path}" _at)
      if(NOT _at EQUAL -1)
        message(FATAL_ERROR "cushim-consumer: ${_file} names ${_path}; the package must find it on the consumer's machine")
      endif()
    endforeach()
  endforeach()
  list(LENGTH _headers _count)
  message("cushim-consumer: installed ${_count} headers and the CMake and pkg-config files into ${PREFIX}")

elseif(KIND STREQUAL "find_package")
  # Without the CUDA headers: find_package(cushim REQUIRED) stops with what to pass.
  set(_nowhere ${WORK}/no-cuda)
  file(MAKE_DIRECTORY ${_nowhere}/include)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${CONSUMERS_DIR}/find_package -B ${WORK}/build-no-cuda
      -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${PREFIX}
      -DCUDAToolkit_ROOT=${_nowhere} -DCUDNN_ROOT=${_nowhere}
    WORKING_DIRECTORY ${WORK} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  string(REGEX REPLACE "[ \n]+" " " _flat "${_out}")  # CMake wraps the message's lines
  if(_rc EQUAL 0 OR NOT _flat MATCHES "cuda_runtime_api.h not found \\(looked in: ${_nowhere}/include,"
     OR NOT _flat MATCHES "cudnn_version.h not found" OR NOT _flat MATCHES "pass -DCUDAToolkit_ROOT=")
    message(FATAL_ERROR "cushim-consumer: without CUDA headers find_package(cushim) should fail and say "
      "what to pass (exit ${_rc}):\n${_out}")
  endif()
  message("cushim-consumer: without CUDA headers, find_package(cushim REQUIRED) fails as it should")
  cmake_consumer(${CONSUMERS_DIR}/find_package -DCMAKE_PREFIX_PATH=${PREFIX} -DCUDAToolkit_ROOT=${CUDA_ROOT}
    -DCUDNN_INCLUDE_DIR=${CUDNN_INCLUDE_DIR})
  check_app(${WORK}/build/bin/consumer_app)

elseif(KIND STREQUAL "add_subdirectory")
  cmake_consumer(${CONSUMERS_DIR}/add_subdirectory -DCUSHIM_SOURCE_DIR=${SOURCE_DIR}
    -DCUDAToolkit_ROOT=${CUDA_ROOT} -DCUDNN_INCLUDE_DIR=${CUDNN_INCLUDE_DIR})
  check_app(${WORK}/build/bin/consumer_app)

elseif(KIND STREQUAL "meson")
  skip_without(meson "${MESON}")
  if(NOT SKIPPED)
    # The consumer project, with subprojects/cushim a link to this cushim tree.
    file(COPY ${CONSUMERS_DIR}/meson/meson.build ${CONSUMERS_DIR}/app/main.cpp ${CONSUMERS_DIR}/app/shim.cpp
      DESTINATION ${WORK}/src)
    file(MAKE_DIRECTORY ${WORK}/src/subprojects)
    file(CREATE_LINK ${SOURCE_DIR} ${WORK}/src/subprojects/cushim SYMBOLIC)
    set(ENV{CXX} ${CXX_COMPILER})
    # --force-fallback-for: the subproject even where an installed cushim could be found.
    run("meson setup" ${MESON} setup ${WORK}/build ${WORK}/src --force-fallback-for=cushim
      -Dcushim:cudatoolkit_root=${CUDA_ROOT} -Dcushim:cudnn_include_dir=${CUDNN_INCLUDE_DIR})
    message("${RUN_OUTPUT}")
    run("meson introspect" ${MESON} introspect --targets ${WORK}/build)
    if(RUN_OUTPUT MATCHES "cushim-doctor|test_real_libraries")
      message(FATAL_ERROR "cushim as a meson subproject defines its tests or examples")
    endif()
    run("meson compile" ${MESON} compile -C ${WORK}/build)
    check_app(${WORK}/build/consumer_app)
  endif()

elseif(KIND STREQUAL "meson_self")
  # cushim's own meson.build as the main project: cushim-doctor and the meson test subset.
  skip_without(meson "${MESON}")
  if(NOT SKIPPED)
    set(ENV{CXX} ${CXX_COMPILER})
    run("meson setup" ${MESON} setup ${WORK}/build ${SOURCE_DIR} -Dtests=enabled -Dexamples=enabled
      -Dcudatoolkit_root=${CUDA_ROOT} -Dcudnn_include_dir=${CUDNN_INCLUDE_DIR})
    run("meson compile" ${MESON} compile -C ${WORK}/build)
    run("meson test" ${MESON} test -C ${WORK}/build --print-errorlogs)
    message("${RUN_OUTPUT}")
    if(NOT EXISTS ${WORK}/build/cushim-doctor)
      message(FATAL_ERROR "cushim-consumer: meson did not build cushim-doctor")
    endif()
  endif()

elseif(KIND STREQUAL "pkg_config")
  skip_without(pkg-config "${PKG_CONFIG}")
  skip_without(make "${MAKE}")
  if(NOT SKIPPED)
    set(ENV{PKG_CONFIG_PATH} ${PREFIX}/share/pkgconfig)
    run("pkg-config" ${PKG_CONFIG} --cflags --libs cushim)
    message("pkg-config --cflags --libs cushim: ${RUN_OUTPUT}")
    if(RUN_OUTPUT MATCHES "cudnn|cudart" OR NOT RUN_OUTPUT MATCHES "-ldl" OR NOT RUN_OUTPUT MATCHES "-pthread")
      message(FATAL_ERROR "cushim-consumer: cushim.pc should give -ldl -pthread and no CUDA library")
    endif()
    run("make" ${MAKE} -f ${CONSUMERS_DIR}/pkg_config/Makefile -j2 PKG_CONFIG=${PKG_CONFIG} CXX=${CXX_COMPILER}
      APP_DIR=${CONSUMERS_DIR}/app)
    check_app(${WORK}/consumer_app)
  endif()

elseif(KIND STREQUAL "cuda")
  skip_without(nvcc "${NVCC}")
  if(NOT SKIPPED)
    cmake_consumer(${CONSUMERS_DIR}/cuda -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_CUDA_COMPILER=${NVCC}
      -DCMAKE_CUDA_ARCHITECTURES=75 -DCUDAToolkit_ROOT=${CUDA_ROOT} -DCUDNN_INCLUDE_DIR=${CUDNN_INCLUDE_DIR})
    check_kernel_app(${WORK}/build/bin/consumer_kernels)
  endif()

elseif(KIND STREQUAL "meson_cuda")
  skip_without(meson "${MESON}")
  skip_without(nvcc "${NVCC}")
  if(NOT SKIPPED)
    file(COPY ${CONSUMERS_DIR}/meson_cuda/meson.build ${CONSUMERS_DIR}/../kernels/kernel_program.cu
      ${CONSUMERS_DIR}/../kernels/kernel_rdc.cu ${CONSUMERS_DIR}/../kernels/shim.cpp DESTINATION ${WORK}/src)
    file(MAKE_DIRECTORY ${WORK}/src/subprojects)
    file(CREATE_LINK ${SOURCE_DIR} ${WORK}/src/subprojects/cushim SYMBOLIC)
    set(ENV{CXX} ${CXX_COMPILER})
    set(ENV{NVCC} ${NVCC})
    run("meson setup" ${MESON} setup ${WORK}/build ${WORK}/src --force-fallback-for=cushim
      -Dcushim:cudatoolkit_root=${CUDA_ROOT} -Dcushim:cudnn_include_dir=${CUDNN_INCLUDE_DIR})
    run("meson compile" ${MESON} compile -C ${WORK}/build)
    check_kernel_app(${WORK}/build/consumer_kernels)
    check_kernel_app(${WORK}/build/consumer_kernels_rdc "parent_launch=")
  endif()

else()
  message(FATAL_ERROR "cushim-consumer: unknown KIND '${KIND}'")
endif()

string(TIMESTAMP _end "%s")
math(EXPR _seconds "${_end} - ${_start}")
message("cushim-consumer: ${KIND} done in ${_seconds} s")
