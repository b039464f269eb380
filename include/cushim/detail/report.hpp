// Turns the recorded state into text for a person (explain) and JSON for a program.
#pragma once

#include <cstdio>
#include <string>

#include "driver.hpp"
#include "library.hpp"

namespace cushim {
namespace detail {

struct report_input {
  const driver_status& driver;
  std::vector<const status*> libraries;  // cudart (unless not shimmed), then cudnn
  std::vector<std::string> notes;
};

inline const library_spec& spec_of(library lib) { return lib == library::cudnn ? cudnn_spec() : cudart_spec(); }

inline void append_problem(std::string& out, const problem& p) {
  out += std::string("  ") + (p.fatal ? "ERROR" : "WARNING") + ": " + p.what + "\n";
  if (!p.path.empty()) out += "    file: " + p.path + "\n";
  if (!p.why.empty()) out += "    why:  " + p.why + "\n";
  if (!p.fix.empty()) out += "    fix:  " + p.fix + "\n";
}

inline std::vector<std::string> missing_functions_of(library lib) {
  library_state& state = lib == library::cudnn ? shim().cudnn : shim().cudart;
  std::lock_guard<std::mutex> lock(state.missing_mutex);
  return state.missing_functions;
}

// "function|sub-library file" entries of functions routed to the fallback.
inline std::vector<std::pair<std::string, std::string>> blocked_functions_of(library lib) {
  library_state& state = lib == library::cudnn ? shim().cudnn : shim().cudart;
  std::lock_guard<std::mutex> lock(state.missing_mutex);
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& entry : state.blocked_functions) {
    std::size_t bar = entry.find('|');
    out.emplace_back(entry.substr(0, bar), entry.substr(bar + 1));
  }
  return out;
}

inline void append_sublibraries(std::string& out, const std::vector<sublibrary>& subs) {
  if (subs.empty()) return;
  out += "  sub-libraries:\n";
  for (const sublibrary& s : subs) {
    out += "    " + s.file_name + ": " + (s.usable ? "OK" : "UNUSABLE") + (s.required ? " (required)" : "");
    if (s.version) out += ", " + format_version(decode_cudnn_version(s.version), true);
    if (!s.path.empty()) out += ", " + s.path;
    if (s.preloaded) out += " (preloaded by cushim: cuDNN's own search would not find this copy)";
    out += "\n";
    if (!s.usable) out += "      why: " + s.problem + "\n";
  }
}

// The CUDA major cuDNN was built for against the runtime in use.
inline void append_cuda_agreement(std::string& out, const status& cudnn, const status* cudart) {
  if (cudnn.code != error_code::ok || !cudnn.built_for_cuda || !cudart || cudart->code != error_code::ok) return;
  int built = cudnn.built_for_cuda / 1000, runtime = cudart->version / 1000;
  if (built == runtime) return;
  append_problem(out, {error_code::version_mismatch, false,
                       "cuDNN was built for CUDA " + std::to_string(built) + ", but the CUDA runtime in use is " +
                           format_version(decode_cuda_version(cudart->version), false),
                       cudart->path, "cuDNN and the CUDA runtime must share a major version",
                       "use the cuDNN build for CUDA " + std::to_string(runtime) + ", or the CUDA " +
                           std::to_string(built) + " runtime"});
}

inline void append_driver(std::string& out, const driver_status& d, const status& cudart) {
  if (d.found) {
    out += "NVIDIA driver: " + d.path;
    if (d.cuda_version) out += ", supports CUDA up to " + format_version(decode_cuda_version(d.cuda_version), false);
    out += "\n";
    if (d.cuda_version && cudart.code == error_code::ok && d.cuda_version / 1000 < cudart.version / 1000) {
      append_problem(out, {error_code::version_mismatch, false,
                           "the NVIDIA driver supports CUDA up to " +
                               format_version(decode_cuda_version(d.cuda_version), false) + ", older than the CUDA " +
                               format_version(decode_cuda_version(cudart.version), false) + " runtime in use",
                           d.path, "CUDA calls will fail with cudaErrorInsufficientDriver (35)",
                           "update the NVIDIA driver to one that supports CUDA " +
                               std::to_string(cudart.version / 1000) + ", or use a build for an older CUDA"});
    }
    return;
  }
  out += "NVIDIA driver: not found\n";
  for (const attempt& a : d.attempts) {  // files that exist but were refused: the stub, a broken copy
    if (a.result == outcome::absent || a.result == outcome::folder_absent) continue;
    out += "    " + a.rule + ": " + a.path + " -> " + to_string(a.result) + " (" + a.detail + ")\n";
  }
  append_problem(out, {error_code::not_found, false,
                       std::string("no NVIDIA driver was found: ") + driver_file_name() + " is in none of the " +
                           std::to_string(d.attempts.size()) + " places the system loader looks",
                       "",
                       "the CUDA runtime and cuDNN can load, but nothing can run on a GPU: cudaGetDeviceCount returns "
                       "an error and a count of 0, cudnnCreate returns CUDNN_STATUS_NOT_INITIALIZED",
                       std::string(driver_install_advice()) + "; or run on the CPU"});
}

inline void append_library(std::string& out, const status& st, const std::vector<std::string>& missing) {
  const library_spec& spec = spec_of(st.lib);
  bool cudnn = st.lib == library::cudnn;
  std::string compiled = format_version(decode_version(spec, st.compiled_version), cudnn);
  out += "\n" + std::string(spec.display_name) + ": ";
  if (st.code == error_code::disabled) {
    out += "not shimmed by this build (CUSHIM_NO_CUDART): the program links it itself\n";
    return;
  }
  if (st.code == error_code::ok) {
    out += "OK, " + format_version(decode_version(spec, st.version), cudnn) + " (compiled with " + compiled +
           ") from " + st.path + "\n  found by: " + st.found_by + "\n  version from: " + st.version_source + "\n";
  } else {
    out += "UNAVAILABLE (" + std::string(to_string(st.code)) + "), compiled with " + compiled + ", looked for " +
           spec.file_name + "\n";
  }
  if (!st.attempts.empty()) out += "  searched, in order:\n";
  std::size_t i = 0;
  for (const attempt& a : st.attempts) {
    out += "    " + std::to_string(++i) + ". " + a.rule + ": " + a.path + " -> " + to_string(a.result);
    if (!a.detail.empty()) out += " (" + a.detail + ")";
    out += "\n";
  }
  for (const problem& p : st.problems) append_problem(out, p);
  if (st.code != error_code::ok) {
    out += cudnn ? "  effect: cudnn* calls return CUDNN_STATUS_NOT_INITIALIZED; cudnnGetVersion returns 0\n"
                 : "  effect: cuda* calls return cudaErrorSharedObjectInitFailed; count and version queries set 0\n";
  }
  append_sublibraries(out, st.sublibraries);
  if (!st.other_copies.empty()) out += "  other copies seen (not loaded):\n";
  for (const attempt& a : st.other_copies) {
    out += "    " + a.rule + ": " + a.path + " -> " + to_string(a.result) + "\n";
  }
  for (const auto& blocked : blocked_functions_of(st.lib)) {
    out += "  WARNING: " + blocked.first + " needs " + blocked.second +
           ", which is unusable (see above); it returns CUDNN_STATUS_NOT_INITIALIZED\n";
  }
  for (const std::string& name : missing) {
    out += "  WARNING: " + name + " is not in " + st.path + " (" +
           format_version(decode_version(spec, st.version), cudnn) + "); it returns " +
           (cudnn ? "CUDNN_STATUS_NOT_SUPPORTED" : "cudaErrorSharedObjectSymbolNotFound") + "\n";
  }
}

inline std::string explain_text(const report_input& in) {
  std::string out = "cushim " CUSHIM_STRINGIFY(CUSHIM_VERSION_MAJOR) "." CUSHIM_STRINGIFY(
      CUSHIM_VERSION_MINOR) "." CUSHIM_STRINGIFY(CUSHIM_VERSION_PATCH) ": the CUDA runtime and cuDNN as this process "
                                                                       "sees them\n\n";
  append_driver(out, in.driver, status_of(library::cudart));
  const status* cudart = nullptr;
  for (const status* st : in.libraries) {
    append_library(out, *st, missing_functions_of(st->lib));
    if (st->lib == library::cudart) cudart = st;
    if (st->lib == library::cudnn) append_cuda_agreement(out, *st, cudart);
  }
  for (const std::string& note : in.notes) out += "\nNOTE: " + note + "\n";
  return out;
}

// JSON strings must be UTF-8: invalid bytes (paths may hold any) become U+FFFD.
inline void append_json_string(std::string& out, const std::string& s) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
      ++i;
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      ++i;
    } else if (c < 0x80) {
      out += char(c);
      ++i;
    } else {
      std::size_t len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
      bool valid = len != 0 && i + len <= s.size();
      for (std::size_t k = 1; valid && k < len; ++k) valid = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
      if (valid) {
        out.append(s, i, len);
        i += len;
      } else {
        out += "\\ufffd";
        ++i;
      }
    }
  }
  out += '"';
}

class json_object {
 public:
  explicit json_object(std::string& out) : out_(out) { out_ += '{'; }
  ~json_object() { out_ += '}'; }
  json_object& field(const char* key, const std::string& v) { return key_(key), append_json_string(out_, v), *this; }
  json_object& field(const char* key, const char* v) { return field(key, std::string(v)); }
  json_object& field(const char* key, long v) { return key_(key), out_ += std::to_string(v), *this; }
  json_object& field(const char* key, int v) { return field(key, long(v)); }
  json_object& field(const char* key, bool v) { return key_(key), out_ += v ? "true" : "false", *this; }
  std::string& raw(const char* key) { return key_(key), out_; }

 private:
  void key_(const char* key) {
    if (!first_) out_ += ',';
    first_ = false;
    append_json_string(out_, key);
    out_ += ':';
  }
  std::string& out_;
  bool first_ = true;
};

template <class T, class F>
void append_json_array(std::string& out, const std::vector<T>& items, F each) {
  out += '[';
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += ',';
    each(items[i]);
  }
  out += ']';
}

inline void append_json_attempts(std::string& out, const std::vector<attempt>& attempts) {
  append_json_array(out, attempts, [&](const attempt& a) {
    json_object(out)
        .field("rule", a.rule)
        .field("path", a.path)
        .field("outcome", to_string(a.result))
        .field("detail", a.detail);
  });
}

inline std::string explain_json_text(const report_input& in) {
  std::string out;
  {
    json_object root(out);
    root.field("schema", 1)
        .field("cushim_version", CUSHIM_STRINGIFY(CUSHIM_VERSION_MAJOR) "." CUSHIM_STRINGIFY(
                                     CUSHIM_VERSION_MINOR) "." CUSHIM_STRINGIFY(CUSHIM_VERSION_PATCH));
    {
      json_object d(root.raw("driver"));
      d.field("found", in.driver.found).field("path", in.driver.path).field("cuda_version", in.driver.cuda_version);
      append_json_attempts(d.raw("attempts"), in.driver.attempts);
    }
    append_json_array(root.raw("libraries"), in.libraries, [&](const status* st) {
      const library_spec& spec = spec_of(st->lib);
      json_object lib(out);
      lib.field("library", to_string(st->lib))
          .field("available", st->code == error_code::ok)
          .field("code", to_string(st->code))
          .field("code_value", int(st->code))
          .field("file_name", spec.file_name)
          .field("path", st->path)
          .field("found_by", st->found_by)
          .field("version", st->version)
          .field("version_source", st->version_source)
          .field("compiled_version", st->compiled_version);
      append_json_attempts(lib.raw("attempts"), st->attempts);
      append_json_array(lib.raw("problems"), st->problems, [&](const problem& p) {
        json_object(out)
            .field("code", to_string(p.code))
            .field("fatal", p.fatal)
            .field("what", p.what)
            .field("path", p.path)
            .field("why", p.why)
            .field("fix", p.fix);
      });
      append_json_array(lib.raw("missing_functions"), missing_functions_of(st->lib),
                        [&](const std::string& name) { append_json_string(out, name); });
      lib.field("built_for_cuda", st->built_for_cuda);
      append_json_attempts(lib.raw("other_copies"), st->other_copies);
      append_json_array(lib.raw("sublibraries"), st->sublibraries, [&](const sublibrary& sub) {
        json_object(out)
            .field("name", sub.name)
            .field("file_name", sub.file_name)
            .field("path", sub.path)
            .field("required", sub.required)
            .field("usable", sub.usable)
            .field("preloaded", sub.preloaded)
            .field("version", sub.version)
            .field("problem", sub.problem);
      });
      append_json_array(lib.raw("blocked_functions"), blocked_functions_of(st->lib), [&](const auto& b) {
        json_object(out).field("function", b.first).field("sublibrary", b.second);
      });
    });
    append_json_array(root.raw("notes"), in.notes, [&](const std::string& n) { append_json_string(out, n); });
  }
  return out;
}

}  // namespace detail
}  // namespace cushim
