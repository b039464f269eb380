// --record FILE: the versions found, one "key: value" line each, to keep beside results or attach to a
// bug report (the environment_versions.txt of a careful experiment). Keys: docs/doctor.md, "cushim-doctor".
#pragma once

#ifdef _WIN32
#include <windows.h>
#else
#include <sys/utsname.h>
#endif

#include <cerrno>
#include <cstring>
#include <ctime>
#include <cwchar>
#include <fstream>
#include <string>

#include "../own_build/findings.hpp"
#include "../verdict/verdict.hpp"
#include "machine_text.hpp"
#include "../words/report.hpp"

namespace doctor {

inline std::string utc_now_iso8601() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
#ifdef _WIN32
  gmtime_s(&utc, &now);
#else
  gmtime_r(&now, &utc);
#endif
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

#ifdef _WIN32
// "Windows 10.0.19045": RtlGetVersion, since GetVersionEx reports what the manifest allows.
inline std::string operating_system() {
  using get_version = LONG(WINAPI*)(OSVERSIONINFOW*);
  HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll");
  auto rtl_get_version =
      ntdll ? reinterpret_cast<get_version>(reinterpret_cast<void*>(::GetProcAddress(ntdll, "RtlGetVersion")))
            : nullptr;
  OSVERSIONINFOW v{};
  v.dwOSVersionInfoSize = sizeof v;
  if (!rtl_get_version || rtl_get_version(&v) != 0) return "Windows, version unknown";
  return "Windows " + std::to_string(v.dwMajorVersion) + "." + std::to_string(v.dwMinorVersion) + "." +
         std::to_string(v.dwBuildNumber);
}

// ProductName from the registry, e.g. "Windows 10 Pro".
inline std::string distribution() {
  wchar_t name[256];
  DWORD size = sizeof name;
  if (::RegGetValueW(HKEY_LOCAL_MACHINE, L"SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion", L"ProductName",
                     RRF_RT_REG_SZ, nullptr, name, &size) != ERROR_SUCCESS)
    return "unknown";
  char text[512];
  int n = ::WideCharToMultiByte(CP_UTF8, 0, name, -1, text, sizeof text, nullptr, nullptr);
  return n > 0 ? std::string(text) : "unknown";
}
#else
// uname -srvm: the kernel, its build and the machine, without the host name.
inline std::string operating_system() {
  utsname u{};
  if (uname(&u) != 0) return "unknown";
  return std::string(u.sysname) + " " + u.release + " " + u.version + " " + u.machine;
}

// PRETTY_NAME from /etc/os-release, e.g. "Debian GNU/Linux 12 (bookworm)".
inline std::string distribution() {
  std::ifstream in("/etc/os-release");
  const std::string key = "PRETTY_NAME=";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) != 0) continue;
    std::string value = line.substr(key.size());
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    return value;
  }
  return "unknown";
}
#endif

inline std::string compiler() {
#if defined(__clang__)
  return "clang " __clang_version__;
#elif defined(__GNUC__)
  return "GCC " __VERSION__;
#else
  return "unknown";
#endif
}

inline std::string library_version_text(const cushim::status& st) {
  if (st.code != cushim::error_code::ok) return std::string("unavailable (") + cushim::to_string(st.code) + ")";
  return diag::version_text(st.lib, st.version);
}

inline std::string driver_text(const driver_check& d) {
  if (!d.driver.found) return "not found";
  return (d.driver.version.empty() ? std::string("unknown version") : d.driver.version) + ", supports CUDA " +
         diag::cuda_version_text(d.driver.cuda_version);
}

// A sub-library's version: cushim's, else the inventory's for the same file (the wheels' cuDNN
// sub-libraries say theirs only through their package).
inline std::string sublibrary_version(const findings& f, const cushim::status& st, const cushim::sublibrary& sub) {
  if (sub.version) return diag::version_text(st.lib, sub.version);
  for (const cushim::machine::library_copy& c : f.machine.copies) {
    for (const cushim::machine::cudnn_file& s : c.sublibraries) {
      if (s.path == sub.path && !s.version.empty()) return s.version;
    }
  }
  return diag::version_text(st.lib, sub.version);
}

inline std::string stack_record(const stack& s) {
  return s.kind + ": " + stack_label(s) + ": " +
         (s.uses_gpu           ? words::uses_the_gpu(s.cudnn)
          : s.problems.empty() ? words::does_not_use_the_gpu()
                               : s.problems.front().what);
}

inline std::string record_text(const findings& f, const verdict& v) {
  std::string out = words::record_heading() + "\n";
  auto line = [&out](const std::string& key, const std::string& value) { out += key + ": " + value + "\n"; };
  line("headline", v.headline);
  line("date", utc_now_iso8601());
  line("os", operating_system());
  line("distribution", distribution());
  line("nvidia_driver", driver_text(f.driver));
  line("nvidia_kernel_module", f.driver.kernel_module_version.empty() ? "none" : f.driver.kernel_module_version);
  for (const cushim::status* st : f.libraries) {
    if (shimmed(*st)) line(cushim::to_string(st->lib), library_version_text(*st));
  }
  line("cudnn_built_for_cuda", diag::cuda_version_text(f.of(cushim::library::cudnn).built_for_cuda));
  for (const cushim::status* st : f.libraries) {
    if (shimmed(*st))
      line(std::string("headers_") + cushim::to_string(st->lib), diag::version_text(st->lib, st->compiled_version));
  }
  line("cushim", std::to_string(CUSHIM_VERSION_MAJOR) + "." + std::to_string(CUSHIM_VERSION_MINOR) + "." +
                     std::to_string(CUSHIM_VERSION_PATCH));
  line("compiler", compiler());
  line("nvidia_driver_path", f.driver.driver.path);
  for (const cushim::status* st : f.libraries) {
    if (!shimmed(*st)) continue;
    line(std::string(cushim::to_string(st->lib)) + "_path", st->path);
    for (const cushim::sublibrary& sub : st->sublibraries) {
      line(std::string(cushim::to_string(st->lib)) + "_sublibrary",
           sub.file_name + " " + sublibrary_version(f, *st, sub) + " " + (sub.path.empty() ? "missing" : sub.path));
    }
  }
  line("gpus", std::to_string(f.gpus.gpus.size()));
  for (const gpu& g : f.gpus.gpus) {
    line("gpu" + std::to_string(g.index), g.name + ", compute capability " + std::to_string(g.major) + "." +
                                              std::to_string(g.minor) + ", " + std::to_string(g.memory_bytes) +
                                              " bytes");
  }
  line("cudnn_create", f.create.ran ? f.create.status_name : "not tried");
  if (f.discovered) {
    for (const auto& kv : cushim::machine::record(f.machine)) line(kv.first, kv.second);
    line("copies", std::to_string(f.machine.copies.size()));
    for (std::size_t i = 0; i < f.machine.copies.size(); ++i) {
      const cushim::machine::library_copy& c = f.machine.copies[i];
      line("copy" + std::to_string(i), cushim::detail::discovery::copy_summary(c) + " (" + c.owner + ")");
    }
  }
  line("gpu_usable", v.gpu.usable ? "yes, " + gpus_text(v.gpu.gpus) : "no: " + v.gpu.why_not);
  line("stacks", std::to_string(v.stacks.size()));
  for (std::size_t i = 0; i < v.stacks.size(); ++i) line("stack" + std::to_string(i), stack_record(v.stacks[i]));
  line("verdict", v.name + " (exit " + std::to_string(v.exit_code) + ")");
  return out;
}

// False, with the reason on stderr, when the file cannot be written.
inline bool write_record(const std::string& path, const findings& f, const verdict& v) {
  std::ofstream out(path, std::ios::trunc);
  out << record_text(f, v);
  out.close();
  if (out) return true;
  std::fputs((words::cannot_write_record(path, std::strerror(errno)) + "\n").c_str(), stderr);
  return false;
}

}  // namespace doctor
