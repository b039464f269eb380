// What a file's name says it is, by cushim's own list of the libraries it knows (their
// descriptors, every major): one of them, one of cuDNN's sub-libraries, or NVRTC's builtins; and
// of which major. A name with more version numbers than the loader's (libcudnn.so.9.14.0,
// libcuda.so.580.95.05) is the same library's real file.
#pragma once

#include <cushim/detail/libraries/all.hpp>
#include <cushim/detail/files/pe.hpp>
#include <cushim/detail/search/sublibrary_specs.hpp>

#include <cctype>
#include <string>

#include "../machine/layout.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

struct named_library {
  const library_descriptor* d = nullptr;
  int major = 0;
  std::string sublibrary;  // "cnn" for cuDNN's libcudnn_cnn.so.9, "builtins" for NVRTC's; empty: the library
};

// "libcudnn" and "9.14.0" from "libcudnn.so.9.14.0"; false for a name without a number after
// ".so." (a development link, libcudnn.so) or not of that form.
inline bool split_shared_object_name(const std::string& name, std::string& base, std::string& numbers) {
  std::size_t at = name.rfind(".so.");
  if (at == std::string::npos || at == 0) return false;
  base = name.substr(0, at);
  numbers = name.substr(at + 4);
  return !numbers.empty() && numbers.find_first_not_of("0123456789.") == std::string::npos &&
         std::isdigit(static_cast<unsigned char>(numbers[0]));
}

inline int first_number(const std::string& numbers) { return std::atoi(numbers.c_str()); }

inline bool same_name(const std::string& a, const std::string& b) {
  return platform::windows_names ? pe_format::same_name_ignoring_case(a, b) : a == b;
}

// cuDNN's sub-library `file` of either major: its name ("cnn") and major, or false.
inline bool cudnn_sublibrary_named(const std::string& file, named_library& out) {
  std::string base, numbers;
  for (int major : {8, 9}) {
    std::string sub = sublibrary_name_of(file, major);
    if (sub.empty() && !platform::windows_names && split_shared_object_name(file, base, numbers) &&
        first_number(numbers) == major) {
      sub = sublibrary_name_of(base + ".so." + std::to_string(major), major);
    }
    if (sub.empty()) continue;
    out = {&descriptor_of(library::cudnn), major, sub};
    return true;
  }
  return false;
}

// NVRTC's builtins: libnvrtc-builtins.so.13.0, nvrtc-builtins64_130.dll.
inline bool nvrtc_builtins_named(const std::string& file, named_library& out) {
  std::string base, numbers;
  int major = 0;
  if (platform::windows_names) {
    const std::string prefix = "nvrtc-builtins64_";
    if (file.size() > prefix.size() + 4 && pe_format::same_name_ignoring_case(file.substr(0, prefix.size()), prefix)) {
      major = std::atoi(file.substr(prefix.size(), 2).c_str());
    }
  } else if (split_shared_object_name(file, base, numbers) && base == "libnvrtc-builtins") {
    major = first_number(numbers);
  }
  if (major == 0) return false;
  out = {&descriptor_of(library::nvrtc), major, "builtins"};
  return true;
}

// Which library cushim knows `file` is (a file name, no folder), or false.
inline bool library_named(const std::string& file, named_library& out) {
  std::string base, numbers;
  bool shared_object = !platform::windows_names && split_shared_object_name(file, base, numbers);
  for (const library_descriptor* d : descriptors) {
    for (const major_file& f : d->files) {
      std::string name = platform_text(f.name);
      if (same_name(file, name)) return out = {d, f.major, {}}, true;
      std::string own_base, own_numbers;
      if (!shared_object || !split_shared_object_name(name, own_base, own_numbers) || own_base != base) continue;
      // The driver's and NVML's real files carry the driver's version (libcuda.so.580.95.05).
      if (d->system_only || first_number(numbers) == f.major) return out = {d, f.major, {}}, true;
    }
  }
  return cudnn_sublibrary_named(file, out) || nvrtc_builtins_named(file, out);
}

// How a framework's load names a file: "cuDNN" for libcudnn.so.9, "NVRTC builtins"; null for a file
// that is none of cushim's libraries, or one of cuDNN's sub-libraries (reported with their library).
inline const char* loaded_library_display(const std::string& file) {
  named_library n;
  if (!library_named(file, n) || (!n.sublibrary.empty() && n.sublibrary != "builtins")) return nullptr;
  if (!n.sublibrary.empty()) return "NVRTC builtins";
  return n.d->reports_driver ? "NVIDIA driver" : n.d->display_name;
}

// The component of a toolkit's version.json that gives a library's version ("cuda_cudart").
inline const char* toolkit_component(const std::string& key) {
  struct row {
    const char* key;
    const char* component;
  };
  static const row rows[] = {
#include "toolkit_components.inc"  // generated from each library's record
  };
  for (const row& r : rows) {
    if (key == r.key) return r.component;
  }
  return nullptr;
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
