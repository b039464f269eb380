// What the search says of the NVIDIA driver (each platform's driver_files.hpp): what to do without
// one, where Linux and Windows say it differently side by side.
#pragma once

namespace cushim {
namespace detail {
namespace {
namespace words {

// `windows`: the display driver puts nvcuda.dll into System32; elsewhere a container needs the
// NVIDIA container toolkit to see the machine's driver.
inline const char* driver_install_advice(bool windows) {
  return windows ? "install the NVIDIA display driver for your GPU (it puts nvcuda.dll into System32)"
                 : "install the NVIDIA driver for your GPU (it provides libcuda.so.1); in a container, start it with "
                   "the NVIDIA container toolkit (--gpus all)";
}

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
