"""The manifests in tools/manifests: one JSON object per function, one file per release."""

from __future__ import annotations

import json
from pathlib import Path

from .model import EXIT_ENV, EXIT_MISMATCH, Function, GenError, Snapshot, Version, \
    make_function, parse_version

MANIFEST_DIR = Path(__file__).resolve().parent.parent / "manifests"


def release_of(manifest: Path) -> str:
    return manifest.stem.rsplit("-", 1)[1]  # cuda-driver-12.6.jsonl -> 12.6


def list_manifests(prefix: str, major: int) -> list[tuple[Version, Path]]:
    """(version, path) of the manifests of one major release, oldest first."""
    found = []
    for path in MANIFEST_DIR.glob(f"{prefix}-*.jsonl"):
        if path.stem.rsplit("-", 1)[0] != prefix:
            continue
        version = parse_version(release_of(path))
        if version[0] == major:
            found.append((version, path))
    return sorted(found)


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


def manifest_snapshot(version: Version, path: Path) -> Snapshot:
    return Snapshot(version, release_of(path), "manifest", load_manifest(path))


def manifest_of(prefix: str, release: str) -> dict[str, Function]:
    """The functions of one named release, e.g. ("cudart", "11.8")."""
    path = MANIFEST_DIR / f"{prefix}-{release}.jsonl"
    if not path.is_file():
        raise GenError(f"missing {path}", EXIT_ENV)
    return load_manifest(path)
