# cushim_use_for_cuda(<target>): a target with CUDA sources (its own kernels) uses cushim for the
# CUDA runtime. nvcc links libcudart_static by default, which defines every cuda* and __cuda*
# function cushim defines too; with CUDA_RUNTIME_LIBRARY None nothing of the runtime is linked,
# and nvcc's registration and launch calls go through cushim's stubs like every cuda* call.
# The target still needs one .cpp (not .cu) that defines CUSHIM_IMPLEMENTATION.
function(cushim_use_for_cuda target)
  set_target_properties(${target} PROPERTIES CUDA_RUNTIME_LIBRARY None)
  target_link_libraries(${target} PRIVATE cushim::cushim)
endfunction()
