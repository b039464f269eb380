// The saved variables (machine/saved_environment.hpp) against this process's: each PATH entry
// that holds something the doctor looks for (NVIDIA's libraries, nvcc, python, cl) and each
// CUDA_* or CUDNN_* variable that this process lacks, which a program started before the change
// (PyCharm, VS Code, an Anaconda Prompt, a terminal, and the Python they start) cannot see; a PATH
// that setx cut at 1024 characters; values no program can use as they are (empty, a %NAME% that
// is never expanded). The PATH folders only the saved value has are returned for the inventory.
#pragma once

#include <string>
#include <vector>

#include "../inventory/library_names.hpp"
#include "../machine/context.hpp"
#include "../machine/saved_environment.hpp"
#include "../words/saved_environment.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

constexpr std::size_t setx_limit = 1024;  // setx writes at most this many characters

inline bool same_variable_name(const std::string& a, const std::string& b) {
  return pe_format::same_name_ignoring_case(a, b);
}

// The saved value of `name` that Windows gives a program: the user's, else the machine's; PATH is
// both, the machine's first. Null when neither has it.
inline const saved_variable* saved_value(const std::vector<saved_variable>& saved, const std::string& name, bool user) {
  for (const saved_variable& v : saved) {
    if (same_variable_name(v.name, name) && (v.scope.compare(0, 4, "HKCU") == 0) == user) return &v;
  }
  return nullptr;
}

// `value` with each %NAME% expanded as Windows expands a REG_EXPAND_SZ value: from the saved user
// value, the machine's, else this process's variables. A name set nowhere stays as written and is
// added to `unknown`.
inline std::string expand_saved(const std::string& value, const std::vector<saved_variable>& saved, const context& ctx,
                                std::vector<std::string>& unknown) {
  std::string out;
  for (std::size_t i = 0; i < value.size();) {
    std::size_t end = value[i] == '%' ? value.find('%', i + 1) : std::string::npos;
    if (end == std::string::npos || end == i + 1) {
      out += value[i++];
      continue;
    }
    std::string name = value.substr(i + 1, end - i - 1);
    const saved_variable* v = saved_value(saved, name, true);
    if (!v) v = saved_value(saved, name, false);
    if (v && !same_variable_name(name, "PATH")) {
      out += v->value;
    } else if (const char* own = ctx.env(name)) {
      out += own;
    } else {
      add_unique(unknown, "%" + name + "%");
      out += value.substr(i, end - i + 1);
    }
    i = end + 1;
  }
  return out;
}

// A folder as the loader compares it: no trailing separator, any case.
inline bool same_folder(std::string a, std::string b) {
  while (a.size() > 3 && (a.back() == '\\' || a.back() == '/')) a.pop_back();
  while (b.size() > 3 && (b.back() == '\\' || b.back() == '/')) b.pop_back();
  return platform::windows_names ? pe_format::same_name_ignoring_case(a, b) : a == b;
}

// What in `dir` the doctor looks for: NVIDIA's libraries cushim knows, nvcc, python and cl;
// "cudnn64_8.dll, cudnn_adv_infer64_8.dll, ..." (the first three), empty when nothing.
inline std::string what_folder_holds(const std::string& dir) {
  std::vector<std::string> ignored, names;
  std::size_t count = 0;
  for (const std::string& name : names_starting(dir, "", ignored)) {
    named_library named;
    bool tool = false;
    for (const char* exe : {"nvcc.exe", "python.exe", "cl.exe"}) tool = tool || same_variable_name(name, exe);
    if (!tool && !library_named(name, named)) continue;
    if (++count <= 3) names.push_back(name);
  }
  return names.empty() ? std::string() : joined(names) + (count > 3 ? ", ..." : "");
}

// The saved PATH (the machine's entries, then the user's) against this process's; returns the
// folders only the saved PATH has.
inline std::vector<std::string> check_saved_path(const context& ctx, const std::vector<saved_variable>& saved,
                                                 machine::findings& f) {
  std::vector<std::string> ignored, saved_only;
  std::vector<std::string> own = absolute_entries(ctx, "PATH", ignored);
  for (bool user : {false, true}) {
    const saved_variable* v = saved_value(saved, "PATH", user);
    if (!v) continue;
    std::string where = words::path_in_registry(v->scope);
    if (v->value.empty()) {
      f.notes.push_back(words::empty_path(v->scope + "\\" + v->name));
      continue;
    }
    std::vector<std::string> unknown;
    std::string value = v->expandable ? expand_saved(v->value, saved, ctx, unknown) : v->value;
    if (!unknown.empty()) {
      f.notes.push_back(words::unexpanded(where, unknown, true));
    } else if (!v->expandable && v->value.find('%') != std::string::npos) {
      f.notes.push_back(words::not_expandable(where));
    }
    std::vector<path_entry> entries = split_path_list(value);
    if (v->value.size() == setx_limit) {
      std::string last = entries.empty() ? std::string() : entries.back().text;
      bool cut = !last.empty() && platform::check_path(last).kind == platform::path_kind::absent;
      f.problems.push_back(words::path_cut_by_setx(where, setx_limit, last, cut));
    }
    for (const path_entry& e : entries) {
      if (e.kind != entry_kind::absolute || platform::searched_without_path(e.text)) continue;
      bool present = false;
      for (const std::string& mine : own) present = present || same_folder(mine, e.text);
      if (present) continue;
      std::string holds = what_folder_holds(e.text);
      if (holds.empty()) continue;
      add_unique(saved_only, e.text);
      f.problems.push_back(words::path_entry_not_in_process(where, e.text, holds));
    }
  }
  return saved_only;
}

// Every saved CUDA_* and CUDNN_* against this process's variable of that name.
inline void check_saved_variables(const context& ctx, const std::vector<saved_variable>& saved, machine::findings& f) {
  for (const saved_variable& v : saved) {
    if (same_variable_name(v.name, "PATH")) continue;
    const saved_variable* user = saved_value(saved, v.name, true);
    if (user && user != &v) continue;  // the user's value is the one programs get
    if (v.value.empty()) {
      f.notes.push_back(words::empty_variable(v.scope + "\\" + v.name, v.name));
      continue;
    }
    std::vector<std::string> unknown;
    std::string value = v.expandable ? expand_saved(v.value, saved, ctx, unknown) : v.value;
    if (!unknown.empty()) f.notes.push_back(words::unexpanded(v.scope + "\\" + v.name, unknown, false));
    const char* own = ctx.env(v.name);
    if (!own) {
      f.problems.push_back(words::variable_not_in_process(v.name, v.scope, value));
    } else if (!same_folder(own, value)) {
      f.notes.push_back(words::changed_since(v.name, own, value, v.scope));
    }
  }
}

// Both checks; the PATH folders only the saved PATH has, for the inventory.
inline std::vector<std::string> check_saved_environment(const context& ctx, const std::vector<saved_variable>& saved,
                                                        machine::findings& f) {
  std::vector<std::string> saved_only = check_saved_path(ctx, saved, f);
  check_saved_variables(ctx, saved, f);
  return saved_only;
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
