// The ELF reader: against readelf on the real cuDNN and CUDA runtime, on libraries built here
// for other classes, byte orders and machines, and on hand-made files; each kind of broken file
// with its exact error text; bounded reads on a 2 GiB sparse file; 25,000 mutated files.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cushim/detail/elf.hpp>
#include <cushim/detail/platform_posix.hpp>
#include <cudnn_version.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
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
using cushim::detail::platform::file_source;
using test_support::command_output;

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
    return inner_.read(offset, out, n);
  }
  mutable std::uint64_t bytes_read = 0;

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
  REQUIRE_MESSAGE(info.error == elf_error::none, info.error_detail);
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
  CHECK(info.error_detail == detail);
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
    if (ok != info.error_detail.empty() || (ok && info.elf_class != 32 && info.elf_class != 64) ||
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
  REQUIRE_MESSAGE(info.error == elf_error::none, info.error_detail);
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
  CHECK(cut.error_detail.rfind("PT_LOAD segment (", 0) == 0);
  CHECK(cut.error_detail.find(" runs past the end of the " + std::to_string(half.size()) + "-byte file") !=
        std::string::npos);
  CHECK(cut.elf_class == 64);  // what was read before the error stays filled in
  CHECK(cut.machine == cushim::detail::native_elf_machine());
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
    CHECK(seconds < 1.0);
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
    CHECK(seconds < 1.0);
  }
}

TEST_CASE("file_source refuses a FIFO without blocking, and a folder") {
  test_support::temp_tree tree;
  const auto start = std::chrono::steady_clock::now();
  file_source fifo(tree.make_fifo(CUSHIM_CUDNN_FILE));
  CHECK(seconds_since(start) < 1.0);
  CHECK_FALSE(fifo.ok());
  CHECK(fifo.error() == "not a regular file");
  check_error(read_elf(fifo), elf_error::not_elf, "file is empty");
  file_source folder(tree.root());
  CHECK_FALSE(folder.ok());
  CHECK(folder.error() == "a folder, not a file");
}

TEST_CASE("25,000 mutated files: no crash, no out-of-bounds read, consistent results, fast") {
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
  CHECK(real.seconds < 5.0);

  const std::string handmade = handmade_elf(32, false).bytes();
  fuzz_result small = fuzz(handmade, {{0, handmade.size()}}, "handmade_value", 5000, 7);
  MESSAGE("32-bit big-endian hand-made: " << small.seconds << " s; none " << small.by_error[0]
                                          << "; symbol still found " << small.symbol_found);
  CHECK(small.inconsistent == 0);
  CHECK(small.by_error[0] > 0);
  CHECK(small.seconds < 5.0);
}
