// Windows: probe_in_child's request run in a child process, for work that may crash, end the
// process or hang: what it wrote, and how it ended. Windows has no fork, so the child is a program
// that serves requests (options.probe_program, which calls serve_probe_request first in main),
// started with CreateProcessW; its stdout is a pipe on which it names its steps.
#pragma once

#include <io.h>

#include <cstdio>
#include <cstring>
#include <cwchar>
#include <string>

#include "../../platform/platform_types.hpp"
#include "../probe_request.hpp"
#include "../words/child_process.hpp"
#include "../../platform/windows/paths.hpp"
#include "../../platform/windows/unicode.hpp"

namespace cushim {
namespace detail {
namespace {
namespace platform {

// "EXCEPTION_ACCESS_VIOLATION (0xC0000005)": an exception by the name its code has in the SDK.
inline std::string exception_name(DWORD code) {
  const char* name = nullptr;
  switch (code) {
    case EXCEPTION_ACCESS_VIOLATION: name = "EXCEPTION_ACCESS_VIOLATION"; break;
    case EXCEPTION_IN_PAGE_ERROR: name = "EXCEPTION_IN_PAGE_ERROR"; break;
    case EXCEPTION_ILLEGAL_INSTRUCTION: name = "EXCEPTION_ILLEGAL_INSTRUCTION"; break;
    case EXCEPTION_PRIV_INSTRUCTION: name = "EXCEPTION_PRIV_INSTRUCTION"; break;
    case EXCEPTION_INT_DIVIDE_BY_ZERO: name = "EXCEPTION_INT_DIVIDE_BY_ZERO"; break;
    case EXCEPTION_STACK_OVERFLOW: name = "EXCEPTION_STACK_OVERFLOW"; break;
    case EXCEPTION_BREAKPOINT: name = "EXCEPTION_BREAKPOINT"; break;
    case 0xC0000409: name = "STATUS_STACK_BUFFER_OVERRUN"; break;  // __fastfail: the MSVC runtime's abort
    case 0xC0000374: name = "STATUS_HEAP_CORRUPTION"; break;
  }
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08lX", static_cast<unsigned long>(code));
  return name ? std::string(name) + " (" + hex + ")" : std::string("exception ") + hex;
}

// A process that an exception ended exits with its code: an NTSTATUS error (0xCnnnnnnn, which
// exit(-1)'s 0xFFFFFFFF is not), or the breakpoint's.
inline bool is_exception_code(DWORD code) {
  return (code & 0xF0000000u) == 0xC0000000u || code == EXCEPTION_BREAKPOINT;
}

// In a probe child: an unhandled exception ends the process at once with the exception's code,
// before a registered debugger (Wine's winedbg, a JIT debugger) can hold it or change the code.
inline LONG WINAPI end_with_exception_code(EXCEPTION_POINTERS* exception) {
  ::TerminateProcess(::GetCurrentProcess(), exception->ExceptionRecord->ExceptionCode);
  return EXCEPTION_EXECUTE_HANDLER;
}

// In a probe child, before the request runs: no error dialogs (a missing dependency, a crash),
// which would hold it until the time limit.
inline void prepare_probe_child() {
  ::SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX | SEM_NOOPENFILEERRORBOX);
  ::SetUnhandledExceptionFilter(&end_with_exception_code);
}

// Ends a probe child that took every step without DLL_PROCESS_DETACH in the libraries it loaded,
// as the fork child's _exit(0) runs no destructors.
[[noreturn]] inline void end_probe_child() {
  ::TerminateProcess(::GetCurrentProcess(), 0);
  ::ExitProcess(0);  // declared noreturn; TerminateProcess of this process does not come back
}

// The request on a probe program's command line: probe_request_argument, what, "path". The path
// is read from the wide command line: argv is in the ANSI code page, which may lack its characters.
inline bool probe_request_in_arguments(int argc, char** argv, probe_request& request) {
  if (argc != 4 || std::strcmp(argv[1], probe_request_argument) != 0) return false;
  const std::wstring line = ::GetCommandLineW();
  std::size_t open = line.find(L'"', line.find(to_utf16(probe_request_argument)));
  std::size_t close = open == std::wstring::npos ? open : line.find(L'"', open + 1);
  request = {argv[2], close == std::wstring::npos ? argv[3] : narrow(line.substr(open + 1, close - open - 1))};
  return true;
}

// Whether this process was started to serve a request: a probe program that did not call
// serve_probe_request would otherwise start itself again for each candidate, without end.
inline bool serving_a_probe_request() {
  return std::wcsstr(::GetCommandLineW(), (L" " + to_utf16(probe_request_argument) + L" ").c_str()) != nullptr;
}

// Appends what the pipe holds now, without waiting for more.
inline void read_available(HANDLE pipe, std::string& output) {
  char buffer[512];
  DWORD available = 0, got = 0;
  while (::PeekNamedPipe(pipe, nullptr, 0, nullptr, &available, nullptr) && available > 0 &&
         ::ReadFile(pipe, buffer, available < sizeof buffer ? available : DWORD(sizeof buffer), &got, nullptr) &&
         got > 0) {
    output.append(buffer, got);
  }
}

// Starts `program` with the request ("program" --cushim-probe-child what "path"), its stdout and
// stderr the write end of a pipe, the one handle cushim makes inheritable (others the host made
// inheritable go along, as with any CreateProcessW that inherits). Reads what the child writes
// while waiting for it to end, and kills it when `timeout_ms` passes.
inline child_run run_in_child(const probe_request& request, const std::string& program, int timeout_ms) {
  child_run run;
  if (program.empty()) {
    run.why_no_child = words::no_probe_program;
  } else if (!is_absolute_path(program)) {  // CreateProcessW would search the current folder and PATH for it
    run.why_no_child = words::probe_program_not_absolute(program);
  } else if (serving_a_probe_request()) {
    run.why_no_child = words::serving_probe_request;
  }
  if (!run.why_no_child.empty()) return run;
  SECURITY_ATTRIBUTES not_inherited{sizeof(SECURITY_ATTRIBUTES), nullptr, FALSE};
  HANDLE read_end = nullptr, write_end = nullptr;
  if (!::CreatePipe(&read_end, &write_end, &not_inherited, 0)) {
    run.why_no_child = "CreatePipe failed: " + system_message(::GetLastError());
    return run;
  }
  ::SetHandleInformation(write_end, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT);
  std::wstring command = L"\"" + widen(program) + L"\" " + to_utf16(probe_request_argument) + L" " +
                         to_utf16(request.what) + L" \"" + widen(request.path) + L"\"";
  STARTUPINFOW startup{};
  startup.cb = sizeof startup;
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdOutput = write_end;
  startup.hStdError = write_end;
  PROCESS_INFORMATION child{};
  BOOL started = ::CreateProcessW(nullptr, &command[0], nullptr, nullptr, TRUE, CREATE_NO_WINDOW, nullptr, nullptr,
                                  &startup, &child);
  DWORD start_error = started ? 0 : ::GetLastError();
  ::CloseHandle(write_end);  // the child's copy is the only one left: the pipe ends with the child
  if (!started) {
    ::CloseHandle(read_end);
    run.why_no_child = words::probe_program_not_started(program, system_message(start_error));
    return run;
  }
  run.ran = true;
  const ULONGLONG deadline = ::GetTickCount64() + ULONGLONG(timeout_ms);
  for (;;) {  // read while waiting: a child that filled the pipe would never end
    read_available(read_end, run.output);
    ULONGLONG now = ::GetTickCount64();
    if (now >= deadline) {
      run.timed_out = true;
      ::TerminateProcess(child.hProcess, 1);
      ::WaitForSingleObject(child.hProcess, INFINITE);
      break;
    }
    if (::WaitForSingleObject(child.hProcess, DWORD(deadline - now < 20 ? deadline - now : 20)) == WAIT_OBJECT_0) break;
  }
  read_available(read_end, run.output);
  DWORD code = 0;
  ::GetExitCodeProcess(child.hProcess, &code);
  if (!run.timed_out && is_exception_code(code)) run.signal_name = exception_name(code);
  if (!run.timed_out && !is_exception_code(code)) run.exit_status = int(code);
  ::CloseHandle(child.hThread);
  ::CloseHandle(child.hProcess);
  ::CloseHandle(read_end);
  return run;
}

// Writes a line to the pipe of run_in_child: fd is the child's C runtime descriptor of it (stdout).
inline void write_line(int fd, const std::string& line) {
  HANDLE h = reinterpret_cast<HANDLE>(::_get_osfhandle(fd));
  std::string text = line + "\n";
  DWORD written = 0;
  for (std::size_t done = 0; done < text.size(); done += written) {
    if (!::WriteFile(h, text.data() + done, DWORD(text.size() - done), &written, nullptr) || written == 0) return;
  }
}

}  // namespace platform
}  // namespace
}  // namespace detail
}  // namespace cushim
