# An implementation file with each library's main header alone (tests/CMakeLists.txt includes this
# file): cushim includes the headers that come with it, and a program's calls of their functions link
# and reach the real libraries (run.sh; the libraries calls.cpp calls).
if("CUSHIM_CUBLAS" IN_LIST CUSHIM_OPT_IN_DEFINITIONS AND "CUSHIM_CUFFT" IN_LIST CUSHIM_OPT_IN_DEFINITIONS
   AND "CUSHIM_CUSOLVER" IN_LIST CUSHIM_OPT_IN_DEFINITIONS)
  add_test(NAME companion_headers COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/companion_headers/run.sh ${CMAKE_CXX_COMPILER}
    ${CMAKE_CURRENT_BINARY_DIR}/companion_headers ${PROJECT_SOURCE_DIR}/include ${CUSHIM_CUDA_INCLUDE_DIR}
    ${CUDAToolkit_ROOT}/lib64)
endif()
