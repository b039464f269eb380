"""Synthetic header sets of releases no real headers here describe, for the api_tables tests.

Built from copies of the real headers: version macros set to another release, declarations
removed (masked comments are not searched) or added from manifest rows, a header the release
brings written from its rows.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MANIFESTS = REPO / "tools" / "manifests"
# The types a release's new header defines, which its functions use and no manifest lists
# (the enumerators are a fixture's: cuDNN's documentation names identity and silu).
NEW_HEADER_TYPES = {
    "cudnn_subquadratic_ops.h": "typedef enum { CUDNN_CAUSAL_CONV1D_ACTIVATION_IDENTITY = 0, "
                                "CUDNN_CAUSAL_CONV1D_ACTIVATION_SILU = 1 } "
                                "cudnnCausalConv1dActivation_t;\n",
}


def manifest(name: str) -> dict[str, dict]:
    rows = [json.loads(line) for line in (MANIFESTS / f"{name}.jsonl").read_text().splitlines()]
    return {row["name"]: row for row in rows}


def alternate(names) -> list[str]:
    """Every other name, sorted: a release that has some of a range's additions, not all."""
    return sorted(names)[::2]


def declaration(row: dict, linkage: str) -> str:
    """The row as a prototype; a parameter of a function pointer or array type stays unnamed."""
    params = ", ".join(t if not name or re.search(r"[(\[]", t) else f"{t} {name}"
                       for t, name in row["params"]) or "void"
    return f"{linkage} {row['ret']} {row['name']}({params});"


def masked(text: str) -> str:
    """The text with comments blanked (same offsets), so that only code is searched."""
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: re.sub(r"[^\n]", " ", m.group()), text,
                  flags=re.S)


def without_declaration(text: str, name: str) -> str:
    """The text less the declaration of `name` (a prototype ending in `;`), if it has one."""
    code = masked(text)
    for match in re.finditer(rf"\b{name}\s*\(", code):
        depth, end = 0, match.end() - 1
        for end in range(match.end() - 1, len(code)):
            depth += {"(": 1, ")": -1}.get(code[end], 0)
            if depth == 0:
                break
        rest = re.match(r"\s*;", code[end + 1:])
        if not rest:
            continue  # a definition (an inline redirect) or a use
        before = [m.end() for m in re.finditer(r"[;{}]|^[ \t]*#[^\n]*$", code[:match.start()],
                                               flags=re.M)]
        start = before[-1] if before else 0
        return text[:start] + "\n" + text[end + 1 + rest.end():]
    return text


@dataclass
class Headers:
    """One synthetic release: files written over copies of the real headers."""
    directory: Path
    files: dict[str, str] = field(default_factory=dict)

    def read(self, source: Path, name: str) -> str:
        if name not in self.files:
            self.files[name] = (source / name).read_text()
        return self.files[name]

    def write(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)
        self.directory.mkdir(parents=True)
        for name, text in self.files.items():
            (self.directory / name).write_text(text)


def cudnn_release(headers: Headers, source: Path, version: tuple[int, int, int],
                  remove: list[str], add: list[dict], change: dict[str, str]) -> None:
    """The real cuDNN headers as `version`, less `remove`, plus `add` in their headers."""
    for path in sorted(source.glob("cudnn*.h")):
        text = headers.read(source, path.name)
        for part, value in zip(("MAJOR", "MINOR", "PATCHLEVEL"), version):
            text = re.sub(rf"(#define CUDNN_\w*{part} )\d+", rf"\g<1>{value}", text)
        for name in remove + list(change):
            text = without_declaration(text, name)
        headers.files[path.name] = text
    for name, replacement in change.items():  # bad input: a prototype no manifest gives
        headers.files["cudnn.h"] += f'extern "C" {replacement}\n'
    by_header: dict[str, list[str]] = {}
    for row in add:
        by_header.setdefault(row["header"], []).append(declaration(row, 'extern "C"'))
    for header, lines in by_header.items():
        if header in headers.files:
            headers.files[header] += "\n".join(lines) + "\n"
        else:  # a header the release brings (cudnn_subquadratic_ops.h), included by cudnn.h
            headers.files[header] = ('#pragma once\n#include "cudnn_graph.h"\n' +
                                     NEW_HEADER_TYPES.get(header, "") + "\n".join(lines) + "\n")
            headers.files["cudnn.h"] += f'#include "{header}"\n'
