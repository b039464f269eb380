#!/usr/bin/env python3
"""Generate the X-macro API tables under include/cushim/api.

What it writes
  <table>_<major>.inc  one per library and major listed in tools/libraries.json (cudnn_9.inc,
                       cudart_13.inc, cuda_driver_12.inc, ...).
  table_versions.hpp   per table, the oldest header release it is used for (_MIN) and the newest
                       release it was built from (_NEWEST), in the library's version macro.
  declared_arities.inc per number of parameters, what a CUSHIM_API_DECLARED line needs
                       (include/cushim/detail/stubs/declared_functions.hpp).
  table_selection.inc  which table of each library the headers in use get, or the #error that
                       says why none (tools/apigen/selection.py; detail/tables/api_tables.hpp).
  library_tables.inc   the tables a build includes, opt-in ones behind their macro.
  companion_headers.inc the headers of each shimmed library that come with its main one, which
                       the implementation file includes itself (tools/apigen/selection.py).
  descriptors.inc      every library's descriptor file and descriptor (detail/libraries/all.hpp).
  include/cushim/detail/libraries/<key>.hpp, statuses.hpp
                       (outside the tables' folder): each library's descriptor, made from its record
                       (tools/apigen/descriptors.py; what only it does is its <key>_hooks.hpp), and
                       the fallback statuses of every status type.
  cmake/cushimLibraries.cmake, tests/support/{opt_in_headers,library_files,library_answers,
  plain_libraries,left_out_exports,all_opt_ins}.hpp
                       (outside the tables' folder): each library's opt-in macro, headers, file
                       of each OS and major, documented fallback and version answer, the plain
                       libraries the shared scenarios walk, what its exports and table differ by,
                       which cushim's own test builds read (tools/apigen/testdata.py).
  doctor/inventory/toolkit_components.inc
                       each library's component of a toolkit's version.json, for the doctor.
  include/cushim/detail/types/library_enums.hpp, README.md, docs/{search-order,errors,supported-headers,
                       windows}.md
                       cushim::library's enumerators and the per-library rows, between their
                       "generated" markers (tools/apigen/regions.py); the rest of each is its own.

Each .inc line is one X-macro call of the same shape for every library:
  CUSHIM_API(library, group, ret, name, (params), (args))
where `library` is the cushim::library enumerator (cudnn, cudart, ...) and `group` the
library's own column: cuDNN's sub-library (ops, cnn, ...), the CUDA runtime's tier (core,
full), `none` where a library has none. What differs between libraries is data in
tools/libraries.json (described in tools/apigen/libraries.py and tools/apigen/record.py); adding a
library is an entry there plus its manifests in tools/manifests (docs/contributing.md).

Guards. A table is built from every manifest of its major. A function present in the releases
[a, b] of those manifests with one prototype gets `#if VERSION >= a && VERSION < b'`, where b'
is the minor after b; the lower bound is left out when a is the oldest manifest, the upper when
b is the newest. A function whose prototype changed gets one line per prototype, each guarded.
So the table, preprocessed with a manifest's release, is exactly that manifest; for a release
between two manifests it keeps a function only where both have it with the same prototype (a
function added between them is shimmed only from the later one); newer headers of the major
get the newest manifest's functions. Prototypes are compared as C++ sees them: `enum X` and
`X` are one type. Guards ignore the patch level: a release is M.m.

The headers (--headers) are read through clang's JSON AST for every library whose umbrella
header they contain (an opt-in library's may be missing). Where a manifest describes the same
release, the headers must agree with it exactly (else exit status 3) and the table is unchanged:
regenerating from the headers here (cuDNN 9.19, CUDA 13.0) reproduces the committed tables.
Headers of a release no manifest describes (newer ones, say) join that major's manifests as one
more release: that is how to regenerate the tables for one's own headers.

Usage
  python3 tools/gen_api.py                 regenerate include/cushim/api
  python3 tools/gen_api.py --check         regenerate into a temporary directory and compare
  options: --headers DIR (repeatable; default $CUDNN_INCLUDE_DIR and $CUDAToolkit_ROOT/include
           when set, plus /usr/local/cuda/include), --clang PATH (default clang++),
           --out DIR (default <repo>/include/cushim/api)

Exit status: 0 success / up to date, 1 stale tables (--check), 2 clang, headers or data missing
or unusable, 3 headers and manifests disagree.
Python 3.11 standard library only; output is deterministic (sorted, no timestamps, LF).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from apigen.clang import Toolchain, headers_snapshot
from apigen.libraries import LIBRARIES_FILE, Library, load_libraries
from apigen.model import EXIT_ENV, EXIT_STALE, GenError, Snapshot
from apigen.render import render_declared_arities, render_table, render_versions
from apigen.descriptors import descriptor_file, render_descriptor, render_descriptor_list, render_statuses, \
    render_toolkit_components
from apigen.selection import libraries_of, render_cmake, render_companions, render_library_tables, \
    render_selection, render_test_answers, render_test_files, render_test_headers
from apigen.regions import render_pages
from apigen.tables import build_table
from apigen.testdata import render_all_opt_ins, render_left_out, render_plain_libraries

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "include" / "cushim" / "api"
DEFAULT_HEADERS = Path("/usr/local/cuda/include")
# Generated outside the tables' folder (into --out too, when it is another one): by name,
# libraries/<file> (each library's descriptor header, statuses.hpp) in include/cushim/detail/libraries,
# and repo/<path>: the doctor's toolkit components and the files with generated regions.
ELSEWHERE = {"cushimLibraries.cmake": REPO / "cmake",
             **{name: REPO / "tests" / "support"
                for name in ("opt_in_headers.hpp", "library_files.hpp", "library_answers.hpp", "plain_libraries.hpp",
                             "left_out_exports.hpp", "all_opt_ins.hpp")}}
DESCRIPTOR_DIR = REPO / "include" / "cushim" / "detail" / "libraries"


def read_headers(toolchain: Toolchain, library: Library) -> Snapshot | None:
    """The library's headers as one release, or None for an opt-in library without them."""
    toolchain = toolchain.searching_first(library.include_dirs)
    if not toolchain.has_header(library.umbrella_header):
        if library.opt_in is None:
            raise GenError(f"{library.umbrella_header} not found in "
                           f"{', '.join(map(str, toolchain.include_dirs))}; pass --headers DIR",
                           EXIT_ENV)
        print(f"{library.title}: no {library.umbrella_header} in the headers; its tables come "
              "from the manifests alone", file=sys.stderr)
        return None
    headers = headers_snapshot(toolchain, library)
    if headers.version[0] not in library.majors:
        raise GenError(f"the headers are {library.title} {headers.release}; tools/libraries.json "
                       f"lists majors {sorted(library.majors)} (add the major and its manifests)",
                       EXIT_ENV)
    return headers


def generate(toolchain: Toolchain) -> dict[str, str]:
    """File name -> content of every generated file."""
    built_tables = []
    libraries = load_libraries()
    for library in libraries:
        headers = read_headers(toolchain, library)
        built_tables += [build_table(library, major, headers)
                         for major in library.majors.values()]
    files = {built.file_name: render_table(built) for built in built_tables}
    files["table_versions.hpp"] = render_versions(built_tables)
    files["declared_arities.inc"] = render_declared_arities()
    files["table_selection.inc"] = render_selection(libraries)
    files["library_tables.inc"] = render_library_tables(libraries)
    files["companion_headers.inc"] = render_companions(libraries)
    files["descriptors.inc"] = render_descriptor_list(libraries)
    files["repo/doctor/inventory/toolkit_components.inc"] = render_toolkit_components(libraries)
    files["libraries/statuses.hpp"] = render_statuses(libraries)
    for library in libraries_of(libraries):
        files[f"libraries/{descriptor_file(library)}"] = render_descriptor(library)
    files["cushimLibraries.cmake"] = render_cmake(libraries)
    files["opt_in_headers.hpp"] = render_test_headers(libraries)
    files["library_files.hpp"] = render_test_files(libraries)
    files["library_answers.hpp"] = render_test_answers(libraries)
    files["plain_libraries.hpp"] = render_plain_libraries(libraries)
    files["left_out_exports.hpp"] = render_left_out(libraries)
    files["all_opt_ins.hpp"] = render_all_opt_ins(libraries)
    record = json.loads(LIBRARIES_FILE.read_text(encoding="utf-8"))
    for page, text in render_pages(libraries, REPO, record).items():
        files[f"repo/{page}"] = text
    return files


def target_path(out_dir: Path, name: str) -> Path:
    if out_dir.resolve() != DEFAULT_OUT.resolve():
        return out_dir / name
    if name in ELSEWHERE:
        return ELSEWHERE[name] / name
    if name.startswith("libraries/"):
        return DESCRIPTOR_DIR / name.removeprefix("libraries/")
    if name.startswith("repo/"):
        return REPO / name.removeprefix("repo/")
    return out_dir / name


def write_files(files: dict[str, str], out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, content in sorted(files.items()):
        path = target_path(out_dir, name)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode("utf-8")
        if not path.exists() or path.read_bytes() != data:  # keep mtimes of unchanged files
            path.write_bytes(data)


def check_files(files: dict[str, str], out_dir: Path) -> int:
    with tempfile.TemporaryDirectory(prefix="gen_api.") as tmp:
        write_files(files, Path(tmp))
        stale = 0
        for name in sorted(files):
            fresh = (Path(tmp) / name).read_bytes()
            committed_path = target_path(out_dir, name)
            committed = committed_path.read_bytes() if committed_path.exists() else b""
            if fresh == committed:
                continue
            stale += 1
            diff = difflib.unified_diff(
                committed.decode("utf-8", "replace").splitlines(keepends=True),
                fresh.decode("utf-8").splitlines(keepends=True),
                fromfile=str(committed_path), tofile=f"{name} (regenerated)")
            sys.stdout.writelines(diff)
    if stale:
        print(f"{stale} api table(s) stale; run python3 tools/gen_api.py", file=sys.stderr)
        return EXIT_STALE
    print(f"api tables up to date ({len(files)} files)")
    return 0


def default_header_dirs() -> list[Path]:
    """$CUDNN_INCLUDE_DIR and $CUDAToolkit_ROOT/include when set, then /usr/local/cuda."""
    dirs = []
    if os.environ.get("CUDNN_INCLUDE_DIR"):
        dirs.append(Path(os.environ["CUDNN_INCLUDE_DIR"]))
    if os.environ.get("CUDAToolkit_ROOT"):
        dirs.append(Path(os.environ["CUDAToolkit_ROOT"]) / "include")
    if not dirs or DEFAULT_HEADERS.is_dir():  # cuDNN alone still needs the CUDA headers
        dirs.append(DEFAULT_HEADERS)
    return list(dict.fromkeys(dirs))


def make_toolchain(clang: str, header_dirs: list[Path]) -> Toolchain:
    resolved = shutil.which(clang)
    if not resolved:
        raise GenError(f"clang not found ({clang!r}); install clang or pass --clang PATH",
                       EXIT_ENV)
    missing = [d for d in header_dirs if not d.is_dir()]
    if missing:
        raise GenError(f"header directory not found: {', '.join(map(str, missing))}; "
                       "pass --headers DIR", EXIT_ENV)
    return Toolchain(resolved, tuple(header_dirs))


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--headers", action="append", type=Path, metavar="DIR",
                        help="include directory with the NVIDIA headers (repeatable; default: "
                             "$CUDNN_INCLUDE_DIR, $CUDAToolkit_ROOT/include, "
                             "/usr/local/cuda/include)")
    parser.add_argument("--clang", default="clang++", metavar="PATH",
                        help="clang++ to run (default clang++)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, metavar="DIR",
                        help=f"output directory (default {DEFAULT_OUT.relative_to(REPO)})")
    parser.add_argument("--check", action="store_true",
                        help="compare freshly generated tables with those in --out")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    try:
        toolchain = make_toolchain(args.clang, args.headers or default_header_dirs())
        files = generate(toolchain)
    except GenError as error:
        print(f"gen_api.py: error: {error}", file=sys.stderr)
        return error.status
    if args.check:
        return check_files(files, args.out)
    write_files(files, args.out)
    print(f"wrote {len(files)} files to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
