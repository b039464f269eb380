# Install rules: the headers, the CMake package (cushimConfig.cmake, cushimConfigVersion.cmake,
# the exported cushim::cushim target) and the pkg-config file. Header-only, so the package files go
# to the architecture-independent share/ folder by default.
#
#   cmake --install <build> --prefix <prefix>
#   -> <prefix>/include/cushim/**                      (cushim.hpp, status.hpp, detail/*.hpp, api/*.inc)
#      <prefix>/share/cmake/cushim/cushim*.cmake       (find_package(cushim CONFIG))
#      <prefix>/share/pkgconfig/cushim.pc              (pkg-config --cflags --libs cushim)
include(CMakePackageConfigHelpers)

set(CUSHIM_INSTALL_CMAKEDIR "${CMAKE_INSTALL_DATADIR}/cmake/cushim" CACHE STRING
  "Where cushimConfig.cmake is installed (relative to the prefix, or absolute)")
set(CUSHIM_INSTALL_PKGCONFIGDIR "${CMAKE_INSTALL_DATADIR}/pkgconfig" CACHE STRING
  "Where cushim.pc is installed (relative to the prefix, or absolute)")

install(DIRECTORY include/cushim DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(TARGETS cushim EXPORT cushimTargets)
install(EXPORT cushimTargets NAMESPACE cushim:: DESTINATION ${CUSHIM_INSTALL_CMAKEDIR})

configure_package_config_file(cmake/cushimConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/cushimConfig.cmake
  INSTALL_DESTINATION ${CUSHIM_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/cushimConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/cushimConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/cushimConfigVersion.cmake
  cmake/cushimNvidiaHeaders.cmake
  cmake/cushimCuda.cmake
  DESTINATION ${CUSHIM_INSTALL_CMAKEDIR})

# pkg-config. The prefix is found from the .pc file's own folder, so the file stays right under
# `cmake --install --prefix <other>` and DESTDIR. pkg-config cannot search, so the CUDA and cuDNN
# include folders are this machine's; a consumer elsewhere overrides them with
# `pkg-config --define-variable=cuda_includedir=<dir> --define-variable=cudnn_includedir=<dir>`.
if(IS_ABSOLUTE "${CUSHIM_INSTALL_PKGCONFIGDIR}")
  set(CUSHIM_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  set(CUSHIM_PC_PREFIX "\${pcfiledir}")
  cmake_path(SET _up NORMALIZE "${CUSHIM_INSTALL_PKGCONFIGDIR}")
  string(REGEX REPLACE "[^/]+" ".." _up "${_up}")
  string(REGEX REPLACE "/+$" "" _up "${_up}")
  string(APPEND CUSHIM_PC_PREFIX "/${_up}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(CUSHIM_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(CUSHIM_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
set(CUSHIM_PC_CUDA_INCLUDEDIR "${CUSHIM_CUDA_INCLUDE_DIR}")
if(CUSHIM_CUDNN_INCLUDE_DIR STREQUAL CUSHIM_CUDA_INCLUDE_DIR)
  set(CUSHIM_PC_CUDNN_INCLUDEDIR "\${cuda_includedir}")
else()
  set(CUSHIM_PC_CUDNN_INCLUDEDIR "${CUSHIM_CUDNN_INCLUDE_DIR}")
endif()
set(CUSHIM_PC_VERSION "${PROJECT_VERSION}")
set(CUSHIM_PC_DESCRIPTION "${PROJECT_DESCRIPTION}")
configure_file(cushim.pc.in ${CMAKE_CURRENT_BINARY_DIR}/cushim.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/cushim.pc DESTINATION ${CUSHIM_INSTALL_PKGCONFIGDIR})
