// Linux: before the loader sees a file, is it an ELF shared library of this process's class and
// machine?
#pragma once

#include <cstdint>
#include <string>

#include "../../files/elf.hpp"
#include "../../files/words/elf.hpp"
#include "../../types/status_types.hpp"
#include "../../platform/platform.hpp"
#include "../words/file_checks.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// inspect_file's answer for a file already read (`file_size` bytes): `open_error` says why it could
// not be opened.
inline outcome inspect_elf(const std::string& open_error, const elf_info& info, std::uint64_t file_size,
                           std::string& detail) {
  if (!open_error.empty()) {
    detail = open_error;
    return outcome::bad_format;
  }
  // The class and the machine first, as glibc's loader looks at them (open_verify): a file for
  // another architecture is that, whatever else is wrong with it, once it is as long as this
  // process's own ELF header (shorter, the loader says "file too short" first).
  const std::uint64_t native_header = native_elf_class() == 64 ? 64 : 52;
  const bool other_class = file_size >= native_header && info.elf_class != 0 && info.elf_class != native_elf_class();
  const bool other_machine = info.machine != 0 && info.machine != native_elf_machine();
  if (info.error != elf_error::none && !other_class && !other_machine) {
    detail = words::not_a_shared_library(words::describe(info.fault));
    return outcome::bad_format;
  }
  if (other_class || other_machine) {
    detail = words::library_of_other_architecture(info.elf_class, elf_machine_name(info.machine), native_elf_class(),
                                                  elf_machine_name(native_elf_machine()));
    return outcome::wrong_architecture;
  }
  return outcome::loaded;
}

// `loaded` means usable; otherwise bad_format or wrong_architecture with the reason in detail.
inline outcome inspect_file(const std::string& path, std::string& detail) {
  file_source file(path);
  if (!file.ok()) return inspect_elf(file.error(), elf_info(), 0, detail);
  return inspect_elf(std::string(), read_elf(file), file.size(), detail);
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
