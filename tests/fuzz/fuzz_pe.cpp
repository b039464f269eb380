// libFuzzer target: the PE reader on arbitrary bytes (bounds enforced by memory_source).
#include <cushim/detail/files/pe.hpp>

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  cushim::detail::memory_source file(std::string(reinterpret_cast<const char*>(data), size));
  cushim::detail::read_pe(file);
  cushim::detail::pe_imported_names(file, "zlibwapi.dll");
  return 0;
}
