// libFuzzer target: the ELF reader on arbitrary bytes (bounds enforced by memory_source).
#include <cushim/detail/files/elf.hpp>

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  cushim::detail::memory_source file(std::string(reinterpret_cast<const char*>(data), size));
  cushim::detail::read_elf(file);
  unsigned char word[8];
  cushim::detail::read_elf_symbol_bytes(file, "cudnn_graph_version", word, 4);
  // A name no seed defines: the hash-table walks run to the end of a chain.
  cushim::detail::read_elf_symbol_bytes(file, "cushim_absent_symbol", word, 4);
  return 0;
}
