#!/usr/bin/env python3
"""The generated tables' #if guards are exact: preprocess each table per release and compare.

For every library and major in tools/libraries.json, the table preprocessed with
  - a manifest's release in the library's version macro: exactly that manifest's functions,
    each with its prototype, as CUSHIM_API lines;
  - a release between two manifests: CUSHIM_API lines for the functions both have with the same
    prototype, and a CUSHIM_API_DECLARED line (the headers decide) for every other function of
    either that the implementation file can ask the headers about ("detection" in
    libraries.json), with the newer one's prototype where it has the function;
  - a release newer than the newest manifest: the newest manifest's functions;
  - a release older than the oldest manifest that the major still covers ("covers_from"): the
    oldest manifest's functions, declared lines for those that can be asked.
A declared line names the function whose declaration decides (the function, or for a per-thread
variant its base) and its number of parameters. Prototypes are compared as C++ sees them (`enum
X` is `X`). Independent of tools/apigen: it reads the data, the manifests and the .inc files, and
runs the C preprocessor.

Usage: check_guards.py --cxx COMPILER        exit 0 all exact, 1 a difference (listed)
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOKEN = re.compile(r"[A-Za-z_]\w*|\d+|\.\.\.|\S")
ELABORATED = ("enum", "struct", "union")


def type_tokens(text: str) -> tuple[str, ...]:
    """A type as tokens, without elaborated-type keywords."""
    tokens = TOKEN.findall(text)
    return tuple(t for i, t in enumerate(tokens)
                 if not (t in ELABORATED and i + 1 < len(tokens) and tokens[i + 1][0].isalpha()))


def split_top_level(text: str) -> list[str]:
    """"a, void (*f)(int, int), b" -> the three declarations."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def without_name(declaration: str, name: str) -> tuple[str, ...]:
    """The declaration's type: its tokens less the last one that is the parameter's name."""
    tokens = list(type_tokens(declaration))
    where = len(tokens) - 1 - tokens[::-1].index(name)
    return tuple(tokens[:where] + tokens[where + 1:])


def prototype_of_line(ret: str, params: str, args: str) -> tuple:
    declarations = split_top_level(params.strip()[1:-1])
    names = split_top_level(args.strip()[1:-1])
    if declarations == ["void"] and not names:
        declarations = []
    if len(declarations) != len(names):
        raise ValueError(f"{params} does not match {args}")
    return (type_tokens(ret), tuple(without_name(d, n) for d, n in zip(declarations, names)))


def load_manifest(path: Path) -> dict[str, dict]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {row["name"]: {"prototype": (type_tokens(row["ret"]),
                                        tuple(type_tokens(t) for t, _ in row["params"])),
                          "header": row["header"], "arity": len(row["params"])} for row in rows}


class Detection:
    """Which functions a table asks the headers about (libraries.json "detection")."""

    def __init__(self, library: dict):
        settings = library.get("detection", {})
        self.visible_in = settings.get("visible_in", library["declared_in"])
        self.through = [rule["pattern"] for rule in settings.get("through", [])]
        self.manifest_rule = settings.get("manifest_rule", {}).get("names")
        # With "when", the manifest rule holds only where that condition does; the table is
        # preprocessed without it, where such a function is asked like any other.
        self.always_manifest_rule = not settings.get("manifest_rule", {}).get("when")

    def declared_name(self, name: str, function: dict) -> str | None:
        if not re.fullmatch(self.visible_in, function["header"]):
            return None
        if (self.always_manifest_rule and self.manifest_rule
                and re.fullmatch(self.manifest_rule, name)):
            return None
        for pattern in self.through:
            match = re.fullmatch(pattern, name)
            if match:
                return match.group(1)
        return name


def preprocess(cxx: str, table: Path, macro: str, code: int,
               defines: tuple[str, ...] = ()) -> list[list[str]]:
    """[kind, library, group, ret, name, params, args, declared, arity] of each line."""
    source = ("#define CUSHIM_API(library, group, ret, name, params, args) "
              "@@ certain|library|group|ret|name|params|args||\n"
              "#define CUSHIM_API_DECLARED(library, group, ret, name, params, args, through, "
              "count) "
              "@@ declared|library|group|ret|name|params|args|through|count\n"
              f'#include "{table}"\n')
    proc = subprocess.run([cxx, "-E", "-P", "-x", "c++", f"-D{macro}={code}",
                           *(f"-D{d}" for d in defines), "-"],
                          input=source, capture_output=True, text=True, check=True)
    return [[part.strip() for part in line[2:].split("|")] for line in proc.stdout.splitlines()
            if line.startswith("@@")]


class Major:
    def __init__(self, library: dict, number: int, settings: dict):
        self.library = library
        self.number = number
        self.encoding = settings.get("encoding", library["encoding"])
        prefix = library.get("manifest_prefix", library["key"])
        self.manifests = sorted(
            (tuple(int(p) for p in path.stem.rsplit("-", 1)[1].split(".")), path)
            for path in (REPO / "tools" / "manifests").glob(f"{prefix}-{number}.*.jsonl"))
        covers = settings.get("covers_from")
        self.covers_from = tuple(int(p) for p in covers.split(".")) if covers else None
        name = library.get("table_name", library["key"])
        self.table = REPO / "include" / "cushim" / "api" / f"{name}_{number}.inc"

    def code(self, minor: int, patch: int = 0) -> int:
        return self.number * self.encoding[0] + minor * self.encoding[1] + patch

    def probes(self) -> list[tuple[str, int, dict[str, dict], dict[str, dict]]]:
        """(what, version macro value, expected certain and declared functions) per release."""
        detection = Detection(self.library)
        loaded = [(v, load_manifest(p)) for v, p in self.manifests]
        probes = [(f"manifest {'.'.join(map(str, v))}", self.code(v[1], v[2] if len(v) > 2 else 0),
                   functions, {}) for v, functions in loaded]
        for (old_v, old), (new_v, new) in zip(loaded, loaded[1:]):
            both = {n: f for n, f in new.items() if n in old and old[n] == f}
            either = {**old, **new}
            asked = {n: dict(f, declared=detection.declared_name(n, f)) for n, f in either.items()
                     if n not in both and detection.declared_name(n, f)}
            probes += [(f"between {old_v} and {new_v}", self.code(minor), both, asked)
                       for minor in range(old_v[1] + 1, new_v[1])]
        newest_v, newest = loaded[-1]
        probes += [(f"newer than {newest_v}", self.code(newest_v[1] + step), newest, {})
                   for step in (1, 5)]
        oldest_v, oldest = loaded[0]
        if self.covers_from:
            certain = {n: f for n, f in oldest.items() if not detection.declared_name(n, f)}
            asked = {n: dict(f, declared=detection.declared_name(n, f)) for n, f in oldest.items()
                     if n not in certain}
            probes += [(f"older than {oldest_v}", self.code(minor), certain, asked)
                       for minor in range(self.covers_from[1], oldest_v[1])]
        return probes


def group_problem(library: dict, group: str, function: dict) -> str | None:
    rule = library["group"]
    if rule["rule"] == "constant":
        expected = rule["value"]
    elif rule["rule"] == "header":
        expected = re.fullmatch(rule["pattern"], function["header"]).group(1)
    else:
        return None if group in ("core", "full") else f"tier {group!r}"
    return None if group == expected else f"group {group!r}, expected {expected!r}"


def compare(major: Major, lines: list[list[str]], certain: dict[str, dict],
            declared: dict[str, dict]) -> list[str]:
    library = major.library
    problems, seen = [], {}
    for kind, key, group, ret, name, params, args, declared_name, arity in lines:
        if key != library["key"]:
            problems.append(f"{name}: library column {key!r}")
        if name in seen:
            problems.append(f"{name}: more than one line")
        seen[name] = kind
        expected = (certain if kind == "certain" else declared).get(name)
        if expected is None:
            problems.append(f"{name}: a {kind} line in the table, not expected")
            continue
        if prototype_of_line(ret, params, args) != expected["prototype"]:
            problems.append(f"{name}: prototype {ret} {params}, expected {expected['prototype']}")
        if kind == "declared" and (declared_name, arity) != (expected["declared"],
                                                            str(expected["arity"])):
            problems.append(f"{name}: declared through {declared_name} with {arity} parameters, "
                            f"expected {expected['declared']} with {expected['arity']}")
        problem = group_problem(library, group, expected)
        if problem:
            problems.append(f"{name}: {problem}")
    for kind, expected in (("certain", certain), ("declared", declared)):
        problems += [f"{name}: expected as a {kind} line, not in the table"
                     for name in sorted(set(expected) - set(seen))]
    return problems


def release_names(library: dict, major: Major, code: int, certain: dict, declared: dict):
    """For a library whose exports carry the headers' release ("release_suffix": nvJitLink's
    __nvJitLinkCreate_13_0): the -D that completes the table's names for the release of `code`,
    and the expected functions named for that release (a newer one's names carry its own)."""
    suffix = library.get("release_suffix")
    if not suffix:
        return (), certain, declared
    minor = (code - major.number * major.encoding[0]) // major.encoding[1]
    ending = suffix.format(major=major.number, minor=minor)
    stem = library.get("table_name", library["key"]).upper()
    any_release = re.compile(re.escape(suffix).replace(r"\{major\}", r"\d+")
                             .replace(r"\{minor\}", r"\d+") + "$")
    rename = lambda functions: {any_release.sub(ending, n) if any_release.search(n) else n: f
                                for n, f in functions.items()}
    return (f"CUSHIM_{stem}_NAME(base)=base##{ending}",), rename(certain), rename(declared)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--cxx", required=True, help="C++ compiler to preprocess with")
    args = parser.parse_args(argv)
    data = json.loads((REPO / "tools" / "libraries.json").read_text(encoding="utf-8"))
    failures = checked = 0
    for library in data["libraries"]:
        for number, settings in library["majors"].items():
            major = Major(library, int(number), settings)
            for what, code, certain, declared in major.probes():
                defines, certain, declared = release_names(library, major, code, certain, declared)
                lines = preprocess(args.cxx, major.table, library["version_macro"], code, defines)
                problems = compare(major, lines, certain, declared)
                checked += 1
                if problems:
                    failures += 1
                    print(f"FAIL {major.table.name} at {library['version_macro']}={code} "
                          f"({what}):", *problems[:20], sep="\n  ")
    print(f"{checked - failures} of {checked} releases exact")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
