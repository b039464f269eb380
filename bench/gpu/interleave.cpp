// The GPU bench's harness: runs the directly linked build of gpu_bench and the one through cushim
// alternately, each run a fresh process, and compares their figures (BENCHMARKS.md, "On a GPU").
//
//   interleave RUNS DIRECT CUSHIM [JSON_FILE]
//
// RUNS times: `first` in both builds, then `calls` in both, the order of the two swapped every
// run (D C, C D, ...) so that a drift of the machine reaches both alike. From `first`: the ms from
// just before the fork to the first successful cudnnCreate (the child's figure, from the
// CLOCK_MONOTONIC time passed to it) and the process's wall time from the fork to its exit
// (measured here); from `calls`: the child's figures per call. For each figure it prints both
// builds' median, quartiles (p25-p75) and range (min-max) over the runs, the ratio of the medians,
// and whether a difference is shown: only where the two quartile ranges do not overlap. JSON_FILE
// gets the same as one JSON object.
//
// Exit 0 measured; 3 a run said "no GPU" (its line is repeated); 1 a run failed or lacked a
// figure; 64 bad arguments.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace {

constexpr int exit_failed = 1;
constexpr int exit_no_gpu = 3;
constexpr int exit_usage = 64;

struct figure {
  const char* key;   // as the child prints it, or process_ms (measured here)
  const char* what;  // for people
};
const figure figures[] = {
    {"first_create_ms", "process start to the first successful cudnnCreate (ms)"},
    {"process_ms", "whole process: start, cudnnCreate, cudnnDestroy, exit (ms)"},
    {"cudaGetDevice_ns", "cudaGetDevice, per call (ns)"},
    {"cudnnSetStream_ns", "cudnnSetStream, per call (ns)"},
    {"cudaStreamQuery_ns", "cudaStreamQuery (reaches the driver), per call (ns)"},
    {"cudnnConvolutionForward_us", "cudnnConvolutionForward, small convolution, per call (us)"},
};

long long now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct run_result {
  int exit_code = -1;  // -1: it did not exit normally
  std::string output;
  std::map<std::string, double> values;  // its key=value lines, and process_ms
};

// Runs `program` with `args` in a fresh process; its standard output is captured.
run_result run(const std::string& program, std::vector<std::string> args, bool pass_start) {
  int out[2];
  run_result result;
  if (pipe(out) != 0) return result;
  long long start = now_ns();
  if (pass_start) args.push_back(std::to_string(start));
  pid_t child = fork();
  if (child == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    close(out[1]);
    std::vector<char*> argv{const_cast<char*>(program.c_str())};
    for (std::string& arg : args) argv.push_back(&arg[0]);
    argv.push_back(nullptr);
    execv(program.c_str(), argv.data());
    _exit(127);
  }
  close(out[1]);
  char buffer[4096];
  for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;) result.output.append(buffer, size_t(n));
  close(out[0]);
  int status = 0;
  if (child < 0 || waitpid(child, &status, 0) != child) return result;
  result.values["process_ms"] = double(now_ns() - start) / 1e6;
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  size_t at = 0;
  while (at < result.output.size()) {
    size_t end = result.output.find('\n', at);
    if (end == std::string::npos) end = result.output.size();
    std::string line = result.output.substr(at, end - at);
    size_t equals = line.find('=');
    if (equals != std::string::npos) result.values[line.substr(0, equals)] = std::atof(line.c_str() + equals + 1);
    at = end + 1;
  }
  return result;
}

// The value at quantile q of sorted values, interpolated between the two nearest.
double quantile(const std::vector<double>& sorted, double q) {
  double position = q * double(sorted.size() - 1);
  size_t below = size_t(std::floor(position));
  size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - double(below));
}

struct summary {
  std::vector<double> values;  // sorted
  double median() const { return quantile(values, 0.5); }
  double p25() const { return quantile(values, 0.25); }
  double p75() const { return quantile(values, 0.75); }
};

std::string json_summary(const summary& s) {
  char text[256];
  std::snprintf(text, sizeof text, "{\"median\": %.6g, \"p25\": %.6g, \"p75\": %.6g, \"min\": %.6g, \"max\": %.6g, ",
                s.median(), s.p25(), s.p75(), s.values.front(), s.values.back());
  std::string json = std::string(text) + "\"values\": [";
  for (size_t i = 0; i < s.values.size(); ++i) {
    std::snprintf(text, sizeof text, "%s%.6g", i ? ", " : "", s.values[i]);
    json += text;
  }
  return json + "]}";
}

// A failed run ends the whole measurement: the machine cannot give the other figures either.
int stop(const std::string& program, const run_result& r) {
  if (r.exit_code == exit_no_gpu) {
    std::printf("interleave: %s", r.output.c_str());
    return exit_no_gpu;
  }
  std::printf("interleave: %s failed (exit %d):\n%s", program.c_str(), r.exit_code, r.output.c_str());
  return exit_failed;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = argc >= 4 ? std::atoi(argv[1]) : 0;
  if (argc < 4 || argc > 5 || runs < 2) {
    std::fprintf(stderr, "usage: interleave RUNS DIRECT CUSHIM [JSON_FILE] (RUNS >= 2)\n");
    return exit_usage;
  }
  const std::string builds[2] = {argv[2], argv[3]};
  std::map<std::string, summary> measured[2];
  for (int i = 0; i < runs; ++i) {
    for (const char* mode : {"first", "calls"}) {
      for (int j = 0; j < 2; ++j) {
        int which = (i + j) % 2;  // D C, then C D
        run_result r = run(builds[which], {mode}, std::string(mode) == "first");
        if (r.exit_code != 0) return stop(builds[which], r);
        for (const auto& [key, value] : r.values) {
          if (std::string(mode) == "first" || key != "process_ms") measured[which][key].values.push_back(value);
        }
      }
    }
  }
  std::printf("%-60s %-36s %-36s %s\n", ("figure (" + std::to_string(runs) + " runs of each build)").c_str(),
              "direct: median [p25-p75] (min-max)", "cushim: median [p25-p75] (min-max)", "cushim/direct");
  std::string json = "{\"runs\": " + std::to_string(runs) + ", \"figures\": [";
  bool complete = true;
  for (const figure& f : figures) {
    summary* s[2] = {&measured[0][f.key], &measured[1][f.key]};
    if (int(s[0]->values.size()) != runs || int(s[1]->values.size()) != runs) {
      std::printf("interleave: %s: not every run printed it\n", f.key);
      complete = false;
      continue;
    }
    std::string cells[2];
    for (int which = 0; which < 2; ++which) {
      std::sort(s[which]->values.begin(), s[which]->values.end());
      char text[128];
      std::snprintf(text, sizeof text, "%.4g [%.4g-%.4g] (%.4g-%.4g)", s[which]->median(), s[which]->p25(),
                    s[which]->p75(), s[which]->values.front(), s[which]->values.back());
      cells[which] = text;
    }
    double ratio = s[1]->median() / s[0]->median();
    bool shown = s[1]->p25() > s[0]->p75() || s[0]->p25() > s[1]->p75();
    const char* verdict = !shown ? "within the spread" : ratio > 1 ? "cushim slower" : "cushim faster";
    std::printf("%-60s %-36s %-36s %.3f  %s\n", f.what, cells[0].c_str(), cells[1].c_str(), ratio, verdict);
    char text[160];
    std::snprintf(text, sizeof text, "%s{\"key\": \"%s\", \"ratio\": %.6g, \"difference_shown\": %s, ",
                  json.back() == '[' ? "" : ", ", f.key, ratio, shown ? "true" : "false");
    json += std::string(text) + "\"what\": \"" + f.what + "\", \"direct\": " + json_summary(*s[0]) +
            ", \"cushim\": " + json_summary(*s[1]) + "}";
  }
  json += "]}\n";
  if (argc == 5) {
    std::FILE* file = std::fopen(argv[4], "w");
    if (!file || std::fputs(json.c_str(), file) < 0 || std::fclose(file) != 0) {
      std::printf("interleave: cannot write %s\n", argv[4]);
      return exit_failed;
    }
  }
  return complete ? 0 : exit_failed;
}
