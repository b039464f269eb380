"""Per-library settings, read from tools/libraries.json: the generator has no per-library code.

A library's fields for its tables (strings unless said otherwise; the fields of its descriptor,
tests and documentation: tools/apigen/record.py):
  key              the cushim::library enumerator, the .inc lines' first column (cudnn, driver)
  title            for people: "cuDNN", "CUDA driver API"
  table_name       file and macro stem of its tables (default: key): cuda_driver_13.inc,
                   CUSHIM_TABLE_CUDA_DRIVER_13_MIN
  manifest_prefix  its manifests are tools/manifests/<prefix>-<release>.jsonl (default: key)
  opt_in           the macro a program defines to have it shimmed; absent: always shimmed.
                   Only an opt-in library's headers may be missing when the tables are generated.
  version_macro    the macro the guards test (CUDNN_VERSION, CUDART_VERSION, CUDA_VERSION)
  version_header   the header that defines it
  encoding         [a, b]: release M.m is M*a + m*b in version_macro (the patch level is ignored)
  release_format   how the vendor writes a release: "{major}.{minor}.{patch}", "{major}.{minor}"
  umbrella_header  what the clang translation unit includes
  prefix           the functions' name prefix
  declared_in      regular expression: base names of the headers whose functions count
  more_parses      further clang runs whose functions join the umbrella's (optional), each
                   {"about": why, "source": [lines of the translation unit] (default: the
                   umbrella's #include), "defines": [macros set with -D], "prefix" and
                   "declared_in" (default: the library's), "exclude": regular expression of
                   names left out}. A name found by two runs must be declared alike in both.
  undeclared       functions the library exports that no header declares (optional): manifest
                   rows ({"name", "ret", "params", "header"}) with an "about" saying where the
                   prototype comes from; they join the headers' functions as if declared.
  group            the .inc lines' second column, {"column": its name, "rule": how it is derived}:
                   "header": group 1 of "pattern" matched on the declaring header's name;
                   "tier": "core" when the name starts with one of "core_prefixes" and the
                   "baseline" release's manifest has the same prototype (a trailing _v2/_v3
                   stripped from both names), else "full";
                   "constant": "value" for every function
  detection        how the implementation file asks the headers whether they declare a function
                   where no manifest describes the release (tools/apigen/merge.py; optional):
                   {"about": why, "visible_in": regular expression of the headers' base names
                   whose declarations the implementation file sees (default: declared_in);
                   "through": [{"pattern": regular expression with one group, "about": why}]:
                   a function whose name matches is asked as the function group 1 names (a
                   per-thread variant as the function it is a variant of); "manifest_rule":
                   {"names": regular expression, "about": why, "when": a preprocessor condition
                   (optional)}: functions that cannot be asked (overloaded in C++ by the
                   headers) and follow the manifest rule; with "when", only where it holds
                   (an optional header that overloads them was included), else they are asked;
                   "overloads_from": [lines of a translation unit] (default: the umbrella's
                   #include): each name it declares both as a C function and as C++ overloads
                   must be in manifest_rule}
  include_dirs     folders (relative to tools/) searched before the headers for every clang run
                   (optional): stand-ins for headers the NVIDIA ones include and a machine may
                   lack (tools/graphics_headers: OpenGL's, EGL's, VDPAU's types)
  extends          the key of the library this entry is one more table of (optional): the
                   functions of an optional header (cuda_profiler_api.h, cublasXt.h, ...) that
                   the same library exports, shimmed only where "shimmed_when" holds; it has
                   no descriptor, files or fallback of its own, and without "select" its one
                   major's table serves every release (covers_from, its guards)
  test_instead_of  for an extending entry: {"header", "when"}: cushim's test builds include its
                   umbrella instead of "header" where the macro "when" is defined (cublas.h for
                   cublas_v2.h); they include the other extending entries' umbrellas where
                   CUSHIM_TEST_OPTIONAL_HEADERS is defined (tests/support/opt_in_headers.hpp)
  descriptor       {"file": its generated descriptor's file in detail/libraries/ (default
                   <key>.hpp), "name": the descriptor (default <key>_descriptor)}
  headers          what a program includes before cushim when it opts in (default: the umbrella)
  companions       the library's other headers, which come with the main one: the implementation
                   file includes them itself where the library is shimmed and the program
                   included its main header (select's "needs" macros defined), before cushim's
                   own code (api/companion_headers.inc)
  companion        for an extending entry: {"unless": a preprocessor condition (optional)}: the
                   implementation file includes its umbrella itself, as its library's
                   companions, where the headers in use have it (__has_include) and "unless"
                   does not hold; without it the entry's header is the program's to include
  shimmed_when     preprocessor condition under which its table is included (default: its
                   opt_in macro defined, else always)
  posix_only       true: Linux only; its opt_in macro on Windows stops the build
  select           how api_tables.hpp picks its table: {"major": a preprocessor expression giving
                   the headers' major, "needs": {"macro", "error"}: the macros (separated by
                   spaces) its headers define (one absent: "error"), "same_major_as": {"table", "error"}, "unsupported": the
                   #error for another major, "too_old": {"error", "unless" (optional)}: the #error
                   for headers older than the table's oldest release, "newer_majors": true: a
                   major above the newest uses the newest table, "about": why}
  release_suffix   names the release in the exported names ("_{major}_{minor}":
                   __nvJitLinkCreate_13_0): the tables hold the base name, and api_tables.hpp
                   appends the headers' release (CUSHIM_<TABLE>_NAME(base))
  majors           {"M": {"encoding": [a, b] (default: the library's),
                          "covers_from": the oldest release the table is used for (default:
                          the oldest manifest of that major); older than the oldest manifest,
                          a function is declared when the headers declare it}}
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .manifests import manifest_of
from .model import EXIT_ENV, EXIT_MISMATCH, Function, GenError, Version, make_function, \
    parse_version
from .record import Encoding, Record, load_encodings, make_record

TOOLS_DIR = Path(__file__).resolve().parent.parent
LIBRARIES_FILE = TOOLS_DIR / "libraries.json"


@dataclass(frozen=True)
class HeaderGroup:
    """cuDNN's sub-library, named by the header that declares the function."""
    column: str
    pattern: str

    def of(self, function: Function) -> str:
        match = re.fullmatch(self.pattern, function.header)
        if not match:
            raise GenError(f"{function.name}: cannot derive the {self.column} from header "
                           f"{function.header!r} with {self.pattern!r}", EXIT_MISMATCH)
        return match.group(1)

    def comment(self) -> list[str]:
        return []


def _strip_version_suffix(name: str) -> str:
    return re.sub(r"_v[23]$", "", name)


class TierGroup:
    """"core" for the functions that CUSHIM_CUDART_CORE keeps, else "full"."""

    def __init__(self, column: str, manifest_prefix: str, baseline: str,
                 core_prefixes: list[str]):
        self.column = column
        self.manifest_prefix = manifest_prefix
        self.baseline = baseline
        self.core_prefixes = tuple(core_prefixes)
        self.baseline_prototypes = {self._key(f)
                                    for f in manifest_of(manifest_prefix, baseline).values()}

    @staticmethod
    def _key(function: Function) -> tuple:
        return (_strip_version_suffix(function.name), function.ret,
                tuple(t for t, _ in function.params))

    def of(self, function: Function) -> str:
        core = (function.name.startswith(self.core_prefixes)
                and self._key(function) in self.baseline_prototypes)
        return "core" if core else "full"

    def comment(self) -> list[str]:
        return [f"// core: name starts with one of {', '.join(self.core_prefixes)}; and the "
                f"same function (trailing _v2/_v3 stripped) is in the {self.manifest_prefix} "
                f"{self.baseline} manifest "
                "with the same return and parameter types; everything else is full."]


@dataclass(frozen=True)
class ConstantGroup:
    column: str
    value: str

    def of(self, function: Function) -> str:
        return self.value

    def comment(self) -> list[str]:
        return []


@dataclass(frozen=True)
class Detection:
    """Which functions the implementation file can ask the headers about, and by which name."""
    visible_in: str  # regular expression on the declaring header's base name
    through: tuple[str, ...]  # regular expressions: a match is asked as its group 1
    manifest_rule: str | None  # regular expression of names that cannot be asked
    manifest_rule_when: str | None  # ... only where this preprocessor condition holds
    overloads_from: tuple[str, ...]  # translation units whose C++ overloads are checked

    def declared_name(self, function: Function) -> str | None:
        """The function whose declaration decides whether `function` is shimmed, or None."""
        if not re.fullmatch(self.visible_in, function.header):
            return None
        if self.unless(function) is None and self.follows_manifest_rule(function):
            return None
        for pattern in self.through:
            match = re.fullmatch(pattern, function.name)
            if match:
                return match.group(1)
        return function.name

    def follows_manifest_rule(self, function: Function) -> bool:
        return bool(self.manifest_rule and re.fullmatch(self.manifest_rule, function.name))

    def unless(self, function: Function) -> str | None:
        """Where a declared line must not apply: the manifest rule's condition for this name."""
        return self.manifest_rule_when if self.follows_manifest_rule(function) else None


@dataclass(frozen=True)
class Parse:
    """One clang run over the headers and the functions it keeps."""
    source: str  # the translation unit
    defines: tuple[str, ...]  # -D flags
    prefix: str
    declared_in: str  # regular expression on the declaring header's base name
    exclude: str | None  # regular expression of names to leave out


@dataclass(frozen=True)
class Major:
    number: int
    encoding: tuple[int, int]
    covers_from: Version | None

    def code(self, version: Version) -> int:
        """The version macro's value for release M.m (any patch level)."""
        return version[0] * self.encoding[0] + version[1] * self.encoding[1]


@dataclass(frozen=True)
class Library:
    key: str
    title: str
    table_name: str
    manifest_prefix: str
    opt_in: str | None
    version_macro: str
    version_header: str
    encoding: tuple[int, int]
    release_format: str
    umbrella_header: str
    prefix: str
    declared_in: str
    group: HeaderGroup | TierGroup | ConstantGroup
    majors: dict[int, Major]
    parses: tuple[Parse, ...]  # the umbrella's, then more_parses
    undeclared: tuple[Function, ...]
    detection: Detection
    include_dirs: tuple[Path, ...]  # searched before the headers in every clang run
    settings: dict  # the entry as written: what selection.py reads (select, headers, ...)
    record: Record | None  # the library's own facts; None for an entry that extends another

    def release(self, version: Version) -> str:
        major, minor, patch = version
        return self.release_format.format(major=major, minor=minor, patch=patch)

    def decode(self, code: int) -> Version:
        """The release a value of the version macro names (a major's own encoding first)."""
        for major in self.majors.values():
            a, b = major.encoding
            if code // a == major.number:
                return (major.number, code % a // b, code % b)
        a, b = self.encoding
        return (code // a, code % a // b, code % b)

    def table_file(self, major: int) -> str:
        return f"{self.table_name}_{major}.inc"


def _group_rule(settings: dict, manifest_prefix: str):
    rule = settings["rule"]
    if rule == "header":
        return HeaderGroup(settings["column"], settings["pattern"])
    if rule == "tier":
        return TierGroup(settings["column"], manifest_prefix, settings["baseline"],
                         settings["core_prefixes"])
    if rule == "constant":
        return ConstantGroup(settings["column"], settings["value"])
    raise GenError(f"{LIBRARIES_FILE.name}: unknown group rule {rule!r}", EXIT_ENV)


def _major(number: str, settings: dict, default_encoding: list[int]) -> Major:
    covers_from = settings.get("covers_from")
    return Major(int(number), tuple(settings.get("encoding", default_encoding)),
                 parse_version(covers_from) if covers_from else None)


def _parses(settings: dict) -> tuple[Parse, ...]:
    umbrella = {"source": [f"#include <{settings['umbrella_header']}>"]}
    return tuple(
        Parse(source="\n".join(spec.get("source", umbrella["source"])) + "\n",
              defines=tuple(spec.get("defines", ())),
              prefix=spec.get("prefix", settings["prefix"]),
              declared_in=spec.get("declared_in", settings["declared_in"]),
              exclude=spec.get("exclude"))
        for spec in [umbrella] + settings.get("more_parses", []))


def _detection(settings: dict) -> Detection:
    detection = settings.get("detection", {})
    return Detection(
        visible_in=detection.get("visible_in", settings["declared_in"]),
        through=tuple(rule["pattern"] for rule in detection.get("through", [])),
        manifest_rule=detection.get("manifest_rule", {}).get("names"),
        manifest_rule_when=detection.get("manifest_rule", {}).get("when"),
        overloads_from=tuple("\n".join(lines) + "\n" for lines in detection.get(
            "overloads_from", [[f"#include <{settings['umbrella_header']}>"]])),
    )


def _library(settings: dict, encodings: dict[str, Encoding]) -> Library:
    key = settings["key"]
    prefix = settings.get("manifest_prefix", key)
    table_name = settings.get("table_name", key)
    return Library(
        key=key, title=settings["title"], table_name=table_name,
        manifest_prefix=prefix, opt_in=settings.get("opt_in"),
        version_macro=settings["version_macro"], version_header=settings["version_header"],
        encoding=tuple(settings["encoding"]), release_format=settings["release_format"],
        umbrella_header=settings["umbrella_header"], prefix=settings["prefix"],
        declared_in=settings["declared_in"], group=_group_rule(settings["group"], prefix),
        majors={int(n): _major(n, m, settings["encoding"])
                for n, m in settings["majors"].items()},
        parses=_parses(settings),
        undeclared=tuple(make_function(row["name"], row["ret"], row["params"], row["header"])
                         for row in settings.get("undeclared", [])),
        detection=_detection(settings),
        include_dirs=tuple(TOOLS_DIR / d for d in settings.get("include_dirs", [])),
        settings=settings,
        record=None if "extends" in settings else make_record(settings, encodings, table_name.upper()),
    )


def load_libraries(path: Path = LIBRARIES_FILE) -> list[Library]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        encodings = load_encodings(data)
        return [_library(entry, encodings) for entry in data["libraries"]]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise GenError(f"{path}: {error!r}", EXIT_ENV) from None
