// Linux: before the loader sees a file, is it an ELF shared library of this process's class and
// machine?
#pragma once

#include <string>

#include "../elf.hpp"
#include "../platform.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// `loaded` means usable; otherwise bad_format or wrong_architecture with the reason in detail.
inline outcome inspect_file(const std::string& path, std::string& detail) {
  file_source file(path);
  if (!file.ok()) {
    detail = file.error();
    return outcome::bad_format;
  }
  elf_info info = read_elf(file);
  if (info.error != elf_error::none) {
    detail = "not a shared library: " + info.error_detail;
    return outcome::bad_format;
  }
  if (info.elf_class != native_elf_class() || info.machine != native_elf_machine()) {
    detail = "a " + std::to_string(info.elf_class) + "-bit " + elf_machine_name(info.machine) +
             " library; this process is " + std::to_string(native_elf_class()) + "-bit " +
             elf_machine_name(native_elf_machine());
    return outcome::wrong_architecture;
  }
  return outcome::loaded;
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
