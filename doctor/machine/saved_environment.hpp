// The variables saved for programs started from now on (Windows: the registry's HKCU\Environment
// and the machine's Session Manager\Environment, what setx and the Environment Variables dialog
// write), beside this process's own: a program keeps the environment of when it started, so what
// was saved since is invisible to it. Only the variables the doctor compares are read: PATH,
// CUDA_PATH, CUDA_PATH_V*, CUDA_HOME, CUDNN_*. Read when discovery reads this process's own
// environment (options.use_process_environment); stacks/saved_environment_checks.hpp compares.
#pragma once

#include <string>
#include <vector>

#include "../os.hpp"

namespace cushim {
namespace detail {
namespace {
namespace discovery {

struct saved_variable {
  std::string scope;  // "HKCU\Environment", "HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Environment"
  std::string name;
  std::string value;        // as stored
  bool expandable = false;  // REG_EXPAND_SZ: Windows expands its %NAME% when it builds an environment
};

// Whether the doctor compares a saved variable of this name.
inline bool compared_variable(const std::string& name) {
  std::string upper;
  for (char c : name) upper += char(c >= 'a' && c <= 'z' ? c - 32 : c);
  return upper == "PATH" || upper == "CUDA_PATH" || upper == "CUDA_HOME" || upper.compare(0, 11, "CUDA_PATH_V") == 0 ||
         upper.compare(0, 6, "CUDNN_") == 0;
}

}  // namespace discovery
}  // namespace
}  // namespace detail
}  // namespace cushim

#include CUSHIM_DOCTOR_OS_SAVED_ENVIRONMENT
