"""What hand-written files list per library, written from the records between markers in them:

  <!-- generated: <region>; tools/gen_api.py writes it from tools/libraries.json, do not edit -->
  ...
  <!-- end of generated: <region> -->

(// comments in C++). Everything outside the markers is the file's own text. The regions:
cushim::library's enumerators (detail/types/library_enums.hpp, which cushim.hpp includes: light, it
includes no file of the generator's), the search table of docs/search-order.md, the fallbacks of docs/errors.md, the table
of releases of docs/supported-headers.md, the Windows files of docs/windows.md, the opt-in macros
of README.md."""

from __future__ import annotations

import re
from pathlib import Path

from .libraries import Library
from .manifests import list_manifests
from .model import EXIT_ENV, GenError, Version
from .record import Record
from .selection import extends, libraries_of

MARKERS = {".md": ("<!-- ", " -->"), ".hpp": ("// ", "")}
BEGIN = "{open}generated: {name}; tools/gen_api.py writes it from tools/libraries.json, do not edit{close}"
END = "{open}end of generated: {name}{close}"


def _code(text: str) -> str:
    return f"`{text}`"


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _grouped_majors(record: Record, os_name: str) -> str:
    """Its file of each major, with the majors of the headers that pick it: "`libx.so.10` (CUDA 11, 12),
    `libx.so.11` (13)"."""
    names = record.file_names(os_name)
    if "*" in names:
        return _code(names["*"])
    if record.files_by == "own":
        return _code(next(iter(names.values())))
    if record.files_by == "cudnn":
        by_picker = {major: [major] for major in names}
        family = "cuDNN"
    else:
        family = "CUDA"
        of_cuda = record.files.get("of_cuda", {major: major for major in names})
        by_picker = {}
        for cuda, own in of_cuda.items():
            by_picker.setdefault(str(own), []).append(cuda)
    parts = []
    for own in sorted(by_picker, key=int):
        majors = ", ".join(sorted(by_picker[own], key=int))
        parts.append(f"{_code(names[own])} ({family + ' ' if not parts else ''}{majors})")
    return ", ".join(parts)


def _pip(record: Record) -> str:
    if record.system_only:
        return "none: only where the system installs it"
    return ", ".join(_code(("cu<major>" if p == "cu{cuda_major}" else p) + "/lib") for p in record.pip_packages())


def search_order(libraries: list[Library], data: dict) -> list[str]:
    lines = ["| library | file | override | own install roots | pip (`site-packages/nvidia/...`) |",
             "|---|---|---|---|---|"]
    for library in libraries_of(libraries):
        record = library.record
        override = _code(record.override_variable) if record.override_variable else "none"
        roots = ", ".join(_code(v) for v in record.get("home_variables", []))
        lines.append(f"| {record.title} | {_grouped_majors(record, 'posix')} | {override} | {roots} | {_pip(record)} |")
    return lines


def _status(fallback: dict, which: str) -> str:
    parts = [str(fallback[f"{which}_code"])] if f"{which}_code" in fallback else []
    if f"{which}_about" in fallback:
        parts.append(fallback[f"{which}_about"])
    return _code(fallback[which]) + (f" ({': '.join(parts)})" if parts else "")


def fallbacks(libraries: list[Library], data: dict) -> list[str]:
    lines = ["| function returns | library unavailable | loaded library lacks the function |", "|---|---|---|"]
    by_status: dict[str, list[Record]] = {}
    for library in libraries_of(libraries):
        by_status.setdefault(library.record.fallback["status"], []).append(library.record)
    for status, records in by_status.items():
        fallback = records[0].fallback
        who = f" ({', '.join(r.title for r in records)})" if len(records) > 1 else ""
        lines.append(f"| {_code(status)}{who} | {_status(fallback, 'unavailable')} | {_status(fallback, 'missing')} |")
    zeroed = [_code(name) for library in libraries_of(libraries)
              for name in library.record.fallback.get("zeroed_outputs", [])]
    return lines + ["", f"{_join(zeroed)} also set their number outputs (`int*`, `unsigned*`) to 0."]


def _release_text(version: Version) -> str:
    return f"{version[0]}.{version[1]}"


def _minors(major: int, first: int, last: int) -> str:
    """"11.5, 11.6", or "8.3 – 8.8" for more than two."""
    if last - first >= 2:
        return f"{major}.{first} – {major}.{last}"
    return ", ".join(f"{major}.{minor}" for minor in range(first, last + 1))


def _releases_row(library: Library, number: int, final: set[str], newest_major: int) -> list[str]:
    versions = [version for version, _ in list_manifests(library.manifest_prefix, number)]
    select = library.settings.get("select", {})
    exact = ", ".join(_release_text(v) for v in versions)
    between = [_minors(number, a[1] + 1, b[1] - 1) for a, b in zip(versions, versions[1:]) if b[1] - a[1] > 1]
    newest = _release_text(versions[-1])
    what = f"the {newest} functions, named for their release" if "release_suffix" in library.settings \
        else f"the {newest} table"
    if newest in final:
        newer = f"({newest} is the last {number}.x)"
    elif select.get("newer_majors") and number == newest_major:
        newer = f"later {number}.x and every newer major: {what}"
    elif versions[-1][1] == 0:
        newer = f"{number}.1 on: {what}"
    else:
        newer = f"later {number}.x: {what}"
    older = ""
    oldest = versions[0][1]
    if oldest > 0:
        releases = _minors(number, 0, oldest - 1)
        covers = library.majors[number].covers_from
        too_old = select.get("too_old")
        if covers is not None and covers[1] < oldest:
            older = f"{releases}: the headers decide"
        elif too_old:
            unless = re.findall(r"defined\((\w+)\)", too_old.get("unless", ""))
            older = f"{releases}: `#error`" + (f" (none with {' or '.join(map(_code, unless))})" if unless else "")
    return [exact, ", ".join(between), newer, older]


def releases(libraries: list[Library], data: dict) -> list[str]:
    lines = ["| library (guards on) | major | exact: a manifest | between manifests: the headers decide | "
             "newer headers | older headers |", "|---|---|---|---|---|---|"]
    for library in libraries_of(libraries):
        final = set(data.get("final_releases", {}).get(library.version_macro, []))
        opted = f", with {_code(library.opt_in)}" if library.opt_in else ""
        label = f"{library.title} ({_code(library.version_macro)}){opted}"
        numbers = sorted(library.majors)
        for number in numbers:
            row = _releases_row(library, number, final, numbers[-1])
            lines.append(f"| {label} | {number} | " + " | ".join(row) + " |")
            label = ""
    return lines


def windows_files(libraries: list[Library], data: dict) -> list[str]:
    lines = ["| library | file |", "|---|---|"]
    for library in libraries_of(libraries):
        record = library.record
        files = "none: Linux only" if library.settings.get("posix_only") else _grouped_majors(record, "windows")
        lines.append(f"| {record.title} | {files} |")
    return lines


def opt_in_macros(libraries: list[Library], data: dict) -> list[str]:
    lines = ["| macro | effect |", "|---|---|"]
    macros: dict[str, list[Library]] = {}
    for library in libraries:
        if library.opt_in:
            macros.setdefault(library.opt_in, []).append(library)
    for macro, entries in macros.items():
        main = [entry for entry in entries if not extends(entry)]
        headers = main[0].settings.get("headers", [main[0].umbrella_header])
        instead = [f"`<{entry.umbrella_header}>`, its {entry.title}" for entry in entries
                   if "test_instead_of" in entry.settings]
        included = [h for entry in main for h in entry.settings.get("companions", []) if h not in headers]
        included += [entry.umbrella_header for entry in entries if "companion" in entry.settings]
        text = f"also shim {_join([entry.record.in_sentence for entry in main])}; include " \
               f"{_join([f'`<{h}>`' for h in headers])}"
        text += f" (or {_join(instead)})" if instead else ""
        text += " before cushim"
        if included:
            text += f", which includes {_join([f'`<{h}>`' for h in dict.fromkeys(included)])} itself"
        if any(entry.settings.get("posix_only") for entry in main):
            text += ". Linux only: on Windows the build stops with an `#error`"
        notes = [entry.record.get("doc_note") for entry in main if entry.record.get("doc_note")]
        text += "".join(f". {note}" for note in notes)
        lines.append(f"| {_code(macro)} | {text} |")
    return lines


def library_enumerators(libraries: list[Library], data: dict) -> list[str]:
    """cushim::library: each record's key at its "id", a stable value."""
    records = sorted((library.record for library in libraries_of(libraries)), key=lambda r: r.id)
    if [r.id for r in records] != list(range(len(records))):
        raise GenError(f"the libraries' \"id\"s must be 0 to {len(records) - 1}, each once", EXIT_ENV)
    return (["enum class library {"] + [f"  {r.key} = {r.id}," for r in records[:-1]] +
            [f"  {records[-1].key} = {records[-1].id}", "};", f"constexpr int library_count = {len(records)};"])


PAGES = {"include/cushim/detail/types/library_enums.hpp": {"libraries": library_enumerators},
         "README.md": {"opt-in macros": opt_in_macros},
         "docs/search-order.md": {"search table": search_order},
         "docs/errors.md": {"fallbacks": fallbacks},
         "docs/supported-headers.md": {"releases": releases},
         "docs/windows.md": {"Windows files": windows_files}}


def render_pages(libraries: list[Library], repo: Path, data: dict) -> dict[str, str]:
    """{path under the repository: the file with its regions written}; `data`: tools/libraries.json."""
    pages = {}
    for page, regions in PAGES.items():
        try:
            text = (repo / page).read_text(encoding="utf-8")
        except OSError as error:
            raise GenError(f"{page}: {error}", EXIT_ENV) from None
        open_, close = MARKERS[Path(page).suffix]
        for name, render in regions.items():
            rows = render(libraries, data)
            begin, end = (marker.format(open=open_, close=close, name=name) for marker in (BEGIN, END))
            pattern = re.compile(re.escape(begin) + r"\n.*?" + re.escape(end), re.DOTALL)
            if not pattern.search(text):
                raise GenError(f"{page}: no region {begin} ... {end}", EXIT_ENV)
            text = pattern.sub(lambda _: "\n".join([begin, *rows, end]), text, count=1)
        pages[page] = text
    return pages
