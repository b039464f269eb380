// The platform layer's types, the same on every platform (posix/ and windows/ fill them in).
#pragma once

#include <cstdint>
#include <string>

namespace cushim {
namespace detail {
namespace {
namespace platform {

enum class file_state { regular, absent, folder_absent, not_a_file, unreadable };

// Which file a path names, links followed: two paths to one file have the same identity.
struct file_identity {
  std::uint64_t device = 0, inode = 0;  // Windows: the volume's serial number, the file's index on it
  bool known() const { return device != 0 || inode != 0; }
  bool operator==(const file_identity& o) const { return device == o.device && inode == o.inode; }
  bool operator!=(const file_identity& o) const { return !(*this == o); }
};

struct file_check {
  file_state state;
  std::string detail;
  file_identity identity;     // for a regular file
  std::uint64_t size = 0;     // for a regular file, with when it was last written: a file changed
  std::int64_t modified = 0;  // in place (truncated, rewritten) keeps its identity but not these
  bool blocks_open = false;   // a FIFO: an open() waits for a writer (the system loader's, forever)
};

// What a load gave; each platform names it load_result, with its own handle type.
template <class Handle>
struct basic_load_result {
  Handle handle = nullptr;
  std::string error;
  bool not_found = false;  // the system found no such file (as opposed to refusing one)
  unsigned long code = 0;  // Windows: GetLastError(); 0 elsewhere
};

// How a piece of work run in a child process ended (child_process.hpp).
struct child_run {
  bool ran = false;          // false: no child could be made here (the work runs in this process)
  std::string why_no_child;  // when ran is false
  std::string output;        // what the child wrote
  int exit_status = -1;      // when it ended by exiting
  std::string signal_name;  // a signal or exception that ended it: "SIGSEGV", "EXCEPTION_ACCESS_VIOLATION (0xC0000005)"
  bool timed_out = false;   // killed when its time was up
  bool end_unseen = false;  // another wait of this process took its exit status, and it said nothing of its end
};

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
