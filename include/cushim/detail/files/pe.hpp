// Reads what cushim needs to know about a Windows DLL (PE/COFF image) without loading it: the
// machine, the DLLs it imports or delay-loads, the names it exports and imports, and its version
// resource. Platform-independent; the file is seen only through a byte_source. Nothing in the file
// is trusted: every offset, RVA and count is checked against the file before use, every loop is
// bounded by the file's size, and tables that point at the same bytes over and over hit a budget.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "byte_source.hpp"
#include "sorting.hpp"

namespace cushim {
namespace detail {
namespace {

enum class pe_error {
  none,
  not_pe,      // no MZ or no PE\0\0 signature: text, empty, zeros, ELF
  truncated,   // something the headers describe lies past the end of the file
  bad_header,  // a field is inconsistent: an RVA outside every section, a loop, an unterminated name
  unsupported  // a PE variant this reader does not handle (optional header magic)
};

// The part of a file a finding is about. The import parts are of the import directory or of the
// delay-load directory (pe_subject::delay_load).
enum class pe_part : unsigned char {
  none,
  export_directory,
  export_dll_name,  // the DLL's own name, in the export directory
  export_name_table,
  export_name,  // index
  import_directory,
  import_descriptor,        // index
  import_dll_name,          // index: the descriptor's
  import_name_table,        // index: the descriptor's
  import_name_table_entry,  // index: the descriptor's, entry
  resource_types,           // the resource directory's levels down to RT_VERSION's data
  resource_names,
  resource_languages,
  version_data_entry,
  version_data,
};

struct pe_subject {
  pe_part part = pe_part::none;
  bool delay_load = false;
  std::uint64_t index = 0;
  std::uint64_t entry = 0;
};

// What is wrong with a file read_pe cannot read; the fields each finding uses (every one: file_size).
enum class pe_finding : unsigned char {
  none,
  tables_reread,            // size: the bytes the reads may take
  rva_beyond_section_data,  // subject, rva, text: the section's name, size: its file data
  rva_outside_sections,     // subject, rva
  rva_past_end,             // subject, rva, offset
  string_unterminated,      // subject, rva, size: the bytes searched for the NUL
  empty,
  elf_file,
  no_mz,                           // text: the file's first bytes, up to 4
  dos_header_short,                // needed
  lfanew_past_end,                 // offset
  signature_cut_off,               // offset
  no_pe_signature,                 // offset
  coff_header_cut_off,             // offset
  object_file,                     // value: SizeOfOptionalHeader
  optional_header_past_end,        // size, offset
  optional_magic_unknown,          // value: the magic
  optional_header_too_small,       // value: SizeOfOptionalHeader, needed, pe32_plus
  section_table_past_end,          // count, size: a section header's, offset
  export_name_table_past_section,  // count, rva, size: the section's bytes from it
  export_directory_short,          // rva, size: its bytes in the file, needed
  descriptors_unterminated,        // subject: the directory, rva, size: its bytes, count: the descriptors read
  delay_below_image_base,          // subject: the descriptor, value: the image base
  name_table_unterminated,         // subject, rva
  cut_off,                         // subject
  resource_entries_past_end,       // subject, count, size: its bytes in the file
  version_not_directory,
  version_name_not_directory,
  version_language_not_data,
  version_info_malformed,  // size: the version resource's
};

// The finding and the values it is about; files/words/pe.hpp says it (words::describe).
struct pe_fault {
  pe_finding finding = pe_finding::none;
  bool pe32_plus = false;
  pe_subject subject;
  std::uint64_t rva = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint64_t needed = 0;
  std::uint64_t count = 0;
  std::uint64_t value = 0;
  std::uint64_t file_size = 0;
  std::string text;  // a section's name, or the first bytes of a file without the MZ signature
};

// What read_pe found. On a problem, `error` and `fault` describe the first one; the fields read
// before it (and those of directories read independently after it) stay filled.
struct pe_info {
  pe_error error = pe_error::none;
  pe_fault fault;                          // what is wrong, where, and by how much
  std::uint16_t machine = 0;               // 0x8664 x64, 0x14c x86, 0xAA64 ARM64, 0x1c4 ARMNT
  bool pe32_plus = false;                  // optional header magic 0x20b (vs 0x10b)
  bool is_dll = false;                     // IMAGE_FILE_DLL characteristic
  std::vector<std::string> imports;        // import directory: DLL names in table order
  std::vector<std::string> delay_imports;  // delay-load directory: DLL names in table order
  std::vector<std::string> exports;        // exported names (by name), sorted (byte order)
  std::string export_name;                 // the DLL's own name in the export directory
  std::string file_version;                // VS_FIXEDFILEINFO "a.b.c.d"; empty without a version resource
  std::string product_version;             // the same for the product version
  std::string original_filename;           // StringFileInfo "OriginalFilename" in UTF-8, else empty
};

namespace pe_format {

// Layout of the PE/COFF specification; defined here so no <windows.h> is needed.
constexpr std::uint64_t dos_header_size = 64;
constexpr std::uint64_t lfanew_field = 0x3C;
constexpr std::uint64_t coff_header_size = 20;
constexpr std::uint64_t section_header_size = 40;
constexpr std::uint16_t pe32_magic = 0x10B;
constexpr std::uint16_t pe32_plus_magic = 0x20B;
constexpr std::uint16_t dll_characteristic = 0x2000;
constexpr unsigned max_directories = 16;
constexpr unsigned export_directory = 0;
constexpr unsigned import_directory = 1;
constexpr unsigned resource_directory = 2;
constexpr unsigned delay_import_directory = 13;
constexpr std::uint64_t export_directory_size = 40;
constexpr std::uint64_t import_descriptor_size = 20;
constexpr std::uint64_t delay_descriptor_size = 32;
constexpr std::uint32_t delay_attributes_rva = 1;  // dlattrRva: the descriptor holds RVAs, not VAs
constexpr std::uint64_t resource_directory_size = 16;
constexpr std::uint64_t resource_entry_size = 8;
constexpr std::uint64_t resource_data_entry_size = 16;
constexpr std::uint32_t resource_subdirectory_flag = 0x80000000;
constexpr std::uint32_t rt_version = 16;
constexpr std::uint32_t fixed_file_info_signature = 0xFEEF04BD;
constexpr std::uint64_t fixed_file_info_size = 52;
constexpr std::uint64_t fixed_file_info_search_limit = 256;  // it follows the 15-character root key
constexpr std::uint64_t max_version_resource = 0xFFFF;       // wLength of the root block is 16 bits
constexpr std::size_t max_dll_name = 512;
constexpr std::size_t max_symbol_name = 4096;  // long C++ decorated names stay well below this

enum class import_table { load_time, delay_load };

// The part `part` (an import part: of `table`), the `index`th one.
inline pe_subject subject_of(pe_part part, std::uint64_t index = 0, import_table table = import_table::load_time) {
  pe_subject subject;
  subject.part = part;
  subject.index = index;
  subject.delay_load = table == import_table::delay_load;
  return subject;
}

// The finding about `what` at an RVA.
inline pe_fault fault_of(pe_finding finding, const pe_subject& what = {}, std::uint64_t rva = 0) {
  pe_fault fault;
  fault.finding = finding;
  fault.subject = what;
  fault.rva = rva;
  return fault;
}

inline pe_fault at_offset(pe_finding finding, std::uint64_t offset) {
  pe_fault fault = fault_of(finding);
  fault.offset = offset;
  return fault;
}

struct section {
  std::string name;
  std::uint32_t virtual_address = 0;
  std::uint32_t virtual_size = 0;
  std::uint32_t raw_offset = 0;
  std::uint32_t raw_size = 0;
};

struct directory {
  std::uint32_t rva = 0;
  std::uint32_t size = 0;
};

// Bytes [offset, offset + length) of the file, all present.
struct file_span {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

struct image {
  std::uint64_t signature_offset = 0;  // "PE\0\0", from e_lfanew
  bool pe32_plus = false;
  std::uint64_t image_base = 0;
  std::uint32_t size_of_headers = 0;
  std::vector<section> sections;
  directory directories[max_directories] = {};
};

// Little-endian whatever the host's byte order.
template <class T>
bool read_le(const byte_source& file, std::uint64_t offset, T& out) {
  unsigned char bytes[sizeof(T)];
  if (!file.read(offset, bytes, sizeof bytes)) return false;
  out = 0;
  for (std::size_t i = sizeof bytes; i-- > 0;) out = T((std::uint64_t(out) << 8) | bytes[i]);
  return true;
}

inline std::string starting_bytes(const byte_source& file) {
  std::string bytes;
  for (std::uint64_t i = 0; i < std::min<std::uint64_t>(4, file.size()); ++i) {
    char b = 0;
    file.read(i, &b, 1);
    bytes += b;
  }
  return bytes;
}

inline std::uint64_t align4(std::uint64_t offset) { return (offset + 3) & ~std::uint64_t(3); }

inline bool same_name_ignoring_case(const std::string& a, const std::string& b) {
  auto lower = [](unsigned char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : char(c); };
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(static_cast<unsigned char>(a[i])) != lower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// The NUL-terminated string at the start of `span`, at most max bytes before the NUL and all of it
// inside the span; false when there is no NUL within that.
inline bool read_c_string_in(const byte_source& file, const file_span& span, std::size_t max, std::string& out) {
  out.clear();
  std::uint64_t window = std::min<std::uint64_t>(span.length, std::uint64_t(max) + 1);
  char chunk[64];
  for (std::uint64_t done = 0; done < window;) {
    std::size_t n = std::size_t(std::min<std::uint64_t>(sizeof chunk, window - done));
    if (!file.read(span.offset + done, chunk, n)) return false;
    if (const void* nul = std::memchr(chunk, '\0', n)) {
      out.append(chunk, std::size_t(static_cast<const char*>(nul) - chunk));
      return true;
    }
    out.append(chunk, n);
    done += n;
  }
  return false;
}

// UTF-16LE code units (count of them) to UTF-8; unpaired surrogates become U+FFFD.
inline std::string utf16le_to_utf8(const std::vector<std::uint16_t>& units) {
  std::string out;
  auto put = [&out](std::uint32_t cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  };
  for (std::size_t i = 0; i < units.size(); ++i) {
    std::uint32_t u = units[i];
    bool high = u >= 0xD800 && u <= 0xDBFF;
    bool low_follows = i + 1 < units.size() && units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF;
    if (high && low_follows) {
      put(0x10000 + ((u - 0xD800) << 10) + (units[++i] - 0xDC00u));
    } else {
      put(u >= 0xD800 && u <= 0xDFFF ? 0xFFFD : u);
    }
  }
  return out;
}

// One file being read: its layout once the headers are read, the first problem, and a budget on
// repeated reads (linker output never reads a string or table twice; crafted tables can).
class reader {
 public:
  reader(const byte_source& file, pe_info& info) : file_(file), info_(info), budget_(budget_for(file.size())) {}

  const byte_source& file() const { return file_; }
  const image& layout() const { return image_; }

  // Records the first problem; always false, so callers can `return fail(...)`.
  bool fail(pe_error error, const pe_fault& fault) {
    if (info_.error == pe_error::none) {
      info_.error = error;
      info_.fault = fault;
      info_.fault.file_size = file_.size();
    }
    return false;
  }

  bool charge(std::uint64_t bytes) {
    if (bytes <= budget_) {
      budget_ -= bytes;
      return true;
    }
    budget_ = 0;
    pe_fault fault = fault_of(pe_finding::tables_reread);
    fault.size = budget_for(file_.size());
    return fail(pe_error::bad_header, fault);
  }

  bool read_headers() { return read_dos_header() && read_coff_header() && read_optional_header() && read_sections(); }

  // Where the bytes of an RVA are in the file, up to the end of its section's file data.
  bool locate(std::uint64_t rva, const pe_subject& what, file_span& span) {
    for (const section& s : image_.sections) {
      std::uint64_t extent = s.virtual_size ? s.virtual_size : s.raw_size;
      if (rva < s.virtual_address || rva - s.virtual_address >= extent) continue;
      std::uint64_t delta = rva - s.virtual_address;
      if (delta >= s.raw_size) {
        pe_fault fault = fault_of(pe_finding::rva_beyond_section_data, what, rva);
        fault.text = s.name;
        fault.size = s.raw_size;
        return fail(pe_error::bad_header, fault);
      }
      return span_in_file(rva, std::uint64_t(s.raw_offset) + delta, std::min<std::uint64_t>(s.raw_size, extent) - delta,
                          what, span);
    }
    // Below SizeOfHeaders an RVA is in the headers, which are mapped at their file offsets.
    if (rva < image_.size_of_headers) return span_in_file(rva, rva, image_.size_of_headers - rva, what, span);
    return fail(pe_error::bad_header, fault_of(pe_finding::rva_outside_sections, what, rva));
  }

  // The NUL-terminated string at an RVA, within its section's file data and at most max bytes.
  bool read_string(std::uint64_t rva, const pe_subject& what, std::size_t max, std::string& out) {
    file_span span;
    if (!locate(rva, what, span)) return false;
    if (!read_c_string_in(file_, span, max, out)) {
      pe_fault fault = fault_of(pe_finding::string_unterminated, what, rva);
      fault.size = std::min<std::uint64_t>(span.length, max + 1);
      return fail(pe_error::bad_header, fault);
    }
    return charge(out.size() + 1);
  }

 private:
  // Strings and lookup-table entries read; twice the file leaves room for reading one table twice.
  static std::uint64_t budget_for(std::uint64_t file_size) { return 2 * file_size + 65536; }

  bool span_in_file(std::uint64_t rva, std::uint64_t offset, std::uint64_t length, const pe_subject& what,
                    file_span& span) {
    if (offset >= file_.size()) {
      pe_fault fault = fault_of(pe_finding::rva_past_end, what, rva);
      fault.offset = offset;
      return fail(pe_error::truncated, fault);
    }
    span.offset = offset;
    span.length = std::min(length, file_.size() - offset);
    return true;
  }

  bool read_dos_header() {
    std::uint64_t size = file_.size();
    if (size == 0) return fail(pe_error::not_pe, fault_of(pe_finding::empty));
    char magic[2] = {0, 0};
    file_.read(0, magic, std::size_t(std::min<std::uint64_t>(2, size)));
    if (magic[0] != 'M' || (size > 1 && magic[1] != 'Z')) return fail(pe_error::not_pe, not_pe_fault());
    if (size < dos_header_size) {
      pe_fault fault = fault_of(pe_finding::dos_header_short);
      fault.needed = dos_header_size;
      return fail(pe_error::truncated, fault);
    }
    std::uint32_t lfanew = 0;
    read_le(file_, lfanew_field, lfanew);
    return read_pe_signature(lfanew);
  }

  pe_fault not_pe_fault() const {
    char elf[4] = {0, 0, 0, 0};
    if (file_.read(0, elf, sizeof elf) && elf[0] == 0x7F && elf[1] == 'E' && elf[2] == 'L' && elf[3] == 'F') {
      return fault_of(pe_finding::elf_file);
    }
    pe_fault fault = fault_of(pe_finding::no_mz);
    fault.text = starting_bytes(file_);
    return fault;
  }

  bool read_pe_signature(std::uint32_t lfanew) {
    std::uint64_t size = file_.size();
    if (lfanew >= size) {
      return fail(pe_error::truncated, at_offset(pe_finding::lfanew_past_end, lfanew));
    }
    char signature[4];
    if (!file_.read(lfanew, signature, sizeof signature)) {
      return fail(pe_error::truncated, at_offset(pe_finding::signature_cut_off, lfanew));
    }
    if (signature[0] != 'P' || signature[1] != 'E' || signature[2] != 0 || signature[3] != 0) {
      return fail(pe_error::not_pe, at_offset(pe_finding::no_pe_signature, lfanew));
    }
    image_.signature_offset = lfanew;
    return true;
  }

  std::uint64_t coff_offset() const { return image_.signature_offset + 4; }
  std::uint64_t optional_offset() const { return coff_offset() + coff_header_size; }

  bool read_coff_header() {
    std::uint16_t characteristics = 0;
    if (!read_le(file_, coff_offset() + 18, characteristics)) {
      return fail(pe_error::truncated, at_offset(pe_finding::coff_header_cut_off, coff_offset()));
    }
    read_le(file_, coff_offset(), info_.machine);
    read_le(file_, coff_offset() + 2, section_count_);
    read_le(file_, coff_offset() + 16, optional_size_);
    info_.is_dll = (characteristics & dll_characteristic) != 0;
    return true;
  }

  bool read_optional_header() {
    std::uint16_t magic = 0;
    if (optional_size_ < 2) {
      pe_fault fault = fault_of(pe_finding::object_file);
      fault.value = optional_size_;
      return fail(pe_error::bad_header, fault);
    }
    if (optional_offset() + optional_size_ > file_.size() || !read_le(file_, optional_offset(), magic)) {
      pe_fault fault = at_offset(pe_finding::optional_header_past_end, optional_offset());
      fault.size = optional_size_;
      return fail(pe_error::truncated, fault);
    }
    if (magic != pe32_magic && magic != pe32_plus_magic) {
      pe_fault fault = fault_of(pe_finding::optional_magic_unknown);
      fault.value = magic;
      return fail(pe_error::unsupported, fault);
    }
    image_.pe32_plus = info_.pe32_plus = magic == pe32_plus_magic;
    return read_optional_fields();
  }

  // Field offsets differ between PE32 and PE32+ (ImageBase is 8 bytes in PE32+, BaseOfData is gone).
  bool read_optional_fields() {
    std::uint64_t directories_at = image_.pe32_plus ? 112 : 96;
    if (optional_size_ < directories_at) {
      pe_fault fault = fault_of(pe_finding::optional_header_too_small);
      fault.value = optional_size_;
      fault.needed = directories_at;
      fault.pe32_plus = image_.pe32_plus;
      return fail(pe_error::bad_header, fault);
    }
    std::uint64_t at = optional_offset();
    if (image_.pe32_plus) {
      read_le(file_, at + 24, image_.image_base);
    } else {
      std::uint32_t base32 = 0;
      read_le(file_, at + 28, base32);
      image_.image_base = base32;
    }
    read_le(file_, at + 60, image_.size_of_headers);
    std::uint32_t declared = 0;
    read_le(file_, at + directories_at - 4, declared);
    std::uint64_t fit = (optional_size_ - directories_at) / 8;
    std::uint64_t count = std::min<std::uint64_t>({declared, fit, max_directories});
    for (std::uint64_t i = 0; i < count; ++i) {
      read_le(file_, at + directories_at + i * 8, image_.directories[i].rva);
      read_le(file_, at + directories_at + i * 8 + 4, image_.directories[i].size);
    }
    return true;
  }

  bool read_sections() {
    std::uint64_t at = optional_offset() + optional_size_;
    std::uint64_t table_size = std::uint64_t(section_count_) * section_header_size;
    if (at + table_size > file_.size()) {
      pe_fault fault = at_offset(pe_finding::section_table_past_end, at);
      fault.count = section_count_;
      fault.size = section_header_size;
      return fail(pe_error::truncated, fault);
    }
    image_.sections.resize(section_count_);
    for (section& s : image_.sections) {
      char name[9] = {};
      file_.read(at, name, 8);
      s.name = name;
      read_le(file_, at + 8, s.virtual_size);
      read_le(file_, at + 12, s.virtual_address);
      read_le(file_, at + 16, s.raw_size);
      read_le(file_, at + 20, s.raw_offset);
      at += section_header_size;
    }
    return true;
  }

  const byte_source& file_;
  pe_info& info_;
  std::uint64_t budget_;
  image image_;
  std::uint16_t section_count_ = 0;
  std::uint16_t optional_size_ = 0;
};

// --- Exports -------------------------------------------------------------------------------------

// The names the export name pointer table points at, checked to fit in the file before reading.
inline bool read_export_names(reader& r, std::uint32_t table_rva, std::uint32_t count,
                              std::vector<std::string>& names) {
  file_span table;
  if (!r.locate(table_rva, subject_of(pe_part::export_name_table), table)) return false;
  if (table.length / 4 < count) {
    pe_fault fault = fault_of(pe_finding::export_name_table_past_section, {}, table_rva);
    fault.count = count;
    fault.size = table.length;
    return r.fail(pe_error::truncated, fault);
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint32_t rva = 0;
    std::string name;
    read_le(r.file(), table.offset + i * 4, rva);
    if (!r.read_string(rva, subject_of(pe_part::export_name, i), max_symbol_name, name)) return false;
    names.push_back(std::move(name));
  }
  sort_names(names);
  return true;
}

inline bool read_exports(reader& r, std::vector<std::string>& names, std::string& dll_name) {
  const directory& dir = r.layout().directories[export_directory];
  if (dir.rva == 0) return true;
  file_span span;
  if (!r.locate(dir.rva, subject_of(pe_part::export_directory), span)) return false;
  if (span.length < export_directory_size) {
    pe_fault fault = fault_of(pe_finding::export_directory_short, {}, dir.rva);
    fault.size = span.length;
    fault.needed = export_directory_size;
    return r.fail(pe_error::truncated, fault);
  }
  std::uint32_t name_rva = 0, name_count = 0, names_rva = 0;
  read_le(r.file(), span.offset + 12, name_rva);
  read_le(r.file(), span.offset + 24, name_count);
  read_le(r.file(), span.offset + 32, names_rva);
  if (name_rva != 0 && !r.read_string(name_rva, subject_of(pe_part::export_dll_name), max_dll_name, dll_name))
    return false;
  return name_count == 0 || read_export_names(r, names_rva, name_count, names);
}

// --- Imports and delay imports -------------------------------------------------------------------

// One imported DLL: its name and the table that lists what is imported from it.
struct import_descriptor {
  std::uint64_t index = 0;
  std::uint32_t name_rva = 0;
  std::uint32_t names_table_rva = 0;  // import lookup table (or the IAT when there is none)
};

// An import or delay-load directory (`directory`, at `rva`) whose `size` bytes hold `count`
// descriptors, none of them the last.
inline pe_fault descriptors_unterminated(const pe_subject& directory, std::uint64_t rva, std::uint64_t size,
                                         std::uint64_t count) {
  pe_fault fault = fault_of(pe_finding::descriptors_unterminated, directory, rva);
  fault.size = size;
  fault.count = count;
  return fault;
}

// Calls visit(descriptor) for each descriptor of the import directory, in order, until the end of
// the table; false when visit returns false or the table is broken (recorded in r).
template <class Visit>
bool walk_import_descriptors(reader& r, Visit&& visit) {
  const directory& dir = r.layout().directories[import_directory];
  if (dir.rva == 0) return true;
  file_span span;
  const pe_subject directory = subject_of(pe_part::import_directory);
  if (!r.locate(dir.rva, directory, span)) return false;
  // The directory's Size is not used: the Windows loader ignores it and linkers set it loosely.
  std::uint64_t fit = span.length / import_descriptor_size;
  for (std::uint64_t i = 0; i < fit; ++i) {
    std::uint64_t at = span.offset + i * import_descriptor_size;
    std::uint32_t lookup_rva = 0, name_rva = 0, iat_rva = 0;
    read_le(r.file(), at, lookup_rva);
    read_le(r.file(), at + 12, name_rva);
    read_le(r.file(), at + 16, iat_rva);
    // A descriptor without a name or an IAT ends the table, as loaders stop there; well-formed
    // tables end with an all-zero one.
    if (name_rva == 0 || iat_rva == 0) return true;
    if (!visit(import_descriptor{i, name_rva, lookup_rva ? lookup_rva : iat_rva})) return false;
  }
  return r.fail(pe_error::truncated, descriptors_unterminated(directory, dir.rva, span.length, fit));
}

// The same for the delay-load directory; VC6-era descriptors hold VAs, converted here to RVAs.
template <class Visit>
bool walk_delay_descriptors(reader& r, Visit&& visit) {
  const directory& dir = r.layout().directories[delay_import_directory];
  if (dir.rva == 0) return true;
  file_span span;
  const pe_subject directory = subject_of(pe_part::import_directory, 0, import_table::delay_load);
  if (!r.locate(dir.rva, directory, span)) return false;
  std::uint64_t fit = span.length / delay_descriptor_size;
  for (std::uint64_t i = 0; i < fit; ++i) {
    std::uint64_t at = span.offset + i * delay_descriptor_size;
    std::uint32_t attributes = 0, name = 0, names_table = 0;
    read_le(r.file(), at, attributes);
    read_le(r.file(), at + 4, name);
    read_le(r.file(), at + 16, names_table);
    if (name == 0) return true;
    std::uint64_t bias = (attributes & delay_attributes_rva) ? 0 : r.layout().image_base;
    if (name < bias || (names_table != 0 && names_table < bias)) {
      pe_fault fault = fault_of(pe_finding::delay_below_image_base,
                                subject_of(pe_part::import_descriptor, i, import_table::delay_load));
      fault.value = bias;
      return r.fail(pe_error::bad_header, fault);
    }
    std::uint32_t names_rva = names_table ? std::uint32_t(names_table - bias) : 0;
    if (!visit(import_descriptor{i, std::uint32_t(name - bias), names_rva})) return false;
  }
  return r.fail(pe_error::truncated, descriptors_unterminated(directory, dir.rva, span.length, fit));
}

template <class Visit>
bool walk_descriptors(reader& r, import_table table, Visit&& visit) {
  return table == import_table::load_time ? walk_import_descriptors(r, visit) : walk_delay_descriptors(r, visit);
}

inline bool read_dll_names(reader& r, import_table table, std::vector<std::string>& names) {
  return walk_descriptors(r, table, [&](const import_descriptor& d) {
    std::string name;
    if (!r.read_string(d.name_rva, subject_of(pe_part::import_dll_name, d.index, table), max_dll_name, name)) {
      return false;
    }
    names.push_back(std::move(name));
    return true;
  });
}

// The entries of an import lookup table: names ("hint" then the name) or "#<ordinal>".
inline bool read_imported_names(reader& r, std::uint32_t table_rva, const pe_subject& what,
                                std::vector<std::string>& names) {
  file_span span;
  if (!r.locate(table_rva, what, span)) return false;
  std::uint64_t entry_size = r.layout().pe32_plus ? 8 : 4;
  std::uint64_t ordinal_flag = std::uint64_t(1) << (entry_size * 8 - 1);
  for (std::uint64_t at = 0; at + entry_size <= span.length; at += entry_size) {
    if (!r.charge(entry_size)) return false;
    std::uint64_t entry = 0;
    if (entry_size == 8) {
      read_le(r.file(), span.offset + at, entry);
    } else {
      std::uint32_t entry32 = 0;
      read_le(r.file(), span.offset + at, entry32);
      entry = entry32;
    }
    if (entry == 0) return true;
    if (entry & ordinal_flag) {
      names.push_back("#" + std::to_string(entry & 0xFFFF));
      continue;
    }
    pe_subject entry_subject = what;
    entry_subject.part = pe_part::import_name_table_entry;
    entry_subject.entry = at / entry_size;
    std::string name;
    if (!r.read_string((entry & 0x7FFFFFFF) + 2, entry_subject, max_symbol_name, name)) return false;
    names.push_back(std::move(name));
  }
  return r.fail(pe_error::truncated, fault_of(pe_finding::name_table_unterminated, what, table_rva));
}

inline bool read_names_imported_from(reader& r, import_table table, const std::string& dll_name,
                                     std::vector<std::string>& names) {
  return walk_descriptors(r, table, [&](const import_descriptor& d) {
    std::string name;
    if (!r.read_string(d.name_rva, subject_of(pe_part::import_dll_name, d.index, table), max_dll_name, name)) {
      return false;
    }
    if (!same_name_ignoring_case(name, dll_name) || d.names_table_rva == 0) return true;
    return read_imported_names(r, d.names_table_rva, subject_of(pe_part::import_name_table, d.index, table), names);
  });
}

// --- Version resource ----------------------------------------------------------------------------

constexpr std::uint32_t first_entry = 0xFFFFFFFF;  // not an ID: IDs are 16-bit

// The target of the entry whose ID is `id` (or of the first entry) in the resource directory at
// `offset` from the resource root; 0 when there is none (0 is the root itself, never a target).
// The entry count is checked against the bytes present before any entry is read.
inline bool find_resource_entry(reader& r, std::uint32_t offset, std::uint32_t id, pe_part level,
                                std::uint32_t& target) {
  std::uint64_t root = r.layout().directories[resource_directory].rva;
  file_span span;
  const pe_subject what = subject_of(level);
  if (!r.locate(root + offset, what, span)) return false;
  std::uint16_t named = 0, ids = 0;
  if (span.length < resource_directory_size) return r.fail(pe_error::truncated, fault_of(pe_finding::cut_off, what));
  read_le(r.file(), span.offset + 12, named);
  read_le(r.file(), span.offset + 14, ids);
  std::uint64_t count = std::uint64_t(named) + ids;
  if (resource_directory_size + count * resource_entry_size > span.length) {
    pe_fault fault = fault_of(pe_finding::resource_entries_past_end, what);
    fault.count = count;
    fault.size = span.length;
    return r.fail(pe_error::truncated, fault);
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint32_t name = 0;
    std::uint64_t at = span.offset + resource_directory_size + i * resource_entry_size;
    read_le(r.file(), at, name);
    if (id == first_entry || (i >= named && name == id)) return read_le(r.file(), at + 4, target);
  }
  target = 0;
  return true;
}

inline bool is_subdirectory(std::uint32_t target) { return (target & resource_subdirectory_flag) != 0; }
inline std::uint32_t target_offset(std::uint32_t target) { return target & ~resource_subdirectory_flag; }

// The bytes a resource data entry (at `offset` from the resource root) describes, up to 64 KiB.
inline bool resource_data(reader& r, std::uint32_t offset, file_span& data) {
  file_span entry;
  std::uint64_t root = r.layout().directories[resource_directory].rva;
  const pe_subject what = subject_of(pe_part::version_data_entry);
  if (!r.locate(root + offset, what, entry)) return false;
  if (entry.length < resource_data_entry_size) return r.fail(pe_error::truncated, fault_of(pe_finding::cut_off, what));
  std::uint32_t data_rva = 0, size = 0;
  read_le(r.file(), entry.offset, data_rva);
  read_le(r.file(), entry.offset + 4, size);
  if (!r.locate(data_rva, subject_of(pe_part::version_data), data)) return false;
  data.length = std::min<std::uint64_t>({data.length, size, max_version_resource});
  return true;
}

// RT_VERSION -> first name -> first language -> data. The walk has a fixed depth, so a
// subdirectory offset that points back up the tree ends it instead of looping.
inline bool version_resource_data(reader& r, file_span& data) {
  data = file_span{};
  std::uint32_t types = 0, names = 0, languages = 0;
  if (!find_resource_entry(r, 0, rt_version, pe_part::resource_types, types)) return false;
  if (types == 0) return true;
  if (!is_subdirectory(types)) return r.fail(pe_error::bad_header, fault_of(pe_finding::version_not_directory));
  if (!find_resource_entry(r, target_offset(types), first_entry, pe_part::resource_names, names)) return false;
  if (names == 0) return true;
  if (!is_subdirectory(names)) {
    return r.fail(pe_error::bad_header, fault_of(pe_finding::version_name_not_directory));
  }
  if (!find_resource_entry(r, target_offset(names), first_entry, pe_part::resource_languages, languages)) return false;
  if (languages == 0) return true;
  if (is_subdirectory(languages)) {
    return r.fail(pe_error::bad_header, fault_of(pe_finding::version_language_not_data));
  }
  return resource_data(r, languages, data);
}

// One block of a VS_VERSIONINFO tree: wLength, wValueLength, wType, a UTF-16 key, the value, the
// children. All offsets are within the version resource's bytes and checked against its parent.
struct version_block {
  std::uint64_t end = 0;
  std::vector<std::uint16_t> key;
  std::uint64_t value = 0;
  std::uint64_t children = 0;
};

inline bool read_utf16_z(const byte_source& data, std::uint64_t at, std::uint64_t end,
                         std::vector<std::uint16_t>& out) {
  out.clear();
  for (; at + 2 <= end; at += 2) {
    std::uint16_t unit = 0;
    read_le(data, at, unit);
    if (unit == 0) return true;
    out.push_back(unit);
  }
  return false;
}

inline bool read_version_block(const byte_source& data, std::uint64_t at, std::uint64_t limit, version_block& b) {
  std::uint16_t length = 0, value_length = 0, type = 0;
  if (!read_le(data, at, length) || !read_le(data, at + 2, value_length) || !read_le(data, at + 4, type)) return false;
  if (length < 6 || at + length > limit) return false;
  b.end = at + length;
  if (!read_utf16_z(data, at + 6, b.end, b.key)) return false;
  b.value = align4(at + 6 + 2 * (b.key.size() + 1));
  std::uint64_t value_bytes = type == 1 ? 2 * std::uint64_t(value_length) : value_length;
  b.children = align4(b.value + value_bytes);
  return true;
}

inline bool key_is(const version_block& b, const char* ascii) {
  std::size_t i = 0;
  for (; ascii[i] != '\0'; ++i) {
    if (i >= b.key.size() || b.key[i] != std::uint16_t(static_cast<unsigned char>(ascii[i]))) return false;
  }
  return i == b.key.size();
}

// Calls visit(child) for each child block of `parent`; each step moves forward by at least 8 bytes.
template <class Visit>
void for_each_child(const byte_source& data, const version_block& parent, Visit&& visit) {
  version_block child;
  for (std::uint64_t at = parent.children; at < parent.end; at = align4(child.end)) {
    if (!read_version_block(data, at, parent.end, child) || !visit(child)) return;
  }
}

// The value of the string named `key` in one string table ("040904b0" and the like), or empty.
inline std::string string_in_table(const byte_source& data, const version_block& table, const char* key) {
  std::string found;
  for_each_child(data, table, [&](const version_block& entry) {
    std::vector<std::uint16_t> text;
    if (key_is(entry, key) && read_utf16_z(data, entry.value, entry.end, text)) found = utf16le_to_utf8(text);
    return found.empty();
  });
  return found;
}

// StringFileInfo -> each string table -> the string named `key`; the first one found.
inline std::string version_string(const byte_source& data, const version_block& root, const char* key) {
  std::string found;
  for_each_child(data, root, [&](const version_block& info) {
    if (!key_is(info, "StringFileInfo")) return true;
    for_each_child(data, info, [&](const version_block& table) {
      found = string_in_table(data, table, key);
      return found.empty();
    });
    return found.empty();
  });
  return found;
}

inline std::string version_text(std::uint32_t ms, std::uint32_t ls) {
  return std::to_string(ms >> 16) + "." + std::to_string(ms & 0xFFFF) + "." + std::to_string(ls >> 16) + "." +
         std::to_string(ls & 0xFFFF);
}

// VS_FIXEDFILEINFO, found by its signature at a 4-byte boundary near the start of the root block.
inline void read_fixed_file_info(const byte_source& data, const version_block& root, pe_info& info) {
  std::uint64_t limit = std::min(root.end, fixed_file_info_search_limit);
  for (std::uint64_t at = 0; at + fixed_file_info_size <= limit; at += 4) {
    std::uint32_t signature = 0, file_ms = 0, file_ls = 0, product_ms = 0, product_ls = 0;
    read_le(data, at, signature);
    if (signature != fixed_file_info_signature) continue;
    read_le(data, at + 8, file_ms);
    read_le(data, at + 12, file_ls);
    read_le(data, at + 16, product_ms);
    read_le(data, at + 20, product_ls);
    info.file_version = version_text(file_ms, file_ls);
    info.product_version = version_text(product_ms, product_ls);
    return;
  }
}

inline bool read_version_resource(reader& r, pe_info& info) {
  if (r.layout().directories[resource_directory].rva == 0) return true;
  file_span span;
  if (!version_resource_data(r, span)) return false;
  if (span.length == 0) return true;
  std::string bytes(std::size_t(span.length), '\0');
  r.file().read(span.offset, &bytes[0], bytes.size());
  memory_source data(std::move(bytes));
  version_block root;
  if (!read_version_block(data, 0, data.size(), root)) {
    pe_fault fault = fault_of(pe_finding::version_info_malformed);
    fault.size = data.size();
    return r.fail(pe_error::bad_header, fault);
  }
  read_fixed_file_info(data, root, info);
  info.original_filename = version_string(data, root, "OriginalFilename");
  return true;
}

}  // namespace pe_format

inline pe_info read_pe(const byte_source& file) {
  pe_info info;
  pe_format::reader r(file, info);
  if (!r.read_headers()) return info;
  // Each directory is read even when an earlier one is broken; the first problem is kept.
  pe_format::read_exports(r, info.exports, info.export_name);
  pe_format::read_dll_names(r, pe_format::import_table::load_time, info.imports);
  pe_format::read_dll_names(r, pe_format::import_table::delay_load, info.delay_imports);
  pe_format::read_version_resource(r, info);
  return info;
}

// The version resource alone (file_version, product_version, original_filename), without the
// export and import tables: what the version checks read.
inline pe_info read_pe_version(const byte_source& file) {
  pe_info info;
  pe_format::reader r(file, info);
  if (r.read_headers()) pe_format::read_version_resource(r, info);
  return info;
}

// The names `file` imports from the DLL named dll_name (case-insensitive), from the import and
// the delay-load directories, in table order; imports by ordinal as "#<n>". Best effort: what was
// read before a problem (read_pe reports it).
inline std::vector<std::string> pe_imported_names(const byte_source& file, const std::string& dll_name) {
  pe_info info;
  pe_format::reader r(file, info);
  std::vector<std::string> names;
  if (!r.read_headers()) return names;
  pe_format::read_names_imported_from(r, pe_format::import_table::load_time, dll_name, names);
  pe_format::read_names_imported_from(r, pe_format::import_table::delay_load, dll_name, names);
  return names;
}

// A name for a person. For a machine not listed: "machine 0x...", valid until the next such call
// in the same thread.
inline const char* pe_machine_name(std::uint16_t machine) {
  switch (machine) {
    case 0x8664: return "x64";
    case 0x14c: return "x86 (32-bit)";
    case 0xAA64: return "ARM64";
    case 0xA641: return "ARM64EC";
    case 0xA64E: return "ARM64X";
    case 0x1c4: return "ARM (32-bit Thumb-2)";
    case 0x1c0: return "ARM (32-bit)";
    case 0x200: return "Itanium (IA-64)";
    default: break;
  }
  thread_local char text[24];
  std::snprintf(text, sizeof text, "machine 0x%x", unsigned(machine));
  return text;
}

// The PE machine of the code being compiled: the kind of DLL this process can load.
inline std::uint16_t native_pe_machine() {
#if defined(__x86_64__) || defined(_M_X64) || defined(_M_AMD64)
  return 0x8664;
#elif defined(__aarch64__) || defined(_M_ARM64)
  return 0xAA64;
#elif defined(__i386__) || defined(_M_IX86)
  return 0x14c;
#elif defined(__arm__) || defined(_M_ARM)
  return 0x1c4;
#else
  return 0;
#endif
}

}  // namespace
}  // namespace detail
}  // namespace cushim
