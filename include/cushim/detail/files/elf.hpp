// A bounds-checked reader of the ELF facts cushim needs about a library file: its class, byte
// order and machine, its dynamic section (SONAME, NEEDED, RUNPATH, RPATH) and the bytes of an
// exported symbol. It sees the file only through byte_source and reads only headers, program
// headers, the dynamic segment, strings and the symbol entries it needs. Every offset and count
// taken from the file is checked against the file's size before use and every loop has a fixed
// bound, so a damaged or hostile file gives an error, never a crash, a hang or a large read.
// Platform-independent: its own definitions instead of <elf.h>, which Windows builds lack.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "byte_source.hpp"

namespace cushim {
namespace detail {
namespace {

enum class elf_error {
  none,
  not_elf,      // no ELF magic: text, zeros, an empty file
  truncated,    // a header, table or segment runs past the end of the file
  bad_header,   // the structures contradict themselves or point nowhere
  unsupported,  // valid ELF without a dynamic section: an object file, a core dump, a static program
};

// What is wrong with a file read_elf cannot read as a library; the fields each finding uses.
enum class elf_finding : unsigned char {
  none,
  empty,
  unreadable,                     // part
  not_elf,                        // first_bytes
  too_short,                      // file_size, expected: the header's size
  class_unknown,                  // value: EI_CLASS
  byte_order_unknown,             // value: EI_DATA
  version_unknown,                // field: "EI_VERSION" or "e_version", value
  type_without_dynamic,           // value: e_type
  program_header_size,            // value: e_phentsize, elf_class, expected
  program_header_table_past_end,  // count, value: the entry size, offset, file_size
  load_segment_past_end,          // value: the segment's file size, offset, file_size
  statically_linked,
  dynamic_segment_past_end,     // value: the segment's file size, offset, file_size
  dynamic_unterminated_within,  // count: the limit on the entries read
  dynamic_unterminated,         // count: the segment's entries, offset
  no_string_table,
  string_table_unmapped,   // offset: DT_STRTAB's address
  string_table_too_long,   // value: DT_STRSZ, offset: DT_STRTAB's address
  string_offset_past_end,  // field: the tag, offset, value: the string table's size
  string_unterminated,     // field: the tag, offset, value: the bytes searched for the NUL
};

// The part of the file a read failed on.
enum class elf_part : unsigned char { identification, header, program_header_table, dynamic_segment };

// The finding and the values it is about; files/words/elf.hpp says it (words::describe).
struct elf_fault {
  elf_finding finding = elf_finding::none;
  elf_part part = elf_part::identification;
  int elf_class = 0;
  const char* field = "";   // the header field or dynamic tag, as the ELF specification names it
  std::uint64_t value = 0;  // the field's value, or a size
  std::uint64_t expected = 0;
  std::uint64_t offset = 0;  // a file offset, an address or an offset into the string table
  std::uint64_t count = 0;
  std::uint64_t file_size = 0;
  std::string first_bytes;  // of a file without the ELF magic, up to 4
};

// What read_elf found. On an error, the fields read before it stay filled in.
struct elf_info {
  elf_error error = elf_error::none;
  elf_fault fault;    // what is wrong, with the offsets and sizes involved
  int elf_class = 0;  // 32 or 64
  bool little_endian = true;
  std::uint16_t machine = 0;  // e_machine: 62 x86-64, 183 AArch64, 3 i386, ...
  std::uint16_t type = 0;     // e_type: 3 shared object, 2 executable
  std::string soname;
  std::vector<std::string> needed;   // DT_NEEDED, in order
  std::vector<std::string> runpath;  // DT_RUNPATH split on ':'; empty when there is none
  std::vector<std::string> rpath;    // DT_RPATH split on ':'
};

namespace elf_internal {

constexpr unsigned char elf_magic[4] = {0x7f, 'E', 'L', 'F'};
constexpr std::size_t ident_size = 16;
constexpr std::size_t ident_class = 4;
constexpr std::size_t ident_data = 5;
constexpr std::size_t ident_version = 6;
constexpr unsigned char class_32 = 1;
constexpr unsigned char class_64 = 2;
constexpr unsigned char data_little_endian = 1;
constexpr unsigned char data_big_endian = 2;
constexpr std::uint32_t current_version = 1;

constexpr std::uint16_t type_executable = 2;
constexpr std::uint16_t type_shared_object = 3;

constexpr std::uint16_t machine_i386 = 3;
constexpr std::uint16_t machine_mips = 8;
constexpr std::uint16_t machine_powerpc = 20;
constexpr std::uint16_t machine_powerpc64 = 21;
constexpr std::uint16_t machine_s390 = 22;
constexpr std::uint16_t machine_arm = 40;
constexpr std::uint16_t machine_x86_64 = 62;
constexpr std::uint16_t machine_aarch64 = 183;
constexpr std::uint16_t machine_riscv = 243;
constexpr std::uint16_t machine_loongarch = 258;
constexpr std::uint16_t machine_alpha = 0x9026;  // the value Linux uses (EM_ALPHA, 41, is unused)

constexpr std::uint32_t segment_load = 1;
constexpr std::uint32_t segment_dynamic = 2;
constexpr std::uint32_t section_dynsym = 11;

constexpr std::uint64_t tag_null = 0;
constexpr std::uint64_t tag_needed = 1;
constexpr std::uint64_t tag_hash = 4;
constexpr std::uint64_t tag_strtab = 5;
constexpr std::uint64_t tag_symtab = 6;
constexpr std::uint64_t tag_strsz = 10;
constexpr std::uint64_t tag_syment = 11;
constexpr std::uint64_t tag_soname = 14;
constexpr std::uint64_t tag_rpath = 15;
constexpr std::uint64_t tag_runpath = 29;
constexpr std::uint64_t tag_gnu_hash = 0x6ffffef5;

constexpr unsigned symbol_object = 1;
constexpr unsigned symbol_function = 2;
constexpr unsigned binding_global = 1;
constexpr unsigned binding_weak = 2;
constexpr unsigned binding_gnu_unique = 10;
constexpr unsigned visibility_default = 0;
constexpr unsigned visibility_protected = 3;
constexpr std::uint16_t section_undefined = 0;
constexpr std::uint16_t section_absolute = 0xfff1;
constexpr std::uint16_t section_common = 0xfff2;

// Limits far above any real library, low enough that a hostile file stays cheap to read.
constexpr std::size_t max_string_length = 4096;
constexpr std::uint64_t max_dynamic_entries = 4096;
constexpr std::uint64_t max_symbols = std::uint64_t(1) << 20;
constexpr std::size_t max_symbol_bytes = 64;
constexpr std::uint64_t max_chain_steps = 1024;  // hash chains hold a few symbols; longer ones are scanned
constexpr std::size_t read_chunk_bytes = 4096;

// The record sizes and field decoding of one class and byte order.
struct elf_format {
  int elf_class = 64;
  bool little_endian = true;

  std::size_t word() const { return elf_class == 64 ? 8 : 4; }  // addresses, offsets and sizes
  std::size_t header_size() const { return elf_class == 64 ? 64 : 52; }
  std::size_t program_header_size() const { return elf_class == 64 ? 56 : 32; }
  std::size_t section_header_size() const { return elf_class == 64 ? 64 : 40; }
  std::size_t dynamic_entry_size() const { return 2 * word(); }
  std::size_t symbol_size() const { return elf_class == 64 ? 24 : 16; }

  // One load, and a byte swap only for a file of the other byte order: a loop per byte made this
  // decoding a tenth of cushim's first use.
  template <class U>
  U load(const unsigned char* at) const {
    U value;
    std::memcpy(&value, at, sizeof value);
    if (little_endian != host_little_endian()) {
      U swapped = 0;
      for (std::size_t i = 0; i < sizeof value; ++i) swapped = U(swapped << 8 | ((value >> (8 * i)) & 0xffu));
      value = swapped;
    }
    return value;
  }
  static bool host_little_endian() {
    const std::uint16_t one = 1;
    unsigned char first;
    std::memcpy(&first, &one, 1);
    return first == 1;
  }
  std::uint16_t u16(const unsigned char* record, std::size_t at) const { return load<std::uint16_t>(record + at); }
  std::uint32_t u32(const unsigned char* record, std::size_t at) const { return load<std::uint32_t>(record + at); }
  std::uint64_t address(const unsigned char* record, std::size_t at) const {
    return elf_class == 64 ? load<std::uint64_t>(record + at) : load<std::uint32_t>(record + at);
  }
};

struct file_header {
  std::uint16_t type = 0;
  std::uint16_t machine = 0;
  std::uint32_t version = 0;
  std::uint64_t program_headers_offset = 0;
  std::uint64_t section_headers_offset = 0;
  std::uint16_t program_header_size = 0;
  std::uint16_t program_header_count = 0;
  std::uint16_t section_header_size = 0;
  std::uint16_t section_header_count = 0;
};

struct segment {
  std::uint32_t type = 0;
  std::uint64_t offset = 0;
  std::uint64_t address = 0;
  std::uint64_t file_size = 0;
};

// A stretch of the file: where a virtual address range lies once mapped.
struct file_region {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

struct optional_value {
  bool present = false;
  std::uint64_t value = 0;
};

// The dynamic entries cushim uses; string entries hold offsets into the string table.
struct dynamic_table {
  std::vector<std::uint64_t> needed;
  optional_value soname, runpath, rpath, strtab, strsz, symtab, syment, hash, gnu_hash;
};

struct symbol {
  std::uint32_t name = 0;
  unsigned type = 0;
  unsigned binding = 0;
  unsigned visibility = 0;
  std::uint16_t section = 0;
  std::uint64_t value = 0;
  std::uint64_t size = 0;
};

// Everything up to and including the dynamic segment, decoded and bounds-checked.
struct elf_image {
  elf_format format;
  file_header header;
  std::vector<segment> loads;
  segment dynamic;
  dynamic_table table;
};

inline bool fits(std::uint64_t total, std::uint64_t offset, std::uint64_t length) {
  return offset <= total && length <= total - offset;
}

inline bool fail(elf_info& info, elf_error error, const elf_fault& fault) {
  info.error = error;
  info.fault = fault;
  return false;
}

inline elf_fault fault_of(elf_finding finding, std::uint64_t value = 0, std::uint64_t offset = 0) {
  elf_fault fault;
  fault.finding = finding;
  fault.value = value;
  fault.offset = offset;
  return fault;
}

inline elf_fault unreadable(elf_part part) {
  elf_fault fault = fault_of(elf_finding::unreadable);
  fault.part = part;
  return fault;
}

// A table or a segment of `size` bytes (in `count` entries) at `offset` that runs past the end.
inline elf_fault past_end(elf_finding finding, const byte_source& file, std::uint64_t size, std::uint64_t offset,
                          std::uint64_t count = 0) {
  elf_fault fault = fault_of(finding, size, offset);
  fault.count = count;
  fault.file_size = file.size();
  return fault;
}

// A finding about the value of a header field or about a dynamic tag's string.
inline elf_fault field_fault(elf_finding finding, const char* field, std::uint64_t value, std::uint64_t offset = 0) {
  elf_fault fault = fault_of(finding, value, offset);
  fault.field = field;
  return fault;
}

// Calls visit(record) for each of `count` records of `size` bytes at `offset`, a few KiB per
// read, until visit returns false. The caller has checked that the records lie inside the file;
// false means a read failed anyway (the file shrank).
template <class Visit>
bool visit_records(const byte_source& file, std::uint64_t offset, std::uint64_t count, std::size_t size,
                   Visit&& visit) {
  unsigned char chunk[read_chunk_bytes];
  const std::uint64_t per_chunk = read_chunk_bytes / size;
  for (std::uint64_t done = 0; done < count;) {
    const std::uint64_t batch = std::min(per_chunk, count - done);
    if (!file.read(offset + done * size, chunk, std::size_t(batch * size))) return false;
    for (std::uint64_t i = 0; i < batch; ++i) {
      if (!visit(chunk + i * size)) return true;
    }
    done += batch;
  }
  return true;
}

inline elf_fault too_short(const byte_source& file, std::size_t needed) {
  elf_fault fault = fault_of(elf_finding::too_short);
  fault.expected = needed;
  fault.file_size = file.size();
  return fault;
}

// e_ident: the magic, the class, the byte order and the version, and a header's worth of bytes.
inline bool read_identity(const byte_source& file, elf_format& format, elf_info& info) {
  if (file.size() == 0) return fail(info, elf_error::not_elf, fault_of(elf_finding::empty));
  unsigned char ident[ident_size] = {};
  const std::size_t present = std::size_t(std::min<std::uint64_t>(file.size(), ident_size));
  if (!file.read(0, ident, present)) return fail(info, elf_error::truncated, unreadable(elf_part::identification));
  const std::size_t magic_present = std::min(present, sizeof elf_magic);
  if (std::memcmp(ident, elf_magic, magic_present) != 0) {
    elf_fault fault = fault_of(elf_finding::not_elf);
    fault.first_bytes.assign(reinterpret_cast<const char*>(ident), magic_present);
    return fail(info, elf_error::not_elf, fault);
  }
  // A 32-bit header is shorter; without the class byte, assume the common 64-bit one.
  const std::size_t header_needed = elf_format{ident[ident_class] == class_32 ? 32 : 64, true}.header_size();
  if (present < ident_size) return fail(info, elf_error::truncated, too_short(file, header_needed));
  if (ident[ident_class] != class_32 && ident[ident_class] != class_64) {
    return fail(info, elf_error::bad_header, fault_of(elf_finding::class_unknown, ident[ident_class]));
  }
  if (ident[ident_data] != data_little_endian && ident[ident_data] != data_big_endian) {
    return fail(info, elf_error::bad_header, fault_of(elf_finding::byte_order_unknown, ident[ident_data]));
  }
  if (ident[ident_version] != current_version) {
    return fail(info, elf_error::bad_header,
                field_fault(elf_finding::version_unknown, "EI_VERSION", ident[ident_version]));
  }
  format.elf_class = ident[ident_class] == class_64 ? 64 : 32;
  format.little_endian = ident[ident_data] == data_little_endian;
  info.elf_class = format.elf_class;
  info.little_endian = format.little_endian;
  if (file.size() < header_needed) return fail(info, elf_error::truncated, too_short(file, header_needed));
  return true;
}

inline file_header decode_file_header(const elf_format& f, const unsigned char* h) {
  const std::size_t w = f.word();
  file_header out;
  out.type = f.u16(h, 16);
  out.machine = f.u16(h, 18);
  out.version = f.u32(h, 20);
  out.program_headers_offset = f.address(h, 24 + w);
  out.section_headers_offset = f.address(h, 24 + 2 * w);
  out.program_header_size = f.u16(h, 30 + 3 * w);
  out.program_header_count = f.u16(h, 32 + 3 * w);
  out.section_header_size = f.u16(h, 34 + 3 * w);
  out.section_header_count = f.u16(h, 36 + 3 * w);
  return out;
}

inline bool read_file_header(const byte_source& file, elf_image& image, elf_info& info) {
  unsigned char bytes[64];
  if (!file.read(0, bytes, image.format.header_size())) {
    return fail(info, elf_error::truncated, unreadable(elf_part::header));
  }
  image.header = decode_file_header(image.format, bytes);
  const file_header& h = image.header;
  info.machine = h.machine;
  info.type = h.type;
  if (h.version != current_version) {
    return fail(info, elf_error::bad_header, field_fault(elf_finding::version_unknown, "e_version", h.version));
  }
  if (h.type != type_shared_object && h.type != type_executable) {
    return fail(info, elf_error::unsupported, fault_of(elf_finding::type_without_dynamic, h.type));
  }
  if (h.program_header_size != image.format.program_header_size()) {
    elf_fault fault = fault_of(elf_finding::program_header_size, h.program_header_size);
    fault.elf_class = image.format.elf_class;
    fault.expected = image.format.program_header_size();
    return fail(info, elf_error::bad_header, fault);
  }
  return true;
}

inline segment decode_segment(const elf_format& f, const unsigned char* p) {
  segment s;
  s.type = f.u32(p, 0);
  if (f.elf_class == 64) {
    s.offset = f.address(p, 8);
    s.address = f.address(p, 16);
    s.file_size = f.address(p, 32);
  } else {
    s.offset = f.address(p, 4);
    s.address = f.address(p, 8);
    s.file_size = f.address(p, 16);
  }
  return s;
}

// PT_LOAD segments (whose file bytes must all be there) and the first PT_DYNAMIC, as readelf takes it.
inline bool read_segments(const byte_source& file, elf_image& image, elf_info& info) {
  const file_header& h = image.header;
  const std::uint64_t table_size = std::uint64_t(h.program_header_count) * h.program_header_size;
  if (!fits(file.size(), h.program_headers_offset, table_size)) {
    return fail(info, elf_error::truncated,
                past_end(elf_finding::program_header_table_past_end, file, h.program_header_size,
                         h.program_headers_offset, h.program_header_count));
  }
  bool have_dynamic = false;
  elf_fault problem;
  bool read_ok = visit_records(
      file, h.program_headers_offset, h.program_header_count, h.program_header_size, [&](const unsigned char* record) {
        segment s = decode_segment(image.format, record);
        if (s.type == segment_load) {
          if (!fits(file.size(), s.offset, s.file_size)) {
            problem = past_end(elf_finding::load_segment_past_end, file, s.file_size, s.offset);
            return false;
          }
          image.loads.push_back(s);
        } else if (s.type == segment_dynamic && !have_dynamic) {
          image.dynamic = s;
          have_dynamic = true;
        }
        return true;
      });
  if (!read_ok) return fail(info, elf_error::truncated, unreadable(elf_part::program_header_table));
  if (problem.finding != elf_finding::none) return fail(info, elf_error::truncated, problem);
  if (!have_dynamic) return fail(info, elf_error::unsupported, fault_of(elf_finding::statically_linked));
  if (!fits(file.size(), image.dynamic.offset, image.dynamic.file_size)) {
    return fail(info, elf_error::truncated,
                past_end(elf_finding::dynamic_segment_past_end, file, image.dynamic.file_size, image.dynamic.offset));
  }
  return true;
}

// Later entries of a single-valued tag win, as in the dynamic loader.
inline void record_dynamic_entry(dynamic_table& t, std::uint64_t tag, std::uint64_t value) {
  switch (tag) {
    case tag_needed: t.needed.push_back(value); return;
    case tag_soname: t.soname = {true, value}; return;
    case tag_runpath: t.runpath = {true, value}; return;
    case tag_rpath: t.rpath = {true, value}; return;
    case tag_strtab: t.strtab = {true, value}; return;
    case tag_strsz: t.strsz = {true, value}; return;
    case tag_symtab: t.symtab = {true, value}; return;
    case tag_syment: t.syment = {true, value}; return;
    case tag_hash: t.hash = {true, value}; return;
    case tag_gnu_hash: t.gnu_hash = {true, value}; return;
    default: return;
  }
}

// The dynamic entries up to DT_NULL, which must come within the segment and within the limit.
inline bool read_dynamic_table(const byte_source& file, elf_image& image, elf_info& info) {
  const elf_format& f = image.format;
  const std::uint64_t entries = image.dynamic.file_size / f.dynamic_entry_size();
  bool terminated = false;
  bool read_ok = visit_records(file, image.dynamic.offset, std::min(entries, max_dynamic_entries),
                               f.dynamic_entry_size(), [&](const unsigned char* entry) {
                                 const std::uint64_t tag = f.address(entry, 0);
                                 terminated = tag == tag_null;
                                 if (!terminated) record_dynamic_entry(image.table, tag, f.address(entry, f.word()));
                                 return !terminated;
                               });
  if (!read_ok) return fail(info, elf_error::truncated, unreadable(elf_part::dynamic_segment));
  if (terminated) return true;
  if (entries > max_dynamic_entries) {
    elf_fault fault = fault_of(elf_finding::dynamic_unterminated_within);
    fault.count = max_dynamic_entries;
    return fail(info, elf_error::bad_header, fault);
  }
  elf_fault fault = fault_of(elf_finding::dynamic_unterminated, 0, image.dynamic.offset);
  fault.count = entries;
  return fail(info, elf_error::bad_header, fault);
}

// Header, program headers and dynamic table: what both read_elf and the symbol lookup need.
inline bool read_image(const byte_source& file, elf_image& image, elf_info& info) {
  return read_identity(file, image.format, info) && read_file_header(file, image, info) &&
         read_segments(file, image, info) && read_dynamic_table(file, image, info);
}

// Where the virtual address lies in the file: inside a PT_LOAD's file bytes, up to that segment's end.
inline bool map_address(const elf_image& image, std::uint64_t address, file_region& out) {
  for (const segment& load : image.loads) {
    if (address >= load.address && address - load.address < load.file_size) {
      const std::uint64_t into = address - load.address;
      out = {load.offset + into, load.file_size - into};
      return true;
    }
  }
  return false;
}

// The dynamic string table: from DT_STRTAB, DT_STRSZ long (or to its segment's end without one).
inline bool locate_string_table(const elf_image& image, file_region& strings, elf_info& info) {
  const dynamic_table& t = image.table;
  if (!t.strtab.present) {
    return fail(info, elf_error::bad_header, fault_of(elf_finding::no_string_table));
  }
  if (!map_address(image, t.strtab.value, strings)) {
    return fail(info, elf_error::bad_header, fault_of(elf_finding::string_table_unmapped, 0, t.strtab.value));
  }
  if (!t.strsz.present) return true;
  if (t.strsz.value > strings.length) {
    return fail(info, elf_error::bad_header,
                fault_of(elf_finding::string_table_too_long, t.strsz.value, t.strtab.value));
  }
  strings.length = t.strsz.value;
  return true;
}

inline bool read_dynamic_string(const byte_source& file, const file_region& strings, const char* tag_name,
                                std::uint64_t offset, std::string& out, elf_info& info) {
  if (offset >= strings.length) {
    return fail(info, elf_error::bad_header,
                field_fault(elf_finding::string_offset_past_end, tag_name, strings.length, offset));
  }
  const std::size_t limit = std::size_t(std::min<std::uint64_t>(max_string_length, strings.length - offset));
  // Accept the string only when its NUL lies within the limit: inside the table, at most 4 KiB on.
  if (!file.read_c_string(strings.offset + offset, limit, out) || out.size() >= limit) {
    return fail(info, elf_error::bad_header, field_fault(elf_finding::string_unterminated, tag_name, limit, offset));
  }
  return true;
}

// "a:b" -> {"a", "b"}; empty entries are kept, since to the loader they mean the current folder.
inline std::vector<std::string> split_search_path(const std::string& text) {
  std::vector<std::string> parts;
  if (text.empty()) return parts;
  std::size_t start = 0;
  for (std::size_t colon = text.find(':'); colon != std::string::npos; colon = text.find(':', start)) {
    parts.push_back(text.substr(start, colon - start));
    start = colon + 1;
  }
  parts.push_back(text.substr(start));
  return parts;
}

inline bool has_string_entries(const dynamic_table& t) {
  return !t.needed.empty() || t.soname.present || t.runpath.present || t.rpath.present;
}

inline bool read_search_path(const byte_source& file, const file_region& strings, const char* tag_name,
                             const optional_value& entry, std::vector<std::string>& out, elf_info& info) {
  if (!entry.present) return true;
  std::string text;
  if (!read_dynamic_string(file, strings, tag_name, entry.value, text, info)) return false;
  out = split_search_path(text);
  return true;
}

inline bool read_dynamic_strings(const byte_source& file, const elf_image& image, elf_info& info) {
  const dynamic_table& t = image.table;
  if (!has_string_entries(t)) return true;
  file_region strings;
  if (!locate_string_table(image, strings, info)) return false;
  if (t.soname.present && !read_dynamic_string(file, strings, "DT_SONAME", t.soname.value, info.soname, info)) {
    return false;
  }
  for (std::uint64_t offset : t.needed) {
    std::string name;
    if (!read_dynamic_string(file, strings, "DT_NEEDED", offset, name, info)) return false;
    info.needed.push_back(std::move(name));
  }
  return read_search_path(file, strings, "DT_RUNPATH", t.runpath, info.runpath, info) &&
         read_search_path(file, strings, "DT_RPATH", t.rpath, info.rpath, info);
}

// --- Symbol lookup ---------------------------------------------------------------------------

inline symbol decode_symbol(const elf_format& f, const unsigned char* s) {
  symbol out;
  out.name = f.u32(s, 0);
  unsigned char info_byte, other_byte;
  if (f.elf_class == 64) {
    info_byte = s[4];
    other_byte = s[5];
    out.section = f.u16(s, 6);
    out.value = f.address(s, 8);
    out.size = f.address(s, 16);
  } else {
    out.value = f.address(s, 4);
    out.size = f.address(s, 8);
    info_byte = s[12];
    other_byte = s[13];
    out.section = f.u16(s, 14);
  }
  out.type = info_byte & 0xfu;
  out.binding = info_byte >> 4;
  out.visibility = other_byte & 0x3u;
  return out;
}

inline bool is_exported_definition(const symbol& s) {
  const bool data_or_code = s.type == symbol_object || s.type == symbol_function;
  const bool global = s.binding == binding_global || s.binding == binding_weak || s.binding == binding_gnu_unique;
  const bool visible = s.visibility == visibility_default || s.visibility == visibility_protected;
  const bool defined = s.section != section_undefined && s.section != section_absolute && s.section != section_common;
  return data_or_code && global && visible && defined;
}

// The .dynsym entry count from the section headers, when they are present and hold the table.
inline std::uint64_t symbol_count_from_sections(const byte_source& file, const elf_image& image) {
  const file_header& h = image.header;
  const elf_format& f = image.format;
  const std::uint64_t table_size = std::uint64_t(h.section_header_count) * h.section_header_size;
  if (h.section_headers_offset == 0 || h.section_header_size != f.section_header_size() ||
      !fits(file.size(), h.section_headers_offset, table_size)) {
    return 0;
  }
  std::uint64_t count = 0;
  visit_records(file, h.section_headers_offset, h.section_header_count, h.section_header_size,
                [&](const unsigned char* section) {
                  const bool is_dynsym = f.u32(section, 4) == section_dynsym &&
                                         f.address(section, f.elf_class == 64 ? 16 : 12) == image.table.symtab.value;
                  if (is_dynsym) count = f.address(section, f.elf_class == 64 ? 32 : 20) / f.symbol_size();
                  return !is_dynsym;
                });
  return count;
}

// DT_HASH: nchain, its second word, is the number of symbols.
inline std::uint64_t symbol_count_from_hash(const byte_source& file, const elf_image& image) {
  file_region table;
  unsigned char words[8];
  if (!image.table.hash.present || !map_address(image, image.table.hash.value, table) || table.length < 8 ||
      !file.read(table.offset, words, sizeof words)) {
    return 0;
  }
  return image.format.u32(words, 4);
}

// DT_GNU_HASH does not store the count: it is one past the end of the chain of the highest
// bucket, the chain entry with its low bit set. Both walks are capped at max_symbols.
inline std::uint64_t symbol_count_from_gnu_hash(const byte_source& file, const elf_image& image) {
  const elf_format& f = image.format;
  file_region table;
  unsigned char head[16];
  if (!image.table.gnu_hash.present || !map_address(image, image.table.gnu_hash.value, table) || table.length < 16 ||
      !file.read(table.offset, head, sizeof head)) {
    return 0;
  }
  const std::uint64_t buckets = f.u32(head, 0);
  const std::uint64_t first_hashed = f.u32(head, 4);
  const std::uint64_t buckets_at = 16 + std::uint64_t(f.u32(head, 8)) * f.word();
  const std::uint64_t chains_at = buckets_at + buckets * 4;
  if (buckets > max_symbols || chains_at > table.length) return 0;
  std::uint64_t last_start = 0;
  if (!visit_records(file, table.offset + buckets_at, buckets, 4, [&](const unsigned char* bucket) {
        last_start = std::max<std::uint64_t>(last_start, f.u32(bucket, 0));
        return true;
      })) {
    return 0;
  }
  if (last_start < first_hashed) return last_start == 0 ? first_hashed : 0;
  const std::uint64_t chain_entries = std::min((table.length - chains_at) / 4, max_symbols);
  const std::uint64_t skip = last_start - first_hashed;
  if (skip >= chain_entries) return 0;
  std::uint64_t count = 0;
  visit_records(file, table.offset + chains_at + skip * 4, chain_entries - skip, 4, [&](const unsigned char* entry) {
    ++count;
    return (f.u32(entry, 0) & 1u) == 0;
  });
  return last_start + count;
}

inline std::uint64_t dynamic_symbol_count(const byte_source& file, const elf_image& image) {
  if (std::uint64_t n = symbol_count_from_sections(file, image)) return n;
  if (std::uint64_t n = symbol_count_from_hash(file, image)) return n;
  return symbol_count_from_gnu_hash(file, image);
}

inline bool symbol_name_is(const byte_source& file, const file_region& strings, const symbol& s,
                           const std::string& name) {
  const std::size_t with_nul = name.size() + 1;
  if (!fits(strings.length, s.name, with_nul)) return false;
  char text[max_string_length];
  return file.read(strings.offset + s.name, text, with_nul) && text[name.size()] == '\0' &&
         std::memcmp(text, name.data(), name.size()) == 0;
}

// The symbol's first `size` bytes, when they are all file bytes of one PT_LOAD (not .bss).
inline bool read_symbol_value(const byte_source& file, const elf_image& image, const symbol& s, void* out,
                              std::size_t size) {
  file_region bytes;
  unsigned char buffer[max_symbol_bytes];
  if (size > s.size || !map_address(image, s.value, bytes) || bytes.length < size ||
      !file.read(bytes.offset, buffer, size)) {
    return false;
  }
  std::memcpy(out, buffer, size);
  return true;
}

// Which table found a symbol, or said it is not there.
enum class symbol_table_used { gnu_hash, sysv_hash, scan };

// The answer of a lookup in .dynsym.
struct symbol_match {
  bool found = false;
  std::uint64_t index = 0;  // the entry's index in .dynsym
  symbol entry;
  symbol_table_used by = symbol_table_used::scan;
};

// Where .dynsym and .dynstr lie, each up to the end of its PT_LOAD (.dynstr: or DT_STRSZ), and
// how many symbol entries fit in .dynsym's stretch (at most max_symbols).
struct symbol_tables {
  file_region symbols, strings;
  std::uint64_t capacity = 0;
};

inline bool locate_symbol_tables(const elf_image& image, symbol_tables& out) {
  const elf_format& f = image.format;
  const dynamic_table& t = image.table;
  if (!t.symtab.present || !t.strtab.present || (t.syment.present && t.syment.value != f.symbol_size()) ||
      !map_address(image, t.symtab.value, out.symbols) || !map_address(image, t.strtab.value, out.strings)) {
    return false;
  }
  if (t.strsz.present) out.strings.length = std::min(out.strings.length, t.strsz.value);
  out.capacity = std::min(out.symbols.length / f.symbol_size(), max_symbols);
  return true;
}

// The hash functions of DT_GNU_HASH (Bernstein's, h * 33 + c) and DT_HASH (the System V ABI's).
inline std::uint32_t gnu_hash_of(const std::string& name) {
  std::uint32_t h = 5381;
  for (unsigned char c : name) h = h * 33 + c;
  return h;
}

inline std::uint32_t sysv_hash_of(const std::string& name) {
  std::uint32_t h = 0;
  for (unsigned char c : name) {
    h = (h << 4) + c;
    const std::uint32_t high = h & 0xf0000000u;
    h ^= high >> 24;
    h &= ~high;
  }
  return h;
}

// What a hash table said: the symbol, its absence, or nothing usable (no table, or a damaged one:
// an index out of range, a table past its segment, a chain without end); then the scan decides.
enum class hash_answer { found, absent, unusable };

// Whether entry `index` of .dynsym is the exported definition `name`: found (and `out` filled in),
// absent (another symbol: the walk goes on), or unusable (the entry is not in the file).
inline hash_answer check_hashed_symbol(const byte_source& file, const elf_image& image, const symbol_tables& t,
                                       std::uint64_t index, const std::string& name, symbol_match& out) {
  const elf_format& f = image.format;
  unsigned char record[24];
  if (index >= t.capacity || !file.read(t.symbols.offset + index * f.symbol_size(), record, f.symbol_size())) {
    return hash_answer::unusable;
  }
  const symbol s = decode_symbol(f, record);
  if (!is_exported_definition(s) || !symbol_name_is(file, t.strings, s, name)) return hash_answer::absent;
  out.found = true;
  out.index = index;
  out.entry = s;
  return hash_answer::found;
}

// DT_GNU_HASH, as the dynamic loader reads it: nbuckets, symoffset, bloom_size and bloom_shift;
// the Bloom filter (bloom_size words of the file's class); nbuckets bucket words, each the first
// symbol of its chain; then one hash word per symbol from symoffset on, bit 0 set on the last of a
// chain. Every word is read through `file`, every index checked, every walk capped.
inline hash_answer find_in_gnu_hash(const byte_source& file, const elf_image& image, const symbol_tables& t,
                                    const std::string& name, symbol_match& out) {
  const elf_format& f = image.format;
  file_region table;
  unsigned char head[16];
  if (!image.table.gnu_hash.present || !map_address(image, image.table.gnu_hash.value, table) || table.length < 16 ||
      !file.read(table.offset, head, sizeof head)) {
    return hash_answer::unusable;
  }
  const std::uint64_t buckets = f.u32(head, 0), first_hashed = f.u32(head, 4);
  const std::uint64_t bloom_words = f.u32(head, 8), shift = f.u32(head, 12);
  const std::uint64_t bits = 8 * f.word();
  const std::uint64_t buckets_at = 16 + bloom_words * f.word(), chains_at = buckets_at + buckets * 4;
  // The loader masks the Bloom index with bloom_size - 1, so it must be a power of two.
  if (buckets == 0 || bloom_words == 0 || (bloom_words & (bloom_words - 1)) != 0 || shift >= 32 ||
      chains_at > table.length) {
    return hash_answer::unusable;
  }
  const std::uint32_t h = gnu_hash_of(name);
  unsigned char word_bytes[8];
  if (!file.read(table.offset + 16 + ((h / bits) & (bloom_words - 1)) * f.word(), word_bytes, f.word())) {
    return hash_answer::unusable;
  }
  const std::uint64_t bloom = f.address(word_bytes, 0);
  if (((bloom >> (h % bits)) & (bloom >> ((h >> shift) % bits)) & 1u) == 0) return hash_answer::absent;
  unsigned char bucket[4];
  if (!file.read(table.offset + buckets_at + (h % buckets) * 4, bucket, sizeof bucket)) return hash_answer::unusable;
  std::uint64_t index = f.u32(bucket, 0);
  if (index == 0) return hash_answer::absent;
  if (index < first_hashed) return hash_answer::unusable;
  const std::uint64_t chain_words = (table.length - chains_at) / 4;
  for (std::uint64_t step = 0; step < max_chain_steps;) {
    // A few hash words per read: most chains end within the first.
    unsigned char batch[16 * 4];
    const std::uint64_t at = index - first_hashed;
    if (at >= chain_words) return hash_answer::unusable;  // the chain runs off the table
    const std::uint64_t n = std::min<std::uint64_t>({16, chain_words - at, max_chain_steps - step});
    if (!file.read(table.offset + chains_at + at * 4, batch, std::size_t(n * 4))) return hash_answer::unusable;
    for (std::uint64_t i = 0; i < n; ++i, ++index, ++step) {
      const std::uint32_t entry = f.u32(batch, 4 * i);
      if ((entry | 1u) == (h | 1u)) {
        const hash_answer a = check_hashed_symbol(file, image, t, index, name, out);
        if (a != hash_answer::absent) return a;
      }
      if (entry & 1u) return hash_answer::absent;
    }
  }
  return hash_answer::unusable;
}

// DT_HASH: nbucket, nchain, nbucket bucket words, nchain chain words; bucket[h % nbucket] is a
// chain's first symbol, chain[i] the symbol after i, 0 its end. Its words are 8 bytes on 64-bit
// S/390 and Alpha, which this reader leaves to the scan.
inline hash_answer find_in_sysv_hash(const byte_source& file, const elf_image& image, const symbol_tables& t,
                                     const std::string& name, symbol_match& out) {
  const elf_format& f = image.format;
  file_region table;
  unsigned char head[8];
  const bool wide_words =
      f.elf_class == 64 && (image.header.machine == machine_s390 || image.header.machine == machine_alpha);
  if (wide_words || !image.table.hash.present || !map_address(image, image.table.hash.value, table) ||
      table.length < 8 || !file.read(table.offset, head, sizeof head)) {
    return hash_answer::unusable;
  }
  const std::uint64_t buckets = f.u32(head, 0), chains = f.u32(head, 4);
  if (buckets == 0 || 8 + (buckets + chains) * 4 > table.length) return hash_answer::unusable;
  const std::uint64_t chains_at = 8 + buckets * 4;
  unsigned char word[4];
  if (!file.read(table.offset + 8 + (sysv_hash_of(name) % buckets) * 4, word, sizeof word)) {
    return hash_answer::unusable;
  }
  std::uint64_t index = f.u32(word, 0);
  for (std::uint64_t step = 0; step < max_chain_steps; ++step) {
    if (index == 0) return hash_answer::absent;
    if (index >= chains) return hash_answer::unusable;
    const hash_answer a = check_hashed_symbol(file, image, t, index, name, out);
    if (a != hash_answer::absent) return a;
    if (!file.read(table.offset + chains_at + index * 4, word, sizeof word)) return hash_answer::unusable;
    index = f.u32(word, 0);
  }
  return hash_answer::unusable;  // a chain longer than any real one, or a loop
}

// Every entry of .dynsym in order, for files without a usable hash table: the first exported
// definition with the name.
inline symbol_match scan_for_symbol(const byte_source& file, const elf_image& image, const std::string& name) {
  symbol_match out;
  symbol_tables t;
  if (name.size() >= max_string_length || !locate_symbol_tables(image, t)) return out;
  const elf_format& f = image.format;
  const std::uint64_t count = std::min(dynamic_symbol_count(file, image), t.capacity);
  std::uint64_t index = 0;
  visit_records(file, t.symbols.offset, count, f.symbol_size(), [&](const unsigned char* entry) {
    const symbol s = decode_symbol(f, entry);
    if (is_exported_definition(s) && symbol_name_is(file, t.strings, s, name)) {
      out.found = true;
      out.index = index;
      out.entry = s;
    }
    ++index;
    return !out.found;
  });
  return out;
}

// The exported definition `name` in .dynsym, found as the dynamic loader finds it: through
// DT_GNU_HASH, else DT_HASH. A table that says "absent" is believed, as the loader believes it;
// only when neither table is usable is every entry read.
inline symbol_match find_symbol(const byte_source& file, const elf_image& image, const std::string& name) {
  symbol_match out;
  symbol_tables t;
  if (name.size() >= max_string_length || !locate_symbol_tables(image, t)) return out;
  hash_answer answer = find_in_gnu_hash(file, image, t, name, out);
  out.by = symbol_table_used::gnu_hash;
  if (answer == hash_answer::unusable) {
    out = symbol_match();
    answer = find_in_sysv_hash(file, image, t, name, out);
    out.by = symbol_table_used::sysv_hash;
  }
  if (answer == hash_answer::unusable) return scan_for_symbol(file, image, name);
  return out;
}

inline bool find_symbol_bytes(const byte_source& file, const elf_image& image, const std::string& name, void* out,
                              std::size_t size) {
  const symbol_match match = find_symbol(file, image, name);
  return match.found && read_symbol_value(file, image, match.entry, out, size);
}

}  // namespace elf_internal

// Reads the header and the dynamic section. Never throws on bad input: a problem is reported in
// error and fault.
inline elf_info read_elf(const byte_source& file) {
  elf_info info;
  elf_internal::elf_image image;
  if (elf_internal::read_image(file, image, info)) elf_internal::read_dynamic_strings(file, image, info);
  return info;
}

// The first `size` (at most 64) bytes of an exported, defined data or function symbol, found by
// name in the dynamic symbol table (.dynsym names carry no version suffix) through its
// DT_GNU_HASH or DT_HASH table (a scan of every entry when neither is usable), and read from the
// file through the PT_LOAD segments. False, with `out` untouched, when the symbol is absent,
// smaller than `size`, has no file bytes, or the file is damaged.
inline bool read_elf_symbol_bytes(const byte_source& file, const std::string& name, void* out, std::size_t size) {
  elf_info ignored;
  elf_internal::elf_image image;
  if (size > elf_internal::max_symbol_bytes || name.size() >= elf_internal::max_string_length ||
      !elf_internal::read_image(file, image, ignored)) {
    return false;
  }
  return elf_internal::find_symbol_bytes(file, image, name, out, size);
}

// "x86-64", "AArch64", ...; for a machine the table lacks, "machine <n>" in a per-thread buffer
// that the thread's next such call overwrites.
inline const char* elf_machine_name(std::uint16_t machine) {
  using namespace elf_internal;
  switch (machine) {
    case machine_i386: return "i386";
    case machine_mips: return "MIPS";
    case machine_powerpc: return "PowerPC";
    case machine_powerpc64: return "PowerPC64";
    case machine_s390: return "S/390";
    case machine_arm: return "ARM";
    case machine_x86_64: return "x86-64";
    case machine_aarch64: return "AArch64";
    case machine_riscv: return "RISC-V";
    case machine_loongarch: return "LoongArch";
    default: break;
  }
  thread_local char unknown[24];
  std::snprintf(unknown, sizeof unknown, "machine %u", unsigned(machine));
  return unknown;
}

// The e_machine of the code this is compiled into; 0 for an architecture the table lacks.
inline std::uint16_t native_elf_machine() {
  using namespace elf_internal;
#if defined(__x86_64__) || defined(_M_X64)
  return machine_x86_64;
#elif defined(__aarch64__) || defined(_M_ARM64)
  return machine_aarch64;
#elif defined(__i386__) || defined(_M_IX86)
  return machine_i386;
#elif defined(__arm__) || defined(_M_ARM)
  return machine_arm;
#elif defined(__powerpc64__)
  return machine_powerpc64;
#elif defined(__powerpc__)
  return machine_powerpc;
#elif defined(__s390__)
  return machine_s390;
#elif defined(__riscv)
  return machine_riscv;
#elif defined(__loongarch__)
  return machine_loongarch;
#elif defined(__mips__)
  return machine_mips;
#else
  return 0;
#endif
}

inline int native_elf_class() { return sizeof(void*) == 8 ? 64 : 32; }

}  // namespace
}  // namespace detail
}  // namespace cushim
