// Windows: every DLL a cuDNN's files import beyond cuDNN's own and the system's (zlibwapi.dll,
// which cuDNN 8.3 to 8.9 need and do not ship; cuBLAS and cuBLASLt of its CUDA), located as a
// program that loads that cuDNN finds them: the cuDNN's own folder (a load by path from there, or
// that folder on PATH), System32, the Windows folder, then PATH.
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/search/windows/dependencies.hpp>
#include "../../machine/context.hpp"
#include "../../machine/layout.hpp"
#include "../../machine/machine.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

inline void resolve_cudnn_imports(const discovery::context& ctx, machine::cudnn_install& c) {
  if (c.library.empty()) return;
  std::vector<std::string> ignored;
  std::string dir = parent_dir(c.library);
  dependency_resolver resolver(process_view{dir, {}, discovery::absolute_entries(ctx, "PATH", ignored), {}});
  std::vector<std::string> files = {c.library};
  for (const machine::cudnn_file& s : c.sublibraries) {
    if (!s.path.empty()) files.push_back(s.path);
  }
  for (const std::string& file : files) {
    std::string error;
    for (const std::string& name : resolver.needs(file, error)) {
      if (is_api_set(name) || starts_ignoring_case(name, "cudnn")) continue;  // cuDNN's own: its sub-libraries
      std::vector<searched_place> searched;
      std::string found = resolver.locate(name, "", searched, load_kind::by_name);
      if (!found.empty() && !walk_into(found)) continue;  // the system's own
      machine::resolved_import* known = nullptr;
      for (machine::resolved_import& i : c.imports) {
        if (pe_format::same_name_ignoring_case(i.name, name)) known = &i;
      }
      if (!known) {
        c.imports.push_back({name, found, {}, detail::words::place_texts(searched)});
        known = &c.imports.back();
      }
      known->needed_by += (known->needed_by.empty() ? "" : ", ") + file_name_of(file);
    }
  }
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
