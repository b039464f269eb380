// The words of reading the machine's files and folders: what a path is when it is not what was
// looked for, and what could not be read or was read only in part. The platform halves of
// machine/files.hpp describe a path with these; context.hpp notes with them.
#pragma once

#include <string>

namespace cushim {
namespace detail {
namespace {
namespace discovery {
namespace words {

// What a path is, where a file or folder was looked for (path_check::detail, text_file::error).
inline std::string does_not_exist() { return "does not exist"; }
inline std::string symbolic_link_loop() { return "a symbolic link loop"; }
inline std::string fifo_not_a_file() { return "a FIFO, not a file"; }
inline std::string device_not_a_file() { return "a device or socket, not a file"; }
inline std::string folder_not_a_file() { return "a folder, not a file"; }
inline std::string could_not_be_read() { return "could not be read"; }

// The end of "VIRTUAL_ENV names /x, which ...": a variable naming what is not a folder.
inline std::string which_does_not_exist() { return "which does not exist"; }
inline std::string which_is_not_a_folder(const std::string& detail) { return "which is not a folder (" + detail + ")"; }

// Found by `found_by`, and not a folder (`detail`: what it is).
inline std::string not_examined(const std::string& path, const std::string& found_by, const std::string& detail) {
  return path + " (" + found_by + ") is " + detail + ": not examined";
}
inline std::string is_link_loop(const std::string& path) { return path + " is a symbolic link loop"; }

inline std::string cannot_be_read(const std::string& path, const std::string& error) {
  return path + " cannot be read: " + error;
}
inline std::string cannot_be_listed(const std::string& dir, const std::string& error) {
  return dir + " cannot be listed: " + error;
}

// "<path> is 100 MiB; only its first 64 KiB were read" (`size`, `read`: "100 MiB", "64 KiB").
inline std::string read_in_part(const std::string& path, const std::string& size, const std::string& read) {
  return path + " is " + size + "; only its first " + read + " were read";
}

// A folder of more names than are read; `verb`: what was done with the first ones.
inline std::string names_read_in_part(const std::string& dir, std::size_t total, std::size_t read, const char* verb) {
  return dir + " has " + std::to_string(total) + " entries; the first " + std::to_string(read) + " were " + verb;
}

// An empty or relative entry of a PATH-like variable (`entry`: empty when it is empty).
inline std::string relative_entry(const char* variable, int index, bool empty, const std::string& entry) {
  return std::string(variable) + "[" + std::to_string(index) + "] is " +
         (empty ? "empty" : "relative (\"" + entry + "\")") +
         ": a shell would look in the current folder there; discovery does not";
}

inline std::string out_of_memory() { return "discovery ran out of memory; nothing it found is listed"; }

}  // namespace words
}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim
