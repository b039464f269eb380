// boost::dll::library_info as an independent oracle for cushim's own export reading: the names
// cushim reads as exported (ELF: the dynamic symbol table as elf.hpp's lookup walks it; PE: pe.hpp's
// export directory) must be exactly the names library_info lists, for the real cuDNN and CUDA
// runtime and for every fixture library.
//
// On paper the two ELF readers differ; the exact comparison shows that no difference shows in these
// files, so nothing is filtered:
// - The table. library_info reads .symtab when the file has one, else .dynsym, both found through
//   the section headers; cushim reads the table DT_SYMTAB points at (.dynsym). NVIDIA's libraries
//   are stripped, so both read .dynsym. The fixtures built here keep .symtab, so there library_info
//   reads the link-time table and cushim the run-time one: equal because every global symbol of
//   default visibility in a fixture is exported (hidden ones turn local in .symtab).
// - The filter. library_info keeps non-local symbols of default or protected visibility with a
//   non-zero size; cushim keeps global, weak or unique ones of default or protected visibility, of
//   type object or function, defined in a section. Undefined symbols (imports) have size 0 in these
//   tables and the linker's NOTYPE markers (_end, __bss_start, ...) too, so both readers drop them;
//   neither file has TLS or IFUNC exports, the kinds only library_info would list.
// - Versions. .dynsym names carry no version suffix (versions live in .gnu.version*): a name defined
//   in two versions is listed twice by both, so sets are compared.
#include <doctest/doctest.h>

#include <boost/dll/library_info.hpp>

#include <cudnn.h>
#include <cushim/detail/files/pe.hpp>
#include <cushim/detail/files/words/pe.hpp>
#include <cushim/detail/platform/platform.hpp>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "support/elf_exports.hpp"

using namespace cushim::detail;
using names = std::set<std::string>;

namespace {

struct oracle_view {
  names symbols;
  bool has_symtab = false;  // library_info then reads .symtab, not .dynsym
};

oracle_view boost_view(const std::string& path) {
  oracle_view view;
  try {
    boost::dll::library_info info(path, false);
    std::vector<std::string> symbols = info.symbols();
    std::vector<std::string> sections = info.sections();
    view.symbols.insert(symbols.begin(), symbols.end());
    view.has_symtab = std::find(sections.begin(), sections.end(), ".symtab") != sections.end();
  } catch (const std::exception& e) {
    FAIL_CHECK(path << ": boost::dll::library_info threw: " << e.what());
  }
  return view;
}

names cushim_elf_exports(const std::string& path) {
  platform::file_source file(path);
  REQUIRE_MESSAGE(file.ok(), path << ": " << file.error());
  test_support::elf_exports exports = test_support::read_elf_exports(file);
  REQUIRE_MESSAGE(exports.ok, path << ": " << exports.error);
  return names(exports.names.begin(), exports.names.end());
}

names cushim_pe_exports(const std::string& path) {
  platform::file_source file(path);
  REQUIRE_MESSAGE(file.ok(), path << ": " << file.error());
  pe_info info = read_pe(file);
  REQUIRE_MESSAGE(info.error == pe_error::none, path << ": " << cushim::detail::words::describe(info.fault));
  return names(info.exports.begin(), info.exports.end());
}

std::string listed(const names& set) {
  std::string text;
  for (const std::string& name : set) text += "\n  " + name;
  return text;
}

// Equal sets, and where they differ, which names each side alone has.
void check_same(const std::string& path, const names& cushim, const names& oracle) {
  names only_cushim, only_oracle;
  std::set_difference(cushim.begin(), cushim.end(), oracle.begin(), oracle.end(),
                      std::inserter(only_cushim, only_cushim.end()));
  std::set_difference(oracle.begin(), oracle.end(), cushim.begin(), cushim.end(),
                      std::inserter(only_oracle, only_oracle.end()));
  INFO(path << ": cushim " << cushim.size() << " names, library_info " << oracle.size());
  INFO("only cushim:" << listed(only_cushim));
  INFO("only library_info:" << listed(only_oracle));
  CHECK(cushim == oracle);
}

// The ELF shared libraries under a folder (the fixture tree), skipping what is not ELF.
std::vector<std::string> elf_files_under(const std::string& folder) {
  std::vector<std::string> found;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    platform::file_source file(entry.path().string());
    if (file.ok() && read_elf(file).error == elf_error::none) found.push_back(entry.path().string());
  }
  std::sort(found.begin(), found.end());
  return found;
}

bool has(const names& set, const std::string& name) { return set.count(name) != 0; }

}  // namespace

TEST_CASE("the real cuDNN and CUDA runtime: cushim's exports are library_info's") {
  const std::string dir = CUSHIM_CUDA_LIB_DIR;
  struct real {
    std::string file;
    std::vector<std::string> must_export;
    std::size_t at_least;
  };
  std::vector<real> libraries = {{CUSHIM_CUDNN_FILE, {"cudnnGetVersion", "cudnnCreate"}, 100},
                                 {CUSHIM_CUDART_FILE, {"cudaRuntimeGetVersion", "cudaMalloc"}, 100}};
  if (CUDNN_MAJOR >= 9) {
    libraries.push_back({"libcudnn_graph.so." + std::to_string(CUDNN_MAJOR), {"cudnn_graph_version"}, 100});
  }
  for (const real& lib : libraries) {
    const std::string path = dir + "/" + lib.file;
    CAPTURE(path);
    const names cushim = cushim_elf_exports(path);
    const oracle_view oracle = boost_view(path);
    CHECK_FALSE(oracle.has_symtab);  // stripped: both read .dynsym
    CHECK(cushim.size() >= lib.at_least);
    for (const std::string& name : lib.must_export) CHECK(has(cushim, name));
    check_same(path, cushim, oracle.symbols);
  }
}

TEST_CASE("every fixture library: cushim's .dynsym exports are library_info's .symtab globals") {
  const std::vector<std::string> files = elf_files_under(CUSHIM_FIXTURE_DIR);
  const std::string main_fixture = std::string(CUSHIM_FIXTURE_DIR) + "/cudnn_good/" + CUSHIM_CUDNN_FILE;
  REQUIRE(std::find(files.begin(), files.end(), main_fixture) != files.end());
  CHECK(files.size() >= 20);
  std::size_t with_symtab = 0;
  for (const std::string& path : files) {
    CAPTURE(path);
    const names cushim = cushim_elf_exports(path);
    const oracle_view oracle = boost_view(path);
    with_symtab += oracle.has_symtab;
    CHECK_FALSE(cushim.empty());
    check_same(path, cushim, oracle.symbols);
  }
  CHECK(with_symtab == files.size());  // built here, not stripped: library_info read .symtab
  CHECK(has(cushim_elf_exports(main_fixture), "fake_library_identity"));
}

TEST_CASE("the PE fixture DLLs (x64 and x86): cushim's export directory is library_info's") {
  std::vector<std::string> dlls;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(CUSHIM_PE_FIXTURE_DIR)) {
    if (entry.is_regular_file() && entry.path().extension() == ".dll") dlls.push_back(entry.path().string());
  }
  std::sort(dlls.begin(), dlls.end());
  REQUIRE(dlls.size() >= 6);
  for (const std::string& path : dlls) {
    CAPTURE(path);
    const names cushim = cushim_pe_exports(path);
    CHECK_FALSE(cushim.empty());
    check_same(path, cushim, boost_view(path).symbols);
  }
  CHECK(has(cushim_pe_exports(std::string(CUSHIM_PE_FIXTURE_DIR) + "/x64/cudnn64_8.dll"), "cudnnGetVersion"));
}
