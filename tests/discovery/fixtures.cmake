# Discovery's fixtures (tests/test_discovery.cpp): the library files of real layouts
# (environments-2026-12.md), built as ELF libraries with the sonames, DT_NEEDED and RUNPATH of the
# real ones, into ${CUSHIM_FIXTURE_DIR}/discovery/<folder>. The tests copy them into the machines
# they lay out (a torch wheel's site-packages, a toolkit's lib64, a system folder) and write the
# text files (version.py, METADATA, RECORD, version.json, cudnn_version.h) themselves.
set(CUSHIM_DISCOVERY_FIXTURE_DIR ${CUSHIM_FIXTURE_DIR}/discovery)
set(CUSHIM_DISCOVERY_FIXTURES "")

# cushim_discovery_library(<target> <folder> <file> [RUNPATH <text>] [LINKS <targets...>] [DEFINES <defines...>])
function(cushim_discovery_library target folder file)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "RUNPATH;SOURCE" "LINKS;DEFINES")
  if(NOT arg_SOURCE)
    set(arg_SOURCE fake_library.c)
  endif()
  add_library(${target} SHARED ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/${arg_SOURCE})
  if(file MATCHES "^lib([a-zA-Z0-9_-]+)(\\..*)$")
    set_target_properties(${target} PROPERTIES PREFIX "lib" OUTPUT_NAME ${CMAKE_MATCH_1} SUFFIX ${CMAKE_MATCH_2})
  else()
    string(REGEX MATCH "^([a-zA-Z0-9_-]+)(\\..*)$" _m ${file})
    set_target_properties(${target} PROPERTIES PREFIX "" OUTPUT_NAME ${CMAKE_MATCH_1} SUFFIX ${CMAKE_MATCH_2})
  endif()
  # The exact RUNPATH of the real file, and no build-tree one.
  set_target_properties(${target} PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${CUSHIM_DISCOVERY_FIXTURE_DIR}/${folder}
    BUILD_WITH_INSTALL_RPATH ON INSTALL_RPATH "${arg_RUNPATH}")
  target_compile_definitions(${target} PRIVATE ${arg_DEFINES} FAKE_IDENTITY="${folder}")
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -fno-sanitize=all)
  # Every library named is recorded (DT_NEEDED), as in the real files, whether a symbol of it is used or not.
  target_link_options(${target} PRIVATE -fno-sanitize=all -Wl,--no-as-needed)
  if(arg_LINKS)
    target_link_libraries(${target} PRIVATE ${arg_LINKS})
  endif()
  set(CUSHIM_DISCOVERY_FIXTURES ${CUSHIM_DISCOVERY_FIXTURES} ${target} PARENT_SCOPE)
endfunction()

# CUDA 11, 12 and 13 libraries a framework or a cuDNN names: cuBLASLt 11 (what cuDNN 8 for CUDA 11
# imports), the CUDA 12 runtime and cuBLAS with its cuBLASLt, the CUDA 13 runtime.
cushim_discovery_library(disc_cublaslt11 cuda11 libcublasLt.so.11)
cushim_discovery_library(disc_cudart12 cuda12 libcudart.so.12 DEFINES FAKE_CUDART_VERSION=12040)
cushim_discovery_library(disc_cublaslt12 cuda12 libcublasLt.so.12)
cushim_discovery_library(disc_cublas12 cuda12 libcublas.so.12 RUNPATH "\$ORIGIN" LINKS disc_cublaslt12)
cushim_discovery_library(disc_cudart13 cuda13 libcudart.so.13 DEFINES FAKE_CUDART_VERSION=13000)

# cuDNN 9 as its wheels and archives lay it out: the main library and its sub-libraries, RUNPATH
# $ORIGIN, graph, ops and adv with their 0x00MMmmpp version words (9.1.0); engines_tensor_ir too,
# which the 9.23 releases have. Other releases are these files under other names (the tests
# name the files as that release's archive does, or write the wheel's RECORD).
cushim_discovery_library(disc_cudnn9 cudnn9 libcudnn.so.9 RUNPATH "\$ORIGIN"
  DEFINES FAKE_CUDNN_VERSION=90100 FAKE_CUDART_OF_CUDNN=12040)
foreach(_sub graph ops cnn adv heuristic engines_precompiled engines_runtime_compiled engines_tensor_ir)
  set(_word "")
  if(_sub STREQUAL "graph")
    set(_word FAKE_SUBLIB_VERSION_SYMBOL=cudnn_graph_version FAKE_SUBLIB_VERSION=0x090100)
  elseif(_sub STREQUAL "ops" OR _sub STREQUAL "adv")
    set(_word FAKE_SUBLIB_VERSION_SYMBOL=cudnn_${_sub}_infer_version FAKE_SUBLIB_VERSION=0x090100)
  endif()
  cushim_discovery_library(disc_cudnn9_${_sub} cudnn9 libcudnn_${_sub}.so.9 RUNPATH "\$ORIGIN" DEFINES ${_word})
endforeach()

# cuDNN 8.5.0 built for CUDA 11, as its archive lays out lib64: libcudnn_ops_infer.so.8 imports
# libcublasLt.so.11; every sub-library exports its version word.
cushim_discovery_library(disc_cudnn8 cudnn8 libcudnn.so.8 RUNPATH "\$ORIGIN"
  DEFINES FAKE_CUDNN_VERSION=8500 FAKE_CUDART_OF_CUDNN=11080)
foreach(_sub ops_infer ops_train cnn_infer cnn_train adv_infer adv_train)
  set(_links "")
  if(_sub STREQUAL "ops_infer")
    set(_links disc_cublaslt11)
  endif()
  cushim_discovery_library(disc_cudnn8_${_sub} cudnn8 libcudnn_${_sub}.so.8 RUNPATH "\$ORIGIN" LINKS ${_links}
    DEFINES FAKE_SUBLIB_VERSION_SYMBOL=cudnn_${_sub}_version FAKE_SUBLIB_VERSION=0x080500)
endforeach()

# The frameworks' CUDA-bound libraries, each with its wheel's RUNPATH into site-packages/nvidia.
cushim_discovery_library(disc_torch_cu124 torch_cu124 libtorch_cuda.so
  RUNPATH "\$ORIGIN/../../nvidia/cublas/lib:\$ORIGIN/../../nvidia/cuda_runtime/lib:\$ORIGIN/../../nvidia/cudnn/lib:\$ORIGIN"
  LINKS disc_cudnn9 disc_cudart12 disc_cublas12)
cushim_discovery_library(disc_torch_cu130 torch_cu130 libtorch_cuda.so
  RUNPATH "\$ORIGIN/../../nvidia/cu13/lib:\$ORIGIN" LINKS disc_cudnn9 disc_cudart13)
cushim_discovery_library(disc_ort_shared onnxruntime libonnxruntime_providers_shared.so)
cushim_discovery_library(disc_ort_cuda onnxruntime libonnxruntime_providers_cuda.so RUNPATH "\$ORIGIN"
  LINKS disc_ort_shared disc_cudnn9 disc_cudart12 disc_cublas12)
# TensorFlow loads its CUDA libraries by name at run time: its core library needs none of them.
cushim_discovery_library(disc_tensorflow tensorflow _pywrap_tensorflow_internal.so RUNPATH "\$ORIGIN/..")

# A driver that supports CUDA up to 11.8 (a 520 driver), for the doctor's own driver check.
cushim_discovery_library(disc_driver_cuda118 driver_cuda118 libcuda.so.1 DEFINES FAKE_DRIVER_VERSION=11080)

# --- The machine of gpu-machine-2026-12-04.md (an H200, driver 580.159.04, CUDA 13.0), for the
# doctor's verdict on a healthy GPU machine without a GPU: its driver and NVML (one H200), the
# toolkit's runtime (answers as a real one does there: one GPU), the distribution's cuDNN 9.14.0 and
# the nvidia-cudnn-cu13 9.19.0.56 wheel (a cudnnCreate that succeeds), the CUDA 13 wheels' libraries,
# torch 2.11.0+cu130, JAX's CUDA 13 plugin and onnxruntime-gpu, each with its wheel's RUNPATH.
cushim_discovery_library(disc_driver_cuda130 driver_cuda130 libcuda.so.1 DEFINES FAKE_DRIVER_VERSION=13000)
cushim_discovery_library(disc_nvml_h200 driver_cuda130 libnvidia-ml.so.1 SOURCE fake_nvml.c DEFINES FAKE_NVML_H200)
cushim_discovery_library(disc_gpu_runtime13 gpu_runtime13 libcudart.so.13 SOURCE fake_gpu_runtime.c
  DEFINES FAKE_CUDART_VERSION=13000 FAKE_GPU_NAME="NVIDIA H200" FAKE_GPU_MAJOR=9 FAKE_GPU_MINOR=0
  FAKE_GPU_MEMORY=150754820096ULL)
target_include_directories(disc_gpu_runtime13 SYSTEM PRIVATE ${CUSHIM_CUDA_INCLUDE_DIR})
foreach(_release 14 19)
  math(EXPR _word "0x090000 + ${_release} * 256" OUTPUT_FORMAT HEXADECIMAL)
  cushim_discovery_library(disc_cudnn9_${_release} cudnn9_${_release} libcudnn.so.9 RUNPATH "\$ORIGIN"
    DEFINES FAKE_CUDNN_VERSION=9${_release}00 FAKE_CUDART_OF_CUDNN=13000)
  foreach(_sub graph ops cnn adv heuristic engines_precompiled engines_runtime_compiled)
    set(_defines "")
    if(_sub STREQUAL "graph")
      set(_defines FAKE_SUBLIB_VERSION_SYMBOL=cudnn_graph_version FAKE_SUBLIB_VERSION=${_word})
    elseif(_sub STREQUAL "ops" OR _sub STREQUAL "adv")
      set(_defines FAKE_SUBLIB_VERSION_SYMBOL=cudnn_${_sub}_infer_version FAKE_SUBLIB_VERSION=${_word})
    endif()
    cushim_discovery_library(disc_cudnn9_${_release}_${_sub} cudnn9_${_release} libcudnn_${_sub}.so.9
      RUNPATH "\$ORIGIN:\$ORIGIN/../../cublas/lib:\$ORIGIN/../../cuda_nvrtc/lib:\$ORIGIN/../../cu13/lib" DEFINES ${_defines})
  endforeach()
endforeach()
cushim_discovery_library(disc_cublaslt13 cuda13 libcublasLt.so.13)
cushim_discovery_library(disc_cublas13 cuda13 libcublas.so.13 RUNPATH "\$ORIGIN" LINKS disc_cublaslt13)
cushim_discovery_library(disc_nvrtc13 cuda13 libnvrtc.so.13)
cushim_discovery_library(disc_nvrtc_builtins13 cuda13 libnvrtc-builtins.so.13.0)
cushim_discovery_library(disc_nvjitlink13 cuda13 libnvJitLink.so.13)
cushim_discovery_library(disc_cufft12 cuda13 libcufft.so.12)
cushim_discovery_library(disc_curand10 cuda13 libcurand.so.10)
cushim_discovery_library(disc_cusparse12 cuda13 libcusparse.so.12 RUNPATH "\$ORIGIN" LINKS disc_nvjitlink13)
cushim_discovery_library(disc_cusolver12 cuda13 libcusolver.so.12 RUNPATH "\$ORIGIN"
  LINKS disc_nvjitlink13 disc_cusparse12 disc_cublas13 disc_cublaslt13)
cushim_discovery_library(disc_torch_cu130_wheels torch_cu130_wheels libtorch_cuda.so
  RUNPATH "\$ORIGIN/../../nvidia/cu13/lib:\$ORIGIN/../../nvidia/cudnn/lib:\$ORIGIN"
  LINKS disc_cudnn9 disc_cudart13 disc_cublas13)
cushim_discovery_library(disc_jax_cuda13 jax_cuda13 xla_cuda_plugin.so)
cushim_discovery_library(disc_ort_cu13 onnxruntime_cu13 libonnxruntime_providers_cuda.so
  RUNPATH "\$ORIGIN/../../nvidia/cu13/lib:\$ORIGIN/../../nvidia/cudnn/lib:\$ORIGIN"
  LINKS disc_ort_shared disc_cudnn9 disc_cudart13 disc_cublas13)
