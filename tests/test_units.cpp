// The pure pieces: PATH-list splitting, version decoding, the ld.so.cache reader, JSON strings.
#include <doctest/doctest.h>

#define CUSHIM_IMPLEMENTATION
#include <cushim/status.hpp>
#include <stdlib.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/command_output.hpp"
#include "support/library_files.hpp"
#include "support/temp_tree.hpp"

using namespace cushim::detail;
using namespace cushim::detail::platform;

TEST_CASE("PATH-like lists keep empty and relative entries, marked") {
  auto e = split_path_list("/a::rel/dir:/b/:.");
  REQUIRE(e.size() == 5);
  CHECK(e[0].text == "/a");
  CHECK(e[0].kind == entry_kind::absolute);
  CHECK(e[1].kind == entry_kind::empty);
  CHECK(e[2].text == "rel/dir");
  CHECK(e[2].kind == entry_kind::relative);
  CHECK(e[3].kind == entry_kind::absolute);
  CHECK(e[4].kind == entry_kind::relative);
  CHECK(split_path_list("").size() == 1);
  CHECK(split_path_list(":").size() == 2);
  CHECK(join_path("/a/b/", "libx.so") == "/a/b/libx.so");
  CHECK(join_path("/", "libx.so") == "/libx.so");
  std::string reused = "/a longer path left from the last name/libcudnn_ops.so.9";
  join_path_into(reused, "/b//", "liby.so");  // the buffer's old text is gone
  CHECK(reused == "/b/liby.so");
  CHECK(parent_dir("/usr/bin/app") == "/usr/bin");
  CHECK(parent_dir("/app") == "/");
  CHECK(parent_dir("app").empty());
}

TEST_CASE("version encodings of cuDNN 8, cuDNN 9 and CUDA") {
  CHECK(format_version(decode_cudnn_version(8907), true) == "8.9.7");
  CHECK(format_version(decode_cudnn_version(8500), true) == "8.5.0");
  CHECK(format_version(decode_cudnn_version(91900), true) == "9.19.0");
  CHECK(format_version(decode_cudnn_version(92400), true) == "9.24.0");
  CHECK(format_version(decode_cuda_version(11080), false) == "11.8");
  CHECK(format_version(decode_cuda_version(13000), false) == "13.0");
  CHECK(major_of_file(cudart_descriptor, "libcudart.so.11.0") == 11);
  CHECK(major_of_file(cudart_descriptor, "libcudart.so.13") == 13);
  CHECK(major_of_file(cudart_descriptor, "libcudart.so.10") == 0);
  CHECK(format_version(decode_cublas_version(130100), true) == "13.1.0");
  CHECK(format_version(decode_cublas_version(111003), true) == "11.10.3");
}

TEST_CASE("the driver: an older minor than cuda.h's is a warning under either policy (minor version compatibility)") {
  // The driver API as a program compiled with cuda.h <major>.2 sees it; the fixture driver is <major>.0.
  static const major_file files[] = {{CUSHIM_CUDART_MAJOR, {"libcuda.so.1", "nvcuda.dll"}}};
  library_descriptor newer_headers = driver_descriptor;
  newer_headers.files = files;
  newer_headers.compiled_major = CUSHIM_CUDART_MAJOR;
  newer_headers.compiled_version = CUSHIM_CUDART_MAJOR * 1000 + 20;
  test_support::temp_tree tree;
  tree.copy_file(std::string(CUSHIM_FIXTURE_DIR) + "/driver_good/libcuda.so.1", "lib/libcuda.so.1");
  const char* before = ::getenv("LD_LIBRARY_PATH");
  std::string saved = before ? before : "";
  REQUIRE(::setenv("LD_LIBRARY_PATH", tree.path("lib").c_str(), 1) == 0);
  for (cushim::version_policy policy :
       {cushim::version_policy::same_major_newer_minor, cushim::version_policy::same_major}) {
    library_state state;
    state.desc = &newer_headers;
    cushim::options opts;
    opts.policy = policy;
    loader(state, opts).run();
    CHECK(state.st.code == cushim::error_code::ok);
    CHECK(state.st.path == tree.path("lib/libcuda.so.1"));
    std::string major = std::to_string(CUSHIM_CUDART_MAJOR);
    REQUIRE(state.st.problems.size() == 1);
    CHECK(state.st.problems[0].code == cushim::error_code::version_mismatch);
    CHECK_FALSE(state.st.problems[0].fatal);
    std::string older = " is older than the headers this program was compiled with (";
    CHECK(state.st.problems[0].what == "CUDA driver API " + major + ".0" + older + major + ".2)");
    platform::unload_library(state.handle);
  }
  if (before) {
    ::setenv("LD_LIBRARY_PATH", saved.c_str(), 1);
  } else {
    ::unsetenv("LD_LIBRARY_PATH");
  }
}

TEST_CASE("the libraries' files, per major, as the system loader names them") {
  // Each descriptor's are its record's (tools/libraries.json: the files of the 13.0 toolkit here,
  // readelf -d: their sonames; the majors before from NVIDIA's wheels; the Windows names,
  // docs/windows.md, "Windows"), in the same order, each under its major.
  for (const library_descriptor* d : descriptors) {
    CAPTURE(d->key);
    const std::vector<test_support::record_file> record = test_support::record_files(d->id);
    REQUIRE(d->files.size() == record.size());
    const major_file* f = d->files.begin();
    for (const test_support::record_file& r : record) {
      CHECK(std::string(f->name.posix) == r.posix);
      CHECK(std::string(f->name.windows) == r.windows);
      if (r.major) CHECK(file_name_for_major(*d, r.major) == std::string(r.posix));
      ++f;
    }
  }
  CHECK(nvrtc_hooks::builtins_file_name(13000) == "libnvrtc-builtins.so.13.0");
  CHECK(nvrtc_hooks::builtins_file_name(12040) == "libnvrtc-builtins.so.12.4");
  CHECK(compiled_file_name(driver_descriptor) == std::string("libcuda.so.1"));
  CHECK(other_major_files(driver_descriptor).empty());  // every major's driver is libcuda.so.1
  // Only the driver and NVML, the driver's management library, are searched where the system
  // installs them, with no override; the driver's is the report's driver section.
  for (const library_descriptor* d : descriptors) {
    CAPTURE(d->key);
    CHECK(d->system_only == (d->id == cushim::library::driver || d->id == cushim::library::nvml));
    CHECK((d->override_variable == nullptr) == d->system_only);
    CHECK(d->reports_driver == (d->id == cushim::library::driver));
    CHECK(d->opt_in == (d->id != cushim::library::cudnn && d->id != cushim::library::cudart));
  }
}

namespace {

// A cache written by the system's own ldconfig over a folder holding a fake libcudnn.
std::string make_cache(const test_support::temp_tree& tree, std::string& lib_dir) {
  std::string root = tree.root();
  lib_dir = root + "/lib";
  std::string copy = "mkdir -p " + lib_dir + " && cp " + CUSHIM_FIXTURE_DIR + "/cudnn_good/" + CUSHIM_CUDNN_FILE + " " +
                     lib_dir + "/ && echo " + lib_dir + " > " + root + "/ld.so.conf && /sbin/ldconfig -X -C " + root +
                     "/cache -f " + root + "/ld.so.conf";
  REQUIRE(std::system(copy.c_str()) == 0);
  return std::string(small_file((root + "/cache").c_str()).bytes());
}

}  // namespace

TEST_CASE("ld.so.cache: finds a library by soname in a cache ldconfig wrote") {
  test_support::temp_tree tree;
  std::string lib_dir;
  std::string cache = make_cache(tree, lib_dir);
  REQUIRE(cache.compare(0, 20, "glibc-ld.so.cache1.1") == 0);
  auto paths = ld_so_cache_paths(cache, CUSHIM_CUDNN_FILE);
  REQUIRE(paths.size() == 1);
  CHECK(paths[0] == lib_dir + "/" + CUSHIM_CUDNN_FILE);
  CHECK(ld_so_cache_paths(cache, "libnothing.so.1").empty());
  const std::string file_name = CUSHIM_CUDNN_FILE;
  CHECK(ld_so_cache_paths(cache, file_name.substr(0, file_name.size() - 1)).empty());  // a prefix of the name
  CHECK(ld_so_cache_paths(cache, file_name + "0").empty());                            // the name and more
  CHECK(ld_so_cache_paths(cache, "x" + file_name.substr(1)).empty());                  // another first byte
  CHECK(ld_so_cache_paths(cache, CUSHIM_CUDNN_FILE, 0x0a03).empty());                  // another architecture's flags

  SUBCASE("an old-format header before the new one is skipped") {
    std::string old = std::string("ld.so-1.7.0") + std::string(4, '\0') + std::string(1, '\0');
    CHECK(ld_so_cache_paths(old + cache, CUSHIM_CUDNN_FILE).size() == 1);
  }
  SUBCASE("truncated, lying or garbage caches give nothing and do not crash") {
    for (std::size_t n : {0, 10, 20, 47, 48, 60})
      CHECK(ld_so_cache_paths(cache.substr(0, n), CUSHIM_CUDNN_FILE).empty());
    std::string huge = cache;
    huge[20] = huge[21] = huge[22] = huge[23] = '\xff';  // nlibs = 4 billion
    CHECK(ld_so_cache_paths(huge, CUSHIM_CUDNN_FILE).empty());
    std::string bad_offsets = cache;
    for (std::size_t i = 48; i + 24 <= bad_offsets.size() && i < 48 + 24 * 8; i += 24) {
      std::uint32_t far = 0x7fffffff;
      std::memcpy(&bad_offsets[i + 4], &far, 4);
      std::memcpy(&bad_offsets[i + 8], &far, 4);
    }
    CHECK_NOTHROW(ld_so_cache_paths(bad_offsets, CUSHIM_CUDNN_FILE));
    CHECK(ld_so_cache_paths(std::string(4096, 'z'), CUSHIM_CUDNN_FILE).empty());
  }
}

TEST_CASE("the machine's own ld.so.cache lists what ldconfig -p shows") {
  std::string cache(small_file("/etc/ld.so.cache").bytes());
  REQUIRE_FALSE(cache.empty());
  auto libc = ld_so_cache_paths(cache, "libc.so.6");
  REQUIRE_FALSE(libc.empty());
  CHECK(access(libc[0].c_str(), R_OK) == 0);
#if defined(__x86_64__)
  // Every x86-64 soname ldconfig -p lists, with its paths in ldconfig's order.
  std::map<std::string, std::vector<std::string>> listed;
  std::istringstream lines(test_support::command_output("LC_ALL=C /sbin/ldconfig -p 2>/dev/null"));
  for (std::string line; std::getline(lines, line);) {
    const std::size_t arrow = line.find(" => ");
    if (arrow == std::string::npos || line.find("(libc6,x86-64") == std::string::npos) continue;
    const std::size_t start = line.find_first_not_of(" \t");
    listed[line.substr(start, line.find(" (") - start)].push_back(line.substr(arrow + 4));
  }
  REQUIRE(listed.size() > 10);
  int wrong = 0;
  for (const auto& entry : listed) {
    if (ld_so_cache_paths(cache, entry.first) != entry.second && wrong++ < 5) MESSAGE("differs: " << entry.first);
  }
  CHECK(wrong == 0);
  MESSAGE(listed.size() << " sonames compared with ldconfig -p");
#endif
}

TEST_CASE("JSON strings: quotes, control characters and invalid UTF-8") {
  std::string out;
  append_json_string(out, std::string("a\"b\\c\n\x01 caf\xc3\xa9 \xff\xfe end"));
  CHECK(out == "\"a\\\"b\\\\c\\u000a\\u0001 caf\xc3\xa9 \\ufffd\\ufffd end\"");
}

// What a strict decoder (Python's bytes.decode('utf-8', 'replace'), a TextDecoder) gives: one
// U+FFFD for each maximal ill-formed subpart.
TEST_CASE("JSON strings: only well-formed UTF-8 passes; each ill-formed part becomes one U+FFFD") {
  const std::string replacement = "\\ufffd";
  auto json = [](const std::string& bytes) { return json_string(bytes); };
  CHECK(json(std::string("\xe2\x82", 2)) == "\"" + replacement + "\"");                  // truncated 3-byte sequence
  CHECK(json("\xed\xa0\x80") == "\"" + replacement + replacement + replacement + "\"");  // a surrogate, U+D800
  CHECK(json("\xe0\x80\xaf") == "\"" + replacement + replacement + replacement + "\"");  // overlong '/'
  CHECK(json("\xc0\xaf") == "\"" + replacement + replacement + "\"");                    // overlong 2-byte '/'
  CHECK(json("\xf4\x90\x80\x80") == "\"" + replacement + replacement + replacement + replacement + "\"");  // U+110000
  CHECK(json("\xf5\x80") == "\"" + replacement + replacement + "\"");
  CHECK(json("\xf0\x9f\x98") == "\"" + replacement + "\"");  // a 4-byte sequence cut short
  // The edges of every range pass unchanged.
  for (const char* ok : {"\x7f", "\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf", "\xee\x80\x80", "\xef\xbf\xbf",
                         "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf"}) {
    CHECK(json(ok) == "\"" + std::string(ok) + "\"");
  }
}

TEST_CASE("a root sub-library nowhere: named, with every place cuDNN's own search would look") {
  test_support::temp_tree tree;
  std::string main_path =
      tree.copy_file(std::string(CUSHIM_FIXTURE_DIR) + "/cudnn_tree/" + CUSHIM_CUDNN_FILE, CUSHIM_CUDNN_FILE);
  platform::file_source file(main_path);
  elf_info main_elf = read_elf(file);
  REQUIRE(main_elf.runpath == std::vector<std::string>{"$ORIGIN"});
  sublibrary_finder no_system(main_path, dependency_resolver("", {}));  // no ld.so.cache, no LD_LIBRARY_PATH
  cushim::sublibrary graph =
      locate_sublibrary(cudnn_sublibrary_specs(CUDNN_MAJOR).front(), CUDNN_MAJOR, main_path, no_system);
  std::string file_name = "libcudnn_graph.so." + std::to_string(CUDNN_MAJOR);
  CHECK(graph.file_name == file_name);
  CHECK(graph.required);
  CHECK_FALSE(graph.usable);
  CHECK(graph.path.empty());
  std::string expected = file_name + " is not beside " + main_path +
                         " and cuDNN's own search would not find it (looked in: " + tree.root() +
                         ", ld.so.cache: no entry";
  for (const std::string& dir : system_library_dirs()) expected += ", " + dir;
  CHECK(graph.problem == expected + ")");
}

TEST_CASE("sub-library versions come from the file name or the exported version word") {
  CHECK(cudnn_version_from_file_name("/x/libcudnn_ops.so.9.19.0") == 91900);
  CHECK(cudnn_version_from_file_name("/x/libcudnn_ops_infer.so.8.9.7") == 8907);
  CHECK(cudnn_version_from_file_name("/x/libcudnn_ops.so.9") == 0);
  CHECK(cudnn_version_from_file_name("/x/libcudnn_ops.so.9.1") == 0);
  std::string tree = std::string(CUSHIM_FIXTURE_DIR) + "/cudnn_tree/";
  sublibrary_finder finder(tree + CUSHIM_CUDNN_FILE);
  std::vector<sublibrary_spec> specs = cudnn_sublibrary_specs(CUDNN_MAJOR);
  CHECK(finder.version_of(tree + "libcudnn_graph.so." + std::to_string(CUDNN_MAJOR), specs[0]) == CUDNN_VERSION);
  CHECK(finder.version_of(tree + "libcudnn_ops.so." + std::to_string(CUDNN_MAJOR), specs[1]) == CUDNN_VERSION);
  CHECK(finder.version_of(tree + "libcudnn_cnn.so." + std::to_string(CUDNN_MAJOR), specs[2]) == 0);  // no word
}

TEST_CASE("bounded C strings: terminated within the limit, or refused") {
  memory_source bytes(std::string("abcd\0efgh", 9));
  std::string out;
  CHECK(bytes.read_c_string(0, 4, out));
  CHECK(out == "abcd");
  CHECK_FALSE(bytes.read_c_string(0, 3, out));       // the NUL comes after the limit
  CHECK(bytes.read_c_string(5, 100, out) == false);  // runs to the end with no NUL
  CHECK_FALSE(bytes.read_c_string(9, 10, out));
  std::string long_name(200, 'x');
  memory_source big(long_name + std::string(1, '\0'));
  CHECK(big.read_c_string(0, 200, out));
  CHECK(out.size() == 200);
  CHECK_FALSE(big.read_c_string(0, 199, out));
}
