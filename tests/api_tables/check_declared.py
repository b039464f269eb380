#!/usr/bin/env python3
"""Headers of releases no manifest describes get exactly the stubs they declare.

No real headers of such a release are here, so each case builds one from what is: the cuDNN
9.19 and CUDA 13.0 headers, given another release's version macros, with declarations removed
(a function the older neighbouring manifest lacks) or added (from the newer manifest's rows),
and, for the CUDA runtime and NVRTC, every function declaration replaced by the chosen release's
set. Each case then compiles the implementation file against those headers (warnings are
errors), links it with a program that takes the address of every function the headers declare
(once plainly, once with CUDA_API_PER_THREAD_DEFAULT_STREAM, as nvcc --default-stream
per-thread compiles), and compares the stubs the implementation object defines with the
functions the headers declare: the same set, no more (nvcc's kernel ABI and the exports no
header declares follow the manifest rule and are expected from the neighbouring manifest; so are
cudaProfilerStart and cudaProfilerStop, which the toolkit's cuda_profiler_api.h declares: the
implementation file includes it itself, a companion of the runtime's header).
Bad input: a function declared with other parameter types than every manifest gives it gets a
stub of the headers' own prototype (in the first case); one declared with another number of
parameters stops the build with a message naming it and the release; a function the manifests
agree on, declared otherwise, stops the build naming it.

Usage: check_declared.py --cxx CXX --include DIR --cudnn-include DIR --cuda-include DIR --work DIR
       [--nm NM] [--link-flag FLAG]... [--case NAME]...
(the Windows suite: --cxx x86_64-w64-mingw32-g++-posix --nm x86_64-w64-mingw32-nm
--link-flag=-static --case release_9_3_12_8). Exit 0 every case as expected, 1 not (listed).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from synthetic_headers import Headers, alternate, cudnn_release, declaration, manifest, \
    without_declaration

KERNEL_ABI_HEADERS = ("host_runtime.h", "device_functions.h", "none")
VARIANT = re.compile(r"(\w+)_pt(ds|sz)")
STUB = re.compile(r"(cudnn|cuda|__cuda|nvrtc)\w*")


def cudart_release(headers: Headers, source: Path, code: int, rows: list[dict],
                   everything: dict[str, dict]) -> None:
    """cuda_runtime_api.h declaring exactly `rows` (and their per-thread variants) as `code`."""
    text = headers.read(source, "cuda_runtime_api.h")
    text = re.sub(r"#define CUDART_VERSION\s+\d+", f"#define CUDART_VERSION {code}", text)
    for name in everything:
        text = without_declaration(text, name)
    plain = [r for r in rows if not VARIANT.fullmatch(r["name"])]
    renames = []
    for row in rows:
        variant = VARIANT.fullmatch(row["name"])
        if variant:
            renames.append(f"#define {variant.group(1)} __CUDART_API_PT{variant.group(2).upper()}"
                           f"({variant.group(1)})")
    text = re.sub(r"(#if defined\(__CUDART_API_PER_THREAD_DEFAULT_STREAM\)\n)(?:[ \t]*#define "
                  r"cuda\w+\s+__CUDART_API_PT\w+\(\w+\)\n)+", lambda m: m.group(1) +
                  "\n".join(renames) + "\n", text, count=1)
    marker = "#if defined(__CUDA_API_VERSION_INTERNAL)"
    declarations = "\n".join(declaration(r, "extern __host__") for r in plain) + "\n"
    headers.files["cuda_runtime_api.h"] = text.replace(marker, declarations + marker, 1)


def nvrtc_release(headers: Headers, source: Path, rows: list[dict],
                  everything: dict[str, dict]) -> None:
    text = headers.read(source, "nvrtc.h")
    for name in everything:
        text = without_declaration(text, name)
    declarations = "\n".join(declaration(r, 'extern "C"') for r in rows)
    headers.files["nvrtc.h"] = text + declarations + "\n"


@dataclass
class Case:
    name: str
    headers: Headers
    declared: set[str]  # the functions the headers declare (their plain names)
    expected: set[str]  # the stubs the implementation object must define
    opt_in: list[str]  # CUSHIM_NVRTC, ...
    stops: list[str] | None = None  # bad input: the build must stop with these messages


class Runner:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.failures: list[str] = []

    def flags(self, case: Case) -> list[str]:
        return ["-std=c++17", f"-I{self.args.include}", "-isystem", str(case.headers.directory),
                "-isystem", str(self.args.cudnn_include), "-isystem", str(self.args.cuda_include)]

    def compile(self, case: Case, source: str, out: Path,
                extra: list[str]) -> subprocess.CompletedProcess:
        path = out.with_suffix(".cpp")
        path.write_text(source)
        cmd = [self.args.cxx, *self.flags(case), *extra, "-c", str(path), "-o", str(out)]
        return subprocess.run(cmd, capture_output=True, text=True)

    def implementation(self, case: Case) -> str:
        lines = ["#define CUSHIM_IMPLEMENTATION"]
        for macro in case.opt_in:
            lines += [f"#define {macro}", "#include <nvrtc.h>"] if macro == "CUSHIM_NVRTC" else []
        return "\n".join(lines + ["#include <cushim/cushim.hpp>"]) + "\n"

    def addresses(self, case: Case, symbol: str, with_main: bool) -> str:
        includes = ["#include <cuda_runtime_api.h>", "#include <cuda_profiler_api.h>", "#include <cudnn.h>"]
        if "CUSHIM_NVRTC" in case.opt_in:
            includes.append("#include <nvrtc.h>")
        names = sorted(n for n in case.declared if not VARIANT.fullmatch(n))
        body = ",\n".join(f"  reinterpret_cast<void*>(&{n})" for n in names)
        text = "\n".join(includes) + (f"\nextern void* const {symbol}[];\n"
                                      f"void* const {symbol}[] = {{\n{body}}};\n")
        if with_main:
            text += ("extern void* const per_thread[];\n"
                     "int main() { return every_function[0] && per_thread[0] ? 0 : 1; }\n")
        return text

    def run(self, case: Case) -> None:
        case.headers.write()
        work = Path(self.args.work) / case.name
        work.mkdir(parents=True, exist_ok=True)
        warnings = ["-Wall", "-Wextra", "-Wpedantic", "-Werror"]
        if case.stops is not None:
            proc = self.compile(case, self.implementation(case), work / "implementation.o",
                                warnings + ["-fsyntax-only"])
            unsaid = [m for m in case.stops if not re.search(m, proc.stderr)]
            if proc.returncode == 0 or unsaid:
                self.failures.append(f"{case.name}: expected the build to stop saying {unsaid}; "
                                     f"exit {proc.returncode}:\n{proc.stderr[-3000:]}")
            else:
                print(f"{case.name}: stops, saying each of {len(case.stops)} messages")
            return
        objects = []
        for stem, source, extra in (
                ("implementation", self.implementation(case), warnings + ["-O0", "-g0"]),
                ("addresses", self.addresses(case, "every_function", True),
                 ["-w", "-O0", "-g0"]),
                ("per_thread", self.addresses(case, "per_thread", False),
                 ["-w", "-O0", "-g0", "-DCUDA_API_PER_THREAD_DEFAULT_STREAM"])):
            proc = self.compile(case, source, work / f"{stem}.o", extra)
            if proc.returncode != 0:
                self.failures.append(f"{case.name}: {stem}.cpp does not compile:\n"
                                     f"{proc.stderr[-3000:]}")
                return
            objects.append(str(work / f"{stem}.o"))
        link = subprocess.run([self.args.cxx, *objects, "-o", str(work / "program"),
                               *self.args.link_flag], capture_output=True, text=True)
        if link.returncode != 0:
            self.failures.append(f"{case.name}: the program taking every declared function's "
                                 f"address does not link:\n{link.stderr[-3000:]}")
        nm = subprocess.run([self.args.nm, "-g", "--defined-only", objects[0]], capture_output=True,
                            text=True, check=True).stdout
        # An executable's stubs carry cushim's symbol version (detail/platform/local_binding.hpp).
        names = (parts[2].removesuffix("@@CUSHIM_1") for parts in map(str.split, nm.splitlines())
                 if len(parts) == 3)
        defined = {name for name in names if STUB.fullmatch(name)}
        extra, missing = sorted(defined - case.expected), sorted(case.expected - defined)
        if extra or missing:
            self.failures.append(f"{case.name}: stubs not declared by the headers: {extra}; "
                                 f"declared, no stub: {missing}")
        print(f"{case.name}: {len(defined)} stubs, {len(case.expected)} expected")


def kernel_abi(rows: dict[str, dict]) -> set[str]:
    return {n for n, r in rows.items() if r["header"] in KERNEL_ABI_HEADERS}


def cases(args: argparse.Namespace) -> list[Case]:
    work = Path(args.work)
    cudnn_9_1, cudnn_9_19, cudnn_9_24 = (manifest(f"cudnn-{v}")
                                         for v in ("9.1.0", "9.19.0", "9.24.0"))
    cudart_13 = manifest("cudart-13.0")
    profiler = set(manifest("cudart-profiler-13.0"))  # the toolkit's companion header's
    nvrtc_13 = manifest("nvrtc-13.0")
    visible = lambda rows: {n: r for n, r in rows.items() if r["header"] == "cuda_runtime_api.h"}
    found = []

    # cuDNN 9.3 (between 9.1 and 9.6: 9.6 adds two) with one of the two,
    # cudnnBackendPopulateCudaGraph, declared with another last parameter type than any manifest
    # gives it (bad input: the stub takes the headers' prototype); CUDA 12.8 (between 12.6 and
    # 12.9) with every other function 12.9 adds, NVRTC 12.8 likewise.
    populate = cudnn_9_19["cudnnBackendPopulateCudaGraph"]
    params = [t for t, _ in populate["params"]]
    other_types = (f"{populate['ret']} cudnnBackendPopulateCudaGraph("
                   f"{', '.join(params[:-1] + ['const void *'])});")
    headers = Headers(work / "release_9_3_12_8" / "include")
    added_9_6 = sorted(set(cudnn_9_19) - set(cudnn_9_1))
    assert added_9_6[0] == "cudnnBackendPopulateCudaGraph" and params[-1] != "const void *"
    cudnn_release(headers, args.cudnn_include, (9, 3, 0), added_9_6[1:], [],
                  {"cudnnBackendPopulateCudaGraph": other_types})
    cudart_12_6, cudart_12_9 = visible(manifest("cudart-12.6")), visible(manifest("cudart-12.9"))
    plain_12_9 = {n for n in cudart_12_9 if not VARIANT.fullmatch(n)}
    chosen = set(cudart_12_6) | set(alternate(plain_12_9 - set(cudart_12_6)))
    rows = [cudart_12_9[n] if n in cudart_12_9 else cudart_12_6[n] for n in sorted(chosen)]
    rows += [r for n, r in sorted(cudart_12_9.items()) if VARIANT.fullmatch(n) and
             VARIANT.fullmatch(n).group(1) in chosen and n not in chosen]
    cudart_release(headers, args.cuda_include, 12080, rows, {**cudart_13, **cudart_12_9})
    nvrtc_12_6, nvrtc_12_9 = manifest("nvrtc-12.6"), manifest("nvrtc-12.9")
    nvrtc_chosen = set(nvrtc_12_6) | set(alternate(set(nvrtc_12_9) - set(nvrtc_12_6)))
    nvrtc_release(headers, args.cuda_include, [nvrtc_12_9.get(n) or nvrtc_12_6[n]
                                               for n in sorted(nvrtc_chosen)], nvrtc_13)
    cudnn_declared = set(cudnn_9_1) | set(added_9_6[:1])
    declared = cudnn_declared | {r["name"] for r in rows} | nvrtc_chosen | profiler
    found.append(Case("release_9_3_12_8", headers, declared,
                      declared | kernel_abi(manifest("cudart-12.9")), ["CUSHIM_NVRTC"]))

    # cuDNN 9.22 (between 9.19 and 9.24) with every other function 9.24 adds, some in the
    # header 9.24 brings, of a type 9.19 lacks; CUDA 11.2 (between 11.0 and 11.4) with every
    # other function 11.4 adds, cudaWaitExternalSemaphoresAsync as 11.0 declares it and
    # cudaSignalExternalSemaphoresAsync renamed by a macro to its _v2, as 11.4's headers do.
    headers = Headers(work / "release_9_22_11_2" / "include")
    added_9_24 = alternate(set(cudnn_9_24) - set(cudnn_9_19))
    cudnn_release(headers, args.cudnn_include, (9, 22, 0), [],
                  [cudnn_9_24[n] for n in added_9_24], {})
    cudart_11_0, cudart_11_4 = visible(manifest("cudart-11.0")), visible(manifest("cudart-11.4"))
    plain_11_4 = {n for n in cudart_11_4 if not VARIANT.fullmatch(n)}
    chosen = ({n for n in cudart_11_0 if not VARIANT.fullmatch(n)} |
              set(alternate(plain_11_4 - set(cudart_11_0))) |
              {"cudaSignalExternalSemaphoresAsync_v2"}) - {"cudaSignalExternalSemaphoresAsync"}
    rows = [cudart_11_0.get(n) or cudart_11_4[n] for n in sorted(chosen)]
    known_variants = {**cudart_11_4, **cudart_11_0}
    rows += [r for n, r in sorted(known_variants.items()) if VARIANT.fullmatch(n) and
             VARIANT.fullmatch(n).group(1) in chosen and n not in chosen]
    cudart_release(headers, args.cuda_include, 11020, rows,
                   {**cudart_13, **cudart_11_0, **cudart_11_4})
    headers.files["cuda_runtime_api.h"] = headers.files["cuda_runtime_api.h"].replace(
        "#if defined(__CUDA_API_VERSION_INTERNAL)", "#define cudaSignalExternalSemaphoresAsync "
        "__CUDART_API_PTSZ(cudaSignalExternalSemaphoresAsync_v2)\n"
        "#if defined(__CUDA_API_VERSION_INTERNAL)", 1)
    declared = set(cudnn_9_19) | set(added_9_24) | {r["name"] for r in rows} | profiler
    found.append(Case("release_9_22_11_2", headers, declared,
                      declared | kernel_abi(manifest("cudart-11.4")), []))

    # Bad input on cuDNN 9.3 headers: cudnnBackendPopulateCudaGraph (9.6 adds it) with one
    # parameter more than any manifest gives it, cudnnGetVersion (every manifest agrees on it)
    # with another prototype: each stops the build, named.
    more = f"{populate['ret']} cudnnBackendPopulateCudaGraph({', '.join(params + ['int'])});"
    headers = Headers(work / "unknown_prototypes" / "include")
    cudnn_release(headers, args.cudnn_include, (9, 3, 0), added_9_6[1:], [],
                  {"cudnnBackendPopulateCudaGraph": more,
                   "cudnnGetVersion": "size_t cudnnGetVersion(int);"})
    found.append(Case("unknown_prototypes", headers, set(), set(), [], stops=[
        r"cushim: the cuDNN 9\.3\.0 headers declare cudnnBackendPopulateCudaGraph with another "
        r"number of parameters",
        r"(conflicting declaration of C function|conflicting types for)[^\n]*cudnnGetVersion"]))
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--include", type=Path, required=True, help="cushim's include directory")
    parser.add_argument("--cudnn-include", type=Path, required=True)
    parser.add_argument("--cuda-include", type=Path, required=True)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--nm", default="nm")
    parser.add_argument("--link-flag", action="append", help="default: -ldl -pthread")
    parser.add_argument("--case", action="append", help="run only these cases (default: all)")
    args = parser.parse_args(argv)
    args.link_flag = args.link_flag or ["-ldl", "-pthread"]
    runner = Runner(args)
    for case in cases(args):
        if not args.case or case.name in args.case:
            runner.run(case)
    for failure in runner.failures:
        print(f"FAIL {failure}")
    print(f"{len(runner.failures)} failure(s)")
    return 1 if runner.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
