// NVRTC as data (CUSHIM_NVRTC), and the hook only it has: its builtins library, which NVRTC loads
// by name when it compiles. Compiles without <nvrtc.h>; what needs it is behind the macro.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "../api_tables.hpp"
#include "../descriptor.hpp"
#include "../fallback_status.hpp"
#include "../words/loading.hpp"
#include "../state.hpp"
#include "../sublibraries.hpp"

namespace cushim {
namespace detail {
namespace {

#ifdef CUSHIM_NVRTC
// NVRTC documents no code for "the library is absent" or "it lacks this function": INTERNAL_ERROR
// is its "NVRTC itself failed" answer, which callers do not read as a fault in their input.
template <>
struct fallback_status<nvrtcResult> {
  static constexpr nvrtcResult unavailable = NVRTC_ERROR_INTERNAL_ERROR;  // 11
  static constexpr nvrtcResult missing = NVRTC_ERROR_INTERNAL_ERROR;
};

constexpr bool nvrtc_shimmed = true;
// nvrtc.h says no version; NVRTC is the toolkit's, of the runtime headers' release.
constexpr int nvrtc_compiled_version = CUDART_VERSION;
constexpr int nvrtc_compiled_major = CUSHIM_NVRTC_MAJOR;
#else
constexpr bool nvrtc_shimmed = false;
constexpr int nvrtc_compiled_version = 0;
constexpr int nvrtc_compiled_major = 0;
#endif

namespace nvrtc_hooks {

// nvrtcVersion(&major, &minor), in the CUDA encoding; it needs no GPU. 0 when it fails.
inline long query_version(platform::any_function f) {
  int major = 0, minor = 0;
  if (reinterpret_cast<int (*)(int*, int*)>(f)(&major, &minor) != 0) return 0;
  return encode_cuda_version(major, minor, 0);
}

// The builtins of one NVRTC release: libnvrtc-builtins.so.13.0, nvrtc-builtins64_130.dll.
inline std::string builtins_file_name(long nvrtc_version) {
  version_parts v = decode_cuda_version(nvrtc_version);
  if (platform::windows_names) return "nvrtc-builtins64_" + std::to_string(v.major) + std::to_string(v.minor) + ".dll";
  return "libnvrtc-builtins.so." + std::to_string(v.major) + "." + std::to_string(v.minor);
}

// NVRTC loads its builtins by name when it compiles, not from its own folder (libnvrtc has no
// RUNPATH): a copy loaded from a pip wheel or an override would compile nothing, or take another
// install's builtins of the same name (ld.so.cache's toolkit), whose IR can be of another release.
// The copy beside it, its own release's, is loaded now by absolute path, so NVRTC finds it in the
// process (what torch's and CuPy's processes map); else the one its search finds. Whether that one
// loads is checked for a report, not here.
inline void locate_builtins(library_state& lib, platform::library_handle) {
  sublibrary b;
  b.name = "builtins";
  b.file_name = builtins_file_name(lib.st.version);
  b.version = lib.st.version;
  sublibrary_finder finder(lib.st.path);
  std::vector<std::string> searched;
  std::string by_name = finder.by_name(b.file_name, searched);
  b.path = by_name;
  b.usable = !b.path.empty();
  std::string beside = join_path(parent_dir(lib.st.path), b.file_name), why_not;
  bool same = !by_name.empty() && platform::identity_of(by_name) == platform::identity_of(beside);
  if (!same && finder.loadable(beside, why_not)) {
    sublibrary own = b;
    own.path = beside;
    if (load_sublibrary(own, finder, lib.sublibrary_handles) || by_name.empty()) b = own;  // else NVRTC's own find
    b.preloaded = b.path == beside && b.usable;
  } else if (b.path.empty()) {
    b.problem = "it is not beside " + lib.st.path +
                ", and NVRTC's load by name would not find it (looked in: " + joined(searched) + ")";
  }
  lib.st.sublibraries.push_back(b);
}

// Before a report: a copy NVRTC's search finds is checked from its files, and an unusable one is a
// warning, once.
inline void complete_status(library_state& lib) {
  std::lock_guard<std::recursive_mutex> lock(lib.completion_mutex);
  if (lib.sublibraries_reported || !lib.loaded.load(std::memory_order_acquire)) return;
  lib.sublibraries_reported = true;
  for (sublibrary& b : lib.st.sublibraries) {
    if (b.usable && !b.preloaded) {
      sublibrary_finder finder(lib.st.path);
      check_sublibrary(b, finder);
    }
    if (b.usable) continue;
    std::string major = std::to_string(decode_cuda_version(lib.st.version).major);
    lib.st.problems.push_back(problems_of::builtins_unusable(
        b, format_version(decode_cuda_version(lib.st.version), false), major, lib.st.path));
  }
}

}  // namespace nvrtc_hooks

constexpr major_file nvrtc_files[] = {{11, {"libnvrtc.so.11.2", "nvrtc64_112_0.dll"}},
                                      {12, {"libnvrtc.so.12", "nvrtc64_120_0.dll"}},
                                      {13, {"libnvrtc.so.13", "nvrtc64_130_0.dll"}}};
// pip wheels: nvidia/cuda_nvrtc for CUDA 11 and 12, nvidia/cu13 from CUDA 13 on.
constexpr const char* nvrtc_pip_packages[] = {"cuda_nvrtc", "cu" CUSHIM_STRINGIFY(CUSHIM_CUDART_MAJOR)};
constexpr const char* nvrtc_zeroed_outputs[] = {"nvrtcVersion", "nvrtcGetNumSupportedArchs"};

inline constexpr library_descriptor nvrtc_descriptor =
    describe_library(library::nvrtc)
        .key("nvrtc")
        .display_name("NVRTC")
        .in_sentence("NVRTC")
        .shimmed(nvrtc_shimmed)
        .opt_in()
        .disabled_by("CUSHIM_NVRTC")
        .disabled_why("CUSHIM_NVRTC is not defined: the program links NVRTC itself, if it uses it")
        .compiled_version(nvrtc_compiled_version)
        .compiled_major(nvrtc_compiled_major)
        .files(nvrtc_files)
        .link_name("nvrtc")
        .version_function("nvrtcVersion")
        .query_version(&nvrtc_hooks::query_version)
        .decode_version(&decode_cuda_version)
        .encode_version(&encode_cuda_version)
        .older_minor_effect("return NVRTC_ERROR_INTERNAL_ERROR")
        .override_variable("CUSHIM_NVRTC_PATH")
        .in_toolkit()
        .pip_packages(nvrtc_pip_packages)
        .effect("nvrtc* calls return NVRTC_ERROR_INTERNAL_ERROR; nvrtcVersion sets 0")
        .unavailable_text("cushim: NVRTC is unavailable; cushim::explain() says why and what to do")
        .missing_text("cushim: the loaded NVRTC lacks this function; cushim::explain() says which copy was loaded")
        .missing_returns("NVRTC_ERROR_INTERNAL_ERROR")
        .blocked_returns("NVRTC_ERROR_INTERNAL_ERROR")
        .zeroed_outputs(nvrtc_zeroed_outputs)
        .adopted(&nvrtc_hooks::locate_builtins)
        .complete_status(&nvrtc_hooks::complete_status);

}  // namespace
}  // namespace detail
}  // namespace cushim

// NVRTC's table lines (stubs.hpp): the group column is unused; nvrtc.h declares no calling
// convention. `define` is CUSHIM_DEFINE_STUB or CUSHIM_DEFINE_DECLARED_STUB.
#define CUSHIM_API_nvrtc(define, group, ret, name, params, args) define(nvrtc, , ret, name, params, args, group)
#define CUSHIM_HEADERS_nvrtc "NVRTC headers of CUDA " CUSHIM_STRINGIFY(CUDART_VERSION)
