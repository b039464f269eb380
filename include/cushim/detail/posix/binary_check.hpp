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

// inspect_file's answer for a file already read: `open_error` says why it could not be opened.
inline outcome inspect_elf(const std::string& open_error, const elf_info& info, std::string& detail) {
  if (!open_error.empty()) {
    detail = open_error;
    return outcome::bad_format;
  }
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

// `loaded` means usable; otherwise bad_format or wrong_architecture with the reason in detail.
inline outcome inspect_file(const std::string& path, std::string& detail) {
  file_source file(path);
  return inspect_elf(file.ok() ? std::string() : file.error(), file.ok() ? read_elf(file) : elf_info(), detail);
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
