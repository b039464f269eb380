// Windows: what a DLL says about its own version and identity in its version resource, read
// without running it.
#pragma once

#include <string>

#include "../descriptor.hpp"
#include "../words/loading.hpp"
#include "../../files/pe.hpp"
#include "../../platform/platform.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// The version a DLL's version resource gives in the library's encoding, or 0. Both forms are
// read: "13.0.48" (major first) and "6.14.11.13000" (the encoded version last).
inline long version_from_resource(const pe_info& info, const library_descriptor& d) {
  for (const std::string* text : {&info.product_version, &info.file_version}) {
    long parts[4] = {0, 0, 0, 0};
    int count = leading_numbers(text->c_str(), parts, 4);
    if (count >= 2 && parts[0] >= 10 && parts[0] <= 99 && parts[1] >= 0 && parts[1] <= 99)
      return d.encode_version(int(parts[0]), int(parts[1]), 0);
    if (count == 4 && parts[3] >= 10000 && parts[3] <= 99999) {
      version_parts p = d.decode_version(parts[3]);
      return d.encode_version(p.major, p.minor, p.patch);
    }
  }
  return 0;
}

// When the version function reports 0: the version resource, else the major of the file name
// that was searched for.
inline long version_from_file(const std::string& path, const library_descriptor& d, std::string& source) {
  file_source file(path);
  if (long v = version_from_resource(read_pe_version(file), d)) {
    source = std::string("version resource (") + d.version_function + " reported 0)";
    return v;
  }
  source = std::string("file name (") + d.version_function + " reported 0)";
  return d.encode_version(d.compiled_major, 0, 0);
}

// A DLL renamed to pass for another major (cudart64_12.dll copied to cudart64_110.dll) still
// gives its real name in its version resource: wrong_version, with the reason in detail.
inline outcome check_identity(const std::string& path, const library_descriptor& d, std::string& detail) {
  file_source file(path);
  pe_info info = read_pe_version(file);
  if (info.original_filename.empty()) return outcome::loaded;
  for (const std::string& other : other_major_files(d)) {
    if (!pe_format::same_name_ignoring_case(info.original_filename, other)) continue;
    detail = attempt_texts::renamed_copy(d, other, info.file_version);
    return outcome::wrong_version;
  }
  return outcome::loaded;
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
