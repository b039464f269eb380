// boost::dll::library_info, compiled with MinGW-w64 and run under Wine, as an independent oracle for
// pe.hpp's export reading: for every fixture DLL (x64 and x86, from a few exports to the recording
// DLLs' hundreds), the names cushim reads from the export directory are exactly library_info's.
#include <doctest/doctest.h>

#include <boost/dll/library_info.hpp>

#include <cushim/detail/files/pe.hpp>
#include <cushim/detail/files/words/pe.hpp>
#include <cushim/detail/platform/platform.hpp>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <iterator>
#include <set>
#include <string>
#include <vector>

using namespace cushim::detail;
using names = std::set<std::string>;

namespace {

names boost_exports(const std::string& path) {
  names out;
  try {
    boost::dll::library_info info(std::filesystem::path(platform::widen(path)), false);
    for (const std::string& name : info.symbols()) out.insert(name);
  } catch (const std::exception& e) {
    FAIL_CHECK(path << ": boost::dll::library_info threw: " << e.what());
  }
  return out;
}

names cushim_exports(const std::string& path) {
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

}  // namespace

TEST_CASE("every fixture DLL: cushim's export directory is library_info's") {
  std::vector<std::string> dlls;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::filesystem::path(platform::widen(CUSHIM_FIXTURE_DIR)))) {
    if (entry.is_regular_file() && entry.path().extension() == L".dll")
      dlls.push_back(platform::narrow(entry.path().wstring()));
  }
  std::sort(dlls.begin(), dlls.end());
  REQUIRE(dlls.size() >= 7);
  std::size_t largest = 0;
  for (const std::string& path : dlls) {
    CAPTURE(path);
    const names cushim = cushim_exports(path);
    const names oracle = boost_exports(path);
    names only_cushim, only_oracle;
    std::set_difference(cushim.begin(), cushim.end(), oracle.begin(), oracle.end(),
                        std::inserter(only_cushim, only_cushim.end()));
    std::set_difference(oracle.begin(), oracle.end(), cushim.begin(), cushim.end(),
                        std::inserter(only_oracle, only_oracle.end()));
    INFO("only cushim:" << listed(only_cushim));
    INFO("only library_info:" << listed(only_oracle));
    CHECK_FALSE(cushim.empty());
    CHECK(cushim == oracle);
    largest = std::max(largest, cushim.size());
  }
  CHECK(largest >= 100);  // the recording DLLs export every cushim table entry
}
