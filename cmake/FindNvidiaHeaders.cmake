# Finds cuda_runtime_api.h and cudnn.h (headers only: cushim never links the libraries) and reads
# their versions. Hints, in order: CUDNN_INCLUDE_DIR, CUDNN_ROOT, CUDAToolkit_ROOT, /usr/local/cuda.
set(CUDAToolkit_ROOT "${CUDAToolkit_ROOT}" CACHE PATH "CUDA toolkit root (headers)")
if(NOT CUDAToolkit_ROOT AND DEFINED ENV{CUDAToolkit_ROOT})
  set(CUDAToolkit_ROOT "$ENV{CUDAToolkit_ROOT}")
endif()
if(NOT CUDAToolkit_ROOT)
  set(CUDAToolkit_ROOT /usr/local/cuda)
endif()
if(NOT CUDNN_ROOT AND DEFINED ENV{CUDNN_ROOT})
  set(CUDNN_ROOT "$ENV{CUDNN_ROOT}")
endif()

find_path(CUSHIM_CUDA_INCLUDE_DIR cuda_runtime_api.h
  HINTS ${CUDAToolkit_ROOT}/include ${CUDAToolkit_ROOT}/targets/x86_64-linux/include NO_DEFAULT_PATH)
find_path(CUSHIM_CUDNN_INCLUDE_DIR cudnn_version.h
  HINTS ${CUDNN_INCLUDE_DIR} ${CUDNN_ROOT}/include ${CUDAToolkit_ROOT}/include NO_DEFAULT_PATH)

if(NOT CUSHIM_CUDA_INCLUDE_DIR)
  message(FATAL_ERROR "cushim: cuda_runtime_api.h not found under ${CUDAToolkit_ROOT}/include. "
    "cushim needs the CUDA toolkit headers (not its libraries): pass -DCUDAToolkit_ROOT=<toolkit root>.")
endif()
if(NOT CUSHIM_CUDNN_INCLUDE_DIR)
  message(FATAL_ERROR "cushim: cudnn_version.h not found (looked in CUDNN_INCLUDE_DIR='${CUDNN_INCLUDE_DIR}', "
    "CUDNN_ROOT='${CUDNN_ROOT}'/include, ${CUDAToolkit_ROOT}/include). Pass -DCUDNN_INCLUDE_DIR=<folder with cudnn.h>.")
endif()

file(STRINGS ${CUSHIM_CUDNN_INCLUDE_DIR}/cudnn_version.h _cushim_cudnn_lines REGEX "^#define CUDNN_(MAJOR|MINOR|PATCHLEVEL) ")
foreach(_part MAJOR MINOR PATCHLEVEL)
  string(REGEX MATCH "CUDNN_${_part} +([0-9]+)" _m "${_cushim_cudnn_lines}")
  set(CUSHIM_CUDNN_${_part} ${CMAKE_MATCH_1})
endforeach()
file(STRINGS ${CUSHIM_CUDA_INCLUDE_DIR}/cuda_runtime_api.h _cushim_cudart_line REGEX "^#define CUDART_VERSION ")
string(REGEX MATCH "CUDART_VERSION +([0-9]+)" _m "${_cushim_cudart_line}")
set(CUSHIM_CUDART_VERSION ${CMAKE_MATCH_1})
math(EXPR CUSHIM_CUDART_MAJOR "${CUSHIM_CUDART_VERSION} / 1000")
if(CUSHIM_CUDNN_MAJOR GREATER_EQUAL 9)
  math(EXPR CUSHIM_CUDNN_VERSION "${CUSHIM_CUDNN_MAJOR} * 10000 + ${CUSHIM_CUDNN_MINOR} * 100 + ${CUSHIM_CUDNN_PATCHLEVEL}")
else()
  math(EXPR CUSHIM_CUDNN_VERSION "${CUSHIM_CUDNN_MAJOR} * 1000 + ${CUSHIM_CUDNN_MINOR} * 100 + ${CUSHIM_CUDNN_PATCHLEVEL}")
endif()
message(STATUS "cushim: CUDA runtime headers ${CUSHIM_CUDART_VERSION} in ${CUSHIM_CUDA_INCLUDE_DIR}")
message(STATUS "cushim: cuDNN headers ${CUSHIM_CUDNN_VERSION} in ${CUSHIM_CUDNN_INCLUDE_DIR}")
