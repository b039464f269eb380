// cushim-doctor on whole machines laid out as files (support/gpu_machine.hpp: the H200 machine of
// gpu-machine-2026-12-04.md), run as a user runs it: the exact headline, each problem with its fix,
// the exit code, the inventory and the stacks, in text, --json and --record. One broken stack of
// each kind (a framework, a toolkit, programs built with cushim) on an otherwise healthy machine.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/doctor_reports.hpp"
#include "support/fake_machine.hpp"
#include "support/gpu_machine.hpp"
#include "support/process.hpp"

using namespace test_support;

namespace {

process_result run_doctor(const fake_machine& m, std::vector<std::string> args = {}) {
  process_spec spec;
  spec.program = CUSHIM_DOCTOR;
  spec.args = std::move(args);
  spec.env = clean_environment();
  for (const auto& [name, value] : m.env) spec.env[name] = value;
  spec.timeout = std::chrono::seconds(60);
  process_result r = run_process(spec);
  REQUIRE(r.spawn_error == "");
  REQUIRE_FALSE(r.timed_out);
  REQUIRE(r.term_signal == 0);
  return r;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The report's answer: its first line and the problem lines under it, up to the first blank line.
std::string answer_of(const std::string& text) { return text.substr(0, text.find("\n\n") + 1); }

std::string last_line(const std::string& text) {
  std::string trimmed = text.substr(0, text.find_last_not_of('\n') + 1);
  return trimmed.substr(trimmed.rfind('\n') + 1);
}

const std::string onnxruntime_cpu_fix =
    "pip uninstall onnxruntime, then pip install onnxruntime-gpu (the two share the onnxruntime folder)";

// The problem of programs built with cudnn 9.19's headers on the machine with the distribution's 9.14.
std::string refusal_lines(const fake_machine& m, const gpu_machine& gpu) {
  return "  programs built with cushim and cuDNN 9.19.0's headers refuse " +
         m.path("usr/lib/x86_64-linux-gnu/libcudnn.so.9") +
         " (ld.so.cache), the first cuDNN their search meets, and load none\n"
         "    fix: set CUSHIM_SEARCH_PATH=" +
         gpu.site() +
         "/nvidia/cudnn/lib (or options.search_dirs): it holds cuDNN 9.19.0, of nvidia-cudnn-cu13 9.19.0.56 (pip, " +
         gpu.venv_path() +
         "); or upgrade the package libcudnn9-cuda-13 (9.14.0) to 9.19 or newer (apt-get install --only-upgrade "
         "libcudnn9-cuda-13)\n";
}

}  // namespace

TEST_CASE("the H200 machine: the GPU works for torch, JAX and CuPy; onnxruntime and cuDNN 9.19 programs have a fix") {
  fake_machine m;
  gpu_machine gpu(m);
  process_result r = run_doctor(m);
  INFO(r.out << r.err);
  std::string headline = "torch, JAX and CuPy in " + gpu.venv_path() + " use the H200 with cuDNN 9.19.0 from the wheel";
  CHECK(answer_of(r.out) == headline + "\n  onnxruntime 1.30.0 in " + gpu.venv_path() +
                                ": onnxruntime 1.30.0 is a CPU-only build\n    fix: " + onnxruntime_cpu_fix + "\n" +
                                refusal_lines(m, gpu));
  CHECK(last_line(r.out) == "verdict: GPU WORKS, WITH PROBLEMS (exit 2): " + headline +
                                "; 2 problems (above) of onnxruntime 1.30.0 in " + gpu.venv_path() +
                                " and programs built with cushim and cuDNN 9.19.0's headers");
  CHECK(r.exit_code == 2);
  // Every copy, who installed it and who uses it: the distribution's cuDNN no stack uses, the
  // wheel's that torch and JAX load, the compatibility package's driver, the toolkit's stub apart.
  CHECK(contains(r.out, "\n  cuDNN 9.14.0, CUDA 13: " + m.path("usr/lib/x86_64-linux-gnu/libcudnn.so.9") +
                            " -> libcudnn.so.9.14.0; libcudnn9-cuda-13 9.14.0.64-1 (dpkg); used by programs built with "
                            "cushim and cuDNN 9.19.0's headers, which refuse it\n"));
  CHECK(contains(r.out, "\n  cuDNN 9.19.0.56, CUDA 13: " + gpu.site() +
                            "/nvidia/cudnn/lib/libcudnn.so.9; nvidia-cudnn-cu13 9.19.0.56 (pip, " + gpu.venv_path() +
                            "); used by torch in " + gpu.venv_path() + ", JAX in " + gpu.venv_path() + "\n"));
  CHECK(
      contains(r.out, "\n  NVIDIA driver 580.95.05: " + m.path("usr/local/cuda-13.0/compat/libcuda.so.1") +
                          " -> libcuda.so.580.95.05; the CUDA forward-compatibility package of the CUDA 13.0 toolkit " +
                          m.path("usr/local/cuda-13.0") + "; used by no stack found\n"));
  // The driver the system loader finds serves every stack that reaches the GPU; torch loads every
  // library of the cu13 wheel folder, as its process mapped them (gpu-machine-2026-12-04.md).
  CHECK(contains(r.out, "\n  NVIDIA driver 580.159.04: " + m.path("usr/local/nvidia/lib64/libcuda.so.1") +
                            " -> libcuda.so.580.159.04; the NVIDIA driver, mounted by the NVIDIA container toolkit; "
                            "used by torch in " +
                            gpu.venv_path() + ", JAX in " + gpu.venv_path() + ", CuPy in " + gpu.venv_path() +
                            ", programs built with cushim and CUDA runtime 13.0's headers\n"));
  // torch's CUDA build loads NVML by name from where the driver is; JAX and CuPy did not map it.
  CHECK(
      contains(r.out, "\n  NVML 580.159.04: " + m.path("usr/local/nvidia/lib64/libnvidia-ml.so.1") +
                          " -> libnvidia-ml.so.580.159.04; the NVIDIA driver, mounted by the NVIDIA container toolkit; "
                          "used by torch in " +
                          gpu.venv_path() + "\n"));
  std::string wheels = gpu.site() + "/nvidia/cu13/lib/";
  std::string pip = " (pip, " + gpu.venv_path() + "); used by torch in " + gpu.venv_path();
  CHECK(contains(r.out, "\n  cuFFT 12.0.0.61: " + wheels + "libcufft.so.12; nvidia-cufft 12.0.0.61" + pip +
                            ", JAX in " + gpu.venv_path() + "\n"));
  CHECK(contains(r.out, "\n  cuRAND 10.4.0.35: " + wheels + "libcurand.so.10; nvidia-curand 10.4.0.35" + pip + "\n"));
  CHECK(contains(r.out, "\n  cuSOLVER 12.0.4.66: " + wheels + "libcusolver.so.12; nvidia-cusolver 12.0.4.66" + pip +
                            ", JAX in " + gpu.venv_path() + "\n"));
  CHECK(contains(r.out, "\n  nvJitLink 13.0.88, CUDA 13: " + wheels + "libnvJitLink.so.13; nvidia-nvjitlink 13.0.88" +
                            pip + "\n"));
  CHECK(contains(r.out, "\n  NVRTC 13.0.88, CUDA 13: " + wheels + "libnvrtc.so.13; nvidia-cuda-nvrtc 13.0.88" + pip +
                            ", JAX in " + gpu.venv_path() + ", CuPy in " + gpu.venv_path() + "\n"));
  // (b) The toolkit, for building: it has no cuDNN, and a build with it finds the distribution's library alone.
  CHECK(contains(r.out,
                 "\n  " + m.path("usr/local/cuda-13.0") +
                     ": CUDA 13.0 (the runtime's file name libcudart.so.13.0.96), nvcc, builds with cuDNN 9.14.0 of " +
                     m.path("usr/lib/x86_64-linux-gnu") + "; found by /usr/local/cuda-*, /usr/local/cuda\n"));
  CHECK(contains(r.out,
                 "    note: what a build with " + m.path("usr/local/cuda-13.0") +
                     " finds has cuDNN's library but not its headers: programs can load it, not build against it\n"));
  CHECK_FALSE(contains(r.out, "stubs/libcuda.so"));  // a link-time stub is no copy of the driver: its name is no soname
  // CuPy's NVRTC and its builtins are the wheel's, as its process mapped them.
  CHECK(contains(r.out, "NVRTC 13.0.88 from " + gpu.site() +
                            "/nvidia/cu13/lib/libnvrtc.so.13, NVRTC builtins 13.0.88 from " + gpu.site() +
                            "/nvidia/cu13/lib/libnvrtc-builtins.so.13.0\n"));

  process_result j = run_doctor(m, {"--json"});
  key_values json = parsed_json(j.out);
  CHECK(json.get("doctor_schema") == "2");
  CHECK(json.get("headline") == as_json(headline));
  CHECK(json.get("gpu.usable") == "true");
  CHECK(json.get("gpu.gpus[0].name") == as_json("NVIDIA H200"));
  CHECK(json.get("verdict.exit_code") == "2");
  CHECK(json.get("verdict.name") == as_json("gpu_works_with_problems"));
  CHECK(j.exit_code == 2);
  std::vector<std::string> stacks;
  for (int i = 0; json.has("stacks[" + std::to_string(i) + "].name"); ++i) {
    std::string s = "stacks[" + std::to_string(i) + "].";
    stacks.push_back(json.get(s + "kind") + " " + json.get(s + "name") + " " + json.get(s + "uses_gpu") + " " +
                     json.get(s + "problems.length"));
  }
  CHECK(stacks == std::vector<std::string>{
                      "\"framework\" \"torch 2.11.0+cu130\" true 0", "\"framework\" \"onnxruntime 1.30.0\" false 1",
                      "\"framework\" \"JAX 0.11.2\" true 0", "\"framework\" \"CuPy 14.2.0\" true 0",
                      "\"toolkit\" \"the CUDA 13.0 toolkit\" true 0",
                      "\"cushim program\" \"programs built with cushim and CUDA runtime 13.0's headers\" true 0",
                      "\"cushim program\" \"programs built with cushim and cuDNN 9.19.0's headers\" false 1"});
  // No real NVIDIA file's version is unknown: the wheel's sub-libraries have theirs from its RECORD.
  for (int i = 0; json.has("inventory[" + std::to_string(i) + "].path"); ++i) {
    std::string c = "inventory[" + std::to_string(i) + "].";
    INFO(json.get(c + "path"));
    CHECK(json.get(c + "version") != as_json(""));
    for (int s = 0; json.has(c + "sublibraries[" + std::to_string(s) + "].name"); ++s) {
      CHECK(json.get(c + "sublibraries[" + std::to_string(s) + "].version") != as_json(""));
    }
  }

  std::string file = m.path("environment_versions.txt");
  process_result rec = run_doctor(m, {"--record", file});
  key_values record = record_lines(file);
  CHECK(record.get("headline") == headline);
  CHECK(record.get("gpu_usable") == "yes, the H200");
  CHECK(record.get("stack0") ==
        "framework: torch 2.11.0+cu130 in " + gpu.venv_path() + ": uses the GPU with cuDNN 9.19.0 from the wheel");
  CHECK(record.get("stack1") ==
        "framework: onnxruntime 1.30.0 in " + gpu.venv_path() + ": onnxruntime 1.30.0 is a CPU-only build");
  CHECK(record.has("copy2", "cuDNN 9.14.0, CUDA 13: " + m.path("usr/lib/x86_64-linux-gnu/libcudnn.so.9") +
                                " -> libcudnn.so.9.14.0 (libcudnn9-cuda-13 9.14.0.64-1 (dpkg))"));
  CHECK(record.get("verdict") == "gpu_works_with_problems (exit 2)");
  CHECK(rec.exit_code == 2);
}

TEST_CASE("the same machine with onnxruntime-gpu and no older cuDNN in the system: the GPU works, exit 0") {
  fake_machine m;
  gpu_machine gpu(m, {false, true});
  process_result r = run_doctor(m);
  INFO(r.out << r.err);
  std::string headline =
      "torch, onnxruntime, JAX and CuPy in " + gpu.venv_path() + " use the H200 with cuDNN 9.19.0 from the wheel";
  CHECK(answer_of(r.out) == headline + "\n");
  CHECK(last_line(r.out) == "verdict: GPU WORKS (exit 0): " + headline);
  CHECK(r.exit_code == 0);
  // Programs built with the wheel's cuDNN headers find no cuDNN in a plain environment: a note with the setting.
  CHECK(contains(r.out,
                 "    note: in a plain environment programs built with cushim and cuDNN 9.19.0's headers find no "
                 "cuDNN 9: set CUSHIM_SEARCH_PATH=" +
                     gpu.site() +
                     "/nvidia/cudnn/lib (or options.search_dirs): it holds cuDNN 9.19.0, of "
                     "nvidia-cudnn-cu13 9.19.0.56 (pip, " +
                     gpu.venv_path() + ")\n"));
}

TEST_CASE("a broken framework alone: exit 2, or exit 1 when --python names its environment") {
  fake_machine m;
  gpu_machine gpu(m, {false, true});
  std::string cpu = m.venv("work/cpu-venv", "3.12.3");
  m.torch(cpu, "2.4.1+cpu", "None", "None", "");
  std::string headline =
      "torch, onnxruntime, JAX and CuPy in " + gpu.venv_path() + " use the H200 with cuDNN 9.19.0 from the wheel";
  std::string problem =
      "  torch 2.4.1+cpu in " + m.path("work/cpu-venv") +
      ": torch 2.4.1+cpu is a CPU-only build\n    fix: pip install --force-reinstall torch --index-url "
      "https://download.pytorch.org/whl/cuXY, for a CUDA X.Y up to 13.0 (what this driver supports)\n";
  process_result found = run_doctor(m, {});  // found on its own: not on PATH, not named
  INFO(found.out);
  CHECK(found.exit_code == 0);  // a venv nothing points at is not searched for: no stack of this machine knows it
  process_result named = run_doctor(m, {"--python", m.path("work/cpu-venv/bin/python")});
  INFO(named.out);
  CHECK(answer_of(named.out) == headline + "\n" + problem);
  CHECK(last_line(named.out) == "verdict: NO GPU (exit 1): torch 2.4.1+cpu in " + m.path("work/cpu-venv") +
                                    ", which --python names, cannot use the GPU: torch 2.4.1+cpu is a CPU-only build");
  CHECK(named.exit_code == 1);
  m.env["VIRTUAL_ENV"] = m.path("work/cpu-venv");  // activated: found, not named
  process_result active = run_doctor(m, {});
  INFO(active.out);
  CHECK(first_line(active.out) == headline);
  CHECK(contains(answer_of(active.out), problem));
  CHECK(active.exit_code == 2);
}

TEST_CASE("a broken toolkit alone: a cuDNN for CUDA 11 copied into CUDA 12.4, exit 2") {
  fake_machine m;
  gpu_machine gpu(m, {false, true});
  std::string cuda12 = m.toolkit("12.4.1");
  m.toolkit_cudnn8(cuda12, "8.5.0");
  process_result r = run_doctor(m);
  INFO(r.out << r.err);
  CHECK(
      answer_of(r.out) ==
      "torch, onnxruntime, JAX and CuPy in " + gpu.venv_path() +
          " use the H200 with cuDNN 9.19.0 from the wheel\n  the CUDA 12.4.1 toolkit " + cuda12 +
          ": the cuDNN 8.5.0 in " + cuda12 +
          " (CUDA 12.4.1) was built for CUDA 11\n    fix: install the cuDNN archive "
          "built for CUDA 12 (cudnn-...-cuda12-archive) in its place, or keep each cuDNN in a folder of its own beside "
          "the CUDA it was built for\n");
  CHECK(r.exit_code == 2);
}

TEST_CASE(
    "programs built with cushim alone: cuDNN 9.19 headers meet the system's 9.14, exit 2, the fix names the wheel") {
  fake_machine m;
  gpu_machine gpu(m, {true, true});
  process_result r = run_doctor(m);
  INFO(r.out << r.err);
  CHECK(answer_of(r.out) == "torch, onnxruntime, JAX and CuPy in " + gpu.venv_path() +
                                " use the H200 with cuDNN 9.19.0 from the wheel\n" + refusal_lines(m, gpu));
  CHECK(r.exit_code == 2);
}

TEST_CASE("no driver: nothing can use a GPU, exit 1, the fix installs one") {
  fake_machine m;
  gpu_machine gpu(m, {false, true});
  std::filesystem::remove_all(m.path("usr/local/nvidia"));
  std::filesystem::remove(m.path("usr/lib/libcuda.so.1"));
  process_result r = run_doctor(m);
  INFO(r.out << r.err);
  CHECK(
      answer_of(r.out) ==
      "No stack can use a GPU: no NVIDIA driver was found\n  fix: install the NVIDIA driver for your GPU (it provides "
      "libcuda.so.1); in a container, start it with the NVIDIA container toolkit (--gpus all)\n");
  CHECK(r.exit_code == 1);
}
