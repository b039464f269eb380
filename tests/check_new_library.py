#!/usr/bin/env python3
"""Adding a library that is only data takes the files docs/contributing.md ("Adding a library") says.

In a copy of the tree, adds a library no one ships, "toylib", with exactly those files: its record in
tools/libraries.json and one manifest. Then regenerates (tools/gen_api.py), and checks that the
copy's hand-written files still name no library where its record does not say why; that the
implementation file of a program opted into it compiles, links and runs, with the library reachable
as cushim::library::toylib and its calls returning its documented fallback, as no copy of it exists;
and that cushim's own test support headers, generated from the records, compile with it. Its
header, which NVIDIA would ship, is a stand-in written outside the copy.

Usage: check_new_library.py --cxx C++ --headers DIR [--headers DIR]     exit 0 ok, 1 not
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RECORD = {
    "key": "toylib", "id": None, "title": "ToyLib",
    "named_in": {"tests/check_new_library.py": "the test that adds it"},
    "files": {"posix": {"1": "libtoylib.so.1"}, "windows": {"1": "toylib64_1.dll"}, "by": "own"},
    "version": {"function": "toylibGetVersion", "form": "int_out", "encoding": "toolkit_library",
                "parts": {"header": "toylib.h", "macros": ["TOYLIB_VER_MAJOR", "TOYLIB_VER_MINOR", "TOYLIB_VER_PATCH"]}},
    "pip_packages": ["toylib"],
    "fallback": {"status": "toylibStatus_t", "unavailable": "TOYLIB_STATUS_NOT_INITIALIZED", "missing": "TOYLIB_STATUS_NOT_SUPPORTED",
                 "effect": "toylib* calls return TOYLIB_STATUS_NOT_INITIALIZED; toylibGetVersion sets 0",
                 "zeroed_outputs": ["toylibGetVersion"]},
    "tests": {"missing_call": "toylibCreate"},
    "select": {"needs": {"macro": "TOYLIB_VERSION", "error": "cushim: CUSHIM_TOYLIB needs <toylib.h> included before cushim"},
               "major": "TOYLIB_VER_MAJOR"},
    "opt_in": "CUSHIM_TOYLIB", "version_macro": "TOYLIB_VERSION", "version_header": "toylib.h", "encoding": [1000, 100],
    "release_format": "{major}.{minor}", "umbrella_header": "toylib.h", "prefix": "toylib", "declared_in": "toylib\\.h",
    "group": {"column": "group", "rule": "constant", "value": "none"}, "majors": {"1": {}},
}
MANIFEST = [
    {"name": "toylibGetVersion", "ret": "toylibStatus_t", "params": [["int *", "version"]], "header": "toylib.h"},
    {"name": "toylibCreate", "ret": "toylibStatus_t", "params": [["toylibHandle_t *", "handle"]], "header": "toylib.h"},
    {"name": "toylibScale", "ret": "toylibStatus_t",
     "params": [["toylibHandle_t", "handle"], ["float", "alpha"], ["float *", "x"], ["int", "n"]], "header": "toylib.h"},
]
HEADER = """#pragma once
#define TOYLIB_VER_MAJOR 1
#define TOYLIB_VER_MINOR 2
#define TOYLIB_VER_PATCH 3
#define TOYLIB_VERSION (TOYLIB_VER_MAJOR * 1000 + TOYLIB_VER_MINOR * 100 + TOYLIB_VER_PATCH)
#ifdef __cplusplus
extern "C" {
#endif
typedef enum { TOYLIB_STATUS_SUCCESS = 0, TOYLIB_STATUS_NOT_INITIALIZED = 1, TOYLIB_STATUS_NOT_SUPPORTED = 2 } toylibStatus_t;
typedef struct toylibContext* toylibHandle_t;
toylibStatus_t toylibGetVersion(int* version);
toylibStatus_t toylibCreate(toylibHandle_t* handle);
toylibStatus_t toylibScale(toylibHandle_t handle, float alpha, float* x, int n);
#ifdef __cplusplus
}
#endif
"""
PROGRAM = r"""#include <toylib.h>
#define CUSHIM_TOYLIB
#define CUSHIM_IMPLEMENTATION
#include <cushim/cushim.hpp>

#include <cstdio>
#include <string>

int main() {
  int version = 7;
  toylibHandle_t handle = nullptr;
  const bool fallbacks = toylibGetVersion(&version) == TOYLIB_STATUS_NOT_INITIALIZED && version == 0 &&
                         toylibCreate(&handle) == TOYLIB_STATUS_NOT_INITIALIZED;
  const cushim::status& st = cushim::status_of(cushim::library::toylib);
  const std::string text = cushim::explain();
  std::printf("%s: %s\n%s", cushim::to_string(cushim::library::toylib), cushim::to_string(st.code), text.c_str());
  const bool explained = text.find("ToyLib") != std::string::npos && text.find("libtoylib.so.1") != std::string::npos &&
                         text.find("CUSHIM_TOYLIB_PATH") != std::string::npos;
  return fallbacks && st.code == cushim::error_code::not_found && explained ? 0 : 1;
}
"""
SUPPORT = """#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <toylib.h>
#define CUSHIM_TOYLIB
#include "support/opt_in_headers.hpp"
#include "support/left_out_exports.hpp"
#include "support/library_answers.hpp"
#include "support/library_files.hpp"
#include "support/plain_libraries.hpp"

int main() {
  const auto plain = test_support::plain_libraries();
  return plain.size() == 1 && plain[0].lib == cushim::library::toylib && test_support::file_of(plain[0].lib) == "libtoylib.so.1" &&
                 test_support::record_files(cushim::library::toylib).size() == 1 ? 0 : 1;
}
"""


def copy_tree(target: Path) -> None:
    listed = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            check=True, capture_output=True).stdout.decode().split("\0")
    for name in listed:
        source = REPO / name
        if name and source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def add_library(tree: Path) -> list[str]:
    """The throwaway library's files, written as a contributor would; the paths it changed."""
    record_file = tree / "tools" / "libraries.json"
    data = json.loads(record_file.read_text(encoding="utf-8"))
    record = dict(RECORD, id=max(entry.get("id", -1) for entry in data["libraries"]) + 1)
    data["libraries"].append(record)
    record_file.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    manifest = tree / "tools" / "manifests" / "toylib-1.0.jsonl"
    manifest.write_text("".join(json.dumps(row) + "\n" for row in MANIFEST), encoding="utf-8")
    return ["tools/libraries.json", "tools/manifests/toylib-1.0.jsonl"]


def documented_files() -> tuple[int, list[str]]:
    """What docs/contributing.md says a library that is only data takes: the count and the paths."""
    text = (REPO / "docs" / "contributing.md").read_text(encoding="utf-8")
    section = text.split("## Adding a library", 1)[1].split("\n## ", 1)[0]
    count = re.search(r"only data takes (\d+) files", section)
    paths = re.findall(r"^\d+\. `([^`]+)`", section, re.MULTILINE)
    return (int(count.group(1)) if count else -1), paths


def path_pattern(documented: str) -> re.Pattern:
    """`tools/manifests/<prefix>-<release>.jsonl` as a pattern: each <placeholder> any name."""
    return re.compile("".join("[^/]+" if part.startswith("<") else re.escape(part)
                              for part in re.split(r"(<[^>]+>)", documented)))


def run(step: str, command: list[str], cwd: Path, problems: list[str]) -> bool:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        problems.append(f"{step} failed ({done.returncode}): {' '.join(command)}\n{done.stdout}{done.stderr}")
    return done.returncode == 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--headers", action="append", type=Path, required=True)
    args = parser.parse_args(argv)
    problems: list[str] = []
    count, documented = documented_files()
    with tempfile.TemporaryDirectory(prefix="check_new_library.") as tmp:
        tree, stand_in = Path(tmp) / "tree", Path(tmp) / "stand_in"
        copy_tree(tree)
        changed = add_library(tree)
        patterns = [path_pattern(path) for path in documented]
        unlisted = [path for path in changed if not any(p.fullmatch(path) for p in patterns)]
        if count != len(changed) or unlisted:
            problems.append(f"docs/contributing.md says a library that is only data takes {count} files ({documented}); "
                            f"adding one took {len(changed)}: {changed}")
        stand_in.mkdir()
        (stand_in / "toylib.h").write_text(HEADER, encoding="utf-8")
        headers = [flag for d in args.headers for flag in ("--headers", str(d))]
        if run("regenerating", [sys.executable, "tools/gen_api.py", *headers], tree, problems):
            run("tests/check_library_mentions.py", [sys.executable, "tests/check_library_mentions.py", str(tree)], tree,
                problems)
            cxx = [args.cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", f"-I{tree / 'include'}", "-isystem",
                   str(stand_in), *[f for d in args.headers for f in ("-isystem", str(d))]]
            (Path(tmp) / "program.cpp").write_text(PROGRAM, encoding="utf-8")
            program = Path(tmp) / "program"
            if run("building the implementation file", [*cxx, str(Path(tmp) / "program.cpp"), "-o", str(program),
                                                         "-ldl", "-pthread"], tree, problems):
                run("running it", [str(program)], tree, problems)
            (Path(tmp) / "support.cpp").write_text(SUPPORT, encoding="utf-8")
            files = re.search(r"set\(CUSHIM_LIBRARIES ([^)]*)\)", (tree / "cmake" / "cushimLibraries.cmake").read_text())
            defines = [f'-DCUSHIM_{key.upper()}_FILE="lib{key}.so"' for key in files.group(1).split() if key != "toylib"]
            run("the test support headers", [*cxx, f"-I{tree / 'tests'}", *defines,
                                             '-DCUSHIM_TOYLIB_FILE="libtoylib.so.1"', "-fsyntax-only",
                                             str(Path(tmp) / "support.cpp")], tree, problems)
    for problem in problems:
        print(problem)
    print(f"a library added with {', '.join(changed)}: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
