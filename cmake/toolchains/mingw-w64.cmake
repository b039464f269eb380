# Cross-compiles for 64-bit Windows with MinGW-w64 and runs what it builds under Wine. The -posix
# compilers have std::thread and std::mutex (the default win32 thread model has neither).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
# CTest runs every test program through it; exit codes pass through.
find_program(CUSHIM_WINE wine)
if(CUSHIM_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CUSHIM_WINE})
endif()
