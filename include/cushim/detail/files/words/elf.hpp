// What the ELF reader says of a file it cannot read as a library: one named constructor per
// finding, from the facts the reader found (the fields' values, offsets and sizes), and
// describe(), the sentence of the elf_fault that elf.hpp stores in elf_info beside its elf_error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "../byte_source.hpp"
#include "../elf.hpp"

namespace cushim {
namespace detail {
namespace {
namespace words {

inline std::string past_end_of_file(std::uint64_t file_size) {
  return "runs past the end of the " + std::to_string(file_size) + "-byte file";
}
inline std::string not_elf_magic(const std::string& first_bytes) {
  return "not an ELF file: it starts with " + hex_bytes(first_bytes) + ", not 7f 45 4c 46";
}
inline std::string elf_too_short(std::uint64_t file_size, std::size_t needed) {
  return "file is " + count_of_bytes(file_size) + "; an ELF header needs " + std::to_string(needed);
}
inline std::string elf_empty() { return "file is empty"; }
inline const char* elf_part_name(elf_part part) {
  switch (part) {
    case elf_part::identification: return "ELF identification";
    case elf_part::header: return "ELF header";
    case elf_part::program_header_table: return "program header table";
    case elf_part::dynamic_segment: return "dynamic segment";
  }
  return "";
}
inline std::string elf_unreadable(elf_part part) { return std::string("could not read the ") + elf_part_name(part); }
inline std::string elf_class_unknown(unsigned value) {
  return "EI_CLASS is " + std::to_string(value) + "; expected 1 (32-bit) or 2 (64-bit)";
}
inline std::string elf_byte_order_unknown(unsigned value) {
  return "EI_DATA is " + std::to_string(value) + "; expected 1 (little-endian) or 2 (big-endian)";
}
// `field`: "EI_VERSION" or "e_version", both 1 in every ELF file.
inline std::string elf_version_unknown(const char* field, std::uint64_t value) {
  return std::string(field) + " is " + std::to_string(value) + "; expected 1";
}
inline std::string elf_type_without_dynamic(unsigned type) {
  return "e_type is " + std::to_string(type) + "; only shared objects (3) and executables (2) have a dynamic section";
}
inline std::string elf_program_header_size(unsigned size, int elf_class, std::size_t expected) {
  return "e_phentsize is " + std::to_string(size) + "; " + std::to_string(elf_class) + "-bit program headers are " +
         std::to_string(expected) + " bytes";
}
inline std::string elf_segment(const char* name, std::uint64_t file_size, std::uint64_t offset) {
  return std::string(name) + " segment (" + count_of_bytes(file_size) + " at offset " + hex(offset) + ")";
}
inline std::string elf_program_header_table(unsigned count, unsigned size, std::uint64_t offset) {
  return "program header table (" + std::to_string(count) + " entries of " + std::to_string(size) +
         " bytes at offset " + hex(offset) + ")";
}
inline std::string elf_statically_linked() {
  return "no PT_DYNAMIC segment: the file is statically linked, not a library";
}
// A table or a segment that runs past the end of the file.
inline std::string elf_past_end(const std::string& what, std::uint64_t file_size) {
  return what + " " + past_end_of_file(file_size);
}
inline std::string elf_dynamic_unterminated_within(std::uint64_t limit) {
  return "dynamic segment has no DT_NULL in its first " + std::to_string(limit) + " entries";
}
inline std::string elf_dynamic_unterminated(std::uint64_t entries, std::uint64_t offset) {
  return "dynamic segment (" + std::to_string(entries) + " entries at offset " + hex(offset) +
         ") has no DT_NULL terminator";
}
inline std::string elf_no_string_table() {
  return "the dynamic segment has DT_NEEDED, DT_SONAME, DT_RUNPATH or DT_RPATH entries but no DT_STRTAB";
}
inline std::string elf_string_table_unmapped(std::uint64_t address) {
  return "DT_STRTAB address " + hex(address) + " is not in the file bytes of any PT_LOAD segment";
}
inline std::string elf_string_table_too_long(std::uint64_t size, std::uint64_t address) {
  return "DT_STRSZ (" + count_of_bytes(size) + ") runs past the end of the PT_LOAD segment at DT_STRTAB " +
         hex(address);
}
inline std::string elf_string_offset_past_end(const char* tag, std::uint64_t offset, std::uint64_t table_size) {
  return std::string(tag) + " string offset " + hex(offset) + " is past the end of the " + std::to_string(table_size) +
         "-byte string table";
}
inline std::string elf_string_unterminated(const char* tag, std::uint64_t offset, std::uint64_t limit) {
  return std::string(tag) + " string at offset " + hex(offset) + " of the string table is not terminated within " +
         count_of_bytes(limit);
}

// The sentence of a finding; empty for none.
inline std::string describe(const elf_fault& f) {
  switch (f.finding) {
    case elf_finding::none: break;
    case elf_finding::empty: return elf_empty();
    case elf_finding::unreadable: return elf_unreadable(f.part);
    case elf_finding::not_elf: return not_elf_magic(f.first_bytes);
    case elf_finding::too_short: return elf_too_short(f.file_size, std::size_t(f.expected));
    case elf_finding::class_unknown: return elf_class_unknown(unsigned(f.value));
    case elf_finding::byte_order_unknown: return elf_byte_order_unknown(unsigned(f.value));
    case elf_finding::version_unknown: return elf_version_unknown(f.field, f.value);
    case elf_finding::type_without_dynamic: return elf_type_without_dynamic(unsigned(f.value));
    case elf_finding::program_header_size:
      return elf_program_header_size(unsigned(f.value), f.elf_class, std::size_t(f.expected));
    case elf_finding::program_header_table_past_end:
      return elf_past_end(elf_program_header_table(unsigned(f.count), unsigned(f.value), f.offset), f.file_size);
    case elf_finding::load_segment_past_end:
      return elf_past_end(elf_segment("PT_LOAD", f.value, f.offset), f.file_size);
    case elf_finding::statically_linked: return elf_statically_linked();
    case elf_finding::dynamic_segment_past_end:
      return elf_past_end(elf_segment("dynamic", f.value, f.offset), f.file_size);
    case elf_finding::dynamic_unterminated_within: return elf_dynamic_unterminated_within(f.count);
    case elf_finding::dynamic_unterminated: return elf_dynamic_unterminated(f.count, f.offset);
    case elf_finding::no_string_table: return elf_no_string_table();
    case elf_finding::string_table_unmapped: return elf_string_table_unmapped(f.offset);
    case elf_finding::string_table_too_long: return elf_string_table_too_long(f.value, f.offset);
    case elf_finding::string_offset_past_end: return elf_string_offset_past_end(f.field, f.offset, f.value);
    case elf_finding::string_unterminated: return elf_string_unterminated(f.field, f.offset, f.value);
  }
  return "";
}

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
