// What the ELF reader says of a file it cannot read as a library: one named constructor per
// finding, from the facts the reader found (the fields' values, offsets and sizes). elf.hpp
// stores the sentence in elf_info::error_detail beside its elf_error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "../byte_source.hpp"

namespace cushim {
namespace detail {
namespace {
namespace words {

inline std::string past_end_of_file(std::uint64_t file_size) {
  return "runs past the end of the " + std::to_string(file_size) + "-byte file";
}
inline std::string not_elf_magic(const std::string& first_bytes) {
  return "not an ELF file: it starts with " + first_bytes + ", not 7f 45 4c 46";
}
inline std::string elf_too_short(std::uint64_t file_size, std::size_t needed) {
  return "file is " + count_of_bytes(file_size) + "; an ELF header needs " + std::to_string(needed);
}
inline std::string elf_empty() { return "file is empty"; }
// `part`: "ELF identification", "ELF header", "program header table", "dynamic segment".
inline std::string elf_unreadable(const char* part) { return std::string("could not read the ") + part; }
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

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
