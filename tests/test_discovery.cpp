// The doctor's discovery (doctor/machine/) on machines laid out under a temp folder (support/fake_machine.hpp):
// each scenario of issue 22 with its exact explanation (the file named, the reason, the fix) in
// text and JSON, the bad input of the issue, the compatibility data against its sources, and the
// minimum driver explain() names.
#include <doctest/doctest.h>

// Discovery names the libraries by cushim's own descriptors, which come with its implementation.
#define CUSHIM_IMPLEMENTATION
#include <cushim/status.hpp>

#include "machine/discover.hpp"
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "support/command_output.hpp"
#include "support/fake_machine.hpp"
#include "support/probe.hpp"

using test_support::discovery_fixture;
using test_support::fake_machine;
namespace machine = cushim::machine;
namespace detail = cushim::detail;

namespace {

machine::options with_driver(int cuda_version, const std::string& version) {
  machine::options o;
  o.driver_found = true;
  o.driver_cuda_version = cuda_version;
  o.driver_version = version;
  return o;
}

machine::findings discover(const fake_machine& m, machine::options o = {}) {
  o.use_process_environment = false;
  o.environment = m.environment_entries();
  return machine::discover(o);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The system folders of the machine's loader, under its root, as the reports list them.
std::string system_folders(const fake_machine& m) {
  std::string text;
  for (const char* dir :
       {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"})
    text += (text.empty() ? "" : ", ") + m.root() + dir;
  return text;
}

// Every problem of the findings, wherever it is.
std::vector<machine::problem> all_problems(const machine::findings& f) {
  std::vector<machine::problem> all = f.problems;
  for (const machine::toolkit& t : f.toolkits) all.insert(all.end(), t.problems.begin(), t.problems.end());
  for (const machine::environment& e : f.environments) {
    all.insert(all.end(), e.problems.begin(), e.problems.end());
    for (const machine::framework& fw : e.frameworks) all.insert(all.end(), fw.problems.begin(), fw.problems.end());
  }
  return all;
}

const machine::environment& environment_at(const machine::findings& f, const std::string& path) {
  for (const machine::environment& e : f.environments) {
    if (e.path == path) return e;
  }
  FAIL("no environment at " << path);
  throw 0;
}

const machine::toolkit& toolkit_at(const machine::findings& f, const std::string& path) {
  for (const machine::toolkit& t : f.toolkits) {
    if (t.path == path) return t;
  }
  FAIL("no toolkit at " << path);
  throw 0;
}

const machine::framework& framework_named(const machine::environment& e, const std::string& name) {
  for (const machine::framework& fw : e.frameworks) {
    if (fw.name == name) return fw;
  }
  FAIL("no " << name << " in " << e.path);
  throw 0;
}

// A problem as a test expects it: its name (docs/doctor.md) and its texts.
struct expected_problem {
  std::string name, what, path, why, fix;
};

expected_problem as_expected(const machine::problem& p) { return {p.name, p.what, p.path, p.why, p.fix}; }

// A problem as text() writes it, at the indentation of where it is.
std::string problem_block(const expected_problem& p, const std::string& indent) {
  return indent + "WARNING: " + p.what + "\n" + (p.path.empty() ? "" : indent + "  file: " + p.path + "\n") + indent +
         "  why:  " + p.why + "\n" + indent + "  fix:  " + p.fix + "\n";
}

// A problem as json() writes it.
std::string problem_json(const expected_problem& p) {
  return "{\"code\":" + detail::json_string(p.name) + ",\"what\":" + detail::json_string(p.what) +
         ",\"path\":" + detail::json_string(p.path) + ",\"why\":" + detail::json_string(p.why) +
         ",\"fix\":" + detail::json_string(p.fix) + "}";
}

// The one problem in `problems`, equal field by field to `expected`, and shown by both renderers.
void check_problem(const machine::findings& f, const std::vector<machine::problem>& problems,
                   const expected_problem& expected, const std::string& indent) {
  REQUIRE(problems.size() == 1);
  const machine::problem& p = problems.front();
  CHECK(p.name == expected.name);
  CHECK(p.what == expected.what);
  CHECK(p.path == expected.path);
  CHECK(p.why == expected.why);
  CHECK(p.fix == expected.fix);
  CHECK(contains(machine::text(f), problem_block(expected, indent)));
  CHECK(contains(machine::json(f), problem_json(expected)));
}

// Every problem of the findings is in text() and in json(), and each renderer has no other.
void check_parity(const machine::findings& f) {
  std::string text = machine::text(f), json = machine::json(f);
  std::size_t warnings = 0, objects = 0;
  for (std::size_t at = text.find("WARNING: "); at != std::string::npos; at = text.find("WARNING: ", at + 1))
    ++warnings;
  for (std::size_t at = json.find("{\"code\":"); at != std::string::npos; at = json.find("{\"code\":", at + 1))
    ++objects;
  std::vector<machine::problem> all = all_problems(f);
  CHECK(warnings == all.size());
  CHECK(objects == all.size());
  for (const machine::problem& p : all) {
    CHECK_MESSAGE(contains(json, problem_json(as_expected(p))), p.what);
    CHECK_MESSAGE(contains(text, "WARNING: " + p.what + "\n"), p.what);
  }
}

// The site-packages of a fresh venv at home/user/proj/.venv, VIRTUAL_ENV set to it.
std::string active_venv(fake_machine& m) {
  std::string site = m.venv("home/user/proj/.venv", "3.11.7");
  m.env["VIRTUAL_ENV"] = m.path("home/user/proj/.venv");
  return site;
}

}  // namespace

TEST_CASE("compatibility data: every row as its source gives it") {
  using namespace cushim::detail;
  // docs.nvidia.com/deploy/cuda-compatibility: minor version compatibility's minimum drivers.
  REQUIRE(std::size(minimum_drivers) == 3);
  CHECK(minimum_drivers[0].cuda_major == 11);
  CHECK(std::string(minimum_drivers[0].linux_driver) == "450.80.02");
  CHECK(std::string(minimum_drivers[0].windows_driver) == "452.39");
  CHECK(minimum_drivers[1].cuda_major == 12);
  CHECK(std::string(minimum_drivers[1].linux_driver) == "525.60.13");
  CHECK(std::string(minimum_drivers[1].windows_driver) == "527.41");
  CHECK(minimum_drivers[2].cuda_major == 13);
  CHECK(std::string(minimum_drivers[2].linux_driver) == "580.65.06");
  CHECK(minimum_drivers[2].windows_driver == nullptr);  // not confirmed at NVIDIA
  for (const minimum_driver_row& row : minimum_drivers) {
    CHECK(contains(row.source, "docs.nvidia.com/deploy/cuda-compatibility"));
  }
  // Each toolkit's own driver (Linux / Windows).
  const std::map<std::string, std::pair<const char*, const char*>> toolkit = {
      {"11.0.2", {"450.51.05", "451.48"}}, {"11.1", {"455.23", "456.38"}},    {"11.2.0", {"460.27.03", "460.82"}},
      {"11.4.0", {"470.42.01", "471.11"}}, {"11.6", {"510.39.01", "511.23"}}, {"11.8", {nullptr, "522.06"}},
      {"12.4", {"550.54.14", nullptr}}};
  REQUIRE(std::size(toolkit_drivers) == toolkit.size());
  for (const toolkit_driver_row& row : toolkit_drivers) {
    CAPTURE(row.toolkit);
    REQUIRE(toolkit.count(row.toolkit) == 1);
    auto expected = toolkit.at(row.toolkit);
    CHECK((row.linux_driver ? std::string(row.linux_driver) : "") == (expected.first ? expected.first : ""));
    CHECK((row.windows_driver ? std::string(row.windows_driver) : "") == (expected.second ? expected.second : ""));
    CHECK(contains(row.source, "release notes"));
  }
  // The GPUs each major dropped: 12.0 SM 3.5/3.7 (minimum 5.0), 13.0 Maxwell, Pascal, Volta (7.5).
  REQUIRE(std::size(gpu_floors) == 2);
  CHECK(gpu_floors[0].cuda_major == 12);
  CHECK(gpu_floors[0].minimum_sm == 50);
  CHECK(contains(gpu_floors[0].dropped, "3.5 and 3.7"));
  CHECK(gpu_floors[1].cuda_major == 13);
  CHECK(gpu_floors[1].minimum_sm == 75);
  CHECK(contains(gpu_floors[1].dropped, "Maxwell, Pascal and Volta"));
  // cuDNN's support matrices.
  struct matrix {
    const char* release;
    std::vector<std::pair<int, int>> cuda;
    int sm_min, sm_max;
  };
  const std::vector<matrix> matrices = {{"8.5.0", {{1100, 1107}}, 35, 0},
                                        {"8.9.5", {{1200, 1202}, {1100, 1108}}, 50, 90},
                                        {"9.0.0", {{1200, 1203}, {1100, 1108}}, 50, 90},
                                        {"9.5.1", {{1200, 1206}, {1108, 1108}}, 0, 0},
                                        {"9.10.2", {{1200, 1209}, {1108, 1108}}, 50, 120},
                                        {"9.17.0", {{1300, 1301}, {1200, 1209}}, 75, 120}};
  REQUIRE(std::size(cudnn_support) == matrices.size());
  for (std::size_t i = 0; i < matrices.size(); ++i) {
    const cudnn_support_row& row = cudnn_support[i];
    CAPTURE(row.release);
    CHECK(std::string(row.release) == matrices[i].release);
    CHECK(std::to_string(row.major) + "." + std::to_string(row.minor) + "." + std::to_string(row.patch) == row.release);
    std::vector<std::pair<int, int>> ranges;
    for (const cuda_range& r : row.cuda) {
      if (r.from) ranges.emplace_back(r.from, r.to);
    }
    CHECK(ranges == matrices[i].cuda);
    CHECK(row.sm_min == matrices[i].sm_min);
    CHECK(row.sm_max == matrices[i].sm_max);
    CHECK(contains(row.source, std::string("cuDNN ") + row.release + " support matrix"));  // its own page
  }
  // Known-bad releases.
  REQUIRE(std::size(known_bad_releases) == 2);
  CHECK(std::string(known_bad_releases[0].package) == "cudnn");
  CHECK(std::string(known_bad_releases[0].version) == "9.10.0");
  CHECK(contains(known_bad_releases[0].fix, "9.10.1"));
  CHECK(std::string(known_bad_releases[1].package) == "nvidia-cudnn-cu13");
  CHECK(std::string(known_bad_releases[1].version) == "9.20.0.48");
  CHECK(std::string(known_bad_releases[1].linux_file) == "libcudnn_engines_tensor_ir.so.9");
  CHECK(contains(known_bad_releases[1].source, "pytorch/pytorch#187824"));
  // torch's wheels: cu128 builds SM 7.5, 8.0, 8.6, 9.0, 10.0, 12.0; cu130 covers 7.5 and later.
  REQUIRE(std::size(wheel_architectures) == 2);
  CHECK(std::string(wheel_architectures[0].cuda_tag) == "cu128");
  CHECK(std::vector<int>(wheel_architectures[0].sm, wheel_architectures[0].sm + 6) ==
        std::vector<int>{75, 80, 86, 90, 100, 120});
  CHECK(wheel_architectures[0].sm[6] == 0);
  CHECK(std::string(wheel_architectures[1].cuda_tag) == "cu130");
  CHECK(wheel_architectures[1].sm[0] == 0);
  CHECK(wheel_architectures[1].sm_min == 75);
  CHECK(contains(wheel_architectures[0].source, "pytorch/pytorch#157517"));
}

TEST_CASE("the small readers: Python assignments, METADATA, pyvenv.cfg, version.json, #defines, paths") {
  using namespace cushim::detail::discovery;
  // torch 2.1's untyped version.py, 2.2's typed one, TensorFlow's build_info in both forms.
  auto untyped = python_assignments("__version__ = '2.1.0+cu118'\ndebug = False\ncuda = '11.8'\nhip = None\n");
  REQUIRE(find_value(untyped, "__version__"));
  CHECK(find_value(untyped, "__version__")->text == "2.1.0+cu118");
  CHECK(find_value(untyped, "cuda")->type == py_value::kind::string);
  CHECK(find_value(untyped, "hip")->type == py_value::kind::none);
  CHECK(find_value(untyped, "debug")->text == "False");
  auto typed = python_assignments(
      "from typing import Optional\n\n__all__ = ['__version__', 'cuda']\n"
      "cuda: Optional[str] = '12.4'\nhip: Optional[str] = None\n");
  CHECK(find_value(typed, "cuda")->text == "12.4");
  CHECK(find_value(typed, "__all__")->items == std::vector<std::string>{"__version__", "cuda"});
  auto build_info = python_assignments(
      "build_info = collections.OrderedDict()\nbuild_info['cuda_version'] = '64_112'\n"
      "build_info['cuda_compute_capabilities'] = [\n    'sm_35',\n    'sm_50',\n]\nbuild_info['is_cuda_build'] = "
      "True\n");
  CHECK(find_value(build_info, "cuda_version")->text == "64_112");
  CHECK(find_value(build_info, "cuda_compute_capabilities")->items == std::vector<std::string>{"sm_35", "sm_50"});
  auto literal = python_assignments("build_info = {\n  'cuda_version': \"12.1\",\n  'is_rocm_build': False,\n}\n");
  CHECK(find_value(literal, "cuda_version")->text == "12.1");
  CHECK(find_value(literal, "is_rocm_build")->text == "False");
  CHECK(python_assignments(std::string("\x00\xff\xfe == = '\n[[[[\n", 16)).empty());
  CHECK(python_assignments("a == 'b'\n1x = 2\n").empty());
  CHECK(build_version_text("64_112") == "11.2");
  CHECK(build_version_text("64_8") == "8");
  CHECK(build_version_text("12.1") == "12.1");
  CHECK(cuda_in_name("jax_cuda12_plugin") == "12");
  CHECK(cuda_in_name("cupy_cuda13x") == "13");
  CHECK(cuda_in_name("cupy").empty());
  // METADATA: the headers before the first empty line only.
  auto headers = metadata_headers(
      "Metadata-Version: 2.1\nName: nvidia-cudnn-cu12\nVersion: 9.1.0.70\n"
      "Requires-Dist: nvidia-cublas-cu12\n\nVersion: 0.0 (the description)\n");
  CHECK(header_value(headers, "Name") == "nvidia-cudnn-cu12");
  CHECK(header_value(headers, "Version") == "9.1.0.70");
  CHECK(header_value(headers, "Requires-Dist") == "nvidia-cublas-cu12");
  CHECK(config_value("home = /usr/bin\nversion_info = 3.12.3.final.0\n", "version_info") == "3.12.3.final.0");
  CHECK(config_value("home = /usr/bin\n", "version").empty());
  // version.json: the "cuda" entry's version, not another component's.
  CHECK(version_json_cuda("{\"cuda_cudart\":{\"version\":\"12.4.127\"},\"cuda\" : {\"name\":\"CUDA SDK\",\"version\" : "
                          "\"12.4.1\"}}") == "12.4.1");
  CHECK(version_json_cuda("{\"cuda\": \"12.4\"}").empty());
  CHECK(version_txt_cuda("CUDA Version 11.0.228\n") == "11.0.228");
  CHECK(define_value("#define CUDNN_MAJOR 8\n#define CUDNN_MINOR_X 1\n#  define CUDNN_MINOR 9\n", "CUDNN_MINOR") ==
        "9");
  CHECK(define_value("#define PY_VERSION      \"3.11.7\"\n", "PY_VERSION") == "3.11.7");
  CHECK(cuda_minor_key("12.4.1") == 1204);
  CHECK(cuda_minor_key("garbage") == 0);
  CHECK(leading_parts("9.1.0.70", 3) == "9.1.0");
  CHECK(lexically_normal("/a/torch/lib/../../nvidia/./cudnn/lib") == "/a/nvidia/cudnn/lib");
  CHECK(lexically_normal("../x/../../y") == "../../y");
  CHECK(lexically_normal("//server/share/a/../b") == "//server/share/b");
  CHECK(size_text(100u << 20) == "100 MiB");
  CHECK(size_text(1000) == "1000 bytes");
}

TEST_CASE("a torch 2.5.1+cu124 venv with its wheels: one line, and the CUDA and cuDNN it would load") {
  fake_machine m;
  std::string site = active_venv(m);
  m.torch_cu124(site);
  machine::findings f = discover(m, with_driver(12040, "550.54.15"));
  CHECK(all_problems(f).empty());
  const machine::environment& e = environment_at(f, m.path("home/user/proj/.venv"));
  CHECK(e.kind == "venv");
  CHECK(e.python_version == "3.11.7");
  CHECK(e.version_source == "pyvenv.cfg");
  CHECK(e.found_by == std::vector<std::string>{"VIRTUAL_ENV"});
  const machine::framework& torch = framework_named(e, "torch");
  CHECK(torch.version == "2.5.1+cu124");
  CHECK(torch.version_source == "torch/version.py");
  CHECK(torch.build == "cuda");
  CHECK(torch.cuda == "12.4");
  std::string nvidia = site + "/nvidia";
  std::string line = "    torch 2.5.1+cu124 (CUDA 12.4): loads cuDNN 9.1.0.70 from " + nvidia +
                     "/cudnn/lib/libcudnn.so.9, CUDA runtime 12.4.127 from " + nvidia +
                     "/cuda_runtime/lib/libcudart.so.12, cuBLAS 12.4.5.8 from " + nvidia +
                     "/cublas/lib/libcublas.so.12, cuBLASLt 12.4.5.8 from " + nvidia +
                     "/cublas/lib/libcublasLt.so.12\n";
  std::string text = machine::text(f);
  CHECK(contains(text, "  venv " + m.path("home/user/proj/.venv") +
                           ": Python 3.11.7 (pyvenv.cfg); found by VIRTUAL_ENV\n" + line +
                           "    nvidia wheels: nvidia-cublas-cu12 12.4.5.8, nvidia-cuda-runtime-cu12 12.4.127, "
                           "nvidia-cudnn-cu12 9.1.0.70\n"));
  REQUIRE(torch.loads.size() == 4);
  CHECK(torch.loads[0].version_source == "its wheel, nvidia-cudnn-cu12 9.1.0.70");
  CHECK(contains(machine::json(f), "{\"library\":\"cuDNN\",\"name\":\"libcudnn.so.9\",\"path\":" +
                                       detail::json_string(nvidia + "/cudnn/lib/libcudnn.so.9") +
                                       ",\"version\":\"9.1.0.70\",\"version_source\":\"its wheel, nvidia-cudnn-cu12 "
                                       "9.1.0.70\"}"));
  CHECK_FALSE(machine::has_problems(f));
  std::map<std::string, std::string> record;
  for (const auto& kv : machine::record(f)) record[kv.first] += kv.second;
  CHECK(record["python_environments"] == "1");
  CHECK(record["python_env0"] == "venv " + m.path("home/user/proj/.venv") + " Python 3.11.7");
  CHECK(record["python_env0_torch"] == "2.5.1+cu124, CUDA 12.4, loads cuDNN 9.1.0.70 from " + nvidia +
                                           "/cudnn/lib/libcudnn.so.9, loads CUDA runtime 12.4.127 from " + nvidia +
                                           "/cuda_runtime/lib/libcudart.so.12, loads cuBLAS 12.4.5.8 from " + nvidia +
                                           "/cublas/lib/libcublas.so.12, loads cuBLASLt 12.4.5.8 from " + nvidia +
                                           "/cublas/lib/libcublasLt.so.12");
  CHECK(record["discovery_problems"] == "0");
}

TEST_CASE("the CPU wheel: named as one, with the wheel index of a CUDA the driver supports") {
  fake_machine m;
  std::string site = active_venv(m);
  m.torch(site, "2.4.1+cpu", "None", "None", "");
  machine::findings f = discover(m, with_driver(12040, "550.54.15"));
  const machine::framework& torch = framework_named(environment_at(f, m.path("home/user/proj/.venv")), "torch");
  CHECK(torch.build == "cpu");
  check_problem(
      f, torch.problems,
      {"cpu_only_build", "torch 2.4.1+cpu is a CPU-only build", site + "/torch/version.py",
       "torch/version.py says it was built without CUDA (cuda is None): it never uses a GPU, whatever the driver and "
       "the "
       "toolkits (torch reports no CUDA device; a package manager that took the default index often installs this "
       "build)",
       "pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cuXY, for a CUDA X.Y up to "
       "12.4 "
       "(what this driver supports)"},
      "      ");
  CHECK(contains(machine::text(f), "    torch 2.4.1+cpu (CPU only)\n"));
  CHECK(machine::has_problems(f));
}

TEST_CASE("the wrong interpreter on PATH: python starts the system's, the CUDA torch is in a venv") {
  fake_machine m;
  std::string site = m.venv("home/user/proj/.venv", "3.11.7");
  m.torch_cu124(site);
  m.system_python("3.11.2");
  m.executable("usr/bin/python");           // python-is-python3
  m.env["PWD"] = m.path("home/user/proj");  // the doctor runs in the project, whose .venv the IDE did not pick
  machine::findings f = discover(m, with_driver(12040, "550.54.15"));
  REQUIRE(f.on_path.size() == 2);
  CHECK(f.on_path[0].command == "python");
  CHECK(f.on_path[0].path == m.path("usr/bin/python"));
  CHECK(f.on_path[0].environment == m.path("usr"));
  CHECK(f.on_path[1].path == m.path("usr/bin/python3"));
  const machine::environment& system = environment_at(f, m.path("usr"));
  CHECK(system.kind == "system");
  CHECK(system.python_version == "3.11.2");
  CHECK(system.started_by == std::vector<std::string>{"python", "python3"});
  CHECK(system.site_packages == std::vector<std::string>{m.path("usr/lib/python3/dist-packages")});
  std::string venv = m.path("home/user/proj/.venv");
  REQUIRE(f.problems.size() == 2);  // python and python3
  expected_problem expected{
      "wrong_interpreter",
      "python on PATH starts " + m.path("usr/bin/python") + " (system " + m.path("usr") +
          "), which has no CUDA framework; torch 2.5.1+cu124 is in " + venv,
      m.path("usr/bin/python"),
      "a bare python (a shell, a script's #!/usr/bin/env python, an IDE left at its default interpreter) runs without "
      "CUDA there: importing the framework fails (No module named ...)",
      "run " + venv + "/bin/python3 (or activate " + venv + " first); in an IDE, choose " + venv +
          "/bin/python3 as the interpreter"};
  check_problem(f, {f.problems[0]}, expected, "  ");
  CHECK(f.problems[1].what == "python3 on PATH starts " + m.path("usr/bin/python3") + " (system " + m.path("usr") +
                                  "), which has no CUDA framework; torch 2.5.1+cu124 is in " + venv);
  // Activated, the venv is what python starts: nothing to say.
  m.env["PATH"] = venv + "/bin:" + m.path("usr/bin");
  machine::findings activated = discover(m, with_driver(12040, "550.54.15"));
  CHECK(activated.problems.empty());
  CHECK(environment_at(activated, venv).started_by == std::vector<std::string>{"python", "python3"});
}

TEST_CASE("the wheel's CUDA is newer than the driver: the minimum driver and the wheel index to use") {
  fake_machine m;
  std::string site = active_venv(m);
  m.torch_cu124(site);
  machine::findings f = discover(m, with_driver(11080, "520.61.05"));
  const machine::framework& torch = framework_named(environment_at(f, m.path("home/user/proj/.venv")), "torch");
  check_problem(
      f, torch.problems,
      {"driver_too_old",
       "the NVIDIA driver (520.61.05) supports CUDA up to 11.8, older than the CUDA 12.4 that torch "
       "2.5.1+cu124 was built for",
       site + "/torch/lib/libtorch_cuda.so",
       "its CUDA calls fail with cudaErrorInsufficientDriver (35, \"CUDA driver version is insufficient for "
       "CUDA runtime version\"): CUDA 12.x needs driver 525.60.13 or newer "
       "(docs.nvidia.com/deploy/cuda-compatibility, minor version compatibility)",
       "update the NVIDIA driver to 525.60.13 or newer (550.54.14 or newer runs everything in CUDA 12.4, PTX JIT "
       "included); or pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cuXY, "
       "for a CUDA X.Y up to 11.8 (what this driver supports)"},
      "      ");
  // A driver of the same major but an older minor runs it (minor version compatibility): a note.
  machine::findings minor = discover(m, with_driver(12020, "535.54.03"));
  const machine::framework& same = framework_named(environment_at(minor, m.path("home/user/proj/.venv")), "torch");
  CHECK(same.problems.empty());
  REQUIRE(same.notes.size() == 1);
  CHECK(same.notes[0] ==
        "the NVIDIA driver (535.54.03) supports CUDA up to 12.2, older than the CUDA 12.4 that torch 2.5.1+cu124 was "
        "built for: it runs through minor version compatibility, but PTX built for 12.4 cannot be compiled by that "
        "driver (cudaErrorUnsupportedPtxVersion)");
  // Without a driver there is nothing to compare with.
  CHECK(all_problems(discover(m)).empty());
}

TEST_CASE("a system cuDNN on LD_LIBRARY_PATH shadows the wheel's") {
  fake_machine m;
  std::string site = active_venv(m);
  m.torch_cu124(site);
  std::string system = "usr/local/cudnn-9.23/lib";
  for (const std::string& sub : test_support::cudnn9_sublibraries) {
    std::string file = "libcudnn_" + sub + ".so.9";
    m.copy(discovery_fixture("cudnn9", file), system + "/" + file + ".23.2");
    m.tree.symlink(file + ".23.2", system + "/" + file);
  }
  m.copy(discovery_fixture("cudnn9", "libcudnn.so.9"), system + "/libcudnn.so.9.23.2");
  m.tree.symlink("libcudnn.so.9.23.2", system + "/libcudnn.so.9");
  m.env["LD_LIBRARY_PATH"] = m.path(system);
  machine::findings f = discover(m, with_driver(12040, "550.54.15"));
  const machine::framework& torch = framework_named(environment_at(f, m.path("home/user/proj/.venv")), "torch");
  REQUIRE_FALSE(torch.loads.empty());
  CHECK(torch.loads[0].path == m.path(system + "/libcudnn.so.9"));
  CHECK(torch.loads[0].version == "9.23.2");
  check_problem(
      f, torch.problems,
      {"shadowed_by_library_path", "LD_LIBRARY_PATH puts another libcudnn.so.9 before the one torch is built to load",
       m.path(system + "/libcudnn.so.9"),
       "torch loads " + m.path(system + "/libcudnn.so.9") +
           " (9.23.2) from LD_LIBRARY_PATH, which the loader searches before the RUNPATH that leads to " + site +
           "/nvidia/cudnn/lib/libcudnn.so.9 (9.1.0.70, its wheel, nvidia-cudnn-cu12 9.1.0.70): a library of "
           "another release than the one torch 2.5.1+cu124 was built and tested with",
       "remove " + m.path(system) +
           " from LD_LIBRARY_PATH when running torch (it comes first), or run it from an environment without "
           "that setting"},
      "      ");
}

TEST_CASE("the nvidia-cudnn-cu13 9.20.0.48 wheel without libcudnn_engines_tensor_ir.so.9") {
  fake_machine m;
  std::string site = active_venv(m);
  m.torch(site, "2.12.1+cu130", "'13.0'", "None", "torch_cu130");
  m.cudnn9_wheel(site, "nvidia-cudnn-cu13", "9.20.0.48", "nvidia/cu13/lib", false);
  m.library_wheel(site, "nvidia-cuda-runtime", "13.0.96", "nvidia/cu13/lib", "cuda13", {"libcudart.so.13"});
  // Ubuntu's libcudnn9-cuda-12 9.23.2, where ld.so.cache points the bare-name load (pytorch#188892).
  std::string system = "usr/lib/x86_64-linux-gnu";
  m.copy(discovery_fixture("cudnn9", "libcudnn_engines_tensor_ir.so.9"),
         system + "/libcudnn_engines_tensor_ir.so.9.23.2");
  m.tree.symlink("libcudnn_engines_tensor_ir.so.9.23.2", system + "/libcudnn_engines_tensor_ir.so.9");
  m.ld_so_cache({"/" + system});
  machine::findings f = discover(m, with_driver(13000, "580.65.06"));
  const machine::environment& e = environment_at(f, m.path("home/user/proj/.venv"));
  std::string wheel_lib = site + "/nvidia/cu13/lib";
  check_problem(
      f, e.problems,
      {"known_bad_release", "nvidia-cudnn-cu13 9.20.0.48 is a known-bad release",
       site + "/nvidia_cudnn_cu13-9.20.0.48.dist-info",
       "this wheel lacks libcudnn_engines_tensor_ir.so.9, which cuDNN 9.20 loads by name: cuDNN fails with "
       "CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH, or takes the copy of another release that the system loader "
       "finds elsewhere (pytorch/pytorch#187824, #188892)",
       "pip install \"nvidia-cudnn-cu13!=9.20.0.48\" (every other release has the file)"},
      "    ");
  const machine::framework& torch = framework_named(e, "torch");
  std::string shadow = m.path(system + "/libcudnn_engines_tensor_ir.so.9");
  check_problem(
      f, torch.problems,
      {"cudnn_mixed_releases",
       "cuDNN's own load of libcudnn_engines_tensor_ir.so.9 by name takes " + shadow + ", of cuDNN 9.23.2, not 9.20.0",
       shadow,
       "cuDNN 9.20.0 (" + wheel_lib +
           "/libcudnn.so.9) loads its sub-libraries by name; from torch's process, the first "
           "libcudnn_engines_tensor_ir.so.9 that search meets is of another release (its file name, "
           "libcudnn_engines_tensor_ir.so.9.23.2): cuDNN fails with CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH",
       "remove the other release's folder (" + m.path(system) +
           ") from where the search looks (LD_LIBRARY_PATH, the RUNPATH of cuDNN's main library, "
           "/etc/ld.so.cache, the system folders), or install cuDNN 9.20.0's own "
           "libcudnn_engines_tensor_ir.so.9 beside " +
           wheel_lib + "/libcudnn.so.9"},
      "      ");
  // Any other release of the wheel has the file: not known-bad.
  fake_machine good;
  std::string good_site = active_venv(good);
  good.cudnn9_wheel(good_site, "nvidia-cudnn-cu13", "9.20.1.3", "nvidia/cu13/lib", true);
  CHECK(all_problems(discover(good)).empty());
}

TEST_CASE("a cuDNN for CUDA 11 copied into a CUDA 12 toolkit; headers 8.9 beside a library 8.5 in another") {
  fake_machine m;
  std::string cuda12 = m.toolkit("12.4.1");
  m.toolkit_cudnn8(cuda12, "8.5.0");
  std::string cuda11 = m.toolkit("11.7.1");
  m.toolkit_cudnn8(cuda11, "8.9.7");
  machine::findings f = discover(m);
  REQUIRE(f.toolkits.size() == 2);
  CHECK(f.toolkits[0].path == cuda11);  // in name order
  const machine::toolkit& t12 = toolkit_at(f, cuda12);
  CHECK(t12.version == "12.4.1");
  CHECK(t12.version_source == "version.json");
  CHECK(t12.found_by == std::vector<std::string>{"/usr/local/cuda-*"});
  REQUIRE(t12.cudnn.size() == 1);
  const machine::cudnn_install& c = t12.cudnn[0];
  CHECK(c.library == cuda12 + "/lib64/libcudnn.so.8");
  CHECK(c.library_version == "8.5.0");
  CHECK(c.version_source == "libcudnn.so.8: its file name, libcudnn.so.8.5.0");
  CHECK(c.header_version == "8.5.0");
  CHECK(c.built_for_cuda_major == 11);
  CHECK(c.built_for_source == "libcudnn_ops_infer.so.8 imports libcublasLt.so.11");
  REQUIRE(c.sublibraries.size() == 6);
  CHECK(c.sublibraries[0].name == "libcudnn_ops_infer.so.8");
  CHECK(c.sublibraries[0].version == "8.5.0");
  check_problem(
      f, t12.problems,
      {"cudnn_other_cuda", "the cuDNN 8.5.0 in " + cuda12 + " (CUDA 12.4.1) was built for CUDA 11",
       cuda12 + "/lib64/libcudnn.so.8",
       "libcudnn_ops_infer.so.8 imports libcublasLt.so.11: it needs CUDA 11's libraries, which a CUDA 12 "
       "toolkit does not have, so programs built with this toolkit cannot use it",
       "install the cuDNN archive built for CUDA 12 (cudnn-...-cuda12-archive) in its place, or keep each cuDNN "
       "in a folder of its own beside the CUDA it was built for"},
      "    ");
  check_problem(f, toolkit_at(f, cuda11).problems,
                {"cudnn_headers_mismatch",
                 "cuDNN's header and library in " + cuda11 +
                     " are of different releases: cudnn_version.h says 8.9.7, libcudnn.so.8 is 8.5.0",
                 cuda11 + "/include/cudnn_version.h",
                 "a program built here compiles against cuDNN 8.9.7's declarations and loads the 8.5.0 library: "
                 "functions its headers declare can be missing there, and cudnnGetVersion() (8.5.0) disagrees with the "
                 "CUDNN_VERSION it was compiled with, which frameworks and cushim check",
                 "copy the include and library folders of one cuDNN archive together (both 8.9.7, or both 8.5.0)"},
                "    ");
  CHECK(contains(machine::text(f),
                 "  " + cuda11 +
                     ": CUDA 11.7.1 (version.json), nvcc, cuDNN 8.5.0 (headers 8.9.7, built for CUDA 11) "
                     "copied in; found by /usr/local/cuda-*\n"));
}

TEST_CASE("cuDNN 8.5.0 for CUDA 11 in a CUDA 11.8 toolkit: validated up to 11.7, a note; in CUDA 12.4, a warning") {
  fake_machine m;
  std::string cuda118 = m.toolkit("11.8.0");
  m.toolkit_cudnn8(cuda118, "8.5.0");
  machine::findings f = discover(m);
  const machine::toolkit& t = toolkit_at(f, cuda118);
  CHECK(t.problems.empty());
  CHECK(std::find(t.notes.begin(), t.notes.end(),
                  "cuDNN 8.5.0 was validated with CUDA 11.0 - 11.7 (cuDNN 8.5.0 support matrix "
                  "(docs.nvidia.com/deeplearning/cudnn/archives/cudnn-850/support-matrix)); it runs on CUDA 11.8 "
                  "through minor version compatibility (docs.nvidia.com/deploy/cuda-compatibility, minor version "
                  "compatibility)") != t.notes.end());
  fake_machine other;
  std::string cuda124 = other.toolkit("12.4.1");
  other.toolkit_cudnn8(cuda124, "8.5.0");
  machine::findings g = discover(other);
  CHECK(toolkit_at(g, cuda124).problems.size() == 1);
  CHECK(toolkit_at(g, cuda124).problems.front().name == "cudnn_other_cuda");  // another major stays a warning
}

TEST_CASE("CUDA_PATH names a removed toolkit; CUDA_HOME and the first nvcc on PATH disagree") {
  fake_machine m;
  std::string cuda11 = m.toolkit("11.8.0");
  std::string cuda12 = m.toolkit("12.4.1");
  m.tree.symlink("cuda-12.4", "usr/local/cuda");
  m.env["CUDA_PATH"] = m.path("usr/local/cuda-12.1");
  m.env["CUDA_HOME"] = m.path("usr/local/cuda");
  m.env["PATH"] = cuda11 + "/bin:" + m.path("usr/bin");
  machine::findings f = discover(m);
  REQUIRE(f.toolkits.size() == 2);
  const machine::toolkit& t12 = toolkit_at(f, cuda12);
  CHECK(t12.found_by == std::vector<std::string>{"/usr/local/cuda-*", "/usr/local/cuda", "CUDA_HOME"});
  CHECK(t12.selected_by == std::vector<std::string>{"CUDA_HOME"});
  CHECK(toolkit_at(f, cuda11).selected_by == std::vector<std::string>{"nvcc on PATH"});
  REQUIRE(f.problems.size() == 2);
  check_problem(
      f, {f.problems[0]},
      {"variable_names_no_toolkit",
       "CUDA_PATH names " + m.path("usr/local/cuda-12.1") + ", which does not exist (a removed toolkit?)",
       m.path("usr/local/cuda-12.1"),
       "build tools and loaders that read CUDA_PATH (CMake's FindCUDAToolkit, setup.py builds, torch's loader "
       "for CUDA_PATH_V<x>_<y>) look for the toolkit there and find nothing",
       "set CUDA_PATH to an installed toolkit (" + cuda11 + ", " + cuda12 + "), or remove the variable"},
      "  ");
  check_problem(f, {f.problems[1]},
                {"toolkit_selection_disagrees",
                 "CUDA_HOME selects " + cuda12 + " (CUDA 12.4.1), but the first nvcc on PATH is " + cuda11 +
                     "/bin/nvcc (CUDA 11.8.0)",
                 cuda12,
                 "build tools disagree: CMake's FindCUDAToolkit and setup.py builds take the toolkit from CUDA_HOME, a "
                 "build that runs nvcc from PATH compiles with the other one: a program then compiles with one CUDA's "
                 "headers and links or loads the other's libraries",
                 "put " + cuda12 + "/bin first on PATH, or set CUDA_HOME to " + cuda11},
                "  ");
  CHECK(contains(machine::text(f), "  " + cuda12 + " -> " + cuda12 + ": ") == false);
}

TEST_CASE("a ROCm build is not a CPU wheel") {
  fake_machine m;
  std::string site = active_venv(m);
  m.torch(site, "2.13.0+rocm10.0.0", "None", "'10.0.0'", "");
  machine::findings quiet = discover(m);
  const machine::framework& rocm = framework_named(environment_at(quiet, m.path("home/user/proj/.venv")), "torch");
  CHECK(rocm.build == "rocm");
  CHECK(rocm.hip == "10.0.0");
  CHECK(rocm.problems.empty());  // no NVIDIA driver here: nothing it could use instead
  CHECK(contains(machine::text(quiet), "    torch 2.13.0+rocm10.0.0 (ROCm, HIP 10.0.0)\n"));
  machine::findings f = discover(m, with_driver(12040, "550.54.15"));
  const machine::framework& torch = framework_named(environment_at(f, m.path("home/user/proj/.venv")), "torch");
  check_problem(
      f, torch.problems,
      {"rocm_build", "torch 2.13.0+rocm10.0.0 is a ROCm build (HIP 10.0.0), for AMD GPUs", site + "/torch/version.py",
       "it uses AMD's HIP runtime, not CUDA: it sees no NVIDIA GPU",
       "pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cuXY, for a CUDA X.Y up "
       "to 12.4 (what this driver supports)"},
      "      ");
}

TEST_CASE("TensorFlow (build_info.py) and ONNX Runtime (its CUDA provider and the wheels it loads)") {
  fake_machine m;
  std::string site = m.conda_env("home/user/miniconda3/envs/tf", "3.10.14");
  m.write("home/user/miniconda3/conda-meta/history", "");
  m.executable("home/user/miniconda3/bin/python");
  m.write(site.substr(m.root().size() + 1) + "/tensorflow/python/platform/build_info.py",
          "# Copyright 2020 The TensorFlow Authors. All Rights Reserved.\n"
          "\"\"\"Auto-generated module providing information about the build.\"\"\"\nimport collections\n\n"
          "build_info = collections.OrderedDict()\nbuild_info['cpu_compiler'] = '/usr/lib/llvm-17/bin/clang'\n"
          "build_info['cuda_compute_capabilities'] = ['sm_60', 'sm_70', 'sm_80', 'sm_89', 'compute_90']\n"
          "build_info['cuda_version'] = '12.2'\nbuild_info['cudnn_version'] = '8'\nbuild_info['is_cuda_build'] = True\n"
          "build_info['is_rocm_build'] = False\nbuild_info['is_tensorrt_build'] = True\n");
  m.copy(discovery_fixture("tensorflow", "_pywrap_tensorflow_internal.so"),
         site.substr(m.root().size() + 1) + "/tensorflow/python/_pywrap_tensorflow_internal.so");
  m.dist_info(site, "tensorflow", "2.15.1");
  m.write(
      site.substr(m.root().size() + 1) + "/onnxruntime/capi/build_and_package_info.py",
      "package_name = 'onnxruntime-gpu'\n__version__ = '1.18.1'\ncuda_version = '12.2'\ncudnn_version = '8.9.2.26'\n");
  for (const char* file : {"libonnxruntime_providers_cuda.so", "libonnxruntime_providers_shared.so"}) {
    m.copy(discovery_fixture("onnxruntime", file), site.substr(m.root().size() + 1) + "/onnxruntime/capi/" + file);
  }
  m.dist_info(site, "onnxruntime-gpu", "1.18.1");
  machine::findings f = discover(m, [] {
    machine::options o = with_driver(12040, "550.54.15");
    o.gpu_compute_capabilities = {61, 86, 90};
    return o;
  }());
  std::string env = m.path("home/user/miniconda3/envs/tf");
  const machine::environment& e = environment_at(f, env);
  CHECK(e.kind == "conda");
  CHECK(e.python_version == "3.10.14");
  CHECK(e.version_source == "conda-meta/python-3.10.14-h955ad1f_0.json");
  CHECK(e.found_by == std::vector<std::string>{"~/miniconda3, ~/anaconda3, ~/miniforge3, .../envs"});
  const machine::framework& tf = framework_named(e, "tensorflow");
  CHECK(tf.version == "2.15.1");
  CHECK(tf.build == "cuda");
  CHECK(tf.cuda == "12.2");
  CHECK(tf.cudnn == "8");
  CHECK(tf.architectures == std::vector<std::string>{"sm_60", "sm_70", "sm_80", "sm_89", "compute_90"});
  // SM 6.1 and 8.6 have no code of their own: 6.1 runs nothing (no PTX below 9.0), 8.6 neither.
  REQUIRE(tf.problems.size() == 2);
  CHECK(tf.problems[0].name == "gpu_not_built_for");
  CHECK(tf.problems[0].what == "tensorflow 2.15.1 has no code for the GPU of compute capability 6.1");
  CHECK(
      tf.problems[0].why ==
      "its build information lists sm_60, sm_70, sm_80, sm_89, compute_90: on this GPU it fails with \"no kernel image "
      "is available for execution on the device\"");
  CHECK(tf.problems[1].what == "tensorflow 2.15.1 has no code for the GPU of compute capability 8.6");
  const machine::framework& ort = framework_named(e, "onnxruntime");
  CHECK(ort.distribution == "onnxruntime-gpu");
  CHECK(ort.version == "1.18.1");
  CHECK(ort.version_source == "onnxruntime/capi/build_and_package_info.py");
  CHECK(ort.cuda == "12.2");
  CHECK(ort.cudnn == "8.9.2.26");
  CHECK(ort.native_file == site + "/onnxruntime/capi/libonnxruntime_providers_cuda.so");
  // Its provider needs libcudnn.so.9, the CUDA 12 runtime and cuBLAS, and no wheel or folder has them.
  REQUIRE(ort.problems.size() == 1);
  CHECK(ort.problems[0].name == "import_fails");
  CHECK(ort.problems[0].what ==
        "onnxruntime cannot load libonnxruntime_providers_cuda.so: libcudnn.so.9: cannot open "
        "shared object file: No such file or directory");
  CHECK(contains(ort.problems[0].why, ort.native_file + " needs libcudnn.so.9, which is not in any of: " + site +
                                          "/onnxruntime/capi, ld.so.cache: no entry, "));
  check_parity(f);
}

TEST_CASE("torch without its cuDNN wheel: the import fails, with the chain and every place looked at") {
  fake_machine m;
  std::string site = active_venv(m);
  m.torch_cu124(site);
  std::filesystem::remove_all(site + "/nvidia/cudnn");
  machine::findings f = discover(m);
  const machine::framework& torch = framework_named(environment_at(f, m.path("home/user/proj/.venv")), "torch");
  REQUIRE_FALSE(torch.problems.empty());
  const machine::problem& p = torch.problems[0];
  CHECK(p.name == "import_fails");
  CHECK(p.what ==
        "torch cannot load libtorch_cuda.so: libcudnn.so.9: cannot open shared object file: No such file or directory");
  CHECK(p.path == site + "/torch/lib/libtorch_cuda.so");
  std::string lib = site + "/torch/lib";
  CHECK(p.why == site + "/torch/lib/libtorch_cuda.so needs libcudnn.so.9, which is not in any of: " + lib +
                     "/../../nvidia/cublas/lib, " + lib + "/../../nvidia/cuda_runtime/lib, " + lib +
                     "/../../nvidia/cudnn/lib, " + lib + ", ld.so.cache: no entry, " + system_folders(m) + ", " + site +
                     "/nvidia/*/lib (torch's own preload of the nvidia wheels)");
  CHECK(p.fix ==
        "reinstall torch with its dependencies (pip install --force-reinstall torch==2.5.1+cu124), which brings the "
        "nvidia-* wheels it requires; or put a folder that has libcudnn.so.9 on LD_LIBRARY_PATH");
  // The wheel's record says cuDNN should be there: its version is still the wheel's, but the files are gone.
  check_parity(f);
}

TEST_CASE("a cuDNN wheel without its root sub-library: cuDNN's own by-name load finds nothing") {
  fake_machine m;
  std::string site = active_venv(m);
  m.torch_cu124(site);
  std::string lib = site + "/nvidia/cudnn/lib";
  std::filesystem::remove(lib + "/libcudnn_graph.so.9");
  machine::findings f = discover(m);
  const machine::framework& torch = framework_named(environment_at(f, m.path("home/user/proj/.venv")), "torch");
  check_problem(
      f, torch.problems,
      {"cudnn_sublibrary_not_found", "cuDNN's own load of libcudnn_graph.so.9 by name finds nothing",
       lib + "/libcudnn.so.9",
       "cuDNN (" + lib +
           "/libcudnn.so.9) loads its sub-libraries by name when it starts; from torch's process, the search for "
           "libcudnn_graph.so.9 looks in: " +
           lib + ", ld.so.cache: no entry, " + system_folders(m) +
           ". cuDNN then fails with CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED for every call",
       "install every file of that cuDNN release beside " + lib +
           "/libcudnn.so.9 (reinstall its wheel or archive: libcudnn_graph.so.9 belongs to it), or put the "
           "folder that has the same release's libcudnn_graph.so.9 on LD_LIBRARY_PATH"},
      "      ");
}

TEST_CASE("torch pins its wheels: another release installed is named") {
  fake_machine m;
  std::string site = active_venv(m);
  m.torch_cu124(site);
  std::filesystem::remove_all(site +
                              "/nvidia_cudnn_cu12-9.1.0.70.dist-info");  // pip install nvidia-cudnn-cu12==9.5.1.17
  std::filesystem::remove_all(site + "/nvidia/cudnn");
  m.cudnn9_wheel(site, "nvidia-cudnn-cu12", "9.5.1.17", "nvidia/cudnn/lib", false);
  machine::findings f = discover(m);
  const machine::framework& torch = framework_named(environment_at(f, m.path("home/user/proj/.venv")), "torch");
  check_problem(
      f, torch.problems,
      {"required_wheel_mismatch", "torch 2.5.1+cu124 requires nvidia-cudnn-cu12==9.1.0.70; 9.5.1.17 is installed",
       site + "/nvidia_cudnn_cu12-9.5.1.17.dist-info",
       "its METADATA pins that release: it was built and tested with it, and a cuDNN or cuBLAS of another "
       "release can refuse its calls or behave differently",
       "pip install nvidia-cudnn-cu12==9.1.0.70"},
      "      ");
}

TEST_CASE("conda's environments, environments.txt, pyenv's versions and the user site: each found once") {
  fake_machine m;
  m.conda_env("home/user/miniconda3", "3.12.4");
  m.conda_env("home/user/miniconda3/envs/gpu", "3.11.9");
  m.conda_env("home/user/elsewhere/conda-env", "3.10.14");
  m.write("home/user/.conda/environments.txt", m.path("home/user/miniconda3") + "\n" +
                                                   m.path("home/user/miniconda3/envs/gpu") + "\n" +
                                                   m.path("home/user/elsewhere/conda-env") + "\n");
  m.write("home/user/.pyenv/versions/3.11.7/include/python3.11/patchlevel.h", "#define PY_VERSION \"3.11.7\"\n");
  m.executable("home/user/.pyenv/versions/3.11.7/bin/python3");
  m.tree.make_dirs("home/user/.pyenv/versions/3.11.7/lib/python3.11/site-packages");
  m.executable("home/user/.pyenv/shims/python");
  m.write("home/user/.pyenv/version", "3.11.7\n");
  m.tree.make_dirs("home/user/.local/lib/python3.11/site-packages");
  m.env["PATH"] = m.path("home/user/.pyenv/shims") + ":" + m.path("usr/bin");
  m.env["CONDA_PREFIX"] = m.path("home/user/miniconda3/envs/gpu");
  machine::findings f = discover(m);
  std::vector<std::string> paths;
  for (const machine::environment& e : f.environments) paths.push_back(e.kind + " " + e.path);
  CHECK(paths == std::vector<std::string>{"conda " + m.path("home/user/miniconda3/envs/gpu"),
                                          "pyenv " + m.path("home/user/.pyenv/versions/3.11.7"),
                                          "conda " + m.path("home/user/miniconda3"),
                                          "conda " + m.path("home/user/elsewhere/conda-env"),
                                          "user site " + m.path("home/user/.local/lib/python3.11/site-packages")});
  CHECK(environment_at(f, m.path("home/user/miniconda3/envs/gpu")).found_by ==
        std::vector<std::string>{"CONDA_PREFIX", "~/miniconda3, ~/anaconda3, ~/miniforge3, .../envs",
                                 "~/.conda/environments.txt"});
  CHECK(environment_at(f, m.path("home/user/miniconda3")).python_version == "3.12.4");
  REQUIRE(f.on_path.size() == 2);
  CHECK(f.on_path[0].path == m.path("home/user/.pyenv/shims/python"));
  CHECK(f.on_path[0].environment == m.path("home/user/.pyenv/versions/3.11.7"));
  CHECK(f.on_path[0].how == "a pyenv shim: pyenv starts \"3.11.7\" (" + m.path("home/user/.pyenv/version") + ")");
  CHECK(f.on_path[1].path.empty());
  const machine::environment& user = environment_at(f, m.path("home/user/.local/lib/python3.11/site-packages"));
  CHECK(user.python_version == "3.11");
  CHECK(user.notes ==
        std::vector<std::string>{"every Python 3.11 that is not a venv sees these packages (pip install --user)"});
  CHECK(contains(machine::text(f), "  python on PATH: " + m.path("home/user/.pyenv/shims/python") + " (" +
                                       m.path("home/user/.pyenv/versions/3.11.7") +
                                       "), a pyenv shim: pyenv starts \"3.11.7\" (" +
                                       m.path("home/user/.pyenv/version") + ")\n"));
  // PYENV_VERSION wins over the global version file, and a version pyenv does not have is said so.
  m.env["PYENV_VERSION"] = "3.9.1";
  machine::findings missing = discover(m);
  CHECK(missing.on_path[0].environment.empty());
  CHECK(missing.on_path[0].how == "a pyenv shim: pyenv starts \"3.9.1\" (PYENV_VERSION), which is not installed (no " +
                                      m.path("home/user/.pyenv/versions/3.9.1") + ")");
}

TEST_CASE("--python: an interpreter or an environment folder; a path that is neither is a problem") {
  fake_machine m;
  std::string site = m.venv("work/venv-a", "3.12.3");
  m.torch(site, "2.4.1+cpu", "None", "None", "");
  m.venv("work/venv-b", "3.11.7");
  machine::options o;
  o.pythons = {m.path("work/venv-a/bin/python"), m.path("work/venv-b"), m.path("work/none")};
  machine::findings f = discover(m, o);
  CHECK(environment_at(f, m.path("work/venv-a")).found_by == std::vector<std::string>{"--python"});
  CHECK(environment_at(f, m.path("work/venv-a")).python == m.path("work/venv-a/bin/python"));
  CHECK(environment_at(f, m.path("work/venv-b")).python_version == "3.11.7");
  REQUIRE(f.problems.size() == 1);
  check_problem(f, f.problems,
                {"python_not_found", "--python " + m.path("work/none") + " does not exist", m.path("work/none"),
                 "it names neither an interpreter nor an environment's folder",
                 "give the path of a python executable or of an environment (a venv, a conda environment)"},
                "  ");
}

TEST_CASE("a stale VIRTUAL_ENV, a toolkit folder without version files, CUDA_PATH_V naming another release") {
  fake_machine m;
  m.env["VIRTUAL_ENV"] = m.path("home/user/gone-venv");
  m.executable("usr/local/cuda-12.6/bin/nvcc");
  std::string cuda11 = m.toolkit("11.8.0");
  m.env["CUDA_PATH_V12_4"] = cuda11;
  machine::findings f = discover(m);
  const machine::toolkit& bare = toolkit_at(f, m.path("usr/local/cuda-12.6"));
  CHECK(bare.version == "12.6");
  CHECK(bare.version_source == "the folder's name");
  CHECK(bare.notes ==
        std::vector<std::string>{
            "it has no version.json or version.txt and no CUDA runtime that names its version: the version "
            "is the folder's name"});
  REQUIRE(f.problems.size() == 2);
  CHECK(f.problems[1].name == "variable_version_mismatch");
  CHECK(f.problems[1].what == "CUDA_PATH_V12_4 names " + cuda11 + ", a CUDA 11.8.0 toolkit, not CUDA 12.4");
  CHECK(f.problems[1].fix == "set CUDA_PATH_V12_4 to the CUDA 12.4 toolkit, or remove it");
  check_problem(
      f, {f.problems[0]},
      {"environment_variable_stale", "VIRTUAL_ENV names " + m.path("home/user/gone-venv") + ", which does not exist",
       m.path("home/user/gone-venv"),
       "a shell keeps VIRTUAL_ENV from an environment that was activated and then removed or moved: tools that "
       "read it (pip's and conda's prompts, IDEs, cushim's own search) look for packages there",
       "deactivate it (deactivate, conda deactivate) or open a new shell, then activate an environment that "
       "exists"},
      "  ");
}

TEST_CASE("bad input: environments.txt of 100,000 lines, most naming folders that are gone") {
  fake_machine m;
  m.conda_env("home/user/envs/real", "3.11.9");
  std::string list = m.path("home/user/envs/real") + "\n";
  for (int i = 0; i < 100000; ++i) list += m.path("home/user/envs/gone-" + std::to_string(i)) + "\n";
  m.write("home/user/.conda/environments.txt", list);
  machine::findings f = discover(m);
  CHECK(f.environments.size() == 1);
  std::string file = m.path("home/user/.conda/environments.txt");
  std::vector<std::string> expected = {file + " is " + detail::discovery::size_text(list.size()) +
                                       "; only its first 1 MiB were read"};
  std::size_t read_lines = 0;  // the lines in its first MiB
  for (std::size_t i = 0; i < (1u << 20); ++i) read_lines += list[i] == '\n';
  CHECK(read_lines > 1000);
  expected.push_back(file + " lists " + std::to_string(read_lines + 1) + " environments; the first 1000 were examined");
  expected.push_back(file + " names 999 folders that no longer exist: " + m.path("home/user/envs/gone-0") + ", " +
                     m.path("home/user/envs/gone-1") + ", " + m.path("home/user/envs/gone-2") +
                     ", ... (conda keeps the entries of removed environments)");
  CHECK(f.notes == expected);
}

TEST_CASE("bad input: a version.py or build_info.py that is garbage, 100 MB or a FIFO; a METADATA with no Version") {
  fake_machine m;
  std::string site = active_venv(m);
  std::string relative = site.substr(m.root().size() + 1);
  m.write(relative + "/torch/version.py", std::string("\x7f"
                                                      "ELF not python at all \xff\xfe\n"));
  m.dist_info(site, "torch", "2.5.1");
  m.write(relative + "/tensorflow/python/platform/build_info.py", "import collections\nbuild_info = {}\n");
  m.dist_info(site, "tensorflow", "2.16.1");
  std::filesystem::create_directories(site + "/onnxruntime/capi");
  m.tree.make_fifo(relative + "/onnxruntime/capi/build_and_package_info.py");
  m.dist_info(site, "onnxruntime-gpu", "1.19.0");
  m.write(relative + "/cupy_cuda12x-13.3.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: cupy-cuda12x\n\n");
  machine::findings f = discover(m);
  const machine::environment& e = environment_at(f, m.path("home/user/proj/.venv"));
  const machine::framework& torch = framework_named(e, "torch");
  CHECK(torch.version == "2.5.1");  // its METADATA still says
  CHECK(torch.build == "unknown");
  CHECK(torch.notes == std::vector<std::string>{site + "/torch/version.py has no __version__: it is not torch's "
                                                       "generated file, or it is damaged"});
  CHECK(framework_named(e, "tensorflow").notes ==
        std::vector<std::string>{site + "/tensorflow/python/platform/build_info.py has no is_cuda_build: it is not "
                                        "tensorflow's generated file, or it is damaged"});
  CHECK(framework_named(e, "onnxruntime").notes ==
        std::vector<std::string>{site + "/onnxruntime/capi/build_and_package_info.py cannot be read: a FIFO, not a "
                                        "file: how onnxruntime was built is not known"});
  const machine::framework& cupy = framework_named(e, "cupy");
  CHECK(cupy.version == "13.3.0");
  CHECK(cupy.cuda == "12");
  CHECK(cupy.notes == std::vector<std::string>{site + "/cupy_cuda12x-13.3.0.dist-info/METADATA has no Version: the "
                                                      "version is the folder's name, 13.3.0"});
  // 100 MB of version.py: only the first 64 KiB are read, and what they say is used.
  std::string version_py = site + "/torch/version.py";
  {
    std::ofstream out(version_py, std::ios::trunc);
    out << "__version__ = '2.5.1+cu124'\ncuda = '12.4'\nhip = None\n";
  }
  std::filesystem::resize_file(version_py, 100u << 20);
  machine::findings big = discover(m);
  const machine::framework& sparse = framework_named(environment_at(big, m.path("home/user/proj/.venv")), "torch");
  CHECK(sparse.version == "2.5.1+cu124");
  CHECK(sparse.cuda == "12.4");
  CHECK(sparse.notes[0] == version_py + " is 100 MiB; only its first 64 KiB were read");
  check_parity(big);
}

TEST_CASE("bad input: a site-packages of 10,000 packages, symbolic link loops, non-UTF-8 names, unreadable folders") {
  fake_machine m;
  std::string site = active_venv(m);
  // 10,000 top-level modules: links to one file, which a slow file system makes 30 times faster than new files.
  std::string module = m.write(site.substr(m.root().size() + 1) + "/module.py", "");
  for (int i = 0; i < 10000; ++i)
    REQUIRE(::link(module.c_str(), (site + "/module_" + std::to_string(i) + ".py").c_str()) == 0);
  m.torch(site, "2.4.1+cpu", "None", "None", "");
  m.tree.symlink("loop-b", "home/user/miniconda3/envs/loop-a");
  m.tree.symlink("loop-a", "home/user/miniconda3/envs/loop-b");
  m.write("home/user/miniconda3/conda-meta/history", "");
  m.tree.symlink("cuda-loop", "usr/local/cuda-loop");
  std::string odd = "home/user/miniconda3/envs/caf\xe9";  // Latin-1, not UTF-8
  m.conda_env(odd, "3.11.9");
  m.tree.make_dirs("home/user/.pyenv/versions");
  ::chmod(m.path("home/user/.pyenv/versions").c_str(), 0);
  machine::findings f = discover(m);
  ::chmod(m.path("home/user/.pyenv/versions").c_str(), 0755);
  const machine::framework& torch = framework_named(environment_at(f, m.path("home/user/proj/.venv")), "torch");
  CHECK(torch.build == "cpu");
  CHECK(environment_at(f, m.path("home/user/proj/.venv")).notes.empty());  // 10,001 names, all read
  const machine::environment& latin = environment_at(f, m.path(odd));
  CHECK(latin.notes ==
        std::vector<std::string>{"its path is not valid UTF-8: JSON shows U+FFFD for each byte that is not"});
  CHECK(contains(machine::json(f), detail::json_string(m.path("home/user/miniconda3/envs/caf")).substr(0, 10)));
  CHECK(contains(machine::json(f), "caf\\ufffd\""));
  std::vector<std::string> expected_notes = {
      m.path("usr/local/cuda-loop") + " (/usr/local/cuda-*) is a symbolic link loop: not examined",
      m.path("home/user/miniconda3/envs/loop-a") + " is a symbolic link loop",
      m.path("home/user/miniconda3/envs/loop-b") + " is a symbolic link loop"};
  if (::geteuid() != 0) {  // root reads any folder
    expected_notes.push_back(m.path("home/user/.pyenv/versions") + " cannot be listed: Permission denied");
  }
  CHECK(f.notes == expected_notes);
  CHECK(f.toolkits.empty());
  check_parity(f);
}

TEST_CASE(
    "bad input in the inventory: package records that are FIFOs, huge or garbage; libraries that are FIFOs, "
    "cut short or empty") {
  fake_machine m;
  std::string site = active_venv(m);
  m.torch_cu124(site);
  std::string cublas_record = site + "/nvidia_cublas_cu12-12.4.5.8.dist-info/RECORD";
  std::filesystem::remove(cublas_record);
  REQUIRE(::mkfifo(cublas_record.c_str(), 0644) == 0);
  std::string runtime_record = site + "/nvidia_cuda_runtime_cu12-12.4.127.dist-info/RECORD";
  std::filesystem::resize_file(runtime_record, 20u << 20);  // past the 16 MiB read of a package's list
  m.tree.make_dirs("var/lib/dpkg/info");
  REQUIRE(::mkfifo(m.path("var/lib/dpkg/status").c_str(), 0644) == 0);
  m.write("var/lib/dpkg/info/libcudnn9-cuda-12.list", std::string("\x7f\0\xff garbage\n\n\x01", 14));
  m.tree.make_dirs("usr/lib/x86_64-linux-gnu");
  REQUIRE(::mkfifo(m.path("usr/lib/x86_64-linux-gnu/libcudnn.so.9").c_str(), 0644) == 0);
  std::ifstream real(discovery_fixture("cuda12", "libcublas.so.12"), std::ios::binary);
  std::string head(100, '\0');
  real.read(&head[0], 100);
  m.write("usr/lib/x86_64-linux-gnu/libcublas.so.12", head);  // its ELF header, cut short
  m.write("usr/lib/x86_64-linux-gnu/libcudart.so.12", "");
  machine::findings f = discover(m);
  CHECK(f.notes == std::vector<std::string>{
                       m.path("var/lib/dpkg/status") + " cannot be read: a FIFO, not a file",
                       cublas_record + " cannot be read: a FIFO, not a file",
                       runtime_record + " is 20 MiB; only its first 16 MiB were read",
                       m.path("usr/lib/x86_64-linux-gnu/libcudnn.so.9") +
                           " has a library's name but is a FIFO, not a file: not examined",
                   });
  auto copy_at = [&](const std::string& path) {
    for (const machine::library_copy& c : f.copies)
      if (c.path == path) return c;
    FAIL("no copy at " << path);
    return machine::library_copy();
  };
  machine::library_copy empty = copy_at(m.path("usr/lib/x86_64-linux-gnu/libcudart.so.12"));
  CHECK(empty.version.empty());
  CHECK(empty.notes == std::vector<std::string>{"it cannot be loaded: not a shared library: file is empty"});
  machine::library_copy cut = copy_at(m.path("usr/lib/x86_64-linux-gnu/libcublas.so.12"));
  REQUIRE(cut.notes.size() == 1);
  CHECK(contains(cut.notes[0], "it cannot be loaded: not a shared library: "));
  machine::library_copy unrecorded = copy_at(site + "/nvidia/cublas/lib/libcublas.so.12");
  CHECK(unrecorded.installed_by == "by hand");
  CHECK(unrecorded.owner ==
        "in the site-packages of " + m.path("home/user/proj/.venv") + ", but no readable package record lists it");
  CHECK(copy_at(site + "/nvidia/cuda_runtime/lib/libcudart.so.12").owner ==
        "nvidia-cuda-runtime-cu12 12.4.127 (pip, " + m.path("home/user/proj/.venv") + ")");  // read up to the limit
  CHECK(copy_at(site + "/nvidia/cudnn/lib/libcudnn.so.9").version == "9.1.0.70");
}

TEST_CASE("nothing is run and nothing is written") {
  fake_machine m;
  std::string site = active_venv(m);
  m.torch_cu124(site);
  m.system_python("3.11.2");
  m.toolkit("12.4.1");
  std::string marker = m.path("ran");
  for (const std::string& program : {m.path("usr/bin/python3.11"), m.path("usr/local/cuda-12.4/bin/nvcc"),
                                     m.path("home/user/proj/.venv/bin/python")}) {
    std::ofstream(program, std::ios::trunc) << "#!/bin/sh\ntouch " << marker << "\n";
  }
  auto snapshot = [&] {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(m.root())) {
      if (entry.is_symlink()) continue;
      files.push_back(entry.path().string() + " " + (entry.is_regular_file() ? std::to_string(entry.file_size()) : "") +
                      " " + std::to_string(entry.last_write_time().time_since_epoch().count()));
    }
    std::sort(files.begin(), files.end());
    return files;
  };
  std::vector<std::string> before = snapshot();
  machine::findings f = discover(m);
  CHECK_FALSE(f.environments.empty());
  CHECK_FALSE(std::filesystem::exists(marker));
  CHECK(snapshot() == before);
}

TEST_CASE("explain() names the minimum driver of the runtime's major") {
  test_support::temp_tree tree;
  test_support::probe_call call;
  call.env["CUSHIM_CUDART_PATH"] = std::string(CUSHIM_FIXTURE_DIR) + "/cudart_good/" + CUSHIM_CUDART_FILE;
  call.env["CUSHIM_CUDNN_PATH"] = tree.root();
  call.env["LD_LIBRARY_PATH"] = std::string(CUSHIM_FIXTURE_DIR) + "/driver_older";
  test_support::probe_output out = test_support::run_probe(call);
  INFO(out.text);
  int major = CUDART_VERSION / 1000;
  const char* minimum =
      cushim::detail::minimum_driver_for(major) ? cushim::detail::minimum_driver_for(major)->linux_driver : nullptr;
  REQUIRE(minimum);
  CHECK(contains(out.text, "fix:  update the NVIDIA driver to one that supports CUDA " + std::to_string(major) + " (" +
                               minimum + " or newer: NVIDIA's minimum for CUDA " + std::to_string(major) +
                               ".x), or use a build for an older CUDA"));
}
