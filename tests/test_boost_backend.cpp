// The Boost.DLL backend (CUSHIM_USE_BOOST_DLL, the boost preset): every library cushim loads is a
// boost::dll::shared_library, loaded with the native loader's flags, counted as the system counts
// references, and refused with the native loader's own text. Built only in that configuration, so
// it also proves that the preset's other test programs and the probe they run use the backend.
#include <doctest/doctest.h>

#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>

#ifndef CUSHIM_USE_BOOST_DLL
#error "test_boost_backend checks the Boost.DLL backend: build it with CUSHIM_USE_BOOST_DLL"
#endif

#include <dlfcn.h>
#include <unistd.h>

#include <cstddef>
#include <filesystem>
#include <string>

#include "support/probe.hpp"

using namespace cushim::detail;
namespace boost_dll = cushim::detail::platform::boost_dll;

namespace {

const std::string fixtures = CUSHIM_FIXTURE_DIR;
const std::string dependency = fixtures + "/dependency/libfakedependency.so";

// Whether the system has the file loaded, asked without cushim and without loading it.
bool loaded_now(const std::string& path) {
  void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (h) ::dlclose(h);
  return h != nullptr;
}

// The references cushim holds on h: through a shared_library, or native (find_loaded's).
std::size_t count_references(platform::library_handle h, bool through_boost) {
  std::size_t n = 0;
  for (const boost_dll::reference& r : boost_dll::references()) n += r.handle == h && bool(r.library) == through_boost;
  return n;
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ignored;
  return std::filesystem::equivalent(a, b, ignored);
}

// Runs a block in another current folder.
class current_folder {
 public:
  explicit current_folder(const std::string& folder) : previous_(std::filesystem::current_path()) {
    std::filesystem::current_path(folder);
  }
  ~current_folder() {
    std::error_code ignored;
    std::filesystem::current_path(previous_, ignored);
  }
  current_folder(const current_folder&) = delete;
  current_folder& operator=(const current_folder&) = delete;

 private:
  std::filesystem::path previous_;
};

}  // namespace

TEST_CASE("the loader's libraries are Boost's: cuDNN, its root sub-library and the CUDA runtime") {
  cushim::options opts;
  opts.use_environment = false;
  opts.files[cushim::library::cudnn] = fixtures + "/cudnn_tree";
  opts.files[cushim::library::cudart] = fixtures + "/cudart_good";
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
    CHECK(same_file(held->location(error).string(), cushim::status_of(lib).path));
    CHECK_FALSE(error);
    CHECK(count_references(state.handle, true) == 1);
  }
  CHECK(cudnnGetVersion() == CUDNN_VERSION);  // a stub resolved in the library Boost loaded

  // The root sub-library, loaded by cushim before cuDNN runs, is held by Boost too.
  const cushim::status& st = cushim::status_of(cushim::library::cudnn);
  REQUIRE_FALSE(st.sublibraries.empty());
  const cushim::sublibrary& root = st.sublibraries.front();
  CHECK(root.file_name == "libcudnn_graph.so." + std::to_string(CUDNN_MAJOR));
  void* graph = ::dlopen(root.path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(graph != nullptr);
  CHECK(boost_dll::library_of(graph) != nullptr);
  ::dlclose(graph);
}

TEST_CASE("a load: RTLD_LOCAL, symbols through the shared_library, unloaded with it") {
  const std::string path = fixtures + "/cudnn_good/" + CUSHIM_CUDNN_FILE;
  REQUIRE_FALSE(loaded_now(path));
  platform::load_result r = platform::load_library(path);
  REQUIRE(r.handle != nullptr);
  CHECK(r.error.empty());
  CHECK(platform::loaded_path_of(r.handle) == path);
  auto held = boost_dll::library_of(r.handle);
  REQUIRE(held != nullptr);
  CHECK(held->has("fake_library_identity"));

  platform::any_function identity = platform::find_symbol(r.handle, "fake_library_identity");
  REQUIRE_MESSAGE(bool(identity), "fake_library_identity not found");
  CHECK(std::string(reinterpret_cast<const char* (*)()>(identity)()) == "cudnn_good");
  const bool missing = platform::find_symbol(r.handle, "cudnnNoSuchFunction") == nullptr;
  CHECK(missing);
  CHECK(::dlsym(RTLD_DEFAULT, "fake_library_identity") == nullptr);  // RTLD_LOCAL: not global

  held.reset();
  platform::unload_library(r.handle);
  CHECK(boost_dll::library_of(r.handle) == nullptr);
  CHECK_FALSE(loaded_now(path));
}

TEST_CASE("references: two loads and a copy found already loaded, dropped one at a time") {
  REQUIRE_FALSE(loaded_now(dependency));
  platform::load_result a = platform::load_library(dependency);
  platform::load_result b = platform::load_library(dependency);
  REQUIRE(a.handle != nullptr);
  REQUIRE(a.handle == b.handle);  // one library, two references
  CHECK(count_references(a.handle, true) == 2);

  // find_loaded is the native lookup; the reference it takes is the one its unload drops.
  std::string path;
  platform::library_handle found = platform::find_loaded("libfakedependency.so", path);
  CHECK(found == a.handle);
  CHECK(path == dependency);
  CHECK(count_references(a.handle, false) == 1);
  platform::unload_library(found);
  CHECK(count_references(a.handle, false) == 0);
  CHECK(count_references(a.handle, true) == 2);
  CHECK(platform::loaded_copy_path("libfakedependency.so") == dependency);
  CHECK(count_references(a.handle, true) == 2);

  platform::unload_library(a.handle);
  CHECK(count_references(a.handle, true) == 1);
  CHECK(loaded_now(dependency));
  platform::unload_library(b.handle);
  CHECK(count_references(a.handle, true) == 0);
  CHECK_FALSE(loaded_now(dependency));
  CHECK(platform::loaded_copy_path("libfakedependency.so").empty());
}

TEST_CASE("a refused load reads exactly as the native loader's: dlerror()'s text, nothing held") {
  REQUIRE_FALSE(loaded_now(dependency));  // else the library that needs it would load
  const std::string undefined = fixtures + "/undefined_symbol/libundefinedsymbol.so";
  struct refused {
    std::string what;
    std::string path;
    std::string says;
  };
  const refused cases[] = {
      {"no such file", fixtures + "/cudnn_good/libcudnn_nothing.so", "No such file or directory"},
      {"a folder", fixtures + "/cudnn_good", "Is a directory"},
      {"a text file", fixtures + "/cudnn_text_file/" + CUSHIM_CUDNN_FILE, "file too short"},
      {"a missing dependency", fixtures + "/cudnn_needs_dependency/" + CUSHIM_CUDNN_FILE,
       "libfakedependency.so: cannot open shared object file: No such file or directory"},
      {"an undefined symbol (RTLD_NOW)", undefined, "undefined symbol: cushim_fixture_defined_nowhere"},
  };
  for (const refused& c : cases) {
    CAPTURE(c.what);
    CAPTURE(c.path);
    const std::size_t held = boost_dll::references().size();
    platform::load_result through_boost = platform::load_library(c.path);
    platform::load_result native = platform::native::load_library(c.path);
    CHECK(through_boost.handle == nullptr);
    CHECK(native.handle == nullptr);
    CHECK(through_boost.error == native.error);
    INFO("says: " << through_boost.error);
    CHECK(through_boost.error.find(c.says) != std::string::npos);
    CHECK(boost_dll::references().size() == held);
  }
  // Refused only because the load is RTLD_NOW: lazily the same file loads.
  void* lazy = ::dlopen(undefined.c_str(), RTLD_LAZY | RTLD_LOCAL);
  CHECK(lazy != nullptr);
  if (lazy) ::dlclose(lazy);
}

TEST_CASE("a name without a folder reaches dlopen unchanged: never the current folder") {
  // Boost would make it "./libfakedependency.so", which loads from here; dlopen's own search does not
  // look here, and cushim passes only absolute paths anyway.
  current_folder here(fixtures + "/dependency");
  platform::load_result through_boost = platform::load_library("libfakedependency.so");
  platform::load_result native = platform::native::load_library("libfakedependency.so");
  CHECK(through_boost.handle == nullptr);
  CHECK(through_boost.error == native.error);
  CHECK(through_boost.error == "libfakedependency.so: cannot open shared object file: No such file or directory");
}

TEST_CASE("the probe, which runs the scenario tests, loads through Boost.DLL too") {
  test_support::probe_call call;
  call.env["CUSHIM_CUDNN_PATH"] = fixtures + "/cudnn_tree";
  call.env["CUSHIM_CUDART_PATH"] = fixtures + "/cudart_good";
  test_support::probe_output out = test_support::run_probe(call);
  INFO(out.text);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnn.loader") == "Boost.DLL");
  CHECK(out.get("cudart.code") == "ok");
  CHECK(out.get("cudart.loader") == "Boost.DLL");
  CHECK(out.get("cudnnGetVersion") == std::to_string(CUDNN_VERSION));

  // A copy already in the process is found by the native lookup and kept as it is.
  test_support::probe_call preloaded;
  test_support::preload(preloaded, fixtures + "/cudnn_good/" + CUSHIM_CUDNN_FILE);
  out = test_support::run_probe(preloaded);
  CHECK(out.get("cudnn.code") == "ok");
  CHECK(out.get("cudnn.identity") == "cudnn_good");
  CHECK(out.get("cudnn.loader") == "system");
}
