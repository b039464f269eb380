"""Releases of one major merged into guarded entries: what is certain, and what the headers decide.

At a snapshot's release (a manifest, or the headers read) the table is exactly that snapshot:
one certain entry per run of snapshots sharing a prototype, guarded `>= first` unless the run
starts at the oldest snapshot and `< the minor after last` unless it reaches the newest one.
Newer releases than the newest snapshot get its functions.

Where no snapshot describes the release (between two snapshots, or older than the oldest one
where the major covers such releases), a function the neighbours do not both have with one
prototype is a declared entry: its stub exists exactly when the headers in use declare it, with
their prototype (CUSHIM_API_DECLARED, include/cushim/detail/stubs/declared_functions.hpp). A function
the implementation file cannot ask the headers about (declared in headers it does not include,
or overloaded in C++: the library's "detection" data) follows the manifest rule there instead
(only where an optional header that overloads it was included, when the data says so):
shimmed only where both neighbours have it with one prototype, and older than the oldest
snapshot as the oldest has it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .libraries import Library, Major
from .model import EXIT_MISMATCH, Function, GenError, Snapshot

# The most parameters a declared entry may have: declared_functions.hpp has a prototype<>
# specialization and parameter-list macros for each count up to this one.
MAX_DECLARED_ARITY = 40


@dataclass(frozen=True)
class Entry:
    function: Function  # parameter names and spelling from the newest release of the run
    since: int | None  # guard: VERSION >= since
    until: int | None  # guard: VERSION < until
    declared: str | None = None  # a declared entry: the function whose declaration decides
    unless: str | None = None  # ... except where this preprocessor condition holds


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


class _Releases:
    """The version macro's values around the snapshots of one table."""

    def __init__(self, snapshots: list[Snapshot], major: Major):
        self.major = major
        self.codes = [major.code(s.version) for s in snapshots]
        if len(set(self.codes)) != len(self.codes):
            raise GenError(f"two snapshots of one minor release: "
                           f"{', '.join(s.label for s in snapshots)}", EXIT_MISMATCH)
        self.versions = [s.version for s in snapshots]
        covers = major.covers_from
        self.covers_older = covers is not None and major.code(covers) < self.codes[0]

    def after(self, index: int) -> int:
        """The first value past snapshot `index`'s minor."""
        major, minor, _ = self.versions[index]
        return self.major.code((major, minor + 1, 0))

    def gap_after(self, index: int) -> bool:
        """Whether releases lie between snapshot `index` and the next one."""
        return self.after(index) < self.codes[index + 1]


def _certain(releases: _Releases, present: list[Function | None],
             asked: bool) -> list[Entry]:
    last_index = len(present) - 1
    entries = []
    for first, last in _runs(present):
        since = releases.codes[first]
        if first == 0 and not (asked and releases.covers_older):
            since = None  # older releases get the oldest snapshot's function
        entries.append(Entry(present[last], since,
                             releases.after(last) if last < last_index else None))
    return entries


def _representative(name: str, neighbours: list[Function | None]) -> Function:
    """The newest neighbour's function; both must give it the same number of parameters."""
    found = [f for f in neighbours if f is not None]
    if len({len(f.params) for f in found}) > 1:
        counts = " and ".join(str(len(f.params)) for f in found)
        raise GenError(f"{name}: the manifests give it {counts} parameters; a release between "
                       "them cannot be asked for either "
                       "(declared_functions.hpp defines one parameter list per function)",
                       EXIT_MISMATCH)
    if len(found[-1].params) > MAX_DECLARED_ARITY:
        raise GenError(f"{name}: {len(found[-1].params)} parameters, more than "
                       f"declared_functions.hpp handles ({MAX_DECLARED_ARITY})", EXIT_MISMATCH)
    return found[-1]


def _declared(releases: _Releases, present: list[Function | None], declared: str,
              unless: str | None) -> list[Entry]:
    """The releases no snapshot describes where the neighbours disagree on the function."""
    entries = []
    if releases.covers_older and present[0] is not None:
        entries.append(Entry(present[0], None, releases.codes[0], declared, unless))
    for i in range(len(present) - 1):
        pair = present[i:i + 2]
        agree = None not in pair and pair[0].prototype() == pair[1].prototype()
        if releases.gap_after(i) and pair != [None, None] and not agree:
            entries.append(Entry(_representative(declared, pair), releases.after(i),
                                 releases.codes[i + 1], declared, unless))
    return entries


def build_entries(snapshots: list[Snapshot], major: Major, library: Library) -> list[Entry]:
    releases = _Releases(snapshots, major)
    entries: list[Entry] = []
    for name in sorted({name for s in snapshots for name in s.functions}):
        present = [s.functions.get(name) for s in snapshots]
        function = next(f for f in present if f is not None)
        declared = library.detection.declared_name(function)
        entries += _certain(releases, present, declared is not None)
        if declared is not None:
            entries += _declared(releases, present, declared, library.detection.unless(function))
    return entries


def guard_condition(entry: Entry, macro: str) -> str | None:
    parts = []
    if entry.since is not None:
        parts.append(f"{macro} >= {entry.since}")
    if entry.until is not None:
        parts.append(f"{macro} < {entry.until}")
    if entry.declared is not None:
        # A name the headers define as a macro (cudaSignalExternalSemaphoresAsync ->
        # cudaSignalExternalSemaphoresAsync_v2) is not a function they declare by that name.
        names = dict.fromkeys([entry.function.name, entry.declared])
        parts += [f"!defined({name})" for name in names]
        if entry.unless:
            parts.append(f"!({entry.unless})")
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
