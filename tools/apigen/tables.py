"""One table per library and major: its snapshots (manifests, maybe the headers) and entries."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace

from .libraries import Library, Major
from .manifests import MANIFEST_DIR, list_manifests, manifest_snapshot
from .merge import Entry, build_entries, describe_differences
from .model import EXIT_ENV, EXIT_MISMATCH, GenError, Snapshot, Version


@dataclass
class BuiltTable:
    library: Library
    major: Major
    snapshots: list[Snapshot]  # oldest first
    entries: list[Entry]
    release_named: set[str] = field(default_factory=set)  # base names the release completes

    @property
    def file_name(self) -> str:
        return self.library.table_file(self.major.number)

    @property
    def oldest_covered(self) -> Version:
        oldest = self.snapshots[0].version
        return min(oldest, self.major.covers_from or oldest)


def _with_headers(table: str, manifests: list[Snapshot], major: Major,
                  headers: Snapshot) -> list[Snapshot]:
    """The manifests, plus the headers where no manifest describes their release.

    Where one does, the headers must agree with it exactly and the manifest stays: the table
    then does not depend on the headers it was generated from.
    """
    code = major.code(headers.version)
    same = [m for m in manifests if major.code(m.version) == code]
    if not same:
        print(f"{table}: the {headers.label} join the manifests as one more release",
              file=sys.stderr)
        return sorted(manifests + [headers], key=lambda s: s.version)
    differences = describe_differences(same[0], headers)
    if differences:
        raise GenError(f"{table}: the {headers.label} disagree with the {same[0].label}:\n"
                       + "\n".join(differences), EXIT_MISMATCH)
    print(f"{table}: the {headers.label} match the {same[0].label} "
          f"({len(headers.functions)} functions, same names and types)", file=sys.stderr)
    return manifests


def _base_names(snapshot: Snapshot, suffix: str, named: set[str]) -> Snapshot:
    """The snapshot with its release taken off the names that carry it (nvJitLink's
    __nvJitLinkCreate_13_0 is __nvJitLinkCreate); those names are added to `named`."""
    major, minor, _ = snapshot.version
    ending = suffix.format(major=major, minor=minor)
    functions = {}
    for name, function in snapshot.functions.items():
        if name.endswith(ending):
            name = name[:-len(ending)]
            named.add(name)
            function = replace(function, name=name)
        functions[name] = function
    return replace(snapshot, functions=functions)


def build_table(library: Library, major: Major, headers: Snapshot | None) -> BuiltTable:
    manifests = [manifest_snapshot(v, p)
                 for v, p in list_manifests(library.manifest_prefix, major.number)]
    named: set[str] = set()
    suffix = library.settings.get("release_suffix")
    if suffix:
        manifests = [_base_names(m, suffix, named) for m in manifests]
        if headers is not None:
            headers = _base_names(headers, suffix, named)
    table = library.table_file(major.number)
    if headers is not None and headers.version[0] == major.number:
        snapshots = _with_headers(table, manifests, major, headers)
    else:
        snapshots = manifests
    if not snapshots:
        raise GenError(f"no {library.manifest_prefix} {major.number}.x manifest in "
                       f"{MANIFEST_DIR}", EXIT_ENV)
    return BuiltTable(library, major, snapshots, build_entries(snapshots, major, library), named)
