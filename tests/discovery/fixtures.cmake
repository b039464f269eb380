# Discovery's fixtures (tests/test_discovery.cpp): the library files of real layouts
# (environments-2026-12.md), built as ELF libraries with the sonames, DT_NEEDED and RUNPATH of the
# real ones, into ${CUSHIM_FIXTURE_DIR}/discovery/<folder>. The tests copy them into the machines
# they lay out (a torch wheel's site-packages, a toolkit's lib64, a system folder) and write the
# text files (version.py, METADATA, RECORD, version.json, cudnn_version.h) themselves.
set(CUSHIM_DISCOVERY_FIXTURE_DIR ${CUSHIM_FIXTURE_DIR}/discovery)
set(CUSHIM_DISCOVERY_FIXTURES "")

# cushim_discovery_library(<target> <folder> <file> [RUNPATH <text>] [LINKS <targets...>] [DEFINES <defines...>])
function(cushim_discovery_library target folder file)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "RUNPATH" "LINKS;DEFINES")
  add_library(${target} SHARED ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/fake_library.c)
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
