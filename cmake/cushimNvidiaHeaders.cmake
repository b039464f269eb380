# Locates the CUDA runtime and cuDNN headers (headers only: cushim never links the libraries).
# Used by cushim's own build (through FindNvidiaHeaders.cmake) and installed beside
# cushimConfig.cmake, so that a consumer's find_package(cushim) looks on the CONSUMER's machine
# rather than using the folders of the machine cushim was installed from.
#
# cushim_locate_nvidia_headers()
#   Hints, in order: CUSHIM_CUDA_INCLUDE_DIR / CUSHIM_CUDNN_INCLUDE_DIR (cache, set by hand),
#   CUDNN_INCLUDE_DIR, CUDNN_ROOT, CUDAToolkit_ROOT (each a CMake variable, else an environment
#   variable), else CUDAToolkit_INCLUDE_DIRS of an earlier find_package(CUDAToolkit), else
#   /usr/local/cuda. Sets, in the caller's scope:
#     CUSHIM_CUDA_INCLUDE_DIR, CUSHIM_CUDNN_INCLUDE_DIR  the folders (cache entries)
#     CUSHIM_NVIDIA_HEADERS_ERROR                        empty, or what is missing and what to pass
#   It never stops the configuration itself: the caller decides (FATAL_ERROR, or *_FOUND FALSE).
#   It sets no other variable of the caller (CUDAToolkit_ROOT is left as the caller had it).
include_guard(GLOBAL)

function(cushim_locate_nvidia_headers)
  set(_root "${CUDAToolkit_ROOT}")
  if(NOT _root AND DEFINED ENV{CUDAToolkit_ROOT})
    set(_root "$ENV{CUDAToolkit_ROOT}")
  endif()
  set(_cudnn_root "${CUDNN_ROOT}")
  if(NOT _cudnn_root AND DEFINED ENV{CUDNN_ROOT})
    set(_cudnn_root "$ENV{CUDNN_ROOT}")
  endif()
  set(_cudnn_include "${CUDNN_INCLUDE_DIR}")
  if(NOT _cudnn_include AND DEFINED ENV{CUDNN_INCLUDE_DIR})
    set(_cudnn_include "$ENV{CUDNN_INCLUDE_DIR}")
  endif()

  # A folder found for other hints is searched again when the hints change (a consumer that
  # reconfigures with another CUDAToolkit_ROOT must not keep the first answer).
  set(_hints "${_root}|${_cudnn_root}|${_cudnn_include}|${CUDAToolkit_INCLUDE_DIRS}")
  if(DEFINED CACHE{_CUSHIM_NVIDIA_HEADER_HINTS} AND NOT "$CACHE{_CUSHIM_NVIDIA_HEADER_HINTS}" STREQUAL "${_hints}")
    unset(CUSHIM_CUDA_INCLUDE_DIR CACHE)
    unset(CUSHIM_CUDNN_INCLUDE_DIR CACHE)
  endif()
  set(_CUSHIM_NVIDIA_HEADER_HINTS "${_hints}" CACHE INTERNAL "hints CUSHIM_*_INCLUDE_DIR were found with")

  # The toolkit: CUDAToolkit_ROOT, else the folders of an earlier find_package(CUDAToolkit), else
  # /usr/local/cuda; each root as <root>/include or <root>/targets/<triplet>/include.
  set(_roots "${_root}")
  if(NOT _root)
    set(_roots /usr/local/cuda)
  endif()
  set(_cuda_hints "")
  if(NOT _root AND CUDAToolkit_INCLUDE_DIRS)
    list(APPEND _cuda_hints ${CUDAToolkit_INCLUDE_DIRS})
  endif()
  foreach(_triplet "" targets/x86_64-linux/ targets/sbsa-linux/ targets/aarch64-linux/)
    list(APPEND _cuda_hints "${_roots}/${_triplet}include")
  endforeach()
  find_path(CUSHIM_CUDA_INCLUDE_DIR cuda_runtime_api.h
    HINTS ${_cuda_hints} NO_DEFAULT_PATH
    DOC "Folder of cuda_runtime_api.h (cushim uses the CUDA toolkit's headers, not its libraries)")
  set(_cudnn_hints "")
  if(_cudnn_include)
    list(APPEND _cudnn_hints "${_cudnn_include}")
  endif()
  if(_cudnn_root)
    list(APPEND _cudnn_hints "${_cudnn_root}/include")
  endif()
  list(APPEND _cudnn_hints ${_cuda_hints})
  list(REMOVE_DUPLICATES _cudnn_hints)
  find_path(CUSHIM_CUDNN_INCLUDE_DIR cudnn_version.h
    HINTS ${_cudnn_hints} NO_DEFAULT_PATH
    DOC "Folder of cudnn.h and cudnn_version.h (cushim uses cuDNN's headers, not its libraries)")

  set(_error "")
  if(NOT CUSHIM_CUDA_INCLUDE_DIR)
    string(REPLACE ";" ", " _looked "${_cuda_hints}")
    string(APPEND _error "cushim: cuda_runtime_api.h not found (looked in: ${_looked}). cushim needs the "
      "CUDA toolkit headers (not its libraries): pass -DCUDAToolkit_ROOT=<toolkit root> "
      "(or set the CUDAToolkit_ROOT environment variable).")
  endif()
  if(NOT CUSHIM_CUDNN_INCLUDE_DIR)
    if(_error)
      string(APPEND _error "\n")
    endif()
    string(REPLACE ";" ", " _looked "${_cudnn_hints}")
    string(APPEND _error "cushim: cudnn_version.h not found (looked in: ${_looked}). cushim needs the "
      "cuDNN headers (not its libraries): pass -DCUDNN_INCLUDE_DIR=<folder with cudnn.h> or "
      "-DCUDNN_ROOT=<cuDNN root>.")
  endif()
  set(CUSHIM_NVIDIA_HEADERS_ERROR "${_error}" PARENT_SCOPE)
endfunction()
