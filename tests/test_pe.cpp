// The PE/COFF reader: on DLLs cross-compiled with MinGW-w64 (checked against objdump -p), on files
// crafted to be broken in one precise way each, and on many mutations of the fixture DLLs.
#include <doctest/doctest.h>

#include <cushim/detail/files/pe.hpp>
#include <cushim/detail/files/words/pe.hpp>
#include <cushim/detail/platform/platform.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/command_output.hpp"

using namespace cushim::detail;
using strings = std::vector<std::string>;

namespace {

std::string pe_fixture(const std::string& relative) { return std::string(CUSHIM_PE_FIXTURE_DIR) + "/" + relative; }

pe_info read_file(const std::string& path) {
  platform::file_source file(path);
  REQUIRE_MESSAGE(file.ok(), path << ": " << file.error());
  return read_pe(file);
}

strings imported_names(const std::string& path, const std::string& dll) {
  platform::file_source file(path);
  REQUIRE_MESSAGE(file.ok(), path << ": " << file.error());
  return pe_imported_names(file, dll);
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

pe_info read_bytes(const std::string& bytes) { return read_pe(memory_source(bytes)); }

bool contains(const strings& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// --- objdump -p as an independent oracle -------------------------------------------------------

strings lines_of(const std::string& text) {
  strings lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

strings words_of(const std::string& line) {
  strings words;
  std::istringstream in(line);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// What objdump -p says about one DLL, in the reader's terms.
struct objdump_view {
  std::uint16_t machine = 0;
  bool pe32_plus = false;
  bool is_dll = false;
  bool has_delay_directory = false;
  strings imports;
  strings exports;
  std::string export_name;
  std::map<std::string, strings> names_from;  // DLL name -> imported names ("#n" for ordinals)
};

void read_import_block(const strings& lines, std::size_t& i, strings& names) {
  for (++i; i < lines.size() && lines[i].find("Member-Name") == std::string::npos; ++i) continue;
  for (++i; i < lines.size() && !words_of(lines[i]).empty(); ++i) {
    strings w = words_of(lines[i]);
    names.push_back(w.size() >= 3 && w[2] == "<none>" ? "#" + std::to_string(std::stoul(w[1], nullptr, 16)) : w.back());
  }
}

void read_export_block(const strings& lines, std::size_t i, strings& names) {
  for (++i; i < lines.size() && lines[i].find('[') != std::string::npos; ++i)
    names.push_back(words_of(lines[i]).back());
  std::sort(names.begin(), names.end());
}

objdump_view objdump(const std::string& path) {
  objdump_view view;
  strings lines = lines_of(test_support::command_output(std::string(CUSHIM_MINGW_OBJDUMP) + " -p '" + path + "'"));
  REQUIRE_MESSAGE(lines.size() > 10, "objdump -p " << path);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    strings w = words_of(line);
    if (line.find("file format pei-x86-64") != std::string::npos) view.machine = 0x8664;
    if (line.find("file format pei-i386") != std::string::npos) view.machine = 0x14c;
    if (line.rfind("Magic", 0) == 0) view.pe32_plus = line.find("(PE32+)") != std::string::npos;
    if (line == "\tDLL") view.is_dll = true;
    if (line.find("Delay Import Directory") != std::string::npos) {
      view.has_delay_directory = std::stoull(w.at(2), nullptr, 16) != 0;
    }
    if (line.rfind("Name ", 0) == 0 && w.size() == 3) view.export_name = w[2];
    if (line.find("[Ordinal/Name Pointer] Table") != std::string::npos) read_export_block(lines, i, view.exports);
    if (line.find("DLL Name: ") != std::string::npos) {
      view.imports.push_back(w.back());
      read_import_block(lines, i, view.names_from[w.back()]);
    }
  }
  return view;
}

const char* const all_fixtures[] = {"x64/zlibwapi.dll",  "x64/cublasLt64_11.dll", "x64/cudnn_ops_infer64_8.dll",
                                    "x64/cudnn64_8.dll", "x64/no_version.dll",    "x86/zlibwapi.dll"};

// --- Files crafted in memory ---------------------------------------------------------------------

// A small PE32+ DLL: headers (SizeOfHeaders 0x400), then one section ".data" at RVA 0x1000, file
// offset 0x400, 0x400 bytes, for the tables a test writes there. 2048 bytes in all.
class crafted_dll {
 public:
  static constexpr std::uint32_t coff = 0x84, optional = 0x98, section_table = 0x188;
  static constexpr std::uint32_t data_rva = 0x1000, data_offset = 0x400, data_size = 0x400;
  static constexpr std::uint64_t image_base = 0x180000000;

  crafted_dll() : bytes_(0x800, '\0') {
    put(0, "MZ");
    put32(0x3C, 0x80);
    put(0x80, std::string("PE\0\0", 4));
    put16(coff, 0x8664);
    put16(coff + 2, 1);
    put16(coff + 16, 0xF0);
    put16(coff + 18, 0x2022);  // DLL, executable, large-address aware
    put16(optional, 0x20B);
    put64(optional + 24, image_base);
    put32(optional + 60, 0x400);
    put32(optional + 108, 16);
    put(section_table, ".data");
    put32(section_table + 8, data_size);
    put32(section_table + 12, data_rva);
    put32(section_table + 16, data_size);
    put32(section_table + 20, data_offset);
  }

  static std::uint32_t at(std::uint32_t rva) { return rva - data_rva + data_offset; }

  void put(std::size_t offset, const std::string& text) { bytes_.replace(offset, text.size(), text); }
  void put16(std::size_t offset, std::uint64_t v) { put_le(offset, v, 2); }
  void put32(std::size_t offset, std::uint64_t v) { put_le(offset, v, 4); }
  void put64(std::size_t offset, std::uint64_t v) { put_le(offset, v, 8); }
  void directory(unsigned index, std::uint32_t rva, std::uint32_t size) {
    put32(optional + 112 + index * 8, rva);
    put32(optional + 112 + index * 8 + 4, size);
  }
  // A hint/name entry (hint 0) at an RVA, for import lookup tables to point at.
  void hint_name(std::uint32_t rva, const std::string& name) { put(at(rva) + 2, name + '\0'); }

  const std::string& bytes() const { return bytes_; }
  pe_info read() const { return read_bytes(bytes_); }

 private:
  void put_le(std::size_t offset, std::uint64_t v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) bytes_[offset + i] = char((v >> (8 * i)) & 0xFF);
  }
  std::string bytes_;
};

// An import descriptor (lookup table, name, IAT) at an RVA of the crafted DLL.
void import_descriptor(crafted_dll& dll, std::uint32_t rva, std::uint32_t lookup, std::uint32_t name,
                       std::uint32_t iat) {
  dll.put32(crafted_dll::at(rva), lookup);
  dll.put32(crafted_dll::at(rva) + 12, name);
  dll.put32(crafted_dll::at(rva) + 16, iat);
}

}  // namespace

// --- The fixture DLLs ------------------------------------------------------------------------------

TEST_CASE("cudnn_ops_infer64_8.dll: x64 DLL with imports, an export and a version resource") {
  pe_info pe = read_file(pe_fixture("x64/cudnn_ops_infer64_8.dll"));
  CHECK(pe.error == pe_error::none);
  CHECK(words::describe(pe.fault).empty());
  CHECK(pe.machine == 0x8664);
  CHECK(pe.pe32_plus);
  CHECK(pe.is_dll);
  CHECK(pe.imports == strings{"cublasLt64_11.dll", "zlibwapi.dll"});
  CHECK(pe.delay_imports.empty());
  CHECK(pe.exports == strings{"cudnnOpsInferVersionCheck"});
  CHECK(pe.export_name == "cudnn_ops_infer64_8.dll");
  CHECK(pe.file_version == "8.9.7.29");
  CHECK(pe.product_version == "8.9.7.0");
  CHECK(pe.original_filename == "cudnn_ops_infer64_8.dll");
}

TEST_CASE("pe_imported_names: what one DLL needs from another, by name and by ordinal") {
  std::string ops = pe_fixture("x64/cudnn_ops_infer64_8.dll");
  strings from_zlib = imported_names(ops, "ZLIBWAPI.DLL");
  CHECK(from_zlib == strings{"crc32", "#17", "zlibVersionNumber"});
  CHECK(from_zlib == objdump(ops).names_from["zlibwapi.dll"]);
  CHECK(imported_names(ops, "cublaslt64_11.dll") == strings{"cublasLtCreate"});
  CHECK(imported_names(ops, "zlibwapi").empty());
  CHECK(imported_names(ops, "KERNEL32.dll").empty());

  // The question it answers: does the DLL found export what the importer needs?
  pe_info zlib = read_file(pe_fixture("x64/zlibwapi.dll"));
  for (const std::string& name : from_zlib) {
    if (name[0] != '#') CHECK_MESSAGE(contains(zlib.exports, name), name);
  }
  CHECK_FALSE(contains(zlib.exports, "zlibHidden"));  // exported by ordinal 17 only
}

TEST_CASE("cudnn64_8.dll: exports, KERNEL32 for the delay-load helper, delay imports as ld wrote them") {
  std::string path = pe_fixture("x64/cudnn64_8.dll");
  pe_info pe = read_file(path);
  CHECK(pe.error == pe_error::none);
  CHECK(pe.machine == 0x8664);
  CHECK(pe.is_dll);
  CHECK(contains(pe.exports, "cudnnGetVersion"));
  CHECK(contains(pe.exports, "cudnnCreate"));
  CHECK(pe.export_name == "cudnn64_8.dll");
  CHECK(pe.imports == strings{"KERNEL32.dll"});
  CHECK_FALSE(contains(pe.imports, "cudnn_ops_infer64_8.dll"));
  CHECK(pe.file_version.empty());
  // ld 2.40 leaves the delay-import directory empty; a newer one fills it. Either way the reader
  // must agree with objdump (the delay-import directory itself is tested on a crafted file).
  if (objdump(path).has_delay_directory) {
    CHECK(pe.delay_imports == strings{"cudnn_ops_infer64_8.dll"});
    CHECK(imported_names(path, "cudnn_ops_infer64_8.dll") == strings{"cudnnOpsInferVersionCheck"});
  } else {
    CHECK(pe.delay_imports.empty());
  }
}

TEST_CASE("zlibwapi.dll: the 32-bit (i686) build against the 64-bit one") {
  pe_info x86 = read_file(pe_fixture("x86/zlibwapi.dll"));
  pe_info x64 = read_file(pe_fixture("x64/zlibwapi.dll"));
  CHECK(x86.error == pe_error::none);
  CHECK(x86.machine == 0x14c);
  CHECK_FALSE(x86.pe32_plus);
  CHECK(x86.is_dll);
  CHECK(x86.imports == strings{"KERNEL32.dll", "msvcrt.dll"});
  CHECK(x86.exports == strings{"crc32", "zlibVersionNumber"});
  CHECK(x86.export_name == "zlibwapi.dll");
  CHECK(x64.machine == 0x8664);
  CHECK(x64.pe32_plus);
  CHECK(x64.imports.empty());
  CHECK(x64.exports == x86.exports);
  CHECK(std::string(pe_machine_name(x86.machine)) == "x86 (32-bit)");
  CHECK(std::string(pe_machine_name(x64.machine)) == "x64");
}

TEST_CASE("no_version.dll: an ordinary MinGW DLL without a version resource") {
  pe_info pe = read_file(pe_fixture("x64/no_version.dll"));
  CHECK(pe.error == pe_error::none);
  CHECK(pe.imports == strings{"KERNEL32.dll", "msvcrt.dll"});
  CHECK(pe.exports == strings{"plain_function"});
  CHECK(pe.file_version.empty());
  CHECK(pe.product_version.empty());
  CHECK(pe.original_filename.empty());
}

TEST_CASE("every fixture agrees with objdump -p: machine, magic, DLL flag, imports, exports") {
  for (const char* relative : all_fixtures) {
    CAPTURE(relative);
    std::string path = pe_fixture(relative);
    pe_info pe = read_file(path);
    objdump_view oracle = objdump(path);
    CHECK(pe.error == pe_error::none);
    CHECK(pe.machine == oracle.machine);
    CHECK(pe.pe32_plus == oracle.pe32_plus);
    CHECK(pe.is_dll == oracle.is_dll);
    CHECK(pe.imports == oracle.imports);
    CHECK(pe.exports == oracle.exports);
    CHECK(pe.export_name == oracle.export_name);
    CHECK(pe.delay_imports.empty() == !oracle.has_delay_directory);
    for (const std::string& dll : oracle.imports) {
      CAPTURE(dll);
      CHECK(imported_names(path, dll) == oracle.names_from[dll]);
    }
  }
}

TEST_CASE("machine names and the machine of this build") {
  CHECK(std::string(pe_machine_name(0xAA64)) == "ARM64");
  CHECK(std::string(pe_machine_name(0x1c4)) == "ARM (32-bit Thumb-2)");
  CHECK(std::string(pe_machine_name(0x1234)) == "machine 0x1234");
#if defined(__x86_64__)
  CHECK(native_pe_machine() == 0x8664);
#elif defined(__aarch64__)
  CHECK(native_pe_machine() == 0xAA64);
#endif
}

// --- Crafted files: each broken in one way ------------------------------------------------------

TEST_CASE("the crafted DLL is valid before it is broken") {
  pe_info pe = crafted_dll().read();
  CHECK(pe.error == pe_error::none);
  CHECK(pe.machine == 0x8664);
  CHECK(pe.pe32_plus);
  CHECK(pe.is_dll);
  CHECK(pe.imports.empty());
}

TEST_CASE("not PE at all: empty, text, zeros, ELF") {
  pe_info empty = read_bytes("");
  CHECK(empty.error == pe_error::not_pe);
  CHECK(words::describe(empty.fault) == "the file is empty");

  pe_info text = read_bytes("this is not a DLL\n");
  CHECK(text.error == pe_error::not_pe);
  CHECK(words::describe(text.fault) == "no MZ signature: the file starts with 74 68 69 73");

  pe_info zeros = read_bytes(std::string(4096, '\0'));
  CHECK(zeros.error == pe_error::not_pe);
  CHECK(words::describe(zeros.fault) == "no MZ signature: the file starts with 00 00 00 00");

  pe_info elf = read_file(std::string(CUSHIM_FIXTURE_DIR) + "/cudnn_good/" + CUSHIM_CUDNN_FILE);
  CHECK(elf.error == pe_error::not_pe);
  CHECK(words::describe(elf.fault) == "an ELF file (a Linux or Unix program or library), not a Windows PE file");
  CHECK(elf.machine == 0);
}

TEST_CASE("cut-off DOS headers") {
  pe_info one = read_bytes("M");
  CHECK(one.error == pe_error::truncated);
  CHECK(words::describe(one.fault) == "file is 1 byte; a DOS header needs 64");

  pe_info short_header = read_bytes(crafted_dll().bytes().substr(0, 40));
  CHECK(short_header.error == pe_error::truncated);
  CHECK(words::describe(short_header.fault) == "file is 40 bytes; a DOS header needs 64");
}

TEST_CASE("e_lfanew past the end, or pointing at no PE signature") {
  crafted_dll dll;
  dll.put32(0x3C, 0x10000);
  pe_info past = dll.read();
  CHECK(past.error == pe_error::truncated);
  CHECK(words::describe(past.fault) == "e_lfanew points to offset 0x10000 past the end of the 2048-byte file");

  pe_info cut = read_bytes(crafted_dll().bytes().substr(0, 0x82));
  CHECK(cut.error == pe_error::truncated);
  CHECK(words::describe(cut.fault) == "the PE signature at offset 0x80 is cut off by the end of the 130-byte file");

  crafted_dll dos_program;
  dos_program.put(0x80, "NE");
  pe_info no_signature = dos_program.read();
  CHECK(no_signature.error == pe_error::not_pe);
  CHECK(words::describe(no_signature.fault) ==
        "MZ header but no PE signature at offset 0x80 (e_lfanew): a DOS program or another format, not a Windows PE "
        "file");
}

TEST_CASE("broken COFF and optional headers") {
  pe_info cut = read_bytes(crafted_dll().bytes().substr(0, 0x90));
  CHECK(cut.error == pe_error::truncated);
  CHECK(words::describe(cut.fault) == "the COFF header at offset 0x84 is cut off by the end of the 144-byte file");

  crafted_dll object_file;
  object_file.put16(crafted_dll::coff + 16, 0);
  CHECK(object_file.read().error == pe_error::bad_header);
  CHECK(words::describe(object_file.read().fault) == "SizeOfOptionalHeader is 0: an object file, not an image");
  CHECK(object_file.read().machine == 0x8664);

  crafted_dll rom;
  rom.put16(crafted_dll::optional, 0x107);
  CHECK(rom.read().error == pe_error::unsupported);
  CHECK(words::describe(rom.read().fault) == "optional header magic 0x107 is neither PE32 (0x10b) nor PE32+ (0x20b)");

  crafted_dll small;
  small.put16(crafted_dll::coff + 16, 100);
  CHECK(small.read().error == pe_error::bad_header);
  CHECK(words::describe(small.read().fault) ==
        "SizeOfOptionalHeader 100 is smaller than the 112 bytes a PE32+ optional header needs");

  crafted_dll huge;
  huge.put16(crafted_dll::coff + 16, 0xFFFF);
  CHECK(huge.read().error == pe_error::truncated);
  CHECK(words::describe(huge.read().fault) ==
        "the optional header (65535 bytes at offset 0x98) runs past the end of the 2048-byte file");
}

TEST_CASE("NumberOfSections 65535 in a 2048-byte file") {
  crafted_dll dll;
  dll.put16(crafted_dll::coff + 2, 65535);
  pe_info pe = dll.read();
  CHECK(pe.error == pe_error::truncated);
  CHECK(words::describe(pe.fault) ==
        "the section table (65535 sections of 40 bytes at offset 0x188) runs past the end of the 2048-byte file");
  CHECK(pe.machine == 0x8664);
  CHECK(pe.is_dll);
}

TEST_CASE("import directory RVA outside every section") {
  crafted_dll dll;
  dll.directory(1, 0x5000, 40);
  pe_info pe = dll.read();
  CHECK(pe.error == pe_error::bad_header);
  CHECK(words::describe(pe.fault) == "import directory RVA 0x5000 is outside every section");
  CHECK(pe.is_dll);
  CHECK(pe.imports.empty());
}

TEST_CASE("import descriptors with no terminating zero descriptor up to the end of the file") {
  crafted_dll dll;
  dll.put(0x300, "a.dll");  // in the headers: RVAs below SizeOfHeaders map to the same offset
  for (std::uint32_t rva = crafted_dll::data_rva; rva + 20 <= crafted_dll::data_rva + crafted_dll::data_size;
       rva += 20) {
    import_descriptor(dll, rva, 0x310, 0x300, 0x310);
  }
  dll.directory(1, crafted_dll::data_rva, 40);
  pe_info pe = dll.read();
  CHECK(pe.error == pe_error::truncated);
  CHECK(words::describe(pe.fault) ==
        "the import directory at RVA 0x1000 has no terminating all-zero descriptor before the end of its 1024 bytes "
        "(51 descriptors read)");
  CHECK(pe.imports.size() == 51);
  CHECK(pe.imports.front() == "a.dll");
}

TEST_CASE("import DLL name RVA past the end of the file or outside every section") {
  crafted_dll dll;
  import_descriptor(dll, crafted_dll::data_rva, 0, 0x7FFF0000, 0x1100);
  dll.directory(1, crafted_dll::data_rva, 40);
  CHECK(dll.read().error == pe_error::bad_header);
  CHECK(words::describe(dll.read().fault) == "import descriptor 0: DLL name RVA 0x7fff0000 is outside every section");

  // The section claims 64 KiB of file data; the file ends after 1 KiB of it.
  dll.put32(crafted_dll::section_table + 8, 0x10000);
  dll.put32(crafted_dll::section_table + 16, 0x10000);
  import_descriptor(dll, crafted_dll::data_rva, 0, 0x9000, 0x1100);
  CHECK(dll.read().error == pe_error::truncated);
  CHECK(words::describe(dll.read().fault) ==
        "import descriptor 0: DLL name RVA 0x9000 maps to file offset 0x8400, past the end of the 2048-byte file");
}

TEST_CASE("an import name that runs to the end of its section without a NUL") {
  crafted_dll dll;
  import_descriptor(dll, crafted_dll::data_rva, 0, 0x13F0, 0x1100);
  dll.put(crafted_dll::at(0x13F0), std::string(16, 'x'));
  dll.directory(1, crafted_dll::data_rva, 40);
  CHECK(dll.read().error == pe_error::bad_header);
  CHECK(words::describe(dll.read().fault) ==
        "import descriptor 0: DLL name at RVA 0x13f0 is not NUL-terminated within 16 bytes");
}

TEST_CASE("an import lookup table that runs to the end of its section without a zero entry") {
  crafted_dll dll;
  dll.put(0x300, "a.dll");
  import_descriptor(dll, crafted_dll::data_rva, 0x13F0, 0x300, 0x13F0);
  dll.put64(crafted_dll::at(0x13F0), 0x1200);
  dll.put64(crafted_dll::at(0x13F8), 0x8000000000000005);
  dll.hint_name(0x1200, "f");
  dll.directory(1, crafted_dll::data_rva, 40);
  CHECK(dll.read().imports == strings{"a.dll"});
  CHECK(pe_imported_names(memory_source(dll.bytes()), "a.dll") == strings{"f", "#5"});
}

TEST_CASE("a resource subdirectory that points back at the root ends the walk") {
  crafted_dll dll;
  std::uint32_t root = crafted_dll::at(crafted_dll::data_rva);
  dll.put16(root + 14, 1);               // one ID entry
  dll.put32(root + 16, 16);              // RT_VERSION
  dll.put32(root + 20, 0x80000000 | 0);  // a subdirectory: the root itself
  dll.directory(2, crafted_dll::data_rva, 0x100);
  pe_info pe = dll.read();
  CHECK(pe.error == pe_error::bad_header);
  CHECK(words::describe(pe.fault) ==
        "resource tree: the RT_VERSION language entry points to a directory, not to data (a loop or a tree deeper "
        "than three levels)");
  CHECK(pe.file_version.empty());
}

TEST_CASE("a resource directory that lists more entries than the file holds") {
  crafted_dll dll;
  std::uint32_t root = crafted_dll::at(crafted_dll::data_rva);
  dll.put16(root + 12, 0xFFFF);
  dll.put16(root + 14, 0xFFFF);
  dll.directory(2, crafted_dll::data_rva, 0x100);
  CHECK(dll.read().error == pe_error::truncated);
  CHECK(words::describe(dll.read().fault) ==
        "resource directory (types) lists 131070 entries; 1024 bytes are in the file");
}

TEST_CASE("an export name table with 4294967295 entries") {
  crafted_dll dll;
  std::uint32_t dir = crafted_dll::at(crafted_dll::data_rva);
  dll.put32(dir + 24, 0xFFFFFFFF);
  dll.put32(dir + 32, 0x1100);
  dll.directory(0, crafted_dll::data_rva, 40);
  pe_info pe = dll.read();
  CHECK(pe.error == pe_error::truncated);
  CHECK(words::describe(pe.fault) ==
        "the export name table (4294967295 entries at RVA 0x1100) runs past its section's 768 bytes");
  CHECK(pe.exports.empty());
}

TEST_CASE("tables that send the reader over the same bytes again and again hit the budget") {
  // 10 descriptors for the same DLL share one lookup table of 60 entries, all naming one 200-byte
  // function: 10 * 60 * 203 bytes of strings from a 2 KiB file, where the budget is 69632.
  crafted_dll dll;
  dll.put(0x300, "a.dll");
  for (std::uint32_t i = 0; i < 60; ++i) dll.put64(crafted_dll::at(0x1100) + i * 8, 0x1300);
  dll.hint_name(0x1300, std::string(200, 'f'));
  for (std::uint32_t i = 0; i < 10; ++i) import_descriptor(dll, crafted_dll::data_rva + i * 20, 0x1100, 0x300, 0x1100);
  dll.directory(1, crafted_dll::data_rva, 40);
  CHECK(dll.read().error == pe_error::none);
  strings names = pe_imported_names(memory_source(dll.bytes()), "A.DLL");
  CHECK(names.size() > 60);
  CHECK(names.size() <= 69632 / 203);
}

// --- The delay-load directory, crafted (ld 2.40 does not write one) -----------------------------

namespace {

// cudnn64_8.dll as MSVC links it: one delay-load descriptor for cudnn_ops_infer64_8.dll whose name
// table lists one function by name and one by ordinal. `rvas` false: the VC6 form, with 32-bit
// VAs, so the image base moves below 4 GiB.
crafted_dll with_delay_import(bool rvas) {
  crafted_dll dll;
  std::uint32_t bias = rvas ? 0 : 0x10000000;
  dll.put64(crafted_dll::optional + 24, rvas ? crafted_dll::image_base : bias);
  std::uint32_t descriptor = crafted_dll::at(0x1000);
  dll.put32(descriptor, rvas ? 1 : 0);
  dll.put32(descriptor + 4, bias + 0x1100);   // DLL name
  dll.put32(descriptor + 12, bias + 0x1180);  // IAT
  dll.put32(descriptor + 16, bias + 0x1140);  // name table
  dll.put(crafted_dll::at(0x1100), "cudnn_ops_infer64_8.dll");
  dll.put64(crafted_dll::at(0x1140), 0x1200);
  dll.put64(crafted_dll::at(0x1148), 0x8000000000000003);
  dll.hint_name(0x1200, "cudnnOpsInferVersionCheck");
  dll.directory(13, 0x1000, 64);
  return dll;
}

}  // namespace

TEST_CASE("delay-load directory with RVAs (attributes 1) and with VC6-era VAs") {
  for (bool rvas : {true, false}) {
    CAPTURE(rvas);
    crafted_dll dll = with_delay_import(rvas);
    pe_info pe = dll.read();
    CHECK(pe.error == pe_error::none);
    CHECK(pe.imports.empty());
    CHECK(pe.delay_imports == strings{"cudnn_ops_infer64_8.dll"});
    CHECK(pe_imported_names(memory_source(dll.bytes()), "CUDNN_OPS_INFER64_8.dll") ==
          strings{"cudnnOpsInferVersionCheck", "#3"});
  }
}

TEST_CASE("delay-load descriptor with a VA below the image base") {
  crafted_dll dll = with_delay_import(false);
  dll.put32(crafted_dll::at(0x1000) + 4, 0x1100);
  CHECK(dll.read().error == pe_error::bad_header);
  CHECK(words::describe(dll.read().fault) == "delay-load descriptor 0 holds addresses below the image base 0x10000000");
}

TEST_CASE("UTF-16 to UTF-8, surrogate pairs and unpaired surrogates") {
  using pe_format::utf16le_to_utf8;
  CHECK(utf16le_to_utf8({'c', 'a', 'f', 0xE9}) == "caf\xC3\xA9");
  CHECK(utf16le_to_utf8({0x7528, 0x6237}) == "\xE7\x94\xA8\xE6\x88\xB7");
  CHECK(utf16le_to_utf8({0xD83D, 0xDE00}) == "\xF0\x9F\x98\x80");
  CHECK(utf16le_to_utf8({0xD83D, 'x'}) == "\xEF\xBF\xBDx");
  CHECK(utf16le_to_utf8({0xDE00}) == "\xEF\xBF\xBD");
}

// --- Mutations of the fixture DLLs --------------------------------------------------------------

namespace {

// A memory_source that counts the bytes read through it.
class counting_source : public byte_source {
 public:
  explicit counting_source(std::string bytes) : inner_(std::move(bytes)) {}
  std::uint64_t size() const override { return inner_.size(); }
  bool read(std::uint64_t offset, void* out, std::size_t n) const override {
    bytes_read_ += n;
    return inner_.read(offset, out, n);
  }
  std::uint64_t bytes_read() const { return bytes_read_; }

 private:
  memory_source inner_;
  mutable std::uint64_t bytes_read_ = 0;
};

// One to three changes: a random byte, a value that breaks counts and RVAs written at a 4-byte
// boundary, or a cut. Half of the positions fall in the first KiB, where the headers are.
std::string mutate(std::string bytes, std::mt19937& rng) {
  static const std::uint32_t values[] = {0, 1, 0x7F, 0x80, 0xFF, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF};
  int changes = 1 + int(rng() % 3);
  for (int c = 0; c < changes && !bytes.empty(); ++c) {
    std::size_t span = rng() % 2 ? std::min<std::size_t>(bytes.size(), 1024) : bytes.size();
    std::size_t at = rng() % span;
    switch (rng() % 8) {
      case 0: bytes.resize(at); break;
      case 1:
      case 2:
      case 3: {
        std::uint32_t v = values[rng() % std::size(values)];
        for (std::size_t i = 0; i < 4 && (at & ~std::size_t(3)) + i < bytes.size(); ++i) {
          bytes[(at & ~std::size_t(3)) + i] = char(v >> (8 * i));
        }
        break;
      }
      default: bytes[at] = char(rng()); break;
    }
  }
  return bytes;
}

}  // namespace

TEST_CASE("20,000 mutations of each fixture DLL: no crash, no hang, work in proportion to the size") {
  std::mt19937 rng(20240611);
  std::map<pe_error, int> outcomes;
  std::uint64_t worst_ratio = 0;
  int unexplained = 0;  // an error without words, or words without an error
  auto start = std::chrono::steady_clock::now();
  for (const char* relative : all_fixtures) {
    std::string original = file_bytes(pe_fixture(relative));
    for (int i = 0; i < 20000; ++i) {
      counting_source file(mutate(original, rng));
      pe_info pe = read_pe(file);
      pe_imported_names(file, "zlibwapi.dll");
      pe_imported_names(file, "KERNEL32.dll");
      ++outcomes[pe.error];
      unexplained += (pe.error == pe_error::none) != words::describe(pe.fault).empty();
      worst_ratio = std::max(worst_ratio, file.bytes_read() / (file.size() + 1));
    }
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE("120,000 mutated files in " << seconds << " s; most bytes read per file byte: " << worst_ratio
                                      << "; outcomes none/not_pe/truncated/bad_header/unsupported: "
                                      << outcomes[pe_error::none] << "/" << outcomes[pe_error::not_pe] << "/"
                                      << outcomes[pe_error::truncated] << "/" << outcomes[pe_error::bad_header] << "/"
                                      << outcomes[pe_error::unsupported]);
  // The mutations reach every kind of check, not just the first bytes.
  for (pe_error e :
       {pe_error::none, pe_error::not_pe, pe_error::truncated, pe_error::bad_header, pe_error::unsupported}) {
    CHECK(outcomes[e] > 100);
  }
  CHECK(unexplained == 0);
  CHECK(worst_ratio < 64);
}
