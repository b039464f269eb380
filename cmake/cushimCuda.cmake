# cushim_use_for_cuda(<target>): a target with CUDA sources (its own kernels) uses cushim for the
# CUDA runtime. nvcc links libcudart_static by default, which defines every cuda* and __cuda*
# function cushim defines too; with CUDA_RUNTIME_LIBRARY None nothing of the runtime is linked,
# and nvcc's registration and launch calls go through cushim's stubs like every cuda* call.
# The target still needs one .cpp (not .cu) that defines CUSHIM_IMPLEMENTATION.
#
# Separable compilation (CUDA_SEPARABLE_COMPILATION, -rdc=true) works too: CMake's device link puts
# the device runtime's device code in (nvlink adds libcudadevrt), and its host half, which registers
# that code, is in libcudadevrt.a, which CMake links only with the runtime (CUDA_RUNTIME_LIBRARY
# Static or Shared). So it is linked here, whatever the target's settings: an archive adds only the
# members something references, so a target without -rdc takes nothing from it. It defines no
# runtime function (its __cudaRegisterFunction, __cudaLaunchKernel, ... calls reach cushim's stubs).
function(cushim_use_for_cuda target)
  set_target_properties(${target} PROPERTIES CUDA_RUNTIME_LIBRARY None)
  target_link_libraries(${target} PRIVATE cushim::cushim)
  find_library(CUSHIM_CUDADEVRT NAMES libcudadevrt.a HINTS ${CMAKE_CUDA_IMPLICIT_LINK_DIRECTORIES}
    DOC "the CUDA device runtime (libcudadevrt.a), for targets with separable compilation")
  if(CUSHIM_CUDADEVRT)
    target_link_libraries(${target} PRIVATE ${CUSHIM_CUDADEVRT})
  else()
    message(WARNING "cushim: libcudadevrt.a not found in ${CMAKE_CUDA_IMPLICIT_LINK_DIRECTORIES}: "
      "${target} links, unless it uses separable compilation with dynamic parallelism")
  endif()
endfunction()
