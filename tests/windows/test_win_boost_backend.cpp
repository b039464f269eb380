// The Boost.DLL backend on Windows (CUSHIM_USE_BOOST_DLL, this program only): every library cushim
// loads is a boost::dll::shared_library, loaded with cushim's LoadLibraryExW flags (never from the
// current folder), counted as Windows counts references, and refused with the same decoded code.
#include <doctest/doctest.h>

#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>

#ifndef CUSHIM_USE_BOOST_DLL
#error "test_win_boost_backend checks the Boost.DLL backend: build it with CUSHIM_USE_BOOST_DLL"
#endif

#include <cstddef>
#include <filesystem>
#include <string>

#include "support/win_probe.hpp"

using namespace cushim::detail;
namespace boost_dll = cushim::detail::platform::boost_dll;

namespace {

// The references cushim holds on h: through a shared_library, or native (find_loaded's).
std::size_t count_references(platform::library_handle h, bool through_boost) {
  std::size_t n = 0;
  for (const boost_dll::reference& r : boost_dll::references()) n += r.handle == h && bool(r.library) == through_boost;
  return n;
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ignored;
  return std::filesystem::equivalent(std::filesystem::path(platform::widen(a)),
                                     std::filesystem::path(platform::widen(b)), ignored);
}

}  // namespace

TEST_CASE("the loader's libraries are Boost's: cuDNN and the CUDA runtime") {
  cushim::options opts;
  opts.use_environment = false;
  opts.files[cushim::library::cudnn] = win_test::fixture("cudnn_good", CUSHIM_CUDNN_FILE);
  opts.files[cushim::library::cudart] = win_test::fixture("cudart_good", CUSHIM_CUDART_FILE);
  REQUIRE(cushim::configure(opts));
  REQUIRE(cushim::available(cushim::library::cudnn));
  REQUIRE(cushim::available(cushim::library::cudart));
  for (cushim::library lib : {cushim::library::cudnn, cushim::library::cudart}) {
    CAPTURE(cushim::to_string(lib));
    const library_state& state = state_of(lib);
    auto held = boost_dll::library_of(state.handle);
    REQUIRE(held != nullptr);
    CHECK(held->native() == state.handle);
    boost::dll::fs::error_code error;
    CHECK(same_file(platform::narrow(held->location(error).wstring()), cushim::status_of(lib).path));
    CHECK_FALSE(error);
  }
  CHECK(cudnnGetVersion() == CUDNN_VERSION);  // a stub resolved in the library Boost loaded
}

TEST_CASE("a load in a Unicode folder, symbols through it, references dropped one at a time") {
  win_test::temp_dir tree;
  const std::string dll = tree.copy(win_test::fixture("cudnn_good", CUSHIM_CUDNN_FILE), "用户\\café\\b.dll");
  platform::load_result a = platform::load_library(dll);
  platform::load_result b = platform::load_library(dll);
  REQUIRE(a.handle != nullptr);
  REQUIRE(a.handle == b.handle);
  CHECK(a.code == 0);
  CHECK(platform::loaded_path_of(a.handle) == dll);
  CHECK(count_references(a.handle, true) == 2);
  const bool exported = platform::find_symbol(a.handle, "cudnnGetVersion") != nullptr;
  const bool missing = platform::find_symbol(a.handle, "cudnnNoSuchFunction") == nullptr;
  CHECK(exported);
  CHECK(missing);

  std::string path;
  platform::library_handle found = platform::find_loaded("b.dll", path);  // GetModuleHandleExW: native
  CHECK(found == a.handle);
  CHECK(path == dll);
  CHECK(count_references(a.handle, false) == 1);
  platform::unload_library(found);
  CHECK(count_references(a.handle, false) == 0);
  CHECK(count_references(a.handle, true) == 2);
  platform::unload_library(a.handle);
  CHECK(platform::loaded_copy_path("b.dll") == dll);
  platform::unload_library(b.handle);
  CHECK(count_references(a.handle, true) == 0);
  CHECK(platform::loaded_copy_path("b.dll").empty());
}

TEST_CASE("a refused load reads exactly as the native loader's: the same code, decoded") {
  win_test::temp_dir tree;
  struct refused {
    std::string what;
    std::string path;
    unsigned long code;
  };
  const refused cases[] = {
      {"no such file", tree.path("none.dll"), 126},
      {"a missing dependency (zlibwapi.dll)", win_test::fixture("cudnn_needs_zlib", CUSHIM_CUDNN_FILE), 126},
      {"a 32-bit DLL", win_test::fixture("cudnn_x86", CUSHIM_CUDNN_FILE), 193},
      {"a relative path", "none.dll", 87},
  };
  for (const refused& c : cases) {
    CAPTURE(c.what);
    const std::size_t held = boost_dll::references().size();
    platform::load_result through_boost = platform::load_library(c.path);
    platform::load_result native = platform::native::load_library(c.path);
    CHECK(through_boost.handle == nullptr);
    CHECK(through_boost.code == c.code);
    CHECK(through_boost.code == native.code);
    CHECK(through_boost.error == native.error);
    CHECK(through_boost.error.rfind("LoadLibraryExW failed with error " + std::to_string(c.code) + " (", 0) == 0);
    CHECK(boost_dll::references().size() == held);
  }
}

TEST_CASE("never the current folder: a bare name is refused, or searched in the default folders only") {
  // Boost would prefix a relative name with the current folder, which holds the DLL here; it is in
  // none of the default folders (the programs' folder, System32).
  const std::filesystem::path previous = std::filesystem::current_path();
  std::filesystem::current_path(std::filesystem::path(platform::widen(std::string(CUSHIM_FIXTURE_DIR) + "/zlibwapi")));
  platform::load_result relative = platform::load_library("zlibwapi.dll");
  platform::load_result default_dirs = platform::load_from_default_dirs("zlibwapi.dll");
  platform::load_result native_default_dirs = platform::native::load_from_default_dirs("zlibwapi.dll");
  std::filesystem::current_path(previous);
  CHECK(relative.handle == nullptr);
  CHECK(relative.code == 87);
  CHECK(default_dirs.handle == nullptr);
  CHECK(default_dirs.code == 126);
  CHECK(default_dirs.code == native_default_dirs.code);
  CHECK(default_dirs.error == native_default_dirs.error);
  CHECK(platform::loaded_copy_path("zlibwapi.dll").empty());
}
