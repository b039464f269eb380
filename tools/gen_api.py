#!/usr/bin/env python3
"""Generate the X-macro API tables under include/cushim/api.

What it writes
  cudnn_8.inc    cuDNN 8 API, merged from the cuDNN 8.x manifests in tools/manifests.
  cudnn_9.inc    cuDNN 9 API, read from the real cuDNN 9 headers through clang's JSON AST,
                 cross-checked against the cuDNN 9.x manifests.
  cudart_11.inc  CUDA runtime 11 API, from the cudart 11.x manifest(s).
  cudart_12.inc  CUDA runtime 12 API, from the cudart 12.x manifest(s).
  cudart_13.inc  CUDA runtime 13 API, read from the real cuda_runtime_api.h through clang,
                 cross-checked against the cudart 13.x manifest(s).
  table_versions.hpp  the oldest header version each table is valid for.

Each .inc line is one X-macro call of the same shape for every library:
  CUSHIM_API(library, group, ret, name, (params), (args))
where `library` is the cushim::library enumerator (cudnn, cudart) and `group` the library's own
column: cuDNN's sub-library (ops, cnn, ...), the CUDA runtime's tier (core, full).
Functions that exist only in part of a major's releases, or whose signature changed within
it, are wrapped in `#if CUDNN_VERSION >= N` / `#if CUDART_VERSION < N` ... `#endif` guards
(cuDNN 8: N = M*1000+m*100, cuDNN 9: N = M*10000+m*100, CUDA runtime: N = M*1000+m*10).

Header-derived tables take each manifest of that major older than the headers as an earlier
snapshot (differences become guards, summarised on stderr), and must agree exactly
with the manifest of the headers' own release (otherwise the script fails with exit status 3).

cudart tier rule ("core" vs "full"):
  core = the name starts with one of CORE_PREFIXES and the same function (base names compared
  with a trailing _v2/_v3 stripped) exists in the cudart 11.8 manifest with the same return
  type and parameter types; everything else is full.

Usage
  python3 tools/gen_api.py                 regenerate include/cushim/api
  python3 tools/gen_api.py --check         regenerate into a temporary directory and compare
  options: --headers DIR (repeatable; default $CUDNN_INCLUDE_DIR and $CUDAToolkit_ROOT/include
           when set, plus /usr/local/cuda/include), --clang PATH (default clang++),
           --out DIR (default <repo>/include/cushim/api)

Exit status: 0 success / up to date, 1 stale tables (--check), 2 clang or headers missing or
unusable, 3 headers and manifests disagree.
Python 3.11 standard library only; output is deterministic (sorted, no timestamps, LF).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
MANIFEST_DIR = REPO / "tools" / "manifests"
DEFAULT_OUT = REPO / "include" / "cushim" / "api"
DEFAULT_HEADERS = Path("/usr/local/cuda/include")

CORE_PREFIXES = (
    "cudaDevice", "cudaGetDevice", "cudaSetDevice", "cudaChooseDevice", "cudaMalloc",
    "cudaFree", "cudaMemcpy", "cudaMemset", "cudaMemGetInfo", "cudaHost", "cudaStream",
    "cudaEvent", "cudaGetErrorName", "cudaGetErrorString", "cudaGetLastError",
    "cudaPeekAtLastError", "cudaRuntimeGetVersion", "cudaDriverGetVersion",
    "cudaPointerGetAttributes",
)
CORE_BASELINE = "11.8"  # the cudart release whose signatures define "core"

# Identifiers that cannot be used as parameter names in C or C++ (incl. alternative tokens).
RESERVED_WORDS = frozenset("""
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t
    char16_t char32_t class compl concept const consteval constexpr constinit const_cast
    continue co_await co_return co_yield decltype default delete do double dynamic_cast else
    enum explicit export extern false float for friend goto if inline int long mutable
    namespace new noexcept not not_eq nullptr operator or or_eq private protected public
    register reinterpret_cast requires restrict return short signed sizeof static
    static_assert static_cast struct switch template this thread_local throw true try typedef
    typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq
    _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn _Static_assert
    _Thread_local
""".split())

EXIT_STALE, EXIT_ENV, EXIT_MISMATCH = 1, 2, 3


class GenError(Exception):
    """A failure that ends the run with a given exit status."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


# --------------------------------------------------------------------------------------------
# Types and declarators

_TOKEN = re.compile(r"[A-Za-z_]\w*|\d+|::|\.\.\.|\S")


def _is_word(tok: str) -> bool:
    return tok[0].isalnum() or tok[0] == "_"


def _needs_space(prev: str, tok: str) -> bool:
    """Spacing rule of clang's type printer: "const void *const *", "void (*)(int)", "int [4]"."""
    if prev in "([" or tok in ")],":
        return False
    if prev == ",":
        return True
    if tok in ("*", "&", "&&"):
        return prev not in ("*", "&", "&&")
    if tok == "(":
        return _is_word(prev)
    if tok == "[":
        return _is_word(prev)
    if _is_word(tok):
        return prev not in ("*", "&", "&&")
    return True


def normalize_type(text: str) -> str:
    """Canonical spelling of a C type so manifest and clang spellings compare equal."""
    out: list[str] = []
    for tok in _TOKEN.findall(text):
        if out and _needs_space(out[-1], tok):
            out.append(" ")
        out.append(tok)
    return "".join(out)


def _matching_paren(text: str, open_index: int) -> int:
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] in "([":
            depth += 1
        elif text[i] in ")]":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced parentheses in {text!r}")


def declare(type_text: str, name: str) -> str:
    """Put `name` into the (normalised) type where a declarator's identifier belongs.

    "int" -> "int name", "const void *" -> "const void *name", "const int [8]" ->
    "const int name[8]", "void (*)(void *)" -> "void (*name)(void *)".
    """
    depth = 0
    for i, ch in enumerate(type_text):
        if ch in "([" and depth == 0:
            if ch == "(" and type_text[i + 1:i + 2] in ("*", "&", "^"):
                # A grouping paren: the name lives inside it, e.g. "(*)" -> "(*name)".
                close = _matching_paren(type_text, i)
                inner = declare(type_text[i + 1:close], name)
                return type_text[:i + 1] + inner + type_text[close:]
            return _join_name(type_text[:i], name) + type_text[i:]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
    return _join_name(type_text, name)


def _join_name(prefix: str, name: str) -> str:
    prefix = prefix.rstrip()
    if not prefix or prefix[-1] in "*&(^":
        return prefix + name
    return f"{prefix} {name}"


# --------------------------------------------------------------------------------------------
# Function model


@dataclass(frozen=True)
class Function:
    name: str
    ret: str
    params: tuple[tuple[str, str], ...]  # (normalised type, name as declared, may be "")
    header: str  # base name of the declaring header, e.g. "cudnn_ops.h"

    def signature(self) -> tuple:
        """What must match for two releases to share one table line (parameter names don't)."""
        return (self.ret, tuple(t for t, _ in self.params), self.header)


@dataclass(frozen=True)
class Snapshot:
    version: tuple[int, int, int]
    release: str  # as the vendor writes it: "9.6.0", "11.8"
    origin: str  # "manifest" or "headers"
    functions: dict[str, Function]

    @property
    def label(self) -> str:
        return f"{self.release} {self.origin}"


@dataclass(frozen=True)
class Entry:
    function: Function
    since: int | None  # guard: VERSION >= since
    until: int | None  # guard: VERSION < until


def make_function(name: str, ret: str, params, header: str) -> Function:
    return Function(
        name=name,
        ret=normalize_type(ret),
        params=tuple((normalize_type(t), n or "") for t, n in params),
        header=os.path.basename(header),
    )


def param_names(function: Function) -> list[str]:
    """Names as declared; unnamed, reserved or duplicate names become p<position>."""
    names: list[str] = []
    for index, (_, name) in enumerate(function.params):
        if not name or name in RESERVED_WORDS or name in names:
            name = f"p{index}"
        names.append(name)
    return names


def render_params(function: Function) -> tuple[str, str]:
    """The "(parameters)" and "(arguments)" texts of one X-macro line."""
    if not function.params:
        return "(void)", "()"
    names = param_names(function)
    decls = [declare(t, n) for (t, _), n in zip(function.params, names)]
    return "(" + ", ".join(decls) + ")", "(" + ", ".join(names) + ")"


# --------------------------------------------------------------------------------------------
# Manifests


def parse_version(text: str) -> tuple[int, int, int]:
    parts = [int(p) for p in text.split(".")]
    return tuple((parts + [0, 0, 0])[:3])  # type: ignore[return-value]


def list_manifests(library: str, major: int) -> list[tuple[tuple[int, int, int], Path]]:
    """(version, path) of the manifests of one major release, oldest first."""
    found = []
    for path in MANIFEST_DIR.glob(f"{library}-*.jsonl"):
        version = parse_version(release_of(path))
        if version[0] == major:
            found.append((version, path))
    return sorted(found)


def release_of(manifest: Path) -> str:
    return manifest.stem.split("-", 1)[1]  # cudnn-9.6.0.jsonl -> 9.6.0


def load_manifest(path: Path) -> dict[str, Function]:
    functions: dict[str, Function] = {}
    with path.open(encoding="utf-8") as stream:
        for line_no, line in enumerate(stream, 1):
            if not line.strip():
                continue
            row = json.loads(line)
            function = make_function(row["name"], row["ret"], row["params"], row["header"])
            if function.name in functions:
                raise GenError(f"{path.name}:{line_no}: duplicate function {function.name}",
                               EXIT_MISMATCH)
            functions[function.name] = function
    return functions


def manifest_snapshot(version: tuple[int, int, int], path: Path) -> Snapshot:
    return Snapshot(version, release_of(path), "manifest", load_manifest(path))


# --------------------------------------------------------------------------------------------
# Headers through clang


@dataclass(frozen=True)
class Toolchain:
    clang: str
    include_dirs: tuple[Path, ...]

    def run(self, source: str, extra: list[str]) -> str:
        cmd = [self.clang, "-x", "c++", "-std=c++17", *extra]
        cmd += [f"-I{d}" for d in self.include_dirs] + ["-"]
        proc = subprocess.run(cmd, input=source, capture_output=True, text=True)
        if proc.returncode != 0:
            raise GenError(f"{self.clang} failed (exit {proc.returncode}) on {source.strip()!r} "
                           f"(include dirs: {', '.join(map(str, self.include_dirs))}):\n"
                           f"{proc.stderr.strip()}", EXIT_ENV)
        return proc.stdout

    def macros(self, header: str) -> dict[str, str]:
        text = self.run(f"#include <{header}>\n", ["-E", "-dM"])
        found = {}
        for line in text.splitlines():
            parts = line.split(None, 2)
            if len(parts) == 3 and parts[0] == "#define":
                found[parts[1]] = parts[2]
        return found

    def ast_documents(self, header: str, name_filter: str) -> list:
        """JSON AST of the declarations whose name contains name_filter.

        With -ast-dump-filter clang prints one JSON document per matching declaration,
        back to back, so decode them one at a time.
        """
        text = self.run(f"#include <{header}>\n",
                        ["-fsyntax-only", "-Xclang", "-ast-dump=json",
                         "-Xclang", f"-ast-dump-filter={name_filter}"])
        decoder = json.JSONDecoder()
        documents, pos = [], 0
        while True:
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if pos >= len(text):
                return documents
            document, pos = decoder.raw_decode(text, pos)
            documents.append(document)


def function_decls_with_files(documents: list) -> list[tuple[dict, str]]:
    """Each top-level FunctionDecl with the file its name is declared in.

    clang's JSON omits "file" from a location when it equals the previously printed one,
    so walk every location in output order and remember the last file seen.
    """
    state = {"file": ""}
    found: list[tuple[dict, str]] = []
    top_level = {id(document) for document in documents}

    def walk(node) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
            return
        if not isinstance(node, dict):
            return
        for key, value in node.items():
            if key == "includedFrom":  # names the includer; does not move the location
                continue
            if key == "file" and isinstance(value, str):
                state["file"] = value
            else:
                walk(value)
            if key == "loc" and node.get("kind") == "FunctionDecl" and id(node) in top_level:
                found.append((node, state["file"]))

    walk(documents)
    return found


def _return_type(function_type: str, name: str) -> str:
    """"cudnnStatus_t (cudnnHandle_t, int)" -> "cudnnStatus_t"."""
    text = re.sub(r"\s+(noexcept|throw\(\))$", "", function_type.strip())
    if not text.endswith(")"):
        raise GenError(f"{name}: unexpected function type {function_type!r}", EXIT_MISMATCH)
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[i], 0)
        if depth == 0:
            ret = text[:i].strip()
            if "(" in ret:  # a function returning a function pointer; no API has one
                raise GenError(f"{name}: unsupported return type in {function_type!r}",
                               EXIT_MISMATCH)
            return ret
    raise GenError(f"{name}: unbalanced function type {function_type!r}", EXIT_MISMATCH)


def _exported(decl: dict) -> bool:
    """extern "C", not static, not inline: a symbol the shared library exports."""
    mangled = decl.get("mangledName", "")
    c_linkage = bool(mangled) and not mangled.startswith(("_Z", "?"))  # C++ names are mangled
    return (c_linkage and decl.get("storageClass") != "static"
            and not decl.get("inline") and not decl.get("isImplicit"))


def header_functions(toolchain: Toolchain, header: str, prefix: str, file_pattern: str,
                     ) -> dict[str, Function]:
    """Exported functions named prefix* declared in a header whose base name matches."""
    functions: dict[str, Function] = {}
    for decl, path in function_decls_with_files(toolchain.ast_documents(header, prefix)):
        name = decl.get("name", "")
        base = os.path.basename(path)
        if not name.startswith(prefix) or not re.fullmatch(file_pattern, base):
            continue
        if not _exported(decl):
            continue
        if decl.get("variadic"):
            raise GenError(f"{name}: variadic functions cannot be forwarded", EXIT_MISMATCH)
        params = [(p["type"]["qualType"], p.get("name", ""))
                  for p in decl.get("inner", []) if p.get("kind") == "ParmVarDecl"]
        function = make_function(name, _return_type(decl["type"]["qualType"], name),
                                 params, base)
        previous = functions.setdefault(name, function)
        if previous.signature() != function.signature():
            raise GenError(f"{name}: conflicting redeclarations in the headers", EXIT_MISMATCH)
    if not functions:
        raise GenError(f"no {prefix}* functions found through <{header}>", EXIT_ENV)
    return functions


# --------------------------------------------------------------------------------------------
# Merging releases into guarded entries


def build_entries(snapshots: list[Snapshot],
                  encode: Callable[[tuple[int, int, int]], int]) -> list[Entry]:
    """One entry per run of consecutive releases sharing a function's signature.

    A run that starts after the first snapshot gets `>= encode(first release of the run)`,
    one that ends before the last gets `< encode(next release)`.
    """
    codes = [encode(s.version) for s in snapshots]
    names = sorted({name for s in snapshots for name in s.functions})
    entries: list[Entry] = []
    for name in names:
        present = [s.functions.get(name) for s in snapshots]
        start = 0
        while start < len(present):
            if present[start] is None:
                start += 1
                continue
            end = start
            while (end + 1 < len(present) and present[end + 1] is not None
                   and present[end + 1].signature() == present[start].signature()):
                end += 1
            entry = Entry(
                function=present[end],  # parameter names from the newest release of the run
                since=codes[start] if start > 0 else None,
                until=codes[end + 1] if end + 1 < len(present) else None,
            )
            if entry.since is not None and entry.until is not None and entry.since >= entry.until:
                # two releases share a version code (differ only in the patch level)
                raise GenError(f"{name}: empty version range {entry.since}..{entry.until}",
                               EXIT_MISMATCH)
            entries.append(entry)
            start = end + 1
    return entries


def guard_condition(entry: Entry, macro: str) -> str | None:
    parts = []
    if entry.since is not None:
        parts.append(f"{macro} >= {entry.since}")
    if entry.until is not None:
        parts.append(f"{macro} < {entry.until}")
    return " && ".join(parts) or None


def describe_differences(old: Snapshot, new: Snapshot) -> tuple[list[str], list[str]]:
    """Functions added, removed or changed between two releases, and harmless notes."""
    differences, notes = [], []
    for name in sorted(set(new.functions) - set(old.functions)):
        differences.append(f"  only in the {new.label}: {name}")
    for name in sorted(set(old.functions) - set(new.functions)):
        differences.append(f"  only in the {old.label}: {name}")
    for name in sorted(set(old.functions) & set(new.functions)):
        a, b = old.functions[name], new.functions[name]
        if a.signature() != b.signature():
            differences.append(f"  signature differs: {name}: {a.signature()} -> "
                               f"{b.signature()}")
        elif [n for _, n in a.params] != [n for _, n in b.params]:
            notes.append(f"  note: parameter names differ (ABI unaffected): {name}")
    return differences, notes


# --------------------------------------------------------------------------------------------
# Table descriptions


def cudnn_code(version: tuple[int, int, int]) -> int:
    """CUDNN_VERSION of release M.m.0; guards ignore the patch level."""
    major, minor, _ = version
    scale = 1000 if major < 9 else 10000  # cuDNN 9 widened the minor field
    return major * scale + minor * 100


def cudart_code(version: tuple[int, int, int]) -> int:
    """CUDART_VERSION of release M.m."""
    return version[0] * 1000 + version[1] * 10


@dataclass(frozen=True)
class Library:
    key: str  # manifest file prefix
    title: str
    version_macro: str
    encode: Callable[[tuple[int, int, int]], int]
    umbrella_header: str  # what the AST TU includes
    prefix: str  # function name prefix
    file_pattern: str  # declaring header base names to keep


CUDNN = Library("cudnn", "cuDNN", "CUDNN_VERSION", cudnn_code, "cudnn.h", "cudnn",
                r"cudnn\w*\.h")
CUDART = Library("cudart", "CUDA runtime", "CUDART_VERSION", cudart_code,
                 "cuda_runtime_api.h", "cuda", r"cuda_runtime_api\.h")


@dataclass(frozen=True)
class Table:
    library: Library
    major: int
    from_headers: bool

    @property
    def file_name(self) -> str:
        return f"{self.library.key}_{self.major}.inc"


TABLES = (
    Table(CUDNN, 8, from_headers=False),
    Table(CUDNN, 9, from_headers=True),
    Table(CUDART, 11, from_headers=False),
    Table(CUDART, 12, from_headers=False),
    Table(CUDART, 13, from_headers=True),
)


def header_version(toolchain: Toolchain, library: Library) -> tuple[tuple[int, int, int], str]:
    """Version of the headers clang sees, and its release text ("9.19.0", "13.0")."""
    if library is CUDNN:
        macros = toolchain.macros("cudnn_version.h")
        try:
            major, minor, patch = (int(macros[m]) for m in
                                   ("CUDNN_MAJOR", "CUDNN_MINOR", "CUDNN_PATCHLEVEL"))
        except (KeyError, ValueError):
            raise GenError("cudnn_version.h does not define CUDNN_MAJOR/MINOR/PATCHLEVEL",
                           EXIT_ENV) from None
        return (major, minor, patch), f"{major}.{minor}.{patch}"
    code = toolchain.macros("cuda_runtime_api.h").get("CUDART_VERSION", "")
    if not code.isdigit():
        raise GenError("cuda_runtime_api.h does not define CUDART_VERSION", EXIT_ENV)
    major, minor = int(code) // 1000, int(code) % 1000 // 10
    return (major, minor, 0), f"{major}.{minor}"


def join_labels(labels: list[str]) -> str:
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


@dataclass
class BuiltTable:
    table: Table
    snapshots: list[Snapshot]
    entries: list[Entry]
    source_text: str  # for the header comment


def build_from_manifests(table: Table) -> BuiltTable:
    manifests = list_manifests(table.library.key, table.major)
    if not manifests:
        raise GenError(f"no {table.library.key} {table.major}.x manifest in {MANIFEST_DIR}",
                       EXIT_ENV)
    snapshots = [manifest_snapshot(v, p) for v, p in manifests]
    kind = "manifest" if len(snapshots) == 1 else "manifests"
    source = (f"{table.library.title} "
              f"{join_labels([s.release for s in snapshots])} {kind}")
    return BuiltTable(table, snapshots, build_entries(snapshots, table.library.encode), source)


def build_from_headers(table: Table, toolchain: Toolchain) -> BuiltTable:
    library = table.library
    version, release = header_version(toolchain, library)
    if version[0] != table.major:
        raise GenError(f"the headers are {library.title} {release}, "
                       f"expected major version {table.major}", EXIT_ENV)
    headers = Snapshot(version, release, "headers",
                       header_functions(toolchain, library.umbrella_header, library.prefix,
                                        library.file_pattern))
    manifests = list_manifests(library.key, table.major)
    same = [p for v, p in manifests if v == version]
    if not same:
        raise GenError(f"the headers are {library.title} {release} but {MANIFEST_DIR} has "
                       "no manifest for that release to verify them against", EXIT_ENV)
    verify_against_manifest(table, headers, manifest_snapshot(version, same[0]))
    older = [manifest_snapshot(v, p) for v, p in manifests if v < version]
    report_cross_check(table, older, headers)
    checked = [s.release for s in older] or [release]
    source = (f"{library.title} {release} headers (checked against the "
              f"{join_labels(checked)} manifest{'s' if len(checked) > 1 else ''})")
    snapshots = older + [headers]
    return BuiltTable(table, snapshots, build_entries(snapshots, library.encode), source)


def verify_against_manifest(table: Table, headers: Snapshot, manifest: Snapshot) -> None:
    """The headers' own release must be described exactly by its manifest."""
    differences, notes = describe_differences(manifest, headers)
    if differences:
        raise GenError(f"{table.file_name}: the {headers.label} disagree with the "
                       f"{manifest.label}:\n" + "\n".join(differences), EXIT_MISMATCH)
    print(f"{table.file_name}: {headers.label} match the {manifest.label} "
          f"({len(headers.functions)} functions, same names and types)", file=sys.stderr)
    for line in notes:
        print(line, file=sys.stderr)


def report_cross_check(table: Table, older: list[Snapshot], headers: Snapshot) -> None:
    """Summarise on stderr how the headers differ from each older release's manifest."""
    for snapshot in older:
        differences, notes = describe_differences(snapshot, headers)
        common = len(set(snapshot.functions) & set(headers.functions))
        verdict = (f"{len(differences)} difference(s), emitted as version guards"
                   if differences else "no differences, no version guards")
        print(f"{table.file_name}: {headers.label} vs {snapshot.label}: {common} functions "
              f"in common, {verdict}", file=sys.stderr)
        for line in differences + notes:
            print(line, file=sys.stderr)


# --------------------------------------------------------------------------------------------
# Rendering


def strip_version_suffix(name: str) -> str:
    return re.sub(r"_v[23]$", "", name)


def core_signatures() -> set[tuple]:
    """(base name, return type, parameter types) of every function in the core baseline."""
    path = MANIFEST_DIR / f"cudart-{CORE_BASELINE}.jsonl"
    if not path.is_file():
        raise GenError(f"missing {path}", EXIT_ENV)
    return {(strip_version_suffix(f.name), f.ret, tuple(t for t, _ in f.params))
            for f in load_manifest(path).values()}


def tier(function: Function, baseline: set[tuple]) -> str:
    key = (strip_version_suffix(function.name), function.ret, tuple(t for t, _ in function.params))
    return "core" if function.name.startswith(CORE_PREFIXES) and key in baseline else "full"


def sub_library(header: str) -> str:
    """cudnn_ops_infer.h -> ops_infer (a trailing _v9 of versioned copies is dropped)."""
    match = re.fullmatch(r"cudnn_(\w+?)(?:_v\d+)?\.h", header)
    if not match:
        raise GenError(f"cannot derive a cuDNN sub-library from header {header!r}",
                       EXIT_MISMATCH)
    return match.group(1)


def render_line(built: BuiltTable, function: Function, baseline: set[tuple]) -> str:
    params, args = render_params(function)
    group = sub_library(function.header) if built.table.library is CUDNN else tier(function, baseline)
    return (f"CUSHIM_API({built.table.library.key}, {group}, {function.ret}, {function.name}, "
            f"{params}, {args})")


def render_table(built: BuiltTable, baseline: set[tuple]) -> str:
    library = built.table.library
    count = len({e.function.name for e in built.entries})
    lines = [f"// GENERATED by tools/gen_api.py from {built.source_text}. Do not edit."]
    if library is CUDNN:
        lines.append(f"// {count} functions. CUSHIM_API(library, sub-library, return type, name, "
                     "(parameters), (arguments))")
    else:
        lines.append(f"// {count} functions. CUSHIM_API(library, tier, return type, name, "
                     "(parameters), (arguments))")
        lines.append(f"// core: name starts with one of {', '.join(CORE_PREFIXES)}; and the same "
                     f"function (trailing _v2/_v3 stripped) is in the cudart "
                     f"{CORE_BASELINE} manifest with the same return and "
                     "parameter types; everything else is full.")
    for entry in built.entries:
        condition = guard_condition(entry, library.version_macro)
        if condition:
            lines.append(f"#if {condition}")
        lines.append(render_line(built, entry.function, baseline))
        if condition:
            lines.append("#endif")
    return "\n".join(lines) + "\n"


def render_versions(built_tables: list[BuiltTable]) -> str:
    lines = [
        "// GENERATED by tools/gen_api.py. Do not edit.",
        "// Oldest header version each table is valid for (CUDNN_VERSION / CUDART_VERSION "
        "encoding).",
        "#pragma once",
    ]
    for built in built_tables:
        oldest = built.snapshots[0].version
        code = built.table.library.encode((oldest[0], oldest[1], 0))
        macro = f"CUSHIM_TABLE_{built.table.library.key.upper()}_{built.table.major}_MIN"
        lines.append(f"#define {macro} {code}")
    return "\n".join(lines) + "\n"


def generate(toolchain: Toolchain) -> dict[str, str]:
    """File name -> content of every generated file."""
    baseline = core_signatures()
    built_tables = [build_from_headers(t, toolchain) if t.from_headers
                    else build_from_manifests(t) for t in TABLES]
    files = {b.table.file_name: render_table(b, baseline) for b in built_tables}
    files["table_versions.hpp"] = render_versions(built_tables)
    return files


# --------------------------------------------------------------------------------------------
# Command line


def write_files(files: dict[str, str], out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, content in sorted(files.items()):
        path = out_dir / name
        data = content.encode("utf-8")
        if not path.exists() or path.read_bytes() != data:  # keep mtimes of unchanged files
            path.write_bytes(data)


def check_files(files: dict[str, str], out_dir: Path) -> int:
    with tempfile.TemporaryDirectory(prefix="gen_api.") as tmp:
        write_files(files, Path(tmp))
        stale = 0
        for name in sorted(files):
            fresh = (Path(tmp) / name).read_bytes()
            committed_path = out_dir / name
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
    for header in ("cudnn.h", "cuda_runtime_api.h"):
        if not any((d / header).is_file() for d in header_dirs):
            raise GenError(f"{header} not found in {', '.join(map(str, header_dirs))}; "
                           "pass --headers DIR", EXIT_ENV)
    return Toolchain(resolved, tuple(header_dirs))


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--headers", action="append", type=Path, metavar="DIR",
                        help="include directory with cudnn.h and cuda_runtime_api.h "
                             "(repeatable; default: $CUDNN_INCLUDE_DIR, "
                             "$CUDAToolkit_ROOT/include, /usr/local/cuda/include)")
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
