// The words of the verdict (verdict/): what each stack is called, the problems this doctor's own
// loads add to its programs' stack, the headline and the verdict line.
#pragma once

#include <string>
#include <vector>

#include <cushim/detail/search/missing_dependency.hpp>
#include "../doctor.hpp"
#include "../machine/machine.hpp"
#include "inventory.hpp"
#include "problem.hpp"
#include "programs.hpp"

namespace doctor {
namespace words {

using cushim::detail::joined;
using cushim::detail::discovery::words::own_build;
using cushim::detail::discovery::words::programs_built_with;
using cushim::detail::discovery::words::the_environment;
using cushim::detail::discovery::words::warning;

// "a, b and c".
inline std::string listed(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i)
    text += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  return text;
}

// --- The stacks ---

// "the CUDA 13.0 toolkit" (`version`: empty when unknown).
inline std::string toolkit_stack(const std::string& version) {
  return "the CUDA " + (version.empty() ? std::string() : version + " ") + "toolkit";
}
inline std::string build_unknown() { return "its files do not say how it was built"; }
inline std::string which_refuse_it(const std::string& stack) { return stack + ", which refuse it"; }

// Who installed a copy, as a headline says it: "the wheel", "the system package libcudnn9-cuda-13".
inline std::string owner_in_short(const cushim::machine::library_copy& c, const std::string& folder) {
  if (c.installed_by == "pip") return "the wheel";
  if (c.installed_by == "package") return "the system package " + c.package;
  if (c.installed_by == "conda") return "conda's " + c.package;
  if (c.installed_by == "toolkit") return "the toolkit";
  if (c.installed_by == "framework") return c.owner.substr(0, c.owner.find(' ')) + "'s own folder";
  return folder;
}

// "cuDNN 9.19.0 from the wheel" (`owner`: owner_in_short, or empty).
inline std::string cudnn_from(const std::string& release, const std::string& owner) {
  return "cuDNN " + release + (owner.empty() ? std::string() : " from " + owner);
}

// --- This doctor's own loads, against what the files said ---

// `path` (`version`) is what this doctor loaded.
inline std::string doctor_loaded(const std::string& path, const std::string& version) {
  return "this doctor loaded " + path + " (" + version + ")";
}

// The files say `loads` serves these programs; this doctor's load of `library` failed (`code`).
inline cushim::machine::problem own_load_differs(const std::string& loads, const char* code, const char* library) {
  return warning(
      "own_load_differs",
      "the files say " + loads + " serves these programs, but this doctor's own load of it fails (" + code + ")", loads,
      "cushim::explain() below says why, as the programs' own explain() would",
      "fix what the ERROR of " + std::string(library) + " below says");
}

// `file` (at `path`) needs `name`, which the system loader (searching `variable`) did not find.
inline cushim::machine::problem dependency_missing(const std::string& file, const std::string& path,
                                                   const std::string& name, const std::vector<std::string>& searched,
                                                   const char* variable) {
  return warning("dependency_missing", file + " needs " + name + ", which is not found", path,
                 "the system loader looked in: " + joined(searched),
                 "install " + name + " where the system loader looks, or put its folder on " + variable);
}

// A failing GPU query or cudnnCreate in this doctor (`call` returned `result`), with its check's
// why and fix (`help`), as the problem of the stack of programs like it.
inline cushim::problem gpu_query_fails(const std::string& call, const std::string& result, const std::string& path,
                                       const cushim::problem& help) {
  return warning("gpu_query_fails", call + " returns " + result + " in this doctor", path, help.why, help.fix);
}
inline cushim::problem cudnn_create_fails(const std::string& status, const std::string& path,
                                          const cushim::problem& help) {
  return warning("cudnn_create_fails", "cudnnCreate returns " + status + " in this doctor", path, help.why, help.fix);
}

// An ERROR of this doctor's own explain() (`p`), as the problem of the stack of programs like it.
inline cushim::problem own_load_fails(cushim::problem p) {
  p.name = "own_load_fails";
  return p;
}

// What a stack's problems are of in the answer (and the_environment).
inline std::string of_machine() { return "the machine"; }
inline std::string of_building() { return "building from source"; }

// --- The headline and the verdict ---

// `working`: the stacks that use `gpus` ("torch and JAX in /opt/venv"), `count` of them; `cudnn`:
// the one cuDNN they share, or empty.
inline std::string works_headline(const std::string& working, std::size_t count, const std::string& gpus,
                                  const std::string& cudnn) {
  return working + (count == 1 ? " uses " : " use ") + gpus + (cudnn.empty() ? "" : " with " + cudnn);
}
inline std::string none_works_headline(const std::string& gpus) { return "No stack found can use " + gpus; }
// The verdict line's label of an exit code.
inline const char* verdict_label(int exit_code) {
  return exit_code == exit_gpu_works ? "GPU WORKS" : exit_code == exit_problems ? "GPU WORKS, WITH PROBLEMS" : "NO GPU";
}
inline std::string no_gpu_headline(const std::string& why_not) { return "No stack can use a GPU: " + why_not; }
inline std::string no_gpu_text(const std::string& why_not, const std::string& fix) { return why_not + "; fix: " + fix; }
inline std::string each_has_a_problem(const std::string& headline) { return headline + ": each has a problem (above)"; }

// A stack --python names (`stack`) cannot use the GPU because of `what`.
inline std::string named_stack_broken(const std::string& stack, const std::string& what) {
  return stack + ", which --python names, cannot use the GPU: " + what;
}

// The GPU works; `count` problems follow, of `of`.
inline std::string works_with_problems(const std::string& headline, std::size_t count,
                                       const std::vector<std::string>& of) {
  return headline + "; " + std::to_string(count) + (count == 1 ? " problem" : " problems") + " (above) of " +
         listed(of);
}

}  // namespace words
}  // namespace doctor
