// The stacks of the machine, each with its own verdict: every framework in every Python
// environment, every toolkit for building, and programs built with cushim and each release's
// headers (this doctor among them, whose own loads, made for real, are checked against what the
// files said). A stack uses the GPU when the GPU is reachable and nothing of it blocks it; each
// problem it has is kept with it. Which copies each stack loads goes back into the inventory.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "../machine/framework_specs.hpp"
#include "../machine/machine.hpp"
#include "../own_build/findings.hpp"
#include "../own_build/gpu_view.hpp"
#include "../words/verdict.hpp"

namespace doctor {

namespace machine = cushim::machine;

struct stack {
  std::string kind;   // "framework", "toolkit", "cushim program"
  std::string name;   // "torch 2.11.0+cu130", "the CUDA 13.0 toolkit", "programs built with cuDNN 9.19.0's headers"
  std::string where;  // its environment's, toolkit's or headers' folder
  std::string group;  // frameworks: the environment they share, which the headline names once
  std::string user;   // how the inventory's "used by" names it: "torch in /opt/torch/.venv"; empty: a toolkit
  bool named_by_python = false;  // its environment was given with --python
  bool uses_gpu = false;
  std::string cudnn;  // "cuDNN 9.19.0 from the wheel": the cuDNN it loads; empty when none
  std::vector<machine::problem> problems;
  std::vector<std::string> notes;
};

inline stack make_stack(std::string kind, std::string name, std::string where) {
  stack s;
  s.kind = std::move(kind);
  s.name = std::move(name);
  s.where = std::move(where);
  return s;
}

// The problems that stop a stack from using the GPU; the others (a pinned wheel of another
// release, a copy shadowed by LD_LIBRARY_PATH) leave it working, with a risk.
inline bool blocks_gpu(const machine::problem& p) {
  for (const char* code : {"cpu_only_build",
                           "rocm_build",
                           "framework_files_missing",
                           "import_fails",
                           "framework_library_not_found",
                           "driver_too_old",
                           "gpu_too_old",
                           "gpu_not_built_for",
                           "cudnn_sublibrary_not_found",
                           "cudnn_mixed_releases",
                           "by_name_load_fails",
                           "cudnn_unsupported_gpu",
                           "cudnn_other_cuda",
                           "known_bad_release",
                           "cudnn_import_missing",
                           "cushim_program_refuses",
                           "cushim_program_no_library",
                           "cushim_program_override_fails",
                           "own_load_differs",
                           "own_load_fails"}) {
    if (p.name == code) return true;
  }
  return false;
}

inline bool blocked(const std::vector<machine::problem>& problems) {
  for (const machine::problem& p : problems) {
    if (blocks_gpu(p)) return true;
  }
  return false;
}

// "JAX" for jax: how a sentence names a framework.
inline std::string framework_display(const std::string& name) {
  for (const cushim::detail::discovery::framework_spec& spec : cushim::detail::discovery::framework_specs) {
    if (name == spec.name) return spec.display_name;
  }
  return name;
}

// Who installed a copy, as a headline says it: "the wheel", "the system package libcudnn9-cuda-13".
inline std::string owner_in_short(const machine::library_copy& c) {
  return words::owner_in_short(c, cushim::detail::parent_dir(c.path));
}

// The inventory's copy at `path` (links followed); null when it has none.
inline machine::library_copy* copy_at(machine::findings& m, const std::string& path) {
  if (path.empty()) return nullptr;
  cushim::detail::platform::file_identity id = cushim::detail::platform::identity_of(path);
  for (machine::library_copy& c : m.copies) {
    if (c.path == path || (id.known() && cushim::detail::platform::identity_of(c.path) == id)) return &c;
    for (const machine::cudnn_file& s : c.sublibraries) {
      if (s.path == path) return &c;
    }
  }
  return nullptr;
}

inline std::string cudnn_in_short(machine::findings& m, const std::string& path, const std::string& version) {
  machine::library_copy* c = copy_at(m, path);
  std::string v = version.empty() && c ? c->version : version;
  return words::cudnn_from(cushim::detail::discovery::leading_parts(v, 3), c ? owner_in_short(*c) : std::string());
}

inline void framework_stacks(machine::findings& m, const gpu_view& gpu, std::vector<stack>& stacks) {
  for (const machine::environment& e : m.environments) {
    bool given = false;
    for (const std::string& by : e.found_by) given = given || by == "--python";
    for (const machine::framework& fw : e.frameworks) {
      stack s = make_stack("framework", framework_display(fw.name) + " " + fw.version, e.path);
      s.group = e.path;
      s.named_by_python = given;
      s.problems = fw.problems;
      s.uses_gpu = gpu.usable && fw.build == "cuda" && !blocked(s.problems);
      s.user = framework_display(fw.name) + " in " + e.path;
      for (const machine::library_load& l : fw.loads) {
        if (machine::library_copy* c = copy_at(m, l.path)) cushim::detail::discovery::add_unique(c->used_by, s.user);
        if (l.library == "cuDNN" && !l.path.empty()) s.cudnn = cudnn_in_short(m, l.path, l.version);
      }
      if (fw.build == "unknown") s.notes.push_back(words::build_unknown());
      stacks.push_back(std::move(s));
    }
  }
}

inline void toolkit_stacks(machine::findings& m, const gpu_view& gpu, std::vector<stack>& stacks) {
  for (const machine::toolkit& t : m.toolkits) {
    stack s = make_stack("toolkit", words::toolkit_stack(t.version), t.path);
    s.problems = t.problems;
    s.uses_gpu = gpu.usable && !blocked(s.problems);
    for (const machine::cudnn_install& c : t.cudnn) {
      if (!c.library.empty()) s.cudnn = cudnn_in_short(m, c.library, c.library_version);
    }
    stacks.push_back(std::move(s));
  }
}

// This doctor's own loads against what the files said its headers' programs would load: the truth
// wins where they differ; a failing GPU query or cudnnCreate is its line's problem.
inline void check_own_loads(const findings& f, const gpu_view& gpu, const machine::cushim_program& p, stack& s) {
  const cushim::status& st = f.of(p.key == "cudnn" ? cushim::library::cudnn : cushim::library::cudart);
  if (st.code == cushim::error_code::ok) {
    s.notes.push_back(words::doctor_loaded(st.path, diag::version_text(st.lib, st.version)));
  }
  bool said_loads = !p.loads.empty(), loads = st.code == cushim::error_code::ok;
  if (said_loads && !loads) {
    s.problems.push_back(words::own_load_differs(p.loads, cushim::to_string(st.code), diag::display_name(st.lib)));
  }
  for (const library_file& file : f.files) {
    for (const diag::dependency& d : file.dependencies.needs) {
      if (!d.path.empty() || file.dependencies.path.find(p.key == "cudnn" ? "cudnn" : "cudart") == std::string::npos) {
        continue;
      }
      s.problems.push_back(words::dependency_missing(file.file_name, file.dependencies.path, d.name, d.searched,
                                                     cushim::detail::platform::system_search_variable));
    }
  }
  if (!gpu.usable) return;
  if (p.key == "cudart" && f.gpus.ran && (f.gpus.error != cudaSuccess || f.gpus.gpus.empty())) {
    s.problems.push_back(words::gpu_query_fails(f.gpus.call, f.gpus.error_name, st.path, f.gpus.help));
  }
  if (p.key == "cudnn" && f.create.ran && f.create.status != CUDNN_STATUS_SUCCESS) {
    s.problems.push_back(words::cudnn_create_fails(f.create.status_name, st.path, f.create.help));
  }
}

inline void program_stacks(const findings& f, machine::findings& m, const gpu_view& gpu, std::vector<stack>& stacks) {
  for (const machine::cushim_program& p : m.programs) {
    stack s = make_stack("cushim program", words::programs_built_with(p.library + " " + p.headers_version),
                         joined(p.headers_from));
    s.problems = p.problems;
    s.notes = p.notes;
    if (p.this_program) check_own_loads(f, gpu, p, s);
    s.uses_gpu = gpu.usable && !p.loads.empty() && !blocked(s.problems);
    s.user = s.name;
    if (machine::library_copy* c = copy_at(m, p.loads)) cushim::detail::discovery::add_unique(c->used_by, s.user);
    for (const std::string& refused : p.refused) {
      if (machine::library_copy* c = copy_at(m, refused.substr(0, refused.find(" (")))) {
        cushim::detail::discovery::add_unique(c->used_by, words::which_refuse_it(s.name));
      }
    }
    if (p.key == "cudnn" && !p.loads.empty()) s.cudnn = cudnn_in_short(m, p.loads, p.loads_version);
    stacks.push_back(std::move(s));
  }
}

// Without discovery (--no-discover): this doctor's own build alone, from its own loads.
inline void own_build_stacks(const findings& f, const gpu_view& gpu, std::vector<stack>& stacks) {
  for (cushim::library lib : {cushim::library::cudnn, cushim::library::cudart}) {
    const cushim::status& st = f.of(lib);
    if (!shimmed(st)) continue;
    stack s = make_stack(
        "cushim program",
        words::programs_built_with(diag::display_name(lib) + (" " + diag::version_text(lib, st.compiled_version))),
        words::own_build());
    for (const diag::reported_problem& r : f.problems) {
      if (r.section == cushim::to_string(lib) && r.what.fatal) {
        s.problems.push_back(words::own_load_fails(r.what));
      }
    }
    s.uses_gpu = gpu.usable && st.code == cushim::error_code::ok && !blocked(s.problems) && s.problems.empty();
    stacks.push_back(std::move(s));
  }
}

inline std::vector<stack> find_stacks(findings& f, const gpu_view& gpu) {
  std::vector<stack> stacks;
  if (!f.discovered) {
    own_build_stacks(f, gpu, stacks);
    return stacks;
  }
  framework_stacks(f.machine, gpu, stacks);
  toolkit_stacks(f.machine, gpu, stacks);
  program_stacks(f, f.machine, gpu, stacks);
  // Every stack that reaches the GPU does so through the driver the system loader finds.
  if (machine::library_copy* driver = copy_at(f.machine, f.driver.driver.path)) {
    for (const stack& s : stacks) {
      if (s.uses_gpu && !s.user.empty()) cushim::detail::discovery::add_unique(driver->used_by, s.user);
    }
  }
  return stacks;
}

}  // namespace doctor
