// What the PE reader says of a file it cannot read as a Windows image: one named constructor per
// finding, from the facts the reader found (the fields' values, RVAs, offsets and sizes), and
// describe(), the sentence of the pe_fault that pe.hpp stores in pe_info beside its pe_error.
#pragma once

#include <cstdint>
#include <string>

#include "../byte_source.hpp"
#include "../pe.hpp"

namespace cushim {
namespace detail {
namespace {
namespace words {

inline std::string pe_descriptor_name(const pe_subject& s) {
  return std::string(s.delay_load ? "delay-load" : "import") + " descriptor " + std::to_string(s.index);
}

// The part of the file a finding names: "import descriptor 2: DLL name", "export directory".
inline std::string pe_part_name(const pe_subject& s) {
  switch (s.part) {
    case pe_part::none: break;
    case pe_part::export_directory: return "export directory";
    case pe_part::export_dll_name: return "export directory: DLL name";
    case pe_part::export_name_table: return "export name table";
    case pe_part::export_name: return "export name " + std::to_string(s.index);
    case pe_part::import_directory: return s.delay_load ? "delay-load directory" : "import directory";
    case pe_part::import_descriptor: return pe_descriptor_name(s);
    case pe_part::import_dll_name: return pe_descriptor_name(s) + ": DLL name";
    case pe_part::import_name_table: return pe_descriptor_name(s) + ": name table";
    case pe_part::import_name_table_entry:
      return pe_descriptor_name(s) + ": name table entry " + std::to_string(s.entry);
    case pe_part::resource_types: return "resource directory (types)";
    case pe_part::resource_names: return "resource directory (RT_VERSION names)";
    case pe_part::resource_languages: return "resource directory (RT_VERSION languages)";
    case pe_part::version_data_entry: return "RT_VERSION data entry";
    case pe_part::version_data: return "RT_VERSION data";
  }
  return "";
}

inline std::string pe_past_end_of_file(std::uint64_t file_size) {
  return "past the end of the " + std::to_string(file_size) + "-byte file";
}

// `budget`: the bytes the reads of strings and tables may take in all (about twice the file's).
inline std::string pe_tables_reread(std::uint64_t budget, std::uint64_t file_size) {
  return "the file's tables point at the same bytes again and again (more than " + count_of_bytes(budget) +
         " read from a " + std::to_string(file_size) + "-byte file)";
}
inline std::string pe_rva_beyond_section_data(const pe_subject& what, std::uint64_t rva, const std::string& section,
                                              std::uint64_t raw_size) {
  return pe_part_name(what) + " RVA " + hex(rva) + " is in section " + section + " beyond its " +
         count_of_bytes(raw_size) + " of file data";
}
inline std::string pe_rva_outside_sections(const pe_subject& what, std::uint64_t rva) {
  return pe_part_name(what) + " RVA " + hex(rva) + " is outside every section";
}
inline std::string pe_rva_past_end(const pe_subject& what, std::uint64_t rva, std::uint64_t offset,
                                   std::uint64_t file_size) {
  return pe_part_name(what) + " RVA " + hex(rva) + " maps to file offset " + hex(offset) + ", " +
         pe_past_end_of_file(file_size);
}
inline std::string pe_string_unterminated(const pe_subject& what, std::uint64_t rva, std::uint64_t searched) {
  return pe_part_name(what) + " at RVA " + hex(rva) + " is not NUL-terminated within " + count_of_bytes(searched);
}
inline std::string pe_empty() { return "the file is empty"; }
inline std::string pe_elf_file() { return "an ELF file (a Linux or Unix program or library), not a Windows PE file"; }
inline std::string pe_no_mz(const std::string& first_bytes) {
  return "no MZ signature: the file starts with " + hex_bytes(first_bytes);
}
inline std::string pe_dos_header_short(std::uint64_t file_size, std::uint64_t needed) {
  return "file is " + count_of_bytes(file_size) + "; a DOS header needs " + std::to_string(needed);
}
inline std::string pe_lfanew_past_end(std::uint64_t offset, std::uint64_t file_size) {
  return "e_lfanew points to offset " + hex(offset) + " " + pe_past_end_of_file(file_size);
}
// `what`: "PE signature" or "COFF header".
inline std::string pe_cut_off_at(const char* what, std::uint64_t offset, std::uint64_t file_size) {
  return std::string("the ") + what + " at offset " + hex(offset) + " is cut off by the end of the " +
         std::to_string(file_size) + "-byte file";
}
inline std::string pe_no_signature(std::uint64_t offset) {
  return "MZ header but no PE signature at offset " + hex(offset) +
         " (e_lfanew): a DOS program or another format, not a Windows PE file";
}
inline std::string pe_object_file(std::uint64_t optional_size) {
  return "SizeOfOptionalHeader is " + std::to_string(optional_size) + ": an object file, not an image";
}
inline std::string pe_optional_header_past_end(std::uint64_t size, std::uint64_t offset, std::uint64_t file_size) {
  return "the optional header (" + count_of_bytes(size) + " at offset " + hex(offset) + ") runs " +
         pe_past_end_of_file(file_size);
}
inline std::string pe_optional_magic_unknown(std::uint64_t magic) {
  return "optional header magic " + hex(magic) + " is neither PE32 (0x10b) nor PE32+ (0x20b)";
}
inline std::string pe_optional_header_too_small(std::uint64_t optional_size, std::uint64_t needed, bool pe32_plus) {
  return "SizeOfOptionalHeader " + std::to_string(optional_size) + " is smaller than the " + std::to_string(needed) +
         " bytes a " + (pe32_plus ? "PE32+" : "PE32") + " optional header needs";
}
inline std::string pe_section_table_past_end(std::uint64_t count, std::uint64_t header_size, std::uint64_t offset,
                                             std::uint64_t file_size) {
  return "the section table (" + std::to_string(count) + " sections of " + std::to_string(header_size) +
         " bytes at offset " + hex(offset) + ") runs " + pe_past_end_of_file(file_size);
}
inline std::string pe_export_name_table_past_section(std::uint64_t count, std::uint64_t rva, std::uint64_t left) {
  return "the export name table (" + std::to_string(count) + " entries at RVA " + hex(rva) +
         ") runs past its section's " + count_of_bytes(left);
}
inline std::string pe_export_directory_short(std::uint64_t rva, std::uint64_t present, std::uint64_t needed) {
  return "the export directory at RVA " + hex(rva) + " has " + count_of_bytes(present) + " of its " +
         std::to_string(needed) + " in the file";
}
inline std::string pe_descriptors_unterminated(const pe_subject& directory, std::uint64_t rva, std::uint64_t size,
                                               std::uint64_t read) {
  return "the " + pe_part_name(directory) + " at RVA " + hex(rva) +
         " has no terminating all-zero descriptor before the end of its " + count_of_bytes(size) + " (" +
         std::to_string(read) + " descriptors read)";
}
inline std::string pe_delay_below_image_base(const pe_subject& descriptor, std::uint64_t image_base) {
  return pe_part_name(descriptor) + " holds addresses below the image base " + hex(image_base);
}
inline std::string pe_name_table_unterminated(const pe_subject& table, std::uint64_t rva) {
  return pe_part_name(table) + " at RVA " + hex(rva) + " has no terminating zero entry";
}
inline std::string pe_cut_off(const pe_subject& what) { return pe_part_name(what) + " is cut off"; }
inline std::string pe_resource_entries_past_end(const pe_subject& directory, std::uint64_t count,
                                                std::uint64_t present) {
  return pe_part_name(directory) + " lists " + std::to_string(count) + " entries; " + count_of_bytes(present) +
         " are in the file";
}
inline std::string pe_version_not_directory() { return "resource tree: RT_VERSION is not a directory"; }
inline std::string pe_version_name_not_directory() {
  return "resource tree: the RT_VERSION name entry is not a directory";
}
inline std::string pe_version_language_not_data() {
  return "resource tree: the RT_VERSION language entry points to a directory, not to data (a loop or a tree deeper "
         "than three levels)";
}
inline std::string pe_version_info_malformed(std::uint64_t size) {
  return "the VS_VERSIONINFO block is malformed (" + count_of_bytes(size) + ")";
}

// The sentence of a finding; empty for none.
inline std::string describe(const pe_fault& f) {
  switch (f.finding) {
    case pe_finding::none: break;
    case pe_finding::tables_reread: return pe_tables_reread(f.size, f.file_size);
    case pe_finding::rva_beyond_section_data: return pe_rva_beyond_section_data(f.subject, f.rva, f.text, f.size);
    case pe_finding::rva_outside_sections: return pe_rva_outside_sections(f.subject, f.rva);
    case pe_finding::rva_past_end: return pe_rva_past_end(f.subject, f.rva, f.offset, f.file_size);
    case pe_finding::string_unterminated: return pe_string_unterminated(f.subject, f.rva, f.size);
    case pe_finding::empty: return pe_empty();
    case pe_finding::elf_file: return pe_elf_file();
    case pe_finding::no_mz: return pe_no_mz(f.text);
    case pe_finding::dos_header_short: return pe_dos_header_short(f.file_size, f.needed);
    case pe_finding::lfanew_past_end: return pe_lfanew_past_end(f.offset, f.file_size);
    case pe_finding::signature_cut_off: return pe_cut_off_at("PE signature", f.offset, f.file_size);
    case pe_finding::no_pe_signature: return pe_no_signature(f.offset);
    case pe_finding::coff_header_cut_off: return pe_cut_off_at("COFF header", f.offset, f.file_size);
    case pe_finding::object_file: return pe_object_file(f.value);
    case pe_finding::optional_header_past_end: return pe_optional_header_past_end(f.size, f.offset, f.file_size);
    case pe_finding::optional_magic_unknown: return pe_optional_magic_unknown(f.value);
    case pe_finding::optional_header_too_small: return pe_optional_header_too_small(f.value, f.needed, f.pe32_plus);
    case pe_finding::section_table_past_end: return pe_section_table_past_end(f.count, f.size, f.offset, f.file_size);
    case pe_finding::export_name_table_past_section: return pe_export_name_table_past_section(f.count, f.rva, f.size);
    case pe_finding::export_directory_short: return pe_export_directory_short(f.rva, f.size, f.needed);
    case pe_finding::descriptors_unterminated: return pe_descriptors_unterminated(f.subject, f.rva, f.size, f.count);
    case pe_finding::delay_below_image_base: return pe_delay_below_image_base(f.subject, f.value);
    case pe_finding::name_table_unterminated: return pe_name_table_unterminated(f.subject, f.rva);
    case pe_finding::cut_off: return pe_cut_off(f.subject);
    case pe_finding::resource_entries_past_end: return pe_resource_entries_past_end(f.subject, f.count, f.size);
    case pe_finding::version_not_directory: return pe_version_not_directory();
    case pe_finding::version_name_not_directory: return pe_version_name_not_directory();
    case pe_finding::version_language_not_data: return pe_version_language_not_data();
    case pe_finding::version_info_malformed: return pe_version_info_malformed(f.size);
  }
  return "";
}

}  // namespace words
}  // namespace
}  // namespace detail
}  // namespace cushim
