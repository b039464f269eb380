"""Releases of one major merged into guarded entries: one per run of releases sharing a prototype.

The rule for a release between two snapshots (manifests, or the headers): a function is kept
only where both neighbours have it with the same prototype, the one thing that makes it
certain. So a run of snapshots [first, last] gets `>= first` unless it starts at the oldest
snapshot, and `< the minor after last` unless it reaches the newest one. What that costs: a
function added between two snapshots is shimmed only from the later one, one removed or
changed between them only up to the earlier one.
"""

from __future__ import annotations

from dataclasses import dataclass

from .libraries import Major
from .model import EXIT_MISMATCH, Function, GenError, Snapshot


@dataclass(frozen=True)
class Entry:
    function: Function  # parameter names and spelling from the newest release of the run
    since: int | None  # guard: VERSION >= since
    until: int | None  # guard: VERSION < until


def _runs(present: list[Function | None]) -> list[tuple[int, int]]:
    """(first, last) index of each run of consecutive snapshots sharing one prototype."""
    runs, start = [], 0
    while start < len(present):
        if present[start] is None:
            start += 1
            continue
        end = start
        while (end + 1 < len(present) and present[end + 1] is not None
               and present[end + 1].prototype() == present[start].prototype()):
            end += 1
        runs.append((start, end))
        start = end + 1
    return runs


def build_entries(snapshots: list[Snapshot], major: Major) -> list[Entry]:
    codes = [major.code(s.version) for s in snapshots]
    if len(set(codes)) != len(codes):
        raise GenError(f"two snapshots of one minor release: "
                       f"{', '.join(s.label for s in snapshots)}", EXIT_MISMATCH)
    entries: list[Entry] = []
    for name in sorted({name for s in snapshots for name in s.functions}):
        present = [s.functions.get(name) for s in snapshots]
        for first, last in _runs(present):
            major_, minor, _ = snapshots[last].version
            entries.append(Entry(
                function=present[last],
                since=codes[first] if first > 0 else None,
                until=major.code((major_, minor + 1, 0)) if last + 1 < len(snapshots) else None,
            ))
    return entries


def guard_condition(entry: Entry, macro: str) -> str | None:
    parts = []
    if entry.since is not None:
        parts.append(f"{macro} >= {entry.since}")
    if entry.until is not None:
        parts.append(f"{macro} < {entry.until}")
    return " && ".join(parts) or None


def describe_differences(old: Snapshot, new: Snapshot) -> list[str]:
    """Functions added, removed or spelled differently between two descriptions."""
    differences = []
    for name in sorted(set(new.functions) - set(old.functions)):
        differences.append(f"  only in the {new.label}: {name}")
    for name in sorted(set(old.functions) - set(new.functions)):
        differences.append(f"  only in the {old.label}: {name}")
    for name in sorted(set(old.functions) & set(new.functions)):
        a, b = old.functions[name], new.functions[name]
        if a.signature() != b.signature():
            differences.append(f"  signature differs: {name}: {a.signature()} -> "
                               f"{b.signature()}")
    return differences
