// One verdict for the machine, led by what works: the first line says which stacks use which GPU
// (and the cuDNN they share), each problem follows with the stack it is of and its fix, and the exit
// code says it in a number: 0 the GPU works and nothing has a problem; 2 the GPU works for at least
// one stack and something has a problem; 1 nothing found can use a GPU, or a stack of an environment
// named with --python is broken.
#pragma once

#include <string>
#include <vector>

#include "stacks.hpp"

namespace doctor {

// A problem, with what it is a problem of ("onnxruntime 1.30.0 in /opt/torch/.venv").
struct labelled_problem {
  std::string of;
  machine::problem what;
};

struct verdict {
  int exit_code = exit_gpu_works;
  std::string name;      // "gpu_works", "gpu_works_with_problems", "no_gpu"
  std::string headline;  // the report's first line
  std::string text;      // the verdict line's
  gpu_view gpu;
  std::vector<stack> stacks;
  std::vector<labelled_problem> problems;  // the stacks' first, then the machine's own
};

inline std::string stack_label(const stack& s) {
  return s.kind == "framework" ? s.name + " in " + s.where : s.kind == "toolkit" ? s.name + " " + s.where : s.name;
}

// "torch, JAX and CuPy in /opt/torch/.venv", "the CUDA 13.0 toolkit /usr/local/cuda-13.0 and programs ...".
inline std::string working_text(const std::vector<stack>& stacks, std::string& cudnn, std::size_t& count) {
  std::vector<std::string> groups, shared_cudnn;
  bool frameworks = false;
  for (const stack& s : stacks) frameworks = frameworks || (s.uses_gpu && s.kind == "framework");
  std::vector<std::string> seen_groups;
  for (const stack& s : stacks) {
    if (!s.uses_gpu || (frameworks && s.kind != "framework")) continue;
    if (!s.cudnn.empty()) cushim::detail::discovery::add_unique(shared_cudnn, s.cudnn);
    if (s.kind != "framework") {
      groups.push_back(stack_label(s));
      ++count;
      continue;
    }
    bool seen = false;
    for (const std::string& g : seen_groups) seen = seen || g == s.group;
    if (seen) continue;
    seen_groups.push_back(s.group);
    std::vector<std::string> names;
    for (const stack& other : stacks) {
      if (other.uses_gpu && other.kind == "framework" && other.group == s.group) {
        names.push_back(other.name.substr(0, other.name.find(' ')));
      }
    }
    groups.push_back(words::listed(names) + " in " + s.group);
    count += names.size();
  }
  cudnn = shared_cudnn.size() == 1 ? shared_cudnn.front() : std::string();
  return words::listed(groups);
}

// The first problem that stops the stack from using the GPU; null when none does.
inline const machine::problem* first_blocking(const stack& s) {
  for (const machine::problem& p : s.problems) {
    if (blocks_gpu(p)) return &p;
  }
  return nullptr;
}

inline verdict decide(findings& f) {
  verdict v;
  v.gpu = see_gpus(f);
  v.stacks = find_stacks(f, v.gpu);
  bool any_works = false;
  std::string python_broken;  // the verdict's text when a stack --python names cannot use the GPU
  for (const stack& s : v.stacks) {
    for (const machine::problem& p : s.problems) v.problems.push_back({stack_label(s), p});
    any_works = any_works || s.uses_gpu;
    const machine::problem* blocking = s.named_by_python ? first_blocking(s) : nullptr;
    if (blocking && python_broken.empty()) {
      python_broken = words::named_stack_broken(stack_label(s), blocking->what);
    }
  }
  if (f.discovered) {
    for (const machine::environment& e : f.machine.environments) {
      for (const machine::problem& p : e.problems) v.problems.push_back({words::the_environment(e.path), p});
    }
    for (const machine::problem& p : f.machine.problems) v.problems.push_back({words::of_machine(), p});
    for (const machine::problem& p : f.machine.build.problems) v.problems.push_back({words::of_building(), p});
  }
  if (!v.gpu.usable) {
    v.headline = words::no_gpu_headline(v.gpu.why_not);
    v.exit_code = exit_no_gpu;
    v.name = "no_gpu";
    v.text = words::no_gpu_text(v.gpu.why_not, v.gpu.fix);
    return v;
  }
  std::string cudnn;
  std::size_t count = 0;
  std::string working = working_text(v.stacks, cudnn, count);
  v.headline = any_works ? words::works_headline(working, count, gpus_text(v.gpu.gpus), cudnn)
                         : words::none_works_headline(gpus_text(v.gpu.gpus));
  if (!any_works || !python_broken.empty()) {
    v.exit_code = exit_no_gpu;
    v.name = "no_gpu";
    v.text = python_broken.empty() ? words::each_has_a_problem(v.headline) : python_broken;
    return v;
  }
  if (v.problems.empty()) {
    v.exit_code = exit_gpu_works;
    v.name = "gpu_works";
    v.text = v.headline;
    return v;
  }
  std::vector<std::string> of;
  for (const labelled_problem& p : v.problems) cushim::detail::discovery::add_unique(of, p.of);
  v.exit_code = exit_problems;
  v.name = "gpu_works_with_problems";
  v.text = words::works_with_problems(v.headline, v.problems.size(), of);
  return v;
}

}  // namespace doctor
