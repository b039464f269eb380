# Boost.DLL, header-only and optional. When the headers of Boost 1.77 or newer are found, defines the
# interface target cushim_boost (them as SYSTEM includes, with BOOST_DLL_USE_STD_FS so that no Boost
# library is linked). Used by CUSHIM_USE_BOOST_DLL (the loading backend in cushim's own targets) and
# by the export oracle tests. 1.77 is the first whose library_info reads .dynsym when .symtab is
# stripped (every NVIDIA library) and lists protected symbols. The library and its installed
# package never need Boost.
if(WIN32)
  # The MinGW cross build: the host's headers, alone in a folder of their own, so the cross compiler
  # never sees the rest of /usr/include (as doctest in tests/windows).
  find_path(CUSHIM_BOOST_INCLUDE_DIR boost/dll/library_info.hpp PATHS /usr/include
    NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  if(CUSHIM_BOOST_INCLUDE_DIR)
    file(STRINGS ${CUSHIM_BOOST_INCLUDE_DIR}/boost/version.hpp _cushim_boost_version
      REGEX "^#define BOOST_VERSION [0-9]+")
    string(REGEX MATCH "[0-9]+$" _cushim_boost_version "${_cushim_boost_version}")
    if(_cushim_boost_version GREATER_EQUAL 107700)
      set(_cushim_boost_dir ${CMAKE_BINARY_DIR}/boost_headers)
      file(MAKE_DIRECTORY ${_cushim_boost_dir})
      file(CREATE_LINK ${CUSHIM_BOOST_INCLUDE_DIR}/boost ${_cushim_boost_dir}/boost SYMBOLIC)
      add_library(cushim_boost INTERFACE)
      target_include_directories(cushim_boost SYSTEM INTERFACE ${_cushim_boost_dir})
    endif()
  endif()
else()
  find_package(Boost 1.77 CONFIG QUIET)
  if(TARGET Boost::headers)
    add_library(cushim_boost INTERFACE)
    target_link_libraries(cushim_boost INTERFACE Boost::headers)
  endif()
endif()

if(TARGET cushim_boost)
  target_compile_definitions(cushim_boost INTERFACE BOOST_DLL_USE_STD_FS)
  message(STATUS "cushim: Boost.DLL headers found: the Boost tests are built")
else()
  message(STATUS "cushim: no Boost 1.77+ headers (libboost1.81-dev): the Boost tests are not built")
endif()
if(CUSHIM_USE_BOOST_DLL AND NOT TARGET cushim_boost)
  message(FATAL_ERROR "CUSHIM_USE_BOOST_DLL needs the headers of Boost 1.77 or newer: install libboost1.81-dev "
    "(scripts/install-deps.sh does) or point Boost_DIR at a Boost CMake package")
endif()
