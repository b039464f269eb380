// Windows scenario helpers: a temporary folder tree (UTF-8 names, wide API underneath) and
// cushim_probe run in a fresh process with a chosen environment and current folder.
#pragma once

#include <cushim/detail/platform/platform.hpp>
#include <doctest/doctest.h>

#include <cwctype>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace win_test {

namespace fs = std::filesystem;
using cushim::detail::platform::narrow;
using cushim::detail::platform::to_utf16;
using cushim::detail::platform::widen;

// A fixture DLL built by tests/windows/CMakeLists.txt, e.g. fixture("cudnn_good", CUSHIM_CUDNN_FILE).
inline std::string fixture(const std::string& folder, const std::string& file) {
  return std::string(CUSHIM_FIXTURE_DIR) + "/" + folder + "/" + file;
}

// A unique folder under %TEMP%, removed with its contents at the end of the scope.
class temp_dir {
 public:
  temp_dir() {
    static int counter = 0;
    fs::path root;
    do {  // Wine reuses process ids, and a killed run leaves its folders behind: never reuse one
      root = fs::temp_directory_path() /
             (L"cushim-" + std::to_wstring(::GetCurrentProcessId()) + L"-" + std::to_wstring(++counter));
    } while (!fs::create_directory(root));
    root_ = narrow(root.wstring());
    while (!root_.empty() && root_.back() == '\\') root_.pop_back();
  }
  // A given folder that must not exist yet; removed like the others.
  explicit temp_dir(const std::string& root) : root_(root) {
    if (fs::exists(fs::path(widen(root)))) throw std::runtime_error(root + " exists already; not touching it");
    fs::create_directories(fs::path(widen(root)));
  }
  ~temp_dir() {
    std::error_code ignored;
    fs::remove_all(fs::path(widen(root_)), ignored);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  // The absolute path of `relative` (backslashes) inside the tree.
  std::string path(const std::string& relative = "") const {
    return relative.empty() ? root_ : root_ + "\\" + relative;
  }

  std::string make_dirs(const std::string& relative) const {
    fs::create_directories(fs::path(widen(path(relative))));
    return path(relative);
  }

  // Copies `from` to `relative` and returns the new file's path.
  std::string copy(const std::string& from, const std::string& relative) const {
    fs::path to(widen(path(relative)));
    fs::create_directories(to.parent_path());
    fs::copy_file(fs::path(widen(from)), to, fs::copy_options::overwrite_existing);
    return path(relative);
  }

  // Copies every file of the folder `from` into the folder `relative`; returns that folder.
  std::string copy_folder(const std::string& from, const std::string& relative) const {
    for (const fs::directory_entry& e : fs::directory_iterator(fs::path(widen(from)))) {
      if (e.is_regular_file())
        copy(narrow(e.path().wstring()), relative + "\\" + narrow(e.path().filename().wstring()));
    }
    return path(relative);
  }

  // A whole fixture cuDNN (the main DLL and its sub-libraries, which cuDNN cannot run without)
  // copied into the folder `relative`; returns the main DLL's path.
  std::string copy_cudnn(const std::string& relative, const std::string& fixture_folder = "cudnn_good") const {
    copy_folder(std::string(CUSHIM_FIXTURE_DIR) + "/" + fixture_folder, relative);
    return path(relative + "\\" + CUSHIM_CUDNN_FILE);
  }

 private:
  std::string root_;
};

struct probe_output {
  int exit_code = -1;
  std::string text;
  std::vector<std::pair<std::string, std::string>> values;

  std::string get(const std::string& key) const {
    for (const auto& kv : values) {
      if (kv.first == key) return kv.second;
    }
    return "<" + key + " not printed>";
  }
  std::vector<std::string> all(const std::string& key) const {
    std::vector<std::string> out;
    for (const auto& kv : values) {
      if (kv.first == key) out.push_back(kv.second);
    }
    return out;
  }
  bool has(const std::string& key, const std::string& value) const {
    for (const std::string& v : all(key)) {
      if (v == value) return true;
    }
    return false;
  }
};

struct less_ignoring_case {
  bool operator()(const std::wstring& a, const std::wstring& b) const {
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
      wint_t x = std::towupper(a[i]), y = std::towupper(b[i]);
      if (x != y) return x < y;
    }
    return a.size() < b.size();
  }
};

// This process's environment without the variables cushim reads, then `changes` on top.
inline std::wstring environment_block(const std::map<std::string, std::string>& changes) {
  std::map<std::wstring, std::wstring, less_ignoring_case> env;
  wchar_t* block = ::GetEnvironmentStringsW();
  for (const wchar_t* entry = block; *entry; entry += std::wcslen(entry) + 1) {
    const wchar_t* equals = std::wcschr(entry + 1, L'=');
    if (!equals) continue;
    std::wstring name(entry, equals), upper = name;
    for (wchar_t& c : upper) c = wchar_t(std::towupper(c));
    bool read_by_cushim = upper.rfind(L"CUSHIM_", 0) == 0 || upper.rfind(L"CUDA", 0) == 0 ||
                          upper.rfind(L"CUDNN", 0) == 0 || upper == L"CONDA_PREFIX" || upper == L"VIRTUAL_ENV";
    if (!read_by_cushim) env[name] = equals + 1;
  }
  ::FreeEnvironmentStringsW(block);
  for (const auto& kv : changes) env[to_utf16(kv.first)] = to_utf16(kv.second);
  std::wstring out;
  for (const auto& kv : env) out += kv.first + L"=" + kv.second + L'\0';
  return out + L'\0';
}

// Runs `program` with `args`, the environment above and `folder` as its current folder; stdout
// and stderr are read into one text, "key=value" lines before any "--- explain" into values.
inline probe_output run_program(const std::string& program, const std::map<std::string, std::string>& env,
                                const std::vector<std::string>& args = {}, const std::string& folder = "") {
  SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  HANDLE read_end = nullptr, write_end = nullptr;
  if (!::CreatePipe(&read_end, &write_end, &inherit, 0)) throw std::runtime_error("CreatePipe failed");
  ::SetHandleInformation(read_end, HANDLE_FLAG_INHERIT, 0);
  std::wstring command = L"\"" + widen(program) + L"\"";
  for (const std::string& a : args) command += L" \"" + to_utf16(a) + L"\"";
  std::wstring environment = environment_block(env);
  std::wstring cwd = folder.empty() ? std::wstring() : widen(folder);
  STARTUPINFOW startup{};
  startup.cb = sizeof startup;
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdInput = ::GetStdHandle(STD_INPUT_HANDLE);
  startup.hStdOutput = write_end;
  startup.hStdError = write_end;
  PROCESS_INFORMATION process{};
  // Wine under load now and then refuses a start with ERROR_INTERNAL_ERROR (1359, seen once in a
  // CI run); a start is tried again then, never more than three times in all.
  BOOL started = FALSE;
  DWORD start_error = 0;
  for (int attempt = 0; attempt < 3 && !started; ++attempt) {
    started = ::CreateProcessW(nullptr, &command[0], nullptr, nullptr, TRUE, CREATE_UNICODE_ENVIRONMENT,
                               &environment[0], cwd.empty() ? nullptr : cwd.c_str(), &startup, &process);
    start_error = started ? 0 : ::GetLastError();
    if (start_error != ERROR_INTERNAL_ERROR) break;
  }
  ::CloseHandle(write_end);
  probe_output out;
  if (!started) {
    ::CloseHandle(read_end);
    throw std::runtime_error("CreateProcessW failed: " + std::to_string(start_error));
  }
  char buffer[4096];
  DWORD got = 0;
  while (::ReadFile(read_end, buffer, sizeof buffer, &got, nullptr) && got > 0) out.text.append(buffer, got);
  ::CloseHandle(read_end);
  ::WaitForSingleObject(process.hProcess, INFINITE);
  DWORD code = 0;
  ::GetExitCodeProcess(process.hProcess, &code);
  out.exit_code = int(code);
  ::CloseHandle(process.hProcess);
  ::CloseHandle(process.hThread);
  std::string text;  // the console's \r\n as \n
  for (std::size_t i = 0; i < out.text.size(); ++i) {
    if (!(out.text[i] == '\r' && i + 1 < out.text.size() && out.text[i + 1] == '\n')) text += out.text[i];
  }
  out.text = std::move(text);
  std::size_t start = 0;
  while (start < out.text.size()) {
    std::size_t end = out.text.find('\n', start);
    if (end == std::string::npos) end = out.text.size();
    std::string line = out.text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("--- explain", 0) == 0) break;
    std::size_t equals = line.find('=');
    if (equals != std::string::npos) out.values.emplace_back(line.substr(0, equals), line.substr(equals + 1));
    start = end + 1;
  }
  return out;
}

// cushim_probe (tests/probe), which prints what cushim found as key=value lines.
inline probe_output run_probe(const std::map<std::string, std::string>& env, const std::vector<std::string>& args = {},
                              const std::string& folder = "") {
  probe_output out = run_program(CUSHIM_PROBE, env, args, folder);
  if (!out.all("report_parity").empty()) CHECK(out.get("report_parity") == "ok");  // every scenario, both renderers
  return out;
}

}  // namespace win_test
