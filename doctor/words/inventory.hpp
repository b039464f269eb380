// The words of the inventory (every copy of every NVIDIA library cushim knows): where a copy was
// found, who installed it, and where its version and CUDA major come from.
#pragma once

#include <string>

#include "../machine/machine.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

// --- Where a copy was found, or headers were (programs.hpp) ---

inline std::string the_toolkit(const std::string& path) { return "the toolkit " + path; }
inline std::string the_environment(const std::string& path) { return "the environment " + path; }
inline std::string container_toolkit_mount() { return "the NVIDIA container toolkit's mount"; }

inline std::string library_name_but(const std::string& path, const std::string& detail) {
  return path + " has a library's name but is " + detail + ": not examined";
}
inline std::string more_copies_than(std::size_t limit) {
  return "more than " + std::to_string(limit) + " NVIDIA library files: the others are not listed";
}

// --- Who installed it ---

inline std::string framework_folder(const machine::framework& fw, const std::string& folder) {
  return fw.name + " " + fw.version + " (its own folder " + folder + ")";
}
inline std::string toolkit_owner(const machine::toolkit& t) {
  return "the CUDA " + (t.version.empty() ? std::string() : t.version + " ") + "toolkit " + t.path;
}
// What the toolkit's stubs/ and compat/ copies are (`toolkit`: toolkit_owner).
inline std::string link_time_stub(const std::string& toolkit) {
  return toolkit + " (its link-time stub: every call fails; never the driver)";
}
inline std::string forward_compatibility(const std::string& toolkit) {
  return "the CUDA forward-compatibility package of " + toolkit;
}
// `mounted`: in the folder the NVIDIA container toolkit mounts the host's driver into.
inline std::string the_driver_copy(bool mounted) {
  return mounted ? "the NVIDIA driver, mounted by the NVIDIA container toolkit" : "the NVIDIA driver";
}
inline std::string by_hand() { return "copied by hand: no package, toolkit, environment or framework records it"; }
inline std::string unrecorded_in(const std::string& environment) {
  return "in the site-packages of " + environment + ", but no readable package record lists it";
}
inline std::string rpm_not_read(const std::string& database) {
  return database +
         " is rpm's package database, which cushim-doctor does not read: a copy rpm installed is "
         "shown as copied by hand";
}

// --- Where its version and CUDA major come from ---

inline std::string toolkit_version_json(const std::string& component) {
  return "the toolkit's version.json (" + component + ")";
}
inline std::string toolkit_dist_info(const std::string& info) { return "the toolkit's dist-info/" + info; }
inline std::string its_package(const std::string& package, const std::string& version) {
  return "its package, " + package + " " + version;
}
inline std::string its_sublibrary(const std::string& file, const std::string& source) {
  return "its sub-library " + file + "'s " + source;
}
// A sub-library without its main library beside it: "cuDNN (libcudnn_cnn.so.9 alone)".
inline std::string alone(const std::string& library, const std::string& file) {
  return library + " (" + file + " alone)";
}
inline std::string cannot_be_loaded(const std::string& why) { return "it cannot be loaded: " + why; }

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
