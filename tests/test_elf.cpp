// The ELF reader: against readelf on the real cuDNN and CUDA runtime, on libraries built here
// for other classes, byte orders and machines, and on hand-made files; each kind of broken file
// with its exact error text; symbol lookups through DT_GNU_HASH and DT_HASH against the scan and
// readelf, and on damaged tables; bounded reads on a 2 GiB sparse file; 25,000 mutated files.
#include <doctest/doctest.h>

#include <cushim/detail/files/elf.hpp>
#include <cushim/detail/files/words/elf.hpp>
#include <cushim/detail/platform/platform.hpp>
#include <cushim/status.hpp>  // before binary_check.hpp, which uses cushim::outcome
#include <cushim/detail/search/posix/binary_check.hpp>
#include <cudnn_version.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/command_output.hpp"
#include "support/temp_tree.hpp"

using cushim::detail::byte_source;
using cushim::detail::elf_error;
using cushim::detail::elf_info;
using cushim::detail::memory_source;
using cushim::detail::read_elf;
using cushim::detail::read_elf_symbol_bytes;
using cushim::detail::elf_internal::symbol_match;
using cushim::detail::elf_internal::symbol_table_used;
using cushim::detail::platform::file_source;
using test_support::command_output;
namespace words = cushim::detail::words;

namespace {

constexpr std::uint64_t tag_needed = 1, tag_strtab = 5, tag_strsz = 10, tag_soname = 14, tag_null = 0;

std::string fixture_library() { return std::string(CUSHIM_FIXTURE_DIR) + "/cudnn_good/" + CUSHIM_CUDNN_FILE; }

std::string toolkit_library(const std::string& name) { return std::string(CUSHIM_CUDA_LIB_DIR) + "/" + name; }

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "|") + p;
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Passes reads through and counts them, to prove how little of a file the reader touches.
class counting_source : public byte_source {
 public:
  explicit counting_source(const byte_source& inner) : inner_(inner) {}
  std::uint64_t size() const override { return inner_.size(); }
  bool read(std::uint64_t offset, void* out, std::size_t n) const override {
    bytes_read += n;
    ++reads;
    return inner_.read(offset, out, n);
  }
  mutable std::uint64_t bytes_read = 0;
  mutable std::uint64_t reads = 0;

 private:
  const byte_source& inner_;
};

// --- readelf, nm and objdump as the independent oracle ----------------------------------------

struct dynamic_strings {
  std::string soname;
  std::vector<std::string> needed, runpath, rpath;
};

std::string bracketed(const std::string& line) {
  std::size_t open = line.find('['), close = line.rfind(']');
  return line.substr(open + 1, close - open - 1);
}

std::vector<std::string> split_on_colon(const std::string& text) {
  std::vector<std::string> parts;
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
  return parts;
}

dynamic_strings readelf_dynamic(const std::string& path) {
  dynamic_strings out;
  std::istringstream lines(command_output("LC_ALL=C readelf -dW '" + path + "' 2>/dev/null"));
  for (std::string line; std::getline(lines, line);) {
    if (line.find("(NEEDED)") != std::string::npos) out.needed.push_back(bracketed(line));
    if (line.find("(SONAME)") != std::string::npos) out.soname = bracketed(line);
    if (line.find("(RUNPATH)") != std::string::npos) out.runpath = split_on_colon(bracketed(line));
    if (line.find("(RPATH)") != std::string::npos) out.rpath = split_on_colon(bracketed(line));
  }
  return out;
}

struct header_facts {
  int elf_class = 0;
  bool little_endian = false;
};

header_facts readelf_header(const std::string& path) {
  std::string text = command_output("LC_ALL=C readelf -h '" + path + "' 2>/dev/null");
  header_facts out;
  if (text.find("ELF64") != std::string::npos) out.elf_class = 64;
  if (text.find("ELF32") != std::string::npos) out.elf_class = 32;
  out.little_endian = text.find("little endian") != std::string::npos;
  return out;
}

// The file range of PT_DYNAMIC as readelf -l lists it: offset, file size.
std::pair<std::uint64_t, std::uint64_t> readelf_dynamic_segment(const std::string& path) {
  std::istringstream lines(command_output("LC_ALL=C readelf -lW '" + path + "' 2>/dev/null"));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string type, offset, address, physical, file_size;
    if (fields >> type >> offset >> address >> physical >> file_size && type == "DYNAMIC") {
      return {std::stoull(offset, nullptr, 16), std::stoull(file_size, nullptr, 16)};
    }
  }
  return {0, 0};
}

// Up to 16 bytes at a defined dynamic symbol, by nm's address and objdump's dump of it.
std::string objdump_symbol_bytes(const std::string& path, const std::string& name, std::size_t size) {
  std::istringstream symbols(command_output("LC_ALL=C nm -D --defined-only '" + path + "' 2>/dev/null"));
  std::string address;
  for (std::string line; std::getline(symbols, line);) {
    std::istringstream fields(line);
    std::string value, kind, symbol;
    if (fields >> value >> kind >> symbol && symbol.substr(0, symbol.find('@')) == name) address = value;
  }
  if (address.empty()) return {};
  const std::uint64_t start = std::stoull(address, nullptr, 16);
  std::istringstream dump(command_output("LC_ALL=C objdump -s --start-address=" + std::to_string(start) +
                                         " --stop-address=" + std::to_string(start + size) + " '" + path + "'"));
  std::string bytes;
  for (std::string line; std::getline(dump, line) && bytes.size() < size;) {
    if (line.empty() || line[0] != ' ') continue;
    std::istringstream fields(line);
    std::string word;
    fields >> word;  // the address
    while (bytes.size() < size && fields >> word) {
      for (std::size_t i = 0; i + 1 < word.size() && bytes.size() < size; i += 2) {
        bytes.push_back(char(std::stoi(word.substr(i, 2), nullptr, 16)));
      }
    }
  }
  return bytes;
}

void check_matches_readelf(const std::string& path) {
  INFO(path);
  file_source file(path);
  REQUIRE(file.ok());
  elf_info info = read_elf(file);
  REQUIRE_MESSAGE(info.error == elf_error::none, words::describe(info.fault));
  dynamic_strings expected = readelf_dynamic(path);
  REQUIRE(!expected.soname.empty());  // readelf ran and found the dynamic section
  CHECK(info.soname == expected.soname);
  CHECK(joined(info.needed) == joined(expected.needed));
  CHECK(joined(info.runpath) == joined(expected.runpath));
  CHECK(joined(info.rpath) == joined(expected.rpath));
  header_facts header = readelf_header(path);
  CHECK(info.elf_class == header.elf_class);
  CHECK(info.little_endian == header.little_endian);
}

std::string symbol_bytes(const byte_source& file, const std::string& name, std::size_t size) {
  std::string bytes(size, '\0');
  return read_elf_symbol_bytes(file, name, &bytes[0], size) ? bytes : std::string();
}

// --- .dynsym lookups: the hash tables against the scan and readelf ------------------------------

struct dynsym_entry {
  std::uint64_t index = 0, value = 0;
  std::string name;
};

// readelf's .dynsym: the exported definitions (FUNC or OBJECT; GLOBAL, WEAK or UNIQUE; DEFAULT or
// PROTECTED; in a section), and the names of every other entry (imports, ABS, TLS, IFUNC, ...).
struct readelf_symbols {
  std::vector<dynsym_entry> exported;
  std::vector<std::string> others;
};

readelf_symbols readelf_dynsym(const std::string& path) {
  readelf_symbols out;
  std::istringstream lines(command_output("LC_ALL=C readelf --dyn-syms -W '" + path + "' 2>/dev/null"));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string num, value, size, type, bind, vis, ndx, name;
    if (!(fields >> num >> value >> size >> type >> bind >> vis >> ndx >> name) || num.back() != ':') continue;
    name = name.substr(0, name.find('@'));
    const bool exported = (type == "FUNC" || type == "OBJECT") &&
                          (bind == "GLOBAL" || bind == "WEAK" || bind == "UNIQUE") &&
                          (vis == "DEFAULT" || vis == "PROTECTED") && ndx != "UND" && ndx != "ABS" && ndx != "COM";
    if (exported) {
      out.exported.push_back({std::stoull(num), std::stoull(value, nullptr, 16), name});
    } else {
      out.others.push_back(name);
    }
  }
  return out;
}

cushim::detail::elf_internal::elf_image image_of(const byte_source& file) {
  cushim::detail::elf_internal::elf_image image;
  elf_info info;
  REQUIRE_MESSAGE(cushim::detail::elf_internal::read_image(file, image, info), words::describe(info.fault));
  return image;
}

symbol_match hashed_lookup(const byte_source& file, const std::string& name) {
  return cushim::detail::elf_internal::find_symbol(file, image_of(file), name);
}

symbol_match scanned_lookup(const byte_source& file, const std::string& name) {
  return cushim::detail::elf_internal::scan_for_symbol(file, image_of(file), name);
}

std::string table_name(symbol_table_used by) {
  switch (by) {
    case symbol_table_used::gnu_hash: return "DT_GNU_HASH";
    case symbol_table_used::sysv_hash: return "DT_HASH";
    case symbol_table_used::scan: return "scan";
  }
  return "?";
}

// Every exported definition readelf lists is found through `expected` at readelf's index and
// address, and the scan finds the same entry; every other name, and every name with a suffix
// added, is found by neither. Names defined twice (symbol versions) are left out.
void check_lookups_agree(const std::string& path, symbol_table_used expected) {
  INFO(path);
  const memory_source file(read_whole_file(path));
  const cushim::detail::elf_internal::elf_image image = image_of(file);
  const readelf_symbols oracle = readelf_dynsym(path);
  REQUIRE(oracle.exported.size() > 1);
  std::map<std::string, int> defined;
  for (const dynsym_entry& e : oracle.exported) ++defined[e.name];
  int checked = 0, wrong = 0;
  std::string first_wrong;
  auto note = [&](const std::string& what) {
    if (wrong++ == 0) first_wrong = what;
  };
  for (const dynsym_entry& e : oracle.exported) {
    if (defined[e.name] > 1) continue;
    ++checked;
    const symbol_match hashed = cushim::detail::elf_internal::find_symbol(file, image, e.name);
    const symbol_match scanned = cushim::detail::elf_internal::scan_for_symbol(file, image, e.name);
    if (!hashed.found || hashed.by != expected || hashed.index != e.index || hashed.entry.value != e.value) {
      note(e.name + ": " + table_name(hashed.by) + (hashed.found ? " found index " : " did not find it, readelf: ") +
           std::to_string(hashed.found ? hashed.index : e.index));
    }
    if (!scanned.found || scanned.index != e.index) note(e.name + ": the scan disagrees with readelf");
    const symbol_match suffixed = cushim::detail::elf_internal::find_symbol(file, image, e.name + "_x");
    if (suffixed.found || suffixed.by != expected) note(e.name + "_x: found, or not answered by the hash table");
  }
  int others = 0;
  for (const std::string& name : oracle.others) {
    if (name.empty() || defined.count(name)) continue;
    ++others;
    const symbol_match hashed = cushim::detail::elf_internal::find_symbol(file, image, name);
    if (hashed.found || hashed.by != expected) note(name + " (not an exported definition): found, or not by the table");
    if (cushim::detail::elf_internal::scan_for_symbol(file, image, name).found) note(name + ": found by the scan");
  }
  MESSAGE(path << ": " << checked << " exported definitions and " << others << " other names looked up through "
               << table_name(expected));
  CHECK(checked > 0);
  CHECK_MESSAGE(wrong == 0, wrong << " wrong answers; the first: " << first_wrong);
}

// --- A shared object written field by field ----------------------------------------------------

// Either class and byte order: a PT_LOAD holding the whole file at load_base (so addresses and
// offsets differ), a PT_DYNAMIC, a string table, a null and a data symbol, a DT_HASH table and
// four data bytes. No section headers. Tests damage it through `dynamic` or put() on bytes().
class handmade_elf {
 public:
  static constexpr std::uint64_t load_base = 0x10000;
  static constexpr std::uint64_t strings_at = 0x100, symbols_at = 0x180, hash_at = 0x1c0, data_at = 0x1f0;
  static constexpr std::uint64_t dynamic_at = 0x200;

  handmade_elf(int elf_class, bool little_endian) : class_(elf_class), little_(little_endian) {
    const std::uint64_t first = add_string("libfirst.so.1"), second = add_string("libsecond.so.2");
    const std::uint64_t soname = add_string("libhandmade.so.1"), runpath = add_string("$ORIGIN:/opt/handmade");
    symbol_name_ = add_string("handmade_value");
    dynamic = {{tag_needed, first},
               {tag_needed, second},
               {tag_soname, soname},
               {29, runpath},  // DT_RUNPATH
               {tag_strtab, load_base + strings_at},
               {tag_strsz, strings_.size()},
               {6, load_base + symbols_at},  // DT_SYMTAB
               {11, symbol_size()},          // DT_SYMENT
               {4, load_base + hash_at},     // DT_HASH
               {tag_null, 0}};
  }

  std::vector<std::pair<std::uint64_t, std::uint64_t>> dynamic;

  std::string bytes() const {
    std::string image(dynamic_at + dynamic.size() * 2 * word(), '\0');
    write_header(image);
    write_segment(image, 0, 1, 0, load_base, image.size());                                     // PT_LOAD
    write_segment(image, 1, 2, dynamic_at, load_base + dynamic_at, image.size() - dynamic_at);  // PT_DYNAMIC
    image.replace(strings_at, strings_.size(), strings_);
    write_symbol(image);
    const std::uint32_t hash_words[] = {1, 2, 1, 0, 0};  // nbucket, nchain, bucket[0] = symbol 1, chain ends
    for (std::size_t i = 0; i < 5; ++i) put(image, hash_at + 4 * i, hash_words[i], 4);
    image.replace(data_at, 4, "\x11\x22\x33\x44");
    for (std::size_t i = 0; i < dynamic.size(); ++i) {
      put(image, dynamic_at + 2 * word() * i, dynamic[i].first, word());
      put(image, dynamic_at + 2 * word() * i + word(), dynamic[i].second, word());
    }
    return image;
  }

  void put(std::string& image, std::uint64_t at, std::uint64_t value, std::size_t width) const {
    for (std::size_t i = 0; i < width; ++i) image[at + i] = char(value >> (8 * (little_ ? i : width - 1 - i)));
  }

  std::uint16_t machine() const { return class_ == 64 ? (little_ ? 62 : 21) : (little_ ? 3 : 20); }
  std::size_t word() const { return class_ == 64 ? 8 : 4; }
  std::size_t header_size() const { return class_ == 64 ? 64 : 52; }
  std::size_t segment_size() const { return class_ == 64 ? 56 : 32; }
  std::size_t symbol_size() const { return class_ == 64 ? 24 : 16; }
  std::uint64_t phnum_at() const { return 32 + 3 * word(); }
  std::uint64_t segment_at(int index) const { return header_size() + index * segment_size(); }
  std::uint64_t segment_offset_field() const { return class_ == 64 ? 8 : 4; }
  std::uint64_t segment_file_size_field() const { return class_ == 64 ? 32 : 16; }
  std::uint64_t symbol_section_at() const { return symbols_at + symbol_size() + (class_ == 64 ? 6 : 14); }

 private:
  std::uint64_t add_string(const std::string& s) {
    std::uint64_t at = strings_.size();
    strings_ += s + '\0';
    return at;
  }

  void write_header(std::string& image) const {
    image.replace(0, 7,
                  std::string("\x7f"
                              "ELF") +
                      char(class_ == 64 ? 2 : 1) + char(little_ ? 1 : 2) + '\x01');
    const std::size_t w = word();
    put(image, 16, 3, 2);  // ET_DYN
    put(image, 18, machine(), 2);
    put(image, 20, 1, 4);
    put(image, 24 + w, header_size(), w);  // e_phoff
    put(image, 28 + 3 * w, header_size(), 2);
    put(image, 30 + 3 * w, segment_size(), 2);
    put(image, phnum_at(), 2, 2);
  }

  void write_segment(std::string& image, int index, std::uint32_t type, std::uint64_t offset, std::uint64_t address,
                     std::uint64_t size) const {
    const std::uint64_t at = segment_at(index);
    const std::size_t w = word();
    put(image, at, type, 4);
    put(image, at + segment_offset_field(), offset, w);
    put(image, at + segment_offset_field() + w, address, w);      // p_vaddr
    put(image, at + segment_offset_field() + 2 * w, address, w);  // p_paddr
    put(image, at + segment_file_size_field(), size, w);
    put(image, at + segment_file_size_field() + w, size, w);  // p_memsz
    put(image, at + (class_ == 64 ? 4 : 24), 6, 4);           // p_flags: RW
  }

  void write_symbol(std::string& image) const {
    const std::uint64_t at = symbols_at + symbol_size();  // entry 0 stays the null symbol
    const bool wide = class_ == 64;
    put(image, at, symbol_name_, 4);
    put(image, at + (wide ? 8 : 4), load_base + data_at, word());
    put(image, at + (wide ? 16 : 8), 4, word());
    put(image, at + (wide ? 4 : 12), 0x11, 1);  // STB_GLOBAL, STT_OBJECT
    put(image, symbol_section_at(), 1, 2);      // defined in section 1
  }

  int class_;
  bool little_;
  std::string strings_ = std::string(1, '\0');
  std::uint64_t symbol_name_ = 0;
};

elf_info read_bytes(const std::string& bytes) { return read_elf(memory_source(bytes)); }

void check_error(const elf_info& info, elf_error error, const std::string& detail) {
  CHECK(int(info.error) == int(error));
  CHECK(words::describe(info.fault) == detail);
}

// --- Libraries built here for other targets ----------------------------------------------------

struct foreign_target {
  const char* name;
  const char* compiler;  // with the target's flags
  const char* link_flags;
  std::uint16_t machine;
  bool little_endian;
};

// Builds libprobe.so.1 (needing libdep.so.1) for the target; false when the toolchain cannot.
bool build_probe_library(const test_support::temp_tree& tree, const foreign_target& t) {
  tree.write_file(std::string(t.name) + "/probe.c",
                  "int probe_value = 0x01020304;\nint probe_function(void) { return probe_value; }\n");
  const std::string dir = tree.path(t.name);
  const std::string cc = std::string(t.compiler) + " -shared -fPIC -nostdlib " + t.link_flags + " ";
  const std::string dep = cc + "-Wl,-soname,libdep.so.1 -o " + dir + "/libdep.so.1 " + dir + "/probe.c";
  const std::string probe = cc + "-Wl,-soname,libprobe.so.1 -o " + dir + "/libprobe.so.1 " + dir +
                            "/probe.c -Wl,--no-as-needed " + dir + "/libdep.so.1";
  return std::system((dep + " 2>/dev/null && " + probe + " 2>/dev/null").c_str()) == 0;
}

// The same file with its section headers gone, so the symbol count must come from a hash table.
std::string without_section_headers(std::string bytes, const elf_info& info) {
  const std::size_t w = info.elf_class == 64 ? 8 : 4;
  std::memset(&bytes[24 + 2 * w], 0, w);  // e_shoff
  std::memset(&bytes[36 + 3 * w], 0, 4);  // e_shnum, e_shstrndx
  return bytes;
}

// --- Hash tables: libraries with many symbols, and a DT_GNU_HASH table written word by word -----

// lib<style>.so with `count` exported ints, cushim_symbol_<i> = i, and as many functions, linked
// with --hash-style=<style> (sysv, gnu or both). Empty when the compiler cannot build it.
std::string build_many_symbols(const test_support::temp_tree& tree, const std::string& style, int count) {
  std::string source;
  for (int i = 0; i < count; ++i) {
    source += "int cushim_symbol_" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
    source += "int cushim_function_" + std::to_string(i) + "(void) { return " + std::to_string(i) + "; }\n";
  }
  const std::string c = tree.write_file("many/symbols.c", source);
  const std::string library = tree.path("many/lib" + style + ".so");
  const std::string command =
      "cc -shared -fPIC -O0 -Wl,--hash-style=" + style + " -o '" + library + "' '" + c + "' 2>/dev/null";
  return std::system(command.c_str()) == 0 ? library : std::string();
}

std::string int_bytes(int value) {
  return {char(value), char(value >> 8), char(value >> 16), char(value >> 24)};  // little-endian, as built here
}

// Where a dynamic table entry's address lies in the file.
std::uint64_t file_offset_of(const byte_source& file, std::uint64_t address) {
  cushim::detail::elf_internal::file_region region;
  REQUIRE(cushim::detail::elf_internal::map_address(image_of(file), address, region));
  return region.offset;
}

void put_u32(std::string& bytes, std::uint64_t at, std::uint32_t value) {
  for (int i = 0; i < 4; ++i) bytes[at + i] = char(value >> (8 * i));  // little-endian
}

// A DT_GNU_HASH table, word by word, damaged at will: the header says `buckets` and
// `bloom_words` whatever the arrays hold.
struct gnu_table {
  std::uint32_t buckets = 1, first_hashed = 1, bloom_words = 1, shift = 5;
  std::vector<std::uint64_t> bloom = {~0ull};
  std::vector<std::uint32_t> bucket = {1};
  std::vector<std::uint32_t> chain = {cushim::detail::elf_internal::gnu_hash_of("handmade_value") | 1u};
  std::uint64_t address = 0;  // where DT_GNU_HASH points; 0: at the table, appended to the file
};

// The hand-made file with `table` appended at its end, inside its PT_LOAD, and named by
// DT_GNU_HASH; with its DT_HASH only when keep_sysv.
std::string with_gnu_hash(handmade_elf elf, const gnu_table& table, bool keep_sysv) {
  if (!keep_sysv) {
    for (auto it = elf.dynamic.begin(); it != elf.dynamic.end(); ++it) {
      if (it->first == 4) {
        elf.dynamic.erase(it);
        break;
      }
    }
  }
  elf.dynamic.insert(elf.dynamic.end() - 1, {0x6ffffef5, 0});
  const std::size_t w = elf.word();
  const std::uint64_t at = (handmade_elf::dynamic_at + elf.dynamic.size() * 2 * w + 7) & ~std::uint64_t(7);
  elf.dynamic[elf.dynamic.size() - 2].second = table.address ? table.address : handmade_elf::load_base + at;
  std::string image = elf.bytes();
  image.resize(at, '\0');
  const std::uint32_t head[] = {table.buckets, table.first_hashed, table.bloom_words, table.shift};
  std::uint64_t end = at + 16 + table.bloom.size() * w + 4 * (table.bucket.size() + table.chain.size());
  image.resize(end, '\0');
  std::uint64_t next = at;
  for (std::uint32_t word : head) elf.put(image, (next += 4) - 4, word, 4);
  for (std::uint64_t word : table.bloom) elf.put(image, (next += w) - w, word, w);
  for (std::uint32_t word : table.bucket) elf.put(image, (next += 4) - 4, word, 4);
  for (std::uint32_t word : table.chain) elf.put(image, (next += 4) - 4, word, 4);
  elf.put(image, elf.segment_at(0) + elf.segment_file_size_field(), image.size(), w);      // p_filesz
  elf.put(image, elf.segment_at(0) + elf.segment_file_size_field() + w, image.size(), w);  // p_memsz
  return image;
}

// --- Mutations ---------------------------------------------------------------------------------

struct fuzz_result {
  int by_error[5] = {};
  int inconsistent = 0;
  int symbol_found = 0;
  double seconds = 0;
};

// Deterministic (raw mt19937_64 output, no distribution objects): truncations, random bytes
// anywhere, random bytes in the structures, and extreme words in the structures.
std::string mutated(const std::string& original, const std::vector<std::pair<std::uint64_t, std::uint64_t>>& hot,
                    std::mt19937_64& rng) {
  std::string bytes = original;
  const std::uint64_t extremes[] = {0, ~0ull, 0x7fffffff, 0x80000000, 0xffffffff, original.size(), 1ull << 31};
  const auto& region = hot[rng() % hot.size()];
  const std::uint64_t count = 1 + rng() % 4;
  switch (rng() % 4) {
    case 0: bytes.resize(rng() % bytes.size()); break;
    case 1:
      for (std::uint64_t i = 0; i < count; ++i) bytes[rng() % bytes.size()] = char(rng());
      break;
    case 2:
      for (std::uint64_t i = 0; i < count; ++i) bytes[region.first + rng() % region.second] = char(rng());
      break;
    default: {
      const std::uint64_t value = extremes[rng() % (sizeof extremes / sizeof extremes[0])];
      const std::size_t width = rng() % 2 ? 8 : 4;
      const std::uint64_t at = (region.first + rng() % region.second) & ~std::uint64_t(3);
      for (std::size_t i = 0; i < width && at + i < bytes.size(); ++i) bytes[at + i] = char(value >> (8 * i));
    }
  }
  return bytes;
}

fuzz_result fuzz(const std::string& original, const std::vector<std::pair<std::uint64_t, std::uint64_t>>& hot,
                 const std::string& symbol, int iterations, std::uint64_t seed) {
  fuzz_result result;
  std::mt19937_64 rng(seed);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < iterations; ++i) {
    memory_source file(mutated(original, hot, rng));
    const elf_info info = read_elf(file);
    ++result.by_error[int(info.error)];
    const bool ok = info.error == elf_error::none;
    unsigned char value[8];
    if (ok != words::describe(info.fault).empty() || (ok && info.elf_class != 32 && info.elf_class != 64) ||
        read_elf_symbol_bytes(file, "no_such_symbol", value, 4)) {
      ++result.inconsistent;
    }
    if (read_elf_symbol_bytes(file, symbol, value, 4)) ++result.symbol_found;
  }
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace

TEST_CASE("machine names, and this process's own class and machine match its executable") {
  using cushim::detail::elf_machine_name;
  CHECK(std::string(elf_machine_name(62)) == "x86-64");
  CHECK(std::string(elf_machine_name(183)) == "AArch64");
  CHECK(std::string(elf_machine_name(3)) == "i386");
  CHECK(std::string(elf_machine_name(40)) == "ARM");
  CHECK(std::string(elf_machine_name(21)) == "PowerPC64");
  CHECK(std::string(elf_machine_name(9999)) == "machine 9999");
  file_source self("/proc/self/exe");
  REQUIRE(self.ok());
  elf_info info = read_elf(self);
  REQUIRE_MESSAGE(info.error == elf_error::none, words::describe(info.fault));
  CHECK(info.elf_class == cushim::detail::native_elf_class());
  CHECK(info.machine == cushim::detail::native_elf_machine());
  CHECK(cushim::detail::native_elf_class() == int(8 * sizeof(void*)));
}

TEST_CASE("the real cuDNN and CUDA runtime read as readelf reads them") {
  std::vector<std::string> names = {CUSHIM_CUDNN_FILE, CUSHIM_CUDART_FILE};
  if (CUDNN_MAJOR >= 9) {
    names.push_back("libcudnn_graph.so." + std::to_string(CUDNN_MAJOR));
    names.push_back("libcudnn_ops.so." + std::to_string(CUDNN_MAJOR));
  }
  for (const std::string& name : names) {
    const std::string path = toolkit_library(name);
    if (!std::filesystem::exists(path)) {
      MESSAGE("not on this machine, skipped: " << path);
      continue;
    }
    check_matches_readelf(path);
    file_source file(path);
    elf_info info = read_elf(file);
    CHECK(info.soname == name);
    CHECK(info.type == 3);
    CHECK(info.elf_class == cushim::detail::native_elf_class());
    CHECK(info.machine == cushim::detail::native_elf_machine());
    if (name.rfind("libcudnn_ops", 0) == 0) {
      REQUIRE(!info.needed.empty());
      CHECK(info.needed[0] == "libcudnn_graph.so." + std::to_string(CUDNN_MAJOR));
    }
  }
}

TEST_CASE("the cuDNN 9 version symbols hold the header's version") {
  const std::string graph = toolkit_library("libcudnn_graph.so." + std::to_string(CUDNN_MAJOR));
  const std::string ops = toolkit_library("libcudnn_ops.so." + std::to_string(CUDNN_MAJOR));
  if (CUDNN_MAJOR < 9 || !std::filesystem::exists(graph) || !std::filesystem::exists(ops)) {
    MESSAGE("cuDNN 9 sub-libraries not on this machine, skipped");
    return;
  }
  const std::uint32_t expected = (CUDNN_MAJOR << 16) | (CUDNN_MINOR << 8) | CUDNN_PATCHLEVEL;
  const std::string expected_bytes = {char(expected), char(expected >> 8), char(expected >> 16), char(expected >> 24)};
  file_source graph_file(graph), ops_file(ops);
  CHECK(symbol_bytes(graph_file, "cudnn_graph_version", 4) == expected_bytes);
  CHECK(symbol_bytes(ops_file, "cudnn_ops_infer_version", 4) == expected_bytes);
  CHECK(objdump_symbol_bytes(graph, "cudnn_graph_version", 4) == expected_bytes);
  if (CUDNN_MAJOR == 9 && CUDNN_MINOR == 19 && CUDNN_PATCHLEVEL == 0) {
    CHECK(expected_bytes == std::string("\x00\x13\x09\x00", 4));
  }

  SUBCASE("absent, undefined here, too large a read, or more than the symbol: false, out untouched") {
    unsigned char out[65];
    std::memset(out, 0xaa, sizeof out);
    CHECK_FALSE(read_elf_symbol_bytes(graph_file, "cudnn_no_such_symbol", out, 4));
    CHECK_FALSE(read_elf_symbol_bytes(ops_file, "cudnn_graph_version", out, 4));  // ops only imports it
    CHECK_FALSE(read_elf_symbol_bytes(graph_file, "cudnn_graph_version", out, 5));
    CHECK_FALSE(read_elf_symbol_bytes(graph_file, "cudnnGetVersion", out, 65));
    CHECK_FALSE(read_elf_symbol_bytes(graph_file, "cudnn_graph_version@@libcudnn_graph.so.9", out, 4));
    CHECK(std::string(reinterpret_cast<char*>(out), sizeof out) == std::string(sizeof out, '\xaa'));
  }
  SUBCASE("without section headers the count comes from DT_GNU_HASH") {
    elf_info info = read_elf(graph_file);
    memory_source stripped(without_section_headers(read_whole_file(graph), info));
    CHECK(symbol_bytes(stripped, "cudnn_graph_version", 4) == expected_bytes);
  }
}

TEST_CASE("the fixture library: readelf's view, and a function's bytes as objdump shows them") {
  const std::string path = fixture_library();
  check_matches_readelf(path);
  file_source file(path);
  const std::string oracle = objdump_symbol_bytes(path, "cudnnGetVersion", 8);
  REQUIRE(oracle.size() == 8);
  CHECK(symbol_bytes(file, "cudnnGetVersion", 8) == oracle);
  CHECK(symbol_bytes(file, "cudnnCreate", 1).size() == 1);
  CHECK(symbol_bytes(file, "__cxa_finalize", 1).empty());  // undefined: imported, not exported
}

TEST_CASE("libraries built here: both classes, both byte orders, RUNPATH and RPATH, three hash styles") {
  test_support::temp_tree tree;
  const foreign_target targets[] = {
      {"native-sysv-hash", "cc", "-Wl,--hash-style=sysv -Wl,--enable-new-dtags,-rpath,'$ORIGIN:/opt/probe'",
       cushim::detail::native_elf_machine(), true},
      {"i386", "cc -m32", "-Wl,--hash-style=both -Wl,--enable-new-dtags,-rpath,'$ORIGIN/../lib'", 3, true},
      {"ppc64-big-endian", "clang --target=powerpc64-linux-gnu -fuse-ld=lld",
       "-Wl,--hash-style=gnu -Wl,--enable-new-dtags,-rpath,'$ORIGIN:$ORIGIN/x'", 21, false},
      {"ppc32-big-endian", "clang --target=powerpc-linux-gnu -fuse-ld=lld",
       "-Wl,--hash-style=sysv -Wl,--disable-new-dtags,-rpath,'/opt/a:/opt/b'", 20, false},
      {"aarch64", "clang --target=aarch64-linux-gnu -fuse-ld=lld", "-Wl,--hash-style=gnu", 183, true},
  };
  for (const foreign_target& t : targets) {
    if (!build_probe_library(tree, t)) {
      CHECK_MESSAGE(std::string(t.name) != "native-sysv-hash", "the system compiler must build the native one");
      MESSAGE("no toolchain for " << t.name << " here, skipped");
      continue;
    }
    const std::string path = tree.path(std::string(t.name) + "/libprobe.so.1");
    INFO(std::string(t.name));
    check_matches_readelf(path);
    file_source file(path);
    elf_info info = read_elf(file);
    CHECK(info.machine == t.machine);
    CHECK(info.little_endian == t.little_endian);
    CHECK(joined(info.needed) == "libdep.so.1");
    const std::string value = t.little_endian ? "\x04\x03\x02\x01" : "\x01\x02\x03\x04";
    CHECK(symbol_bytes(file, "probe_value", 4) == value);
    CHECK(symbol_bytes(file, "probe_function", 4).size() == 4);
    memory_source stripped(without_section_headers(read_whole_file(path), info));
    CHECK(symbol_bytes(stripped, "probe_value", 4) == value);
  }
}

TEST_CASE("hand-made files of both classes and byte orders read as readelf reads them") {
  test_support::temp_tree tree;
  for (int elf_class : {64, 32}) {
    for (bool little : {true, false}) {
      INFO(elf_class << (little ? "-bit little-endian" : "-bit big-endian"));
      handmade_elf elf(elf_class, little);
      const std::string path =
          tree.write_file("handmade-" + std::to_string(elf_class) + (little ? "le" : "be"), elf.bytes());
      check_matches_readelf(path);
      elf_info info = read_bytes(elf.bytes());
      CHECK(info.elf_class == elf_class);
      CHECK(info.little_endian == little);
      CHECK(info.machine == elf.machine());
      CHECK(info.soname == "libhandmade.so.1");
      CHECK(joined(info.needed) == "libfirst.so.1|libsecond.so.2");
      CHECK(joined(info.runpath) == "$ORIGIN|/opt/handmade");
      CHECK(info.rpath.empty());
      memory_source file(elf.bytes());
      CHECK(symbol_bytes(file, "handmade_value", 4) == "\x11\x22\x33\x44");
      CHECK(symbol_bytes(file, "handmade", 4).empty());
      CHECK(symbol_bytes(file, "handmade_value", 8).empty());  // more than the symbol's 4 bytes
      std::string undefined = elf.bytes();
      elf.put(undefined, elf.symbol_section_at(), 0, 2);  // SHN_UNDEF: an import, not an export
      CHECK(symbol_bytes(memory_source(undefined), "handmade_value", 4).empty());
    }
  }
}

TEST_CASE("symbol lookups through the hash table agree with the scan and readelf on the real libraries") {
  std::vector<std::string> names = {CUSHIM_CUDNN_FILE, CUSHIM_CUDART_FILE};
  if (CUDNN_MAJOR >= 9) {
    names.push_back("libcudnn_graph.so." + std::to_string(CUDNN_MAJOR));
    names.push_back("libcudnn_ops.so." + std::to_string(CUDNN_MAJOR));
  }
  int checked = 0;
  for (const std::string& name : names) {
    const std::string path = toolkit_library(name);
    if (!std::filesystem::exists(path)) {
      MESSAGE("not on this machine, skipped: " << path);
      continue;
    }
    const std::string dynamic = command_output("LC_ALL=C readelf -dW '" + path + "' 2>/dev/null");
    const bool gnu = dynamic.find("(GNU_HASH)") != std::string::npos;
    REQUIRE((gnu || dynamic.find("(HASH)") != std::string::npos));
    check_lookups_agree(path, gnu ? symbol_table_used::gnu_hash : symbol_table_used::sysv_hash);
    ++checked;
  }
  CHECK(checked > 0);
}

TEST_CASE("the version word of libcudnn_graph takes a few small reads, not a walk through .dynsym") {
  const std::string graph = toolkit_library("libcudnn_graph.so." + std::to_string(CUDNN_MAJOR));
  if (CUDNN_MAJOR < 9 || !std::filesystem::exists(graph)) {
    MESSAGE("cuDNN 9 not on this machine, skipped");
    return;
  }
  file_source file(graph);
  REQUIRE(file.ok());
  counting_source counted(file);
  unsigned char word[4];
  REQUIRE(read_elf_symbol_bytes(counted, "cudnn_graph_version", word, sizeof word));
  counting_source scanned(file);
  const symbol_match by_scan = scanned_lookup(scanned, "cudnn_graph_version");
  REQUIRE(by_scan.found);
  MESSAGE("through DT_GNU_HASH: " << counted.reads << " reads, " << counted.bytes_read << " bytes; the scan: "
                                  << scanned.reads << " reads, " << scanned.bytes_read << " bytes");
  CHECK(counted.reads <= 16);
  CHECK(counted.bytes_read <= 8 * 1024);
  CHECK(hashed_lookup(file, "cudnn_graph_version").index == by_scan.index);
}

TEST_CASE("libraries built here with DT_HASH, DT_GNU_HASH or both: every symbol through the table the loader uses") {
  test_support::temp_tree tree;
  const std::pair<const char*, symbol_table_used> styles[] = {{"sysv", symbol_table_used::sysv_hash},
                                                              {"gnu", symbol_table_used::gnu_hash},
                                                              {"both", symbol_table_used::gnu_hash}};
  for (const auto& style : styles) {
    INFO(std::string(style.first));
    const std::string path = build_many_symbols(tree, style.first, 1500);
    REQUIRE_MESSAGE(!path.empty(), "the system compiler must build a shared library");
    check_lookups_agree(path, style.second);
    const memory_source file(read_whole_file(path));
    CHECK(symbol_bytes(file, "cushim_symbol_1234", 4) == int_bytes(1234));
    CHECK(symbol_bytes(file, "cushim_symbol_1", 4) == int_bytes(1));
    CHECK(hashed_lookup(file, "cushim_symbol_0").found);
    CHECK(symbol_bytes(file, "cushim_symbol_0", 4).empty());  // zero: in .bss, no bytes in the file
    CHECK(symbol_bytes(file, "cushim_symbol_1500", 4).empty());
  }
  SUBCASE("both tables, DT_GNU_HASH damaged (nbuckets 0): every symbol through DT_HASH") {
    const std::string path = build_many_symbols(tree, "both", 1500);
    REQUIRE(!path.empty());
    std::string bytes = read_whole_file(path);
    const memory_source original(bytes);
    const std::uint64_t table = file_offset_of(original, image_of(original).table.gnu_hash.value);
    put_u32(bytes, table, 0);
    const std::string damaged = tree.write_file("many/libboth-damaged.so", bytes);
    check_lookups_agree(damaged, symbol_table_used::sysv_hash);
  }
}

TEST_CASE("a damaged DT_GNU_HASH table: DT_HASH or the scan answers, or the symbol is absent; never a crash") {
  const std::uint32_t h = cushim::detail::elf_internal::gnu_hash_of("handmade_value");
  const std::uint32_t other = (h ^ 2u) & ~1u;  // another hash, and not the end of a chain
  for (int elf_class : {64, 32}) {
    const bool little = elf_class == 64;
    const std::string kind = std::to_string(elf_class) + (little ? "-bit little-endian" : "-bit big-endian");
    INFO(kind);
    const handmade_elf elf(elf_class, little);
    auto lookup = [&](const gnu_table& table, bool keep_sysv, const std::string& name = "handmade_value") {
      return hashed_lookup(memory_source(with_gnu_hash(elf, table, keep_sysv)), name);
    };
    auto value = [&](const gnu_table& table, bool keep_sysv) {
      return symbol_bytes(memory_source(with_gnu_hash(elf, table, keep_sysv)), "handmade_value", 4);
    };
    const gnu_table good;

    SUBCASE("a sound table answers, also for an absent name, and is preferred to DT_HASH") {
      const symbol_match found = lookup(good, true);
      CHECK(found.found);
      CHECK(found.by == symbol_table_used::gnu_hash);
      CHECK(found.index == 1);
      CHECK(value(good, false) == "\x11\x22\x33\x44");
      const symbol_match absent = lookup(good, true, "handmade");
      CHECK_FALSE(absent.found);
      CHECK(absent.by == symbol_table_used::gnu_hash);
    }
    SUBCASE("a sound table that says absent is believed, as the loader believes it") {
      gnu_table empty_bucket = good;
      empty_bucket.bucket = {0};
      gnu_table empty_bloom = good;
      empty_bloom.bloom = {0};
      gnu_table wrong_hash = good;
      wrong_hash.chain = {other | 1u};
      for (const gnu_table& t : {empty_bucket, empty_bloom, wrong_hash}) {
        const symbol_match m = lookup(t, true);
        CHECK_FALSE(m.found);
        CHECK(m.by == symbol_table_used::gnu_hash);
        CHECK(value(t, true).empty());
      }
    }
    SUBCASE("a chain without end is read 1024 entries far, a few dozen reads") {
      gnu_table endless = good;
      endless.chain.assign(100000, other);
      const memory_source bytes(with_gnu_hash(elf, endless, true));
      counting_source counted(bytes);
      const symbol_match m = hashed_lookup(counted, "handmade_value");
      CHECK(m.found);
      CHECK(m.by == symbol_table_used::sysv_hash);
      MESSAGE(counted.reads << " reads, " << counted.bytes_read << " bytes");
      CHECK(counted.reads <= 100);
      CHECK(counted.bytes_read <= 8 * 1024);
    }
    SUBCASE("a damaged table is left for DT_HASH, or for the scan without one") {
      std::vector<std::pair<std::string, gnu_table>> damaged;
      gnu_table t = good;
      t.buckets = 0;
      damaged.emplace_back("nbuckets 0", t);
      t = good;
      t.bucket = {0x7fffffff};
      damaged.emplace_back("bucket index out of range", t);
      t = good;
      t.first_hashed = 2;
      damaged.emplace_back("bucket below symoffset", t);
      t = good;
      t.chain = {other};
      damaged.emplace_back("chain running off the end of the table", t);
      t = good;
      t.chain.assign(5000, other);
      damaged.emplace_back("chain longer than 1024 entries", t);
      t = good;
      t.bloom_words = 3;
      t.bloom.assign(3, ~0ull);
      damaged.emplace_back("Bloom filter size not a power of two", t);
      t = good;
      t.shift = 32;
      damaged.emplace_back("Bloom shift 32", t);
      t = good;
      t.bloom_words = 0x10000000;
      damaged.emplace_back("Bloom filter past the end", t);
      t = good;
      t.bucket = {5000};
      t.chain.assign(5001, other);
      t.chain[4999] = h | 1u;
      damaged.emplace_back("matching hash at an index past .dynsym", t);
      t = good;
      t.address = 0x900000;
      damaged.emplace_back("table address in no PT_LOAD", t);
      for (const auto& d : damaged) {
        INFO(d.first);
        const symbol_match with_sysv = lookup(d.second, true);
        CHECK(with_sysv.found);
        CHECK(with_sysv.by == symbol_table_used::sysv_hash);
        CHECK(with_sysv.index == 1);
        CHECK(value(d.second, true) == "\x11\x22\x33\x44");
        // Without DT_HASH or section headers the scan's symbol count comes from the same damaged
        // table: whatever it finds, it is asked, and nothing breaks.
        const symbol_match without = lookup(d.second, false);
        CHECK(without.by == symbol_table_used::scan);
        CHECK(value(d.second, false) == (without.found ? "\x11\x22\x33\x44" : ""));
      }
    }
  }
}

TEST_CASE("a damaged DT_HASH table: the scan answers; loops and long chains end") {
  const handmade_elf elf(64, true);
  const std::string good = elf.bytes();
  const std::uint64_t hash_at = handmade_elf::hash_at;
  auto lookup = [](const std::string& bytes, const std::string& name) {
    return hashed_lookup(memory_source(bytes), name);
  };

  const symbol_match sound = lookup(good, "handmade_value");
  CHECK(sound.found);
  CHECK(sound.by == symbol_table_used::sysv_hash);
  const symbol_match absent = lookup(good, "handmade_other");
  CHECK_FALSE(absent.found);
  CHECK(absent.by == symbol_table_used::sysv_hash);

  std::vector<std::pair<std::string, std::string>> damaged;
  std::string bytes = good;
  elf.put(bytes, hash_at, 0, 4);
  damaged.emplace_back("nbucket 0", bytes);
  bytes = good;
  elf.put(bytes, hash_at + 8, 0x7fffffff, 4);
  damaged.emplace_back("bucket index out of range", bytes);
  bytes = good;
  elf.put(bytes, hash_at + 4, 0x40000000, 4);
  damaged.emplace_back("nchain past the end of the file", bytes);
  for (const auto& d : damaged) {
    INFO(d.first);
    const symbol_match m = lookup(d.second, "handmade_value");
    CHECK(m.found);
    CHECK(m.by == symbol_table_used::scan);
    CHECK(m.index == 1);
    CHECK(symbol_bytes(memory_source(d.second), "handmade_value", 4) == "\x11\x22\x33\x44");
  }

  SUBCASE("a chain that loops: the walk stops at 1024 steps and the scan says absent") {
    std::string loop = good;
    elf.put(loop, hash_at + 12 + 4, 1, 4);                  // chain[1] = 1
    const symbol_match m = lookup(loop, "handmade_other");  // a walk that never stopped would hang here
    CHECK_FALSE(m.found);
    CHECK(m.by == symbol_table_used::scan);
    CHECK(lookup(loop, "handmade_value").by == symbol_table_used::sysv_hash);  // found on the first step
  }
  SUBCASE("64-bit S/390 hash words are 8 bytes: the scan, not a misread table") {
    std::string s390 = good;
    elf.put(s390, 18, 22, 2);  // e_machine EM_S390
    const symbol_match m = lookup(s390, "handmade_value");
    CHECK(m.found);
    CHECK(m.by == symbol_table_used::scan);
  }
}

TEST_CASE("the real libcudnn_graph with a damaged DT_GNU_HASH: the scan still finds the version word") {
  const std::string graph = toolkit_library("libcudnn_graph.so." + std::to_string(CUDNN_MAJOR));
  if (CUDNN_MAJOR < 9 || !std::filesystem::exists(graph)) {
    MESSAGE("cuDNN 9 not on this machine, skipped");
    return;
  }
  const std::string original = read_whole_file(graph);
  const memory_source file(original);
  const symbol_match sound = hashed_lookup(file, "cudnn_graph_version");
  REQUIRE(sound.found);
  REQUIRE(sound.by == symbol_table_used::gnu_hash);
  const std::string expected = symbol_bytes(file, "cudnn_graph_version", 4);
  REQUIRE(expected.size() == 4);

  const std::uint64_t table = file_offset_of(file, image_of(file).table.gnu_hash.value);
  const std::uint32_t buckets =
      std::uint32_t(std::uint8_t(original[table])) | std::uint32_t(std::uint8_t(original[table + 1])) << 8 |
      std::uint32_t(std::uint8_t(original[table + 2])) << 16 | std::uint32_t(std::uint8_t(original[table + 3])) << 24;
  const std::uint32_t bloom_words =
      std::uint32_t(std::uint8_t(original[table + 8])) | std::uint32_t(std::uint8_t(original[table + 9])) << 8 |
      std::uint32_t(std::uint8_t(original[table + 10])) << 16 | std::uint32_t(std::uint8_t(original[table + 11])) << 24;
  REQUIRE(buckets > 0);
  const std::uint64_t bucket_at = table + 16 + std::uint64_t(bloom_words) * 8 +
                                  4 * (cushim::detail::elf_internal::gnu_hash_of("cudnn_graph_version") % buckets);

  std::string no_buckets = original;
  put_u32(no_buckets, table, 0);
  std::string bucket_out_of_range = original;
  put_u32(bucket_out_of_range, bucket_at, 0xffffffff);
  for (const std::string* damaged : {&no_buckets, &bucket_out_of_range}) {
    const memory_source bytes(*damaged);
    const symbol_match m = hashed_lookup(bytes, "cudnn_graph_version");
    CHECK(m.found);
    CHECK(m.by == symbol_table_used::scan);
    CHECK(m.index == sound.index);
    CHECK(symbol_bytes(bytes, "cudnn_graph_version", 4) == expected);
  }
  std::string empty_bucket = original;
  put_u32(empty_bucket, bucket_at, 0);
  const symbol_match believed = hashed_lookup(memory_source(empty_bucket), "cudnn_graph_version");
  CHECK_FALSE(believed.found);
  CHECK(believed.by == symbol_table_used::gnu_hash);
}

TEST_CASE("files that are not ELF, or too short to be") {
  check_error(read_bytes(""), elf_error::not_elf, "file is empty");
  check_error(read_bytes("x"), elf_error::not_elf, "not an ELF file: it starts with 78, not 7f 45 4c 46");
  check_error(read_bytes("\x7f"), elf_error::truncated, "file is 1 byte; an ELF header needs 64");
  check_error(read_bytes(std::string(4096, '\0')), elf_error::not_elf,
              "not an ELF file: it starts with 00 00 00 00, not 7f 45 4c 46");
  file_source text(std::string(CUSHIM_FIXTURE_DIR) + "/cudnn_text_file/" + CUSHIM_CUDNN_FILE);
  REQUIRE(text.ok());
  check_error(read_elf(text), elf_error::not_elf, "not an ELF file: it starts with 74 68 69 73, not 7f 45 4c 46");
  const std::string fixture = read_whole_file(fixture_library());
  check_error(read_bytes(fixture.substr(0, 63)), elf_error::truncated, "file is 63 bytes; an ELF header needs 64");
  check_error(read_bytes(handmade_elf(32, false).bytes().substr(0, 51)), elf_error::truncated,
              "file is 51 bytes; an ELF header needs 52");
  check_error(read_bytes(fixture.substr(0, 10)), elf_error::truncated, "file is 10 bytes; an ELF header needs 64");
}

TEST_CASE("a real library with a flipped class or byte order, or cut short, is a clean error") {
  const std::string fixture = read_whole_file(fixture_library());
  std::string as_32 = fixture;
  as_32[4] = 1;
  const unsigned phentsize_32 = unsigned(std::uint8_t(fixture[42])) | unsigned(std::uint8_t(fixture[43])) << 8;
  check_error(read_bytes(as_32), elf_error::bad_header,
              "e_phentsize is " + std::to_string(phentsize_32) + "; 32-bit program headers are 32 bytes");
  std::string big_endian = fixture;
  big_endian[5] = 2;
  check_error(read_bytes(big_endian), elf_error::bad_header, "e_version is 16777216; expected 1");
  std::string bad_class = fixture;
  bad_class[4] = 3;
  check_error(read_bytes(bad_class), elf_error::bad_header, "EI_CLASS is 3; expected 1 (32-bit) or 2 (64-bit)");
  std::string bad_data = fixture;
  bad_data[5] = 0;
  check_error(read_bytes(bad_data), elf_error::bad_header,
              "EI_DATA is 0; expected 1 (little-endian) or 2 (big-endian)");
  std::string bad_version = fixture;
  bad_version[6] = 2;
  check_error(read_bytes(bad_version), elf_error::bad_header, "EI_VERSION is 2; expected 1");

  const std::string half = fixture.substr(0, fixture.size() / 2);
  elf_info cut = read_bytes(half);
  CHECK(int(cut.error) == int(elf_error::truncated));
  const std::string cut_detail = words::describe(cut.fault);
  CHECK(cut_detail.rfind("PT_LOAD segment (", 0) == 0);
  CHECK(cut_detail.find(" runs past the end of the " + std::to_string(half.size()) + "-byte file") !=
        std::string::npos);
  CHECK(cut.elf_class == 64);  // what was read before the error stays filled in
  CHECK(cut.machine == cushim::detail::native_elf_machine());
}

TEST_CASE("a file of another class or machine is named so, whatever else is wrong with it, as the loader sees it") {
  test_support::temp_tree tree;
  for (int elf_class : {32, 64}) {
    CAPTURE(elf_class);
    handmade_elf elf(elf_class, true);
    std::string bytes = elf.bytes();
    elf.put(bytes, elf.phnum_at(), 0, 2);             // no program headers: no PT_DYNAMIC, as a static executable has
    if (elf_class == 64) elf.put(bytes, 18, 183, 2);  // AArch64
    std::string path = tree.write_file("libcudnn.so." + std::to_string(elf_class), bytes);
    std::string detail;
    CHECK(cushim::detail::platform::inspect_file(path, detail) == cushim::outcome::wrong_architecture);
    CHECK(detail == (elf_class == 32 ? "a 32-bit i386 library; this process is 64-bit x86-64"
                                     : "a 64-bit AArch64 library; this process is 64-bit x86-64"));
  }
  handmade_elf native(64, true);  // this process's own class and machine: the missing segment is the reason
  std::string bytes = native.bytes();
  native.put(bytes, native.phnum_at(), 0, 2);
  std::string detail;
  CHECK(cushim::detail::platform::inspect_file(tree.write_file("libcudnn.so.9", bytes), detail) ==
        cushim::outcome::bad_format);
  CHECK(detail == "not a shared library: no PT_DYNAMIC segment: the file is statically linked, not a library");
}

TEST_CASE("damaged headers and dynamic sections: the exact error for each") {
  handmade_elf elf(64, true);
  const std::string good = elf.bytes();
  const std::string file_size = std::to_string(good.size());

  std::string many_segments = good;
  elf.put(many_segments, elf.phnum_at(), 65535, 2);
  check_error(read_bytes(many_segments), elf_error::truncated,
              "program header table (65535 entries of 56 bytes at offset 0x40) runs past the end of the " + file_size +
                  "-byte file");

  std::string dynamic_past_end = good;
  elf.put(dynamic_past_end, elf.segment_at(1) + elf.segment_offset_field(), 0x100000, 8);
  check_error(read_bytes(dynamic_past_end), elf_error::truncated,
              "dynamic segment (" + std::to_string(good.size() - handmade_elf::dynamic_at) +
                  " bytes at offset 0x100000) runs past the end of the " + file_size + "-byte file");

  std::string object_file = good;
  elf.put(object_file, 16, 1, 2);
  check_error(read_bytes(object_file), elf_error::unsupported,
              "e_type is 1; only shared objects (3) and executables (2) have a dynamic section");

  std::string no_dynamic = good;
  elf.put(no_dynamic, elf.segment_at(1), 4, 4);  // PT_DYNAMIC becomes PT_NOTE
  check_error(read_bytes(no_dynamic), elf_error::unsupported,
              "no PT_DYNAMIC segment: the file is statically linked, not a library");

  handmade_elf needed_past_strsz(64, true);
  needed_past_strsz.dynamic[1].second = 500;
  check_error(read_bytes(needed_past_strsz.bytes()), elf_error::bad_header,
              "DT_NEEDED string offset 0x1f4 is past the end of the 84-byte string table");

  handmade_elf strtab_unmapped(64, true);
  strtab_unmapped.dynamic[4].second = 0x900000;
  check_error(read_bytes(strtab_unmapped.bytes()), elf_error::bad_header,
              "DT_STRTAB address 0x900000 is not in the file bytes of any PT_LOAD segment");

  handmade_elf unterminated(64, true);
  unterminated.dynamic[2].second = 1;  // DT_SONAME "libfirst.so.1", which DT_STRSZ 5 cuts short
  unterminated.dynamic[5].second = 5;
  check_error(read_bytes(unterminated.bytes()), elf_error::bad_header,
              "DT_SONAME string at offset 0x1 of the string table is not terminated within 4 bytes");

  handmade_elf long_name(64, true);
  long_name.dynamic.erase(long_name.dynamic.begin() + 5);  // no DT_STRSZ: the table runs to its segment's end
  const std::uint64_t tail = handmade_elf::dynamic_at + long_name.dynamic.size() * 16;
  long_name.dynamic[4].second = handmade_elf::load_base + tail;  // DT_STRTAB: 5000 'a's appended below
  long_name.dynamic[2].second = 0;
  std::string with_long_name = long_name.bytes() + std::string(5000, 'a') + '\0';
  long_name.put(with_long_name, long_name.segment_at(0) + long_name.segment_file_size_field(), with_long_name.size(),
                8);
  check_error(read_bytes(with_long_name), elf_error::bad_header,
              "DT_SONAME string at offset 0x0 of the string table is not terminated within 4096 bytes");

  handmade_elf no_null(64, true);
  no_null.dynamic.pop_back();  // the segment now runs to the end of the file without DT_NULL
  check_error(read_bytes(no_null.bytes()), elf_error::bad_header,
              "dynamic segment (9 entries at offset 0x200) has no DT_NULL terminator");

  handmade_elf endless(64, true);
  endless.dynamic.insert(endless.dynamic.begin(), 5000, {tag_needed, 1});
  check_error(read_bytes(endless.bytes()), elf_error::bad_header,
              "dynamic segment has no DT_NULL in its first 4096 entries");

  handmade_elf no_strtab(64, true);
  no_strtab.dynamic.erase(no_strtab.dynamic.begin() + 4);
  check_error(read_bytes(no_strtab.bytes()), elf_error::bad_header,
              "the dynamic segment has DT_NEEDED, DT_SONAME, DT_RUNPATH or DT_RPATH entries but no DT_STRTAB");

  handmade_elf strsz_too_big(64, true);
  strsz_too_big.dynamic[5].second = 0x10000;
  check_error(read_bytes(strsz_too_big.bytes()), elf_error::bad_header,
              "DT_STRSZ (65536 bytes) runs past the end of the PT_LOAD segment at DT_STRTAB 0x10100");
}

TEST_CASE("a 2 GiB sparse file is read with a few KiB, quickly") {
  constexpr std::uint64_t two_gib = std::uint64_t(2) << 30;
  test_support::temp_tree tree;

  SUBCASE("a real library at the start") {
    const std::string path = tree.write_file("sparse/" CUSHIM_CUDNN_FILE, read_whole_file(fixture_library()));
    std::filesystem::resize_file(path, two_gib);
    file_source file(path);
    REQUIRE(file.ok());
    REQUIRE(file.size() == two_gib);
    counting_source counted(file);
    const auto start = std::chrono::steady_clock::now();
    elf_info info = read_elf(counted);
    CHECK(info.error == elf_error::none);
    CHECK(info.soname == CUSHIM_CUDNN_FILE);
    CHECK(symbol_bytes(counted, "cudnnGetVersion", 8).size() == 8);
    const double seconds = seconds_since(start);
    MESSAGE("read " << counted.bytes_read << " bytes of 2 GiB in " << seconds << " s");
    CHECK(counted.bytes_read < 64 * 1024);
  }
  SUBCASE("a dynamic segment that claims the whole 2 GiB, without DT_NULL") {
    handmade_elf elf(64, true);
    elf.dynamic.insert(elf.dynamic.begin(), 5000, {tag_needed, 1});
    std::string bytes = elf.bytes();
    elf.put(bytes, elf.segment_at(0) + elf.segment_file_size_field(), two_gib, 8);
    elf.put(bytes, elf.segment_at(1) + elf.segment_file_size_field(), two_gib - handmade_elf::dynamic_at, 8);
    const std::string path = tree.write_file("sparse/libhostile.so", bytes);
    std::filesystem::resize_file(path, two_gib);
    file_source file(path);
    counting_source counted(file);
    const auto start = std::chrono::steady_clock::now();
    check_error(read_elf(counted), elf_error::bad_header, "dynamic segment has no DT_NULL in its first 4096 entries");
    CHECK(symbol_bytes(counted, "handmade_value", 4).empty());
    const double seconds = seconds_since(start);
    MESSAGE("read " << counted.bytes_read << " bytes of 2 GiB in " << seconds << " s");
    CHECK(counted.bytes_read < 1024 * 1024);
  }
}

TEST_CASE("file_source refuses a FIFO without blocking, and a folder") {
  test_support::temp_tree tree;
  const auto start = std::chrono::steady_clock::now();
  file_source fifo(tree.make_fifo(CUSHIM_CUDNN_FILE));  // opening one to read would block: ctest's timeout ends that
  MESSAGE("refused in " << seconds_since(start) << " s");
  CHECK_FALSE(fifo.ok());
  CHECK(fifo.error() == "not a regular file");
  check_error(read_elf(fifo), elf_error::not_elf, "file is empty");
  file_source folder(tree.root());
  CHECK_FALSE(folder.ok());
  CHECK(folder.error() == "a folder, not a file");
}

TEST_CASE("25,000 mutated files: no crash, no out-of-bounds read, consistent results") {
  const std::string path = fixture_library();
  const std::string fixture = read_whole_file(path);
  const auto dynamic = readelf_dynamic_segment(path);
  REQUIRE(dynamic.second > 0);
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> fixture_hot = {{0, 1024}, dynamic};
  fuzz_result real = fuzz(fixture, fixture_hot, "cudnnGetVersion", 20000, 20240611);
  MESSAGE("fixture: " << real.seconds << " s; none " << real.by_error[0] << ", not_elf " << real.by_error[1]
                      << ", truncated " << real.by_error[2] << ", bad_header " << real.by_error[3] << ", unsupported "
                      << real.by_error[4] << "; symbol still found " << real.symbol_found);
  CHECK(real.inconsistent == 0);
  for (int count : real.by_error) CHECK(count > 0);  // every outcome reached: the mutations go deep
  CHECK(real.symbol_found > 0);

  const std::string handmade = handmade_elf(32, false).bytes();
  fuzz_result small = fuzz(handmade, {{0, handmade.size()}}, "handmade_value", 5000, 7);
  MESSAGE("32-bit big-endian hand-made: " << small.seconds << " s; none " << small.by_error[0]
                                          << "; symbol still found " << small.symbol_found);
  CHECK(small.inconsistent == 0);
  CHECK(small.by_error[0] > 0);
}
