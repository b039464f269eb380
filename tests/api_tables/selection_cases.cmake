# The table api_tables.hpp picks for headers of one release, or the #error it stops with: selection.cpp
# compiled with the headers' macros set by hand (tests/CMakeLists.txt includes this file). Each case
# is a library's select rule of tools/libraries.json at work: the releases around its manifests, its
# needed headers, its other majors.
# cushim_table_selection(<name> <expected output or ""> <-D flags...>)
function(cushim_table_selection name expected)
  add_test(NAME api_tables_select_${name} COMMAND ${CMAKE_CXX_COMPILER} -std=c++17 -fsyntax-only
    -Wall -Wextra -Werror -I${PROJECT_SOURCE_DIR}/include ${ARGN}
    ${CMAKE_CURRENT_SOURCE_DIR}/api_tables/selection.cpp)
  set_property(TEST api_tables_select_${name} APPEND PROPERTY LABELS static)  # as CUSHIM_STATIC_TESTS (tests/CMakeLists.txt)
  if(expected)
    set_tests_properties(api_tables_select_${name} PROPERTIES PASS_REGULAR_EXPRESSION "${expected}")
  endif()
endfunction()
set(_cudnn89 -DCUDNN_MAJOR=8 -DCUDNN_VERSION=8907 -DEXPECT_CUDNN_MAJOR=8)
set(_cuda126 -DCUDART_VERSION=12060 -DEXPECT_CUDART_MAJOR=12)
cushim_table_selection(cudnn8_0 "" -DCUDNN_MAJOR=8 -DCUDNN_VERSION=8004 -DEXPECT_CUDNN_MAJOR=8 ${_cuda126})
cushim_table_selection(cudnn9_0 "" -DCUDNN_MAJOR=9 -DCUDNN_VERSION=90000 -DEXPECT_CUDNN_MAJOR=9 ${_cuda126})
cushim_table_selection(cudnn9_newer "" -DCUDNN_MAJOR=9 -DCUDNN_VERSION=92500 -DEXPECT_CUDNN_MAJOR=9 ${_cuda126})
cushim_table_selection(cudnn10 "cushim: unsupported cuDNN major version" -DCUDNN_MAJOR=10
  -DCUDNN_VERSION=100000 ${_cuda126})
cushim_table_selection(cuda11_4 "" ${_cudnn89} -DCUDART_VERSION=11040 -DEXPECT_CUDART_MAJOR=11)
cushim_table_selection(cuda11_5 "" ${_cudnn89} -DCUDART_VERSION=11050 -DEXPECT_CUDART_MAJOR=11)
cushim_table_selection(cuda12_1 "" ${_cudnn89} -DCUDART_VERSION=12010 -DEXPECT_CUDART_MAJOR=12)
cushim_table_selection(cuda12_2 "" ${_cudnn89} -DCUDART_VERSION=12020 -DEXPECT_CUDART_MAJOR=12)
cushim_table_selection(cuda12_9 "" ${_cudnn89} -DCUDART_VERSION=12090 -DEXPECT_CUDART_MAJOR=12)
cushim_table_selection(cuda13_2 "" ${_cudnn89} -DCUDART_VERSION=13020 -DEXPECT_CUDART_MAJOR=13)
cushim_table_selection(cuda14 "cushim: unsupported CUDA runtime version" ${_cudnn89} -DCUDART_VERSION=14000)
# Between the 11.0 and 11.4 manifests: the headers decide (no CUSHIM_CUDART_CORE needed).
cushim_table_selection(cuda11_0 "" ${_cudnn89} -DCUDART_VERSION=11000 -DEXPECT_CUDART_MAJOR=11)
cushim_table_selection(cuda11_3 "" ${_cudnn89} -DCUDART_VERSION=11030 -DEXPECT_CUDART_MAJOR=11)
# Older than every manifest of the major (12.0): the core subset (or cuDNN only) when asked for, else a stop.
set(_core_message "define CUSHIM_CUDART_CORE \\(core subset\\) or CUSHIM_NO_CUDART")
cushim_table_selection(cuda12_0 "${_core_message}" ${_cudnn89} -DCUDART_VERSION=12000 -DEXPECT_CUDART_MAJOR=12)
cushim_table_selection(cuda11_3_core "" ${_cudnn89} -DCUDART_VERSION=11030 -DEXPECT_CUDART_MAJOR=11
  -DCUSHIM_CUDART_CORE)
cushim_table_selection(cuda12_0_no_cudart "" ${_cudnn89} -DCUDART_VERSION=12000 -DEXPECT_CUDART_MAJOR=12
  -DCUSHIM_NO_CUDART)
# The opt-in libraries: cuBLAS and cuBLASLt, NVRTC (by CUDART_VERSION), the driver API (by CUDA_VERSION).
set(_cublas -DCUSHIM_CUBLAS ${_cudnn89})
cushim_table_selection(cublas11_4 "" ${_cublas} -DCUBLAS_VER_MAJOR=11 -DCUDART_VERSION=11040
  -DEXPECT_CUDART_MAJOR=11 -DEXPECT_CUBLAS_MAJOR=11)
cushim_table_selection(cublas12_2 "" ${_cublas} -DCUBLAS_VER_MAJOR=12 -DCUDART_VERSION=12020
  -DEXPECT_CUDART_MAJOR=12 -DEXPECT_CUBLAS_MAJOR=12)
cushim_table_selection(cublas13_1 "" ${_cublas} -DCUBLAS_VER_MAJOR=13 -DCUDART_VERSION=13010
  -DEXPECT_CUDART_MAJOR=13 -DEXPECT_CUBLAS_MAJOR=13)
cushim_table_selection(cublas12_1 "cuBLAS and cuBLASLt tables describe" ${_cublas} -DCUBLAS_VER_MAJOR=12
  ${_cuda126} -DCUDART_VERSION=12010)
cushim_table_selection(cublas_other_major "are of different CUDA majors" ${_cublas} -DCUBLAS_VER_MAJOR=11
  ${_cuda126})
cushim_table_selection(cublas_no_header "CUSHIM_CUBLAS needs <cublas_v2.h>" ${_cublas} ${_cuda126})
cushim_table_selection(nvrtc11_7 "" -DCUSHIM_NVRTC ${_cudnn89} -DCUDART_VERSION=11070 -DEXPECT_CUDART_MAJOR=11
  -DEXPECT_NVRTC_MAJOR=11)
cushim_table_selection(nvrtc13_0 "" -DCUSHIM_NVRTC ${_cudnn89} -DCUDART_VERSION=13000 -DEXPECT_CUDART_MAJOR=13
  -DEXPECT_NVRTC_MAJOR=13)
cushim_table_selection(nvrtc12_0 "NVRTC table describes" -DCUSHIM_NVRTC ${_cudnn89} -DCUDART_VERSION=12000
  -DEXPECT_CUDART_MAJOR=12 -DCUSHIM_CUDART_CORE)
set(_driver -DCUSHIM_CUDA_DRIVER ${_cudnn89} ${_cuda126})
cushim_table_selection(driver11_0 "" ${_driver} -DCUDA_VERSION=11000 -DEXPECT_CUDA_DRIVER_MAJOR=11)
cushim_table_selection(driver11_2 "" ${_driver} -DCUDA_VERSION=11020 -DEXPECT_CUDA_DRIVER_MAJOR=11)
cushim_table_selection(driver11_4 "" ${_driver} -DCUDA_VERSION=11040 -DEXPECT_CUDA_DRIVER_MAJOR=11)
cushim_table_selection(driver12_6 "" ${_driver} -DCUDA_VERSION=12060 -DEXPECT_CUDA_DRIVER_MAJOR=12)
cushim_table_selection(driver13_0 "" ${_driver} -DCUDA_VERSION=13000 -DEXPECT_CUDA_DRIVER_MAJOR=13)
cushim_table_selection(driver12_5 "driver API table describes" ${_driver} -DCUDA_VERSION=12050)
cushim_table_selection(driver14 "unsupported CUDA driver API version" ${_driver} -DCUDA_VERSION=14000)
cushim_table_selection(driver_no_header "CUSHIM_CUDA_DRIVER needs <cuda.h>" ${_driver})
# The toolkit's other libraries (by CUDART_VERSION), NVML (a newer CUDA major gets the newest
# table) and NCCL (by NCCL_VERSION_CODE, Linux only).
cushim_table_selection(cufft13_0 "" -DCUSHIM_CUFFT -DCUFFT_VERSION=12000 -D_CUFFTXT_H_ ${_cudnn89} -DCUDART_VERSION=13000
  -DEXPECT_CUDART_MAJOR=13 -DEXPECT_LIBRARY=CUFFT -DEXPECT_MAJOR=13)
cushim_table_selection(cufft11_8 "" -DCUSHIM_CUFFT -DCUFFT_VERSION=10900 -D_CUFFTXT_H_ ${_cudnn89} -DCUDART_VERSION=11080
  -DEXPECT_CUDART_MAJOR=11 -DEXPECT_LIBRARY=CUFFT -DEXPECT_MAJOR=11)
cushim_table_selection(cufft11_0 "cuFFT table describes" -DCUSHIM_CUFFT -DCUFFT_VERSION=10200 -D_CUFFTXT_H_
  ${_cudnn89}
  -DCUDART_VERSION=11000)
cushim_table_selection(cufft_no_header "CUSHIM_CUFFT needs <cufft.h> included" -DCUSHIM_CUFFT ${_cudnn89}
  ${_cuda126})
cushim_table_selection(curand12_6 "" -DCUSHIM_CURAND -DCURAND_VERSION=10307 ${_cudnn89} ${_cuda126}
  -DEXPECT_LIBRARY=CURAND -DEXPECT_MAJOR=12)
cushim_table_selection(cusparse12_9 "" -DCUSHIM_CUSPARSE -DCUSPARSE_VERSION=12500 ${_cudnn89} -DCUDART_VERSION=12090
  -DEXPECT_CUDART_MAJOR=12 -DEXPECT_LIBRARY=CUSPARSE -DEXPECT_MAJOR=12)
cushim_table_selection(cusolver_no_header "CUSHIM_CUSOLVER needs <cusolverDn.h>" -DCUSHIM_CUSOLVER ${_cudnn89}
  ${_cuda126})
set(_nvjitlink -DCUSHIM_NVJITLINK -DnvJitLink_INCLUDED ${_cudnn89} -DEXPECT_LIBRARY=NVJITLINK
  -DEXPECT_BASE=__nvJitLinkCreate)
cushim_table_selection(nvjitlink12_8 "" ${_nvjitlink} -DCUDART_VERSION=12080 -DEXPECT_CUDART_MAJOR=12
  -DEXPECT_MAJOR=12 -DEXPECT_NAME=__nvJitLinkCreate_12_8)
cushim_table_selection(nvjitlink13_0 "" ${_nvjitlink} -DCUDART_VERSION=13000 -DEXPECT_CUDART_MAJOR=13
  -DEXPECT_MAJOR=13 -DEXPECT_NAME=__nvJitLinkCreate_13_0)
cushim_table_selection(nvjitlink12_4 "nvJitLink table describes" ${_nvjitlink} -DCUDART_VERSION=12040
  -DEXPECT_CUDART_MAJOR=12 -DEXPECT_MAJOR=12)
cushim_table_selection(nvjitlink11 "nvJitLink came with CUDA 12.0" ${_nvjitlink} -DCUDART_VERSION=11080
  -DEXPECT_CUDART_MAJOR=11 -DEXPECT_MAJOR=11)
cushim_table_selection(nvml13_0 "" -DCUSHIM_NVML -DNVML_API_VERSION=12 ${_cudnn89} -DCUDART_VERSION=13000
  -DEXPECT_CUDART_MAJOR=13 -DEXPECT_LIBRARY=NVML -DEXPECT_MAJOR=12)
cushim_table_selection(nvml11_8 "" -DCUSHIM_NVML -DNVML_API_VERSION=11 ${_cudnn89} -DCUDART_VERSION=11080
  -DEXPECT_CUDART_MAJOR=11 -DEXPECT_LIBRARY=NVML -DEXPECT_MAJOR=11)
set(_nccl -DCUSHIM_NCCL ${_cudnn89} ${_cuda126})
cushim_table_selection(nccl2_28 "" ${_nccl} -DNCCL_MAJOR=2 -DNCCL_VERSION_CODE=22809 -DEXPECT_LIBRARY=NCCL
  -DEXPECT_MAJOR=2)
cushim_table_selection(nccl2_30 "" ${_nccl} -DNCCL_MAJOR=2 -DNCCL_VERSION_CODE=23001 -DEXPECT_LIBRARY=NCCL
  -DEXPECT_MAJOR=2)
cushim_table_selection(nccl2_27 "older than the oldest NCCL release" ${_nccl} -DNCCL_MAJOR=2
  -DNCCL_VERSION_CODE=22703)
cushim_table_selection(nccl3 "unsupported NCCL version" ${_nccl} -DNCCL_MAJOR=3 -DNCCL_VERSION_CODE=30000)
cushim_table_selection(nccl_windows "NCCL ships for Linux only" ${_nccl} -D_WIN32 -DNCCL_MAJOR=2
  -DNCCL_VERSION_CODE=22809)
