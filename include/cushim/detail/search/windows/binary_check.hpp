// Windows: before the loader sees a file, is it a PE image of this process's machine?
#pragma once

#include <string>

#include "../../types/status_types.hpp"
#include "../../files/pe.hpp"
#include "../../files/words/pe.hpp"
#include "../../platform/platform.hpp"
#include "../words/file_checks.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// `loaded` means usable; otherwise bad_format or wrong_architecture with the reason in detail.
inline outcome inspect_file(const std::string& path, std::string& detail) {
  platform::file_source file(path);
  pe_info info = read_pe(file);
  if (info.error != pe_error::none) {
    detail = words::not_a_dll(words::describe(info.fault));
    return outcome::bad_format;
  }
  if (info.machine != native_pe_machine()) {
    detail = words::dll_of_other_architecture(pe_machine_name(info.machine), pe_machine_name(native_pe_machine()));
    return outcome::wrong_architecture;
  }
  return outcome::loaded;
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
