"""What follows from tools/libraries.json beside the tables: which table api_tables.hpp picks
(table_selection.inc), which tables a build includes (library_tables.inc), and the libraries'
file names, macros and headers that the test builds read (cmake/cushimLibraries.cmake)."""

from __future__ import annotations

import re

from .libraries import Library
from .model import EXIT_MISMATCH, GenError


def _macro_stem(library: Library) -> str:
    return library.table_name.upper()


def extends(library: Library) -> bool:
    """Whether the entry is one more table of a library listed before it (an optional header's)."""
    return "extends" in library.settings


def libraries_of(libraries: list[Library]) -> list[Library]:
    """The libraries themselves: entries with a descriptor, files and fallback of their own."""
    return [library for library in libraries if not extends(library)]


def opt_in_condition(library: Library) -> str | None:
    """The preprocessor condition under which a build shims the library; None: always."""
    if "shimmed_when" in library.settings:
        return library.settings["shimmed_when"]
    return f"defined({library.opt_in})" if library.opt_in else None


def _comment(text: str | None, width: int = 100) -> list[str]:
    if not text:
        return []
    lines, line = [], "//"
    for word in text.split():
        if len(line) + 1 + len(word) > width:
            lines.append(line)
            line = "//"
        line += " " + word
    return lines + [line]


def _release_names(library: Library, stem: str) -> list[str]:
    """CUSHIM_<STEM>_NAME(base): the exported name of the headers' release (nvJitLink's
    __nvJitLinkCreate_13_0), for every minor 0-9 of each major."""
    suffix = library.settings["release_suffix"]
    macro = library.version_macro
    lines = []
    for major in library.majors.values():
        for minor in range(10):
            low = major.code((major.number, minor, 0))
            keyword = "#if" if not lines else "#elif"
            lines += [f"{keyword} {macro} >= {low} && {macro} < {low + major.encoding[1]}",
                      f"#define CUSHIM_{stem}_SUFFIX "
                      f"{suffix.format(major=major.number, minor=minor)}"]
    lines += ["#else",
              f'#error "cushim: {library.title}\'s exported names carry the headers\' release, '
              f'and cushim knows none for {macro} here"',
              "#endif",
              f"#define CUSHIM_{stem}_NAME(base) CUSHIM_PASTE(base, CUSHIM_{stem}_SUFFIX)"]
    return lines


def _one_table(library: Library) -> list[str]:
    """An extending table without "select": its one major's table serves every release of the
    headers (covers_from), and its guards decide."""
    if len(library.majors) != 1:
        raise GenError(f"{library.table_name}: an entry that extends {library.settings['extends']} "
                       "with more than one major needs \"select\"", EXIT_MISMATCH)
    (number,) = library.majors
    stem = _macro_stem(library)
    table = library.table_file(number)
    return ([f"// {library.title}"] + _comment(f"One table for every release: {table}, whose guards "
                                               "pick the functions of the headers in use.") +
            [f"#define CUSHIM_{stem}_TABLE <cushim/api/{table}>"])


def _select(library: Library) -> list[str]:
    if extends(library) and "select" not in library.settings:
        return _one_table(library)
    select = library.settings["select"]
    stem = _macro_stem(library)
    expression = f"({select['major']})"
    lines = [f"// {library.title}"] + _comment(select.get("about"))
    condition = opt_in_condition(library) if library.opt_in else None
    if condition:
        lines.append(f"#if {condition}")
    if library.settings.get("posix_only"):
        lines += ["#ifdef _WIN32",
                  f'#error "cushim: {library.title} ships for Linux only; define {library.opt_in} '
                  'only in Linux builds"',
                  "#endif"]
    chain = []
    if "needs" in select:
        macros = select["needs"]["macro"].split()
        test = " || ".join(f"!defined({m})" for m in macros)
        chain.append((test, [f'#error "{select["needs"]["error"]}"']))
    if "same_major_as" in select:
        other = select["same_major_as"]
        chain.append((f"{expression} != CUSHIM_{other['table'].upper()}_MAJOR",
                      [f'#error "{other["error"]}"']))
    numbers = sorted(library.majors)
    for number in numbers:
        test = f"{expression} == {number}"
        if number == numbers[-1] and select.get("newer_majors"):
            test = f"{expression} >= {number}"
        chain.append((test, [f"#define CUSHIM_{stem}_MAJOR {number}",
                             f"#define CUSHIM_{stem}_TABLE <cushim/api/{library.table_file(number)}>"]))
    for i, (test, body) in enumerate(chain):
        lines.append(f"{'#if' if i == 0 else '#elif'} {test}")
        lines += body
    unsupported = select.get("unsupported", f"cushim: unsupported {library.title} headers "
                                            f"({library.version_macro}); cushim has tables of "
                                            f"majors {', '.join(map(str, numbers))}")
    lines += ["#else", f'#error "{unsupported}"', "#endif"]
    too_old = select.get("too_old")
    if too_old:
        lines += _comment(too_old.get("about"))
        test = f"{library.version_macro} < CUSHIM_TABLE_MIN({stem}, CUSHIM_{stem}_MAJOR)"
        if too_old.get("unless"):
            test = f"!({too_old['unless']}) && {test}"
        lines += [f"#if {test}", f'#error "{too_old["error"]}"', "#endif"]
    if "release_suffix" in library.settings:
        lines += _release_names(library, stem)
    if condition:
        lines.append(f"#endif  // {condition}")
    return lines


def render_selection(libraries: list[Library]) -> str:
    lines = [
        "// GENERATED by tools/gen_api.py from tools/libraries.json (\"select\"). Do not edit.",
        "// Picks the generated table of each library's major from the NVIDIA headers in use",
        "// (detail/tables/api_tables.hpp includes it): CUSHIM_<TABLE>_MAJOR and CUSHIM_<TABLE>_TABLE, or",
        "// the #error that says why there is none. Within a major, each table's own #if guards",
        "// pick the functions of the release (docs/supported-headers.md, \"Supported headers\").",
        "#pragma once",
        "#define CUSHIM_TABLE_MIN(table, major) CUSHIM_TABLE_MIN_(table, major)",
        "#define CUSHIM_TABLE_MIN_(table, major) CUSHIM_TABLE_##table##_##major##_MIN",
        "#define CUSHIM_PASTE(a, b) CUSHIM_PASTE_(a, b)",
        "#define CUSHIM_PASTE_(a, b) a##b",
        "// A table line's name as text, after CUSHIM_<TABLE>_NAME(base) has made it the export's.",
        "#define CUSHIM_NAME_TEXT(name) CUSHIM_NAME_TEXT_(name)",
        "#define CUSHIM_NAME_TEXT_(name) #name",
    ]
    for library in libraries:
        lines += [""] + _select(library)
    return "\n".join(lines) + "\n"


def render_library_tables(libraries: list[Library]) -> str:
    lines = [
        "// GENERATED by tools/gen_api.py from tools/libraries.json. Do not edit.",
        "// The function tables of the libraries this build shims, one CUSHIM_API line per",
        "// function, opt-in ones only when opted into (detail/tables/library_tables.inc includes it).",
        "// Some prototypes name types the headers deprecate (cuSPARSE's legacy bsric02Info_t): the",
        "// stubs keep the functions the library still exports.",
        "#if defined(__GNUC__)",
        "#pragma GCC diagnostic push",
        "#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"",
        "#endif",
    ]
    for library in libraries:
        condition = opt_in_condition(library)
        include = f"#include CUSHIM_{_macro_stem(library)}_TABLE"
        lines += [f"#if {condition}", include, "#endif"] if condition else [include]
    lines += ["#if defined(__GNUC__)", "#pragma GCC diagnostic pop", "#endif"]
    return "\n".join(lines) + "\n"


def _main_header_conditions(library: Library) -> list[str]:
    """Where the library is shimmed and the program included its main header ("needs")."""
    conditions = [opt_in_condition(library)] if opt_in_condition(library) else []
    needs = library.settings.get("select", {}).get("needs")
    return conditions + [f"defined({macro})" for macro in (needs["macro"].split() if needs else [])]


def _companion_blocks(libraries: list[Library]) -> list[tuple[str, str, list[str]]]:
    """(title, condition, headers) of every #include the implementation file makes itself."""
    blocks = []
    for library in libraries:
        if not extends(library) and "companions" in library.settings:
            conditions = _main_header_conditions(library)
            blocks.append((library.title, conditions, library.settings["companions"]))
        elif "companion" in library.settings:
            base = next(entry for entry in libraries_of(libraries) if entry.key == library.key)
            conditions = _main_header_conditions(base)
            unless = library.settings["companion"].get("unless")
            if unless:
                conditions.append(f"!{unless}" if re.fullmatch(r"defined\(\w+\)", unless) else f"!({unless})")
            conditions.append(f"__has_include(<{library.umbrella_header}>)")
            blocks.append((library.title, conditions, [library.umbrella_header]))
    unique = []
    for title, conditions, headers in blocks:
        condition = " && ".join(conditions)
        if all((condition, headers) != (c, h) for _, c, h in unique):
            unique.append((title, condition, headers))
    return unique


def render_companions(libraries: list[Library]) -> str:
    """companion_headers.inc: the headers of each shimmed library that come with its main one,
    which the implementation file includes itself ("companions", "companion")."""
    lines = ["// GENERATED by tools/gen_api.py from tools/libraries.json (\"companions\", \"companion\").",
             "// Do not edit. The NVIDIA headers the implementation file includes itself: those of each",
             "// library it shims that come with the main header the program includes, so a program links",
             "// through cushim with that one header (docs/supported-headers.md, \"Headers cushim includes\").",
             "// diagnostics.hpp includes it before cushim's own code, as a program's own includes come.",
             "#pragma once"]
    for title, condition, headers in _companion_blocks(libraries):
        lines += ["", f"// {title}", f"#if {condition}", *[f"#include <{h}>" for h in headers], "#endif"]
    return "\n".join(lines) + "\n"


def _required_headers(library: Library) -> list[str]:
    """What its table needs: the headers a program includes, then the companions cushim does."""
    headers = library.settings.get("headers", [library.umbrella_header])
    return list(dict.fromkeys(headers + library.settings.get("companions", [])))


def _cmake_list(values) -> str:
    return ";".join(values)


def render_cmake(libraries: list[Library]) -> str:
    """cmake/cushimLibraries.cmake: per library, what the builds of cushim's own tests need."""
    from .testdata import cmake_test_lines  # which needs this module's helpers
    lines = [
        "# GENERATED by tools/gen_api.py from tools/libraries.json. Do not edit.",
        "# Per library (cushim::library's name): CUSHIM_LIBRARY_<key>_OPT_IN (the macro; empty:",
        "# always shimmed), _HEADERS (what its table needs: what a program opting in includes and",
        "# the companions the implementation file includes itself), _FILES_BY (the headers",
        "# whose major picks its file: cuda, cudnn or own), _SYSTEM_ONLY, _POSIX_ONLY,",
        "# _FILE_<posix|windows>_<major> (\"any\": one file for every major), _LINK_NAME (what -l",
        "# names), and _PLAIN (its record names a \"missing_call\": the shared scenarios walk it), with,",
        "# for its fixtures, _VERSION_FUNCTION, _VERSION_FORM (tests/fixtures/fake_library.c's),",
        "# _VERSION_HEADER and _VERSION_PARTS (the headers' MAJOR, MINOR and PATCH macros; none: the",
        "# toolkit's release), _VERSION_WEIGHTS (its encoding's) and _OTHER_MAJOR (the step to the",
        "# major of its fixture of another major).",
        f"set(CUSHIM_LIBRARIES {' '.join(l.key for l in libraries_of(libraries))})",
    ]
    for library in libraries_of(libraries):
        record = library.record
        prefix = f"CUSHIM_LIBRARY_{library.key}"
        lines.append(f'set({prefix}_OPT_IN "{library.opt_in or ""}")')
        headers = _required_headers(library)
        lines.append(f'set({prefix}_HEADERS "{_cmake_list(headers)}")')
        lines.append(f'set({prefix}_FILES_BY "{record.files_by}")')
        lines.append(f'set({prefix}_SYSTEM_ONLY {"ON" if record.system_only else "OFF"})')
        lines.append(f'set({prefix}_POSIX_ONLY {"ON" if library.settings.get("posix_only") else "OFF"})')
        for os_name in ("posix", "windows") if not library.settings.get("posix_only") else ("posix",):
            for major, name in build_files(record, os_name).items():
                lines.append(f'set({prefix}_FILE_{os_name}_{major} "{name}")')
        lines += cmake_test_lines(library)
    lines += [
        "# cushim_library_file(<variable> <key> <posix|windows>): the library's file for the",
        "# headers of this build (CUSHIM_CUDNN_MAJOR, CUSHIM_CUDART_MAJOR); empty where it has none.",
        "function(cushim_library_file variable library os)",
        "  set(_prefix CUSHIM_LIBRARY_${library})",
        "  if(DEFINED ${_prefix}_FILE_${os}_any)",
        "    set(_file ${${_prefix}_FILE_${os}_any})",
        "  elseif(${_prefix}_FILES_BY STREQUAL \"cudnn\")",
        "    set(_file ${${_prefix}_FILE_${os}_${CUSHIM_CUDNN_MAJOR}})",
        "  else()",
        "    set(_file ${${_prefix}_FILE_${os}_${CUSHIM_CUDART_MAJOR}})",
        "  endif()",
        "  set(${variable} \"${_file}\" PARENT_SCOPE)",
        "endfunction()",
    ]
    return "\n".join(lines) + "\n"


def build_files(record, os_name: str) -> dict[str, str]:
    """{major of the headers that pick it, or "any": file name}: its file in a build."""
    names = record.file_names(os_name)
    if "*" in names or record.files_by == "own":
        if len(names) != 1:
            raise GenError(f"{record.key}: \"by\": \"own\" needs one file per OS", EXIT_MISMATCH)
        return {"any": next(iter(names.values()))}
    if record.files_by == "cudnn" or "of_cuda" not in record.files:
        return dict(names)
    return {cuda: names[str(own)] for cuda, own in record.files["of_cuda"].items()}


def _guarded(library: Library, body: list[str]) -> list[str]:
    condition = opt_in_condition(library) if library.opt_in else None
    return [f"#if {condition}", *body, "#endif"] if condition else body


def render_test_headers(libraries: list[Library]) -> str:
    """tests/support/opt_in_headers.hpp: what a test program opting in includes before cushim."""
    lines = ["// GENERATED by tools/gen_api.py from tools/libraries.json (\"headers\", \"companions\"). Do",
             "// not edit. The NVIDIA headers of the libraries a test program opts into, included before",
             "// cushim as a program must (README.md, \"Macros\"), and their companions, which the",
             "// implementation file includes itself and a test that walks the tables declares too. The",
             "// build defines the opt-in macros the same for every translation unit of a program.",
             "#pragma once"]
    instead = {entry.settings["test_instead_of"]["header"]: entry for entry in libraries
               if extends(entry) and "test_instead_of" in entry.settings}
    done = set()
    for library in libraries_of(libraries):
        if not library.opt_in or library.opt_in in done:
            continue
        done.add(library.opt_in)
        body = []
        for header in _required_headers(library):
            other = instead.get(header)
            if other:
                body += [f"#ifdef {other.settings['test_instead_of']['when']}",
                         f"#include <{other.umbrella_header}>  // instead of {header}: a program "
                         "includes one of the two", "#else"]
            body.append(f"#include <{header}>")
            if other:
                body.append("#endif")
        lines += _guarded(library, body)
    optional = [entry for entry in libraries
                if extends(entry) and "test_instead_of" not in entry.settings]
    if optional:
        lines += ["// The headers of the tables that extend a library: the optional ones, whose functions "
                  "cushim", "// shims where a program includes them before cushim, and the companions "
                  "(docs/supported-headers.md,", "// \"Optional headers\"). The test build defines "
                  "CUSHIM_TEST_OPTIONAL_HEADERS with the stand-ins of", "// tools/graphics_headers on "
                  "the path.", "#ifdef CUSHIM_TEST_OPTIONAL_HEADERS"]
        for entry in optional:
            include = [f"#include <{entry.umbrella_header}>"]
            lines += [f"#if defined({entry.opt_in})", *include, "#endif"] if entry.opt_in else include
        lines.append("#endif")
    return "\n".join(lines) + "\n"


def _switch(libraries: list[Library], name: str, ret: str, value, why: str) -> list[str]:
    lines = [f"// {why}", f"inline {ret} {name}(cushim::library lib) {{", "  switch (lib) {"]
    for library in libraries:
        lines.append(f"    case cushim::library::{library.key}: {value(library)}")
    return lines + ["  }", "  return {};", "}"]


def _file_case(library: Library) -> str:
    macro = f"CUSHIM_{library.key.upper()}_FILE"
    if library.settings.get("posix_only"):
        return f"return {macro}_OR_EMPTY;"
    return f"return {macro};"


def render_test_files(libraries: list[Library]) -> str:
    """tests/support/library_files.hpp: each library's file and name as the test builds use them."""
    libraries = libraries_of(libraries)
    lines = ["// GENERATED by tools/gen_api.py from tools/libraries.json. Do not edit.",
             "// The file cushim searches for per library, as the test build names it",
             "// (CUSHIM_<KEY>_FILE, from cmake/cushimLibraries.cmake): the fixtures are built under",
             "// these names.",
             "#pragma once", "", "#include <cushim/cushim.hpp>", "", "#include <string>", "#include <vector>", ""]
    for library in libraries:
        if library.settings.get("posix_only"):
            macro = f"CUSHIM_{library.key.upper()}_FILE"
            lines += [f"#ifdef {macro}", f"#define {macro}_OR_EMPTY {macro}", "#else",
                      f'#define {macro}_OR_EMPTY ""', "#endif"]
    lines += ["", "namespace test_support {", ""]
    lines += _switch(libraries, "file_of", "std::string", _file_case,
                     "Its file for the headers of this build.")
    lines += [""] + _switch(libraries, "key_of", "std::string", lambda l: f'return "{l.key}";',
                            "to_string(library), for programs that are not the implementation TU.")
    lines += ["", "// Its files as its record gives them, by its own major (0: one file for every major).",
              "struct record_file {", "  int major;", "  const char* posix;", "  const char* windows;", "};",
              "inline std::vector<record_file> record_files(cushim::library lib) {", "  switch (lib) {"]
    for library in libraries:
        posix, windows = library.record.file_names("posix"), library.record.file_names("windows")
        listed = ", ".join(f'{{{0 if m == "*" else m}, "{posix[m]}", "{windows.get(m, "")}"}}'
                           for m in sorted(posix, key=lambda m: -1 if m == "*" else int(m)))
        lines.append(f"    case cushim::library::{library.key}: return {{{listed}}};")
    lines += ["  }", "  return {};", "}"]
    lines += ["", "// Whether cushim has an override for it (a library found only where the system "
              "installs it has none:", "// a test loads its copy first, and cushim reuses the copy "
              "in the process).", "inline bool has_override(cushim::library lib) {",
              "  switch (lib) {"]
    for library in libraries:
        lines.append(f"    case cushim::library::{library.key}: return "
                     f"{'false' if library.record.system_only else 'true'};")
    lines += ["  }", "  return true;", "}", "", "}  // namespace test_support"]
    return "\n".join(lines) + "\n"


def _version_answer(library: Library) -> list[str]:
    """The recording fixture's answer to the version query cushim's load makes."""
    record = library.record
    name, form, value = record.version["function"], record.version["form"], record.compiled
    test = f'std::strcmp(name, "{name}") == 0'
    if form == "returns":
        body = [f"if constexpr (std::is_integral_v<R>) {{", f"  if ({test}) return answered(R({value}));", "}"]
    elif form == "int_out":
        body = ["if constexpr (sizeof...(A) == 1 && (number_out<A> && ...)) {",
                f"  if ({test}) return answered(answer_int<R>({value}, args...));", "}"]
    elif form == "major_minor":
        body = ["if constexpr (sizeof...(A) == 2 && (number_out<A> && ...)) {",
                f"  if ({test}) return answered(answer_major_minor<R>(({value}) / 1000, "
                f"({value}) % 1000 / 10, args...));", "}"]
    elif form == "property":
        major, minor, patch = record.parts
        body = ["if constexpr (property_query<A...>) {",
                f"  if ({test}) return answered(answer_property<R>({major}, {minor}, {patch}, args...));", "}"]
    else:
        raise ValueError(f"{library.key}: unknown test_version form {form!r}")
    return _guarded(library, body)


def render_test_answers(libraries: list[Library]) -> str:
    """tests/support/library_answers.hpp: each library's documented fallback and its version
    answer, for the suites that walk every table and the recording fixtures."""
    libraries = libraries_of(libraries)
    lines = ["// GENERATED by tools/gen_api.py from tools/libraries.json (\"fallback\", \"version\").",
             "// Do not edit. Per library: the status its functions return while it is unavailable and",
             "// the text its text functions give (docs/errors.md, \"Error codes\"); the status values a recording",
             "// fixture may return (valid for the type and never a fallback); the answer a recording",
             "// fixture gives to the version query cushim's load makes. Include opt_in_headers.hpp first.",
             "#pragma once", "", "#include <cushim/cushim.hpp>", "", "#include <cstring>",
             "#include <type_traits>", "", "namespace test_support {", ""]
    lines += _switch(libraries, "unavailable_text", "const char*",
                     lambda l: f'return "{l.record.unavailable_text}";',
                     "What a text function of each library returns while it is unavailable.")
    lines += ["", "// 1: the documented status for \"library unavailable\"; 0: another value; -1: R is no",
              "// library's status type.", "template <class R>", "int unavailable_status(R result) {",
              "  (void)result;", "  if constexpr (false) {"]
    seen = set()
    for library in libraries:
        fallback = library.record.fallback
        if fallback["status"] in seen:
            continue
        seen.add(fallback["status"])
        body = [f"  }} else if constexpr (std::is_same_v<R, {fallback['status']}>) {{",
                f"    return result == {fallback['unavailable']};"]
        lines += _guarded(library, body)
    lines += ["  } else {", "    return -1;", "  }", "}", "",
              "// Status types whose values a recording fixture picks from a short list: their enumerators",
              "// stop early, and a value past them would be undefined behaviour.",
              "template <class R>", "struct recorded_statuses {", "  static constexpr bool listed = false;", "};"]
    seen = set()
    for library in libraries:
        fallback = library.record.fallback
        if "recorded" not in fallback or fallback["status"] in seen:
            continue
        seen.add(fallback["status"])
        values = ", ".join(map(str, fallback["recorded"]))
        lines += _guarded(library, [
            "template <>", f"struct recorded_statuses<{fallback['status']}> {{",
            "  static constexpr bool listed = true;",
            f"  static constexpr int values[{len(fallback['recorded'])}] = {{{values}}};", "};"])
    lines += ["", "// A pointer to a number: where a version query writes its answer.", "template <class P>",
              "constexpr bool number_out = std::is_pointer_v<P> && std::is_arithmetic_v<std::remove_pointer_t<P>> &&",
              "                           !std::is_const_v<std::remove_pointer_t<P>>;",
              "template <class... A>", "constexpr bool property_query = false;",
              "template <class T, class P>", "constexpr bool property_query<T, P> = std::is_enum_v<T> && number_out<P>;",
              "template <class R, class P>", "R answer_int(long value, P out) {",
              "  *out = std::remove_pointer_t<P>(value);", "  return R{};  // every library's success is 0",
              "}", "template <class R, class P, class Q>", "R answer_major_minor(int major, int minor, P a, Q b) {",
              "  *a = std::remove_pointer_t<P>(major);", "  *b = std::remove_pointer_t<Q>(minor);", "  return R{};",
              "}", "template <class R, class T, class P>",
              "R answer_property(int major, int minor, int patch, T type, P out) {",
              "  *out = int(type) == 0 ? major : int(type) == 1 ? minor : patch;  // MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL",
              "  return R{};", "}", "",
              "// The version a library's version function reports to cushim's load: the headers'.",
              "// true with `result` set when `name` is a version function of this signature.",
              "template <class R, class... A>", "bool answer_version(const char* name, R& result, A... args) {",
              "  auto answered = [&](R r) {", "    result = r;", "    return true;", "  };"]
    for library in libraries:
        lines += [line if line.startswith("#") else "  " + line for line in _version_answer(library)]
    lines += ["  ((void)args, ...);", "  (void)name;", "  (void)answered;", "  return false;", "}", "",
              "}  // namespace test_support"]
    return "\n".join(lines) + "\n"
