// cushim's own view of an ELF library's exports, for comparison with other readers: the dynamic
// symbol table walked with the steps of elf.hpp's symbol lookup (find_symbol_bytes): its image
// reader, its symbol count (section headers, else DT_HASH, else DT_GNU_HASH), its decoder and its
// filter of exported definitions; the names read from the dynamic string table, bounded as
// read_elf reads DT_NEEDED names.
#pragma once

#include <cushim/detail/files/elf.hpp>
#include <cushim/detail/files/words/elf.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace test_support {

struct elf_exports {
  bool ok = false;
  std::string error;
  std::vector<std::string> names;  // in table order; a name defined in two versions appears twice
};

inline elf_exports read_elf_exports(const cushim::detail::byte_source& file) {
  namespace elf = cushim::detail::elf_internal;
  elf_exports out;
  cushim::detail::elf_info info;
  elf::elf_image image;
  elf::file_region symbols, strings;
  if (!elf::read_image(file, image, info) || !elf::locate_string_table(image, strings, info)) {
    out.error = cushim::detail::words::describe(info.fault);
    return out;
  }
  const elf::elf_format& f = image.format;
  const elf::dynamic_table& t = image.table;
  if (!t.symtab.present || (t.syment.present && t.syment.value != f.symbol_size()) ||
      !elf::map_address(image, t.symtab.value, symbols)) {
    out.error = "no usable DT_SYMTAB";
    return out;
  }
  const std::uint64_t count =
      std::min({elf::dynamic_symbol_count(file, image), symbols.length / f.symbol_size(), elf::max_symbols});
  bool names_ok = true;
  const bool read_ok =
      elf::visit_records(file, symbols.offset, count, f.symbol_size(), [&](const unsigned char* entry) {
        const elf::symbol s = elf::decode_symbol(f, entry);
        if (!elf::is_exported_definition(s)) return true;
        std::string name;
        names_ok = elf::read_dynamic_string(file, strings, "symbol name", s.name, name, info);
        if (names_ok) out.names.push_back(name);
        return names_ok;
      });
  out.ok = read_ok && names_ok;
  if (!read_ok) out.error = "the dynamic symbol table runs past the end of the file";
  if (!names_ok) out.error = cushim::detail::words::describe(info.fault);
  return out;
}

}  // namespace test_support
