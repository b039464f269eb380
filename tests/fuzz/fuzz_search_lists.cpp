// libFuzzer target: the parsers of what the environment and the system hand cushim: PATH-like
// lists (inputs starting with byte 1, the rest is the list) and /etc/ld.so.cache (anything else).
#include <cushim/detail/search/posix/ld_so_cache.hpp>
#include <cushim/detail/search/path_list.hpp>

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  if (data[0] == 1) {
    for (const cushim::detail::path_entry& e : cushim::detail::split_path_list(bytes.substr(1))) {
      cushim::detail::join_path(e.text, "libcudnn.so.9");
      cushim::detail::parent_dir(e.text);
    }
  } else {
    cushim::detail::platform::ld_so_cache_paths(bytes, "libcudnn.so.9");
  }
  return 0;
}
