#!/usr/bin/env python3
"""Regenerating from headers of a release no manifest describes, as docs/supported-headers.md, "Regenerating the
tables" says: they join their major's manifests as one more release.

Copies the cuDNN headers, makes them one minor newer than the newest manifest of their major
(with what that manifest adds to theirs declared, and one function more), regenerates into a
temporary folder and checks that the new function is shimmed from that release on, that
CUSHIM_TABLE_CUDNN_<major>_NEWEST names it, and that every other table is the committed one.

Usage: check_regenerate.py --cudnn-include DIR --cuda-include DIR     exit 0 ok, 1 not
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from synthetic_headers import MANIFESTS, Headers, cudnn_release, manifest

REPO = Path(__file__).resolve().parents[2]
COMMITTED = REPO / "include" / "cushim" / "api"
PROBE = "cudnnCushimRegenerationProbe"
ANCHOR = "cudnnGetVersion(void);"


def newer_headers(source: Path, target: Path) -> tuple[int, int]:
    """The cuDNN headers one minor newer than the newest manifest of their major, with its
    functions and PROBE declared after ANCHOR; (major, new minor)."""
    version_h = (source / "cudnn_version.h").read_text()
    major, minor, patch = (int(re.search(rf"#define CUDNN_{part} (\d+)", version_h).group(1))
                           for part in ("MAJOR", "MINOR", "PATCHLEVEL"))
    newest = max(tuple(map(int, path.stem.split("-")[1].split(".")))
                 for path in MANIFESTS.glob(f"cudnn-{major}.*.jsonl"))
    theirs = manifest(f"cudnn-{major}.{minor}.{patch}")
    added = manifest("cudnn-" + ".".join(map(str, newest)))
    headers = Headers(target)
    cudnn_release(headers, source, (major, newest[1] + 1, 0), [],
                  [row for name, row in sorted(added.items()) if name not in theirs], {})
    declared = False
    for name, text in headers.files.items():  # cudnn_graph.h and its copy cudnn_graph_v9.h alike
        declared |= ANCHOR in text
        probe = f"{ANCHOR}\nsize_t CUDNNWINAPI {PROBE}(int probe);"
        headers.files[name] = text.replace(ANCHOR, probe, 1)
    if not declared:
        raise SystemExit(f"no header in {source} declares {ANCHOR}")
    headers.write()
    return major, newest[1] + 1


def code_of(major: int, minor: int) -> int:
    libraries = json.loads((REPO / "tools" / "libraries.json").read_text())["libraries"]
    cudnn = next(library for library in libraries if library["key"] == "cudnn")
    a, b = cudnn["majors"][str(major)].get("encoding", cudnn["encoding"])
    return major * a + minor * b


def problems_in(out: Path, major: int, code: int) -> list[str]:
    problems = []
    table = (out / f"cudnn_{major}.inc").read_text()
    probe = re.search(rf"#if CUDNN_VERSION >= (\d+)\nCUSHIM_API\(cudnn, \w+, size_t, "
                      rf"{PROBE}, \(int probe\), \(probe\)\)\n#endif\n", table)
    if not probe or int(probe.group(1)) != code:
        problems.append(f"cudnn_{major}.inc: {PROBE} is not guarded by CUDNN_VERSION >= {code}")
    committed = (COMMITTED / f"cudnn_{major}.inc").read_text().splitlines()
    lost = [line for line in committed if not line.startswith("//") and line not in table]
    problems += [f"cudnn_{major}.inc lost: {line}" for line in lost[:5]]
    newest = f"#define CUSHIM_TABLE_CUDNN_{major}_NEWEST {code}\n"
    if newest not in (out / "table_versions.hpp").read_text():
        problems.append(f"table_versions.hpp: CUSHIM_TABLE_CUDNN_{major}_NEWEST is not {code}")
    for path in sorted(out.glob("*.inc")):
        same = path.read_bytes() == (COMMITTED / path.name).read_bytes()
        if path.name != f"cudnn_{major}.inc" and not same:
            problems.append(f"{path.name} differs from the committed table")
    return problems


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--cudnn-include", type=Path, required=True)
    parser.add_argument("--cuda-include", type=Path, required=True)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="check_regenerate.") as tmp:
        headers, out = Path(tmp) / "include", Path(tmp) / "api"
        major, minor = newer_headers(args.cudnn_include, headers)
        subprocess.run([sys.executable, str(REPO / "tools" / "gen_api.py"), "--out", str(out),
                        "--headers", str(headers), "--headers", str(args.cuda_include)], check=True)
        problems = problems_in(out, major, code_of(major, minor))
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s) after regenerating from cuDNN {major}.{minor} headers")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
