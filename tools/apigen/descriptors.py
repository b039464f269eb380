"""Each library's descriptor, written from its record (tools/apigen/record.py): one header per library
in include/cushim/detail/libraries/, the fallback statuses of every status type (statuses.hpp) and
the list of descriptors (api/descriptors.inc); and the doctor's toolkit components.
What only one library does is code of its own, <file>_hooks.hpp, which its header includes and its
record names hook by hook; nothing here depends on which library it is."""

from __future__ import annotations

from .libraries import Library
from .model import EXIT_MISMATCH, GenError
from .selection import _comment, libraries_of, opt_in_condition

FORM_QUERIES = {"returns": "&query_returned_version", "int_out": "&query_int_version",
                "property": "&query_property_version<&encode_{encoding}_version>",
                "major_minor": "&query_major_minor_version<&encode_{encoding}_version>"}


def descriptor_file(library: Library) -> str:
    return library.settings.get("descriptor", {}).get("file", f"{library.key}.hpp")


def descriptor_name(library: Library) -> str:
    return library.settings.get("descriptor", {}).get("name", f"{library.key}_descriptor")


def _stem(library: Library) -> str:
    """The prefix of the descriptor's constants: cublaslt for cublaslt_descriptor."""
    return descriptor_name(library).removesuffix("_descriptor")


def hooks_file(library: Library) -> str:
    return descriptor_file(library).removesuffix(".hpp") + "_hooks.hpp"


def c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _array(declaration: str, items: list[str]) -> list[str]:
    """`declaration = {items};`, an item a line where one line would pass 120 columns."""
    line = f"{declaration} = {{{', '.join(items)}}};"
    if len(line) <= 120:
        return [line]
    return [f"{declaration} = {{"] + [f"    {item}," for item in items[:-1]] + [f"    {items[-1]}}};"]


def _macro(head: str, body: str) -> list[str]:
    line = f"{head} {body}"
    return [line] if len(line) <= 120 else [f"{head} \\", f"  {body}"]


def _pip_package(package: str) -> str:
    if package == "cu{cuda_major}":
        return '"cu" CUSHIM_STRINGIFY(CUSHIM_CUDART_MAJOR)'
    return c_string(package)


def _files(library: Library, major_expression: str) -> list[tuple[str, str, str]]:
    """(major, posix name, windows name) of each major it has."""
    record = library.record
    posix, windows = record.file_names("posix"), record.file_names("windows")
    if set(posix) != set(windows):
        raise GenError(f"{library.key}: \"files\" needs the same majors on posix and windows", EXIT_MISMATCH)
    return [(major_expression if major == "*" else major, posix[major], windows[major])
            for major in sorted(posix, key=lambda m: -1 if m == "*" else int(m))]


def _shimmed_block(library: Library, stem: str) -> tuple[list[str], str, str, str | None]:
    """The constants that depend on the build, and the version, major and shimmed expressions."""
    record = library.record
    condition = opt_in_condition(library)
    if library.opt_in:
        lines = [f"#if {condition}", f"constexpr bool {stem}_shimmed = true;",
                 f"constexpr int {stem}_compiled_version = {record.compiled};",
                 f"constexpr int {stem}_compiled_major = {record.compiled_major};", "#else",
                 f"constexpr bool {stem}_shimmed = false;", f"constexpr int {stem}_compiled_version = 0;",
                 f"constexpr int {stem}_compiled_major = 0;", "#endif"]
        return lines, f"{stem}_compiled_version", f"{stem}_compiled_major", f"{stem}_shimmed"
    if condition:
        lines = [f"#if {condition}", f"constexpr bool {stem}_shimmed = true;", "#else",
                 f"constexpr bool {stem}_shimmed = false;", "#endif"]
        return lines, record.compiled, record.compiled_major, f"{stem}_shimmed"
    return [], record.compiled, record.compiled_major, None


def _setters(library: Library, stem: str, version: str, major: str, shimmed: str | None,
             arrays: set[str]) -> list[str]:
    record = library.record
    fallback = record.fallback
    encoding = record.encoding.name
    setters = [f"key({c_string(library.key)})", f"display_name({c_string(record.title)})",
               f"in_sentence({c_string(record.in_sentence)})"]
    if shimmed:
        setters.append(f"shimmed({shimmed})")
    if record.opt_in:
        setters.append("opt_in()")
    if record.disabled_by:
        setters += [f"disabled_by({c_string(record.disabled_by)})", f"disabled_why({c_string(record.disabled_why)})"]
    setters += [f"compiled_version({version})", f"compiled_major({major})", f"files({stem}_files)",
                f"link_name({c_string(record.link_name)})",
                f"version_function({c_string(record.version['function'])})",
                f"query_version({FORM_QUERIES[record.version['form']].format(encoding=encoding)})",
                f"decode_version(&decode_{encoding}_version)", f"encode_version(&encode_{encoding}_version)"]
    if record.encoding.has_patch:
        setters.append("version_has_patch()")
    if record.version.get("zero_is_no_answer"):
        setters.append("ask_file_when_zero()")
    setters += [f"{flag}()" for flag in ("newer_major_works", "older_major_works", "older_minor_works")
                if record.get(flag)]
    setters.append(f"older_minor_effect({c_string(record.older_minor_effect)})")
    if record.system_only:
        setters.append("system_only()")
    if record.get("reports_driver"):
        setters.append("reports_driver()")
    if record.override_variable:
        setters.append(f"override_variable({c_string(record.override_variable)})")
    if "home_variables" in arrays:
        setters.append(f"home_variables({stem}_home_variables)")
    if record.in_toolkit:
        setters.append("in_toolkit()")
    if "pip_packages" in arrays:
        setters.append(f"pip_packages({stem}_pip_packages)")
    if record.get("windows_installer"):
        setters.append(f"windows_installer({c_string(record.get('windows_installer'))})")
    setters += [f"effect({c_string(fallback['effect'])})", f"unavailable_text({c_string(record.unavailable_text)})",
                f"missing_text({c_string(record.missing_text)})", f"missing_returns({c_string(fallback['missing'])})",
                f"blocked_returns({c_string(fallback['unavailable'])})"]
    setters += [f"{name}({stem}_{name})" for name in ("zeroed_outputs", "text_outputs", "startup_functions")
                if name in arrays]
    hooks = [(field, function if "::" in function else f"{stem}_hooks::{function}")
             for field, function in record.hooks.items()]
    if record.get("install_advice"):
        if "install_advice" in record.hooks:
            raise GenError(f"{library.key}: \"install_advice\" is a text or a hook, not both", EXIT_MISMATCH)
        hooks.append(("install_advice", f"{stem}_install_advice"))
    setters += [f"{field}(&{function})" for field, function in hooks]
    if "driver_free_functions" in arrays:
        setters.append(f"loads_driver_by_name_but_in({stem}_driver_free_functions)")
    return setters


def _arrays(library: Library, stem: str, major: str) -> tuple[list[str], set[str]]:
    record = library.record
    lines = _comment(record.files.get("about"))
    lines += _array(f"constexpr major_file {stem}_files[]",
                    [f"{{{m}, {{{c_string(p)}, {c_string(w)}}}}}" for m, p, w in _files(library, major)])
    lists = {"home_variables": [c_string(v) for v in record.get("home_variables", [])],
             "pip_packages": [_pip_package(p) for p in record.pip_packages()],
             "zeroed_outputs": [c_string(f) for f in record.fallback.get("zeroed_outputs", [])],
             "text_outputs": [c_string(f) for f in record.fallback.get("text_outputs", [])],
             "startup_functions": [c_string(f) for f in record.get("startup_functions", {}).get("names", [])],
             "driver_free_functions": [c_string(f) for f in record.get("driver_free_functions", {}).get("names", [])]}
    abouts = {"zeroed_outputs": record.fallback.get("about") if record.fallback.get("zeroed_outputs") else None,
              "startup_functions": record.get("startup_functions", {}).get("about"),
              "driver_free_functions": record.get("driver_free_functions", {}).get("about")}
    present = set()
    for name, items in lists.items():
        if not items:
            continue
        present.add(name)
        lines += _comment(abouts.get(name))
        lines += _array(f"constexpr const char* {stem}_{name}[]", items)
    advice = record.get("install_advice")
    if advice:
        lines += ["// What to do when no copy is found: install it or point cushim at it does not apply.",
                  f"inline const char* {stem}_install_advice() {{",
                  f"  return platform_text({{{c_string(advice['posix'])}, {c_string(advice['windows'])}}});", "}"]
    return lines, present


def _convention(library: Library) -> tuple[list[str], str]:
    convention = library.record.get("calling_convention")
    if isinstance(convention, dict):
        macro = f"CUSHIM_{library.key.upper()}_CONV"
        return (_comment(convention.get("about")) +
                ["#ifdef _WIN32", f"#define {macro} {convention['windows']}", "#else", f"#define {macro}", "#endif"],
                macro)
    return [], convention or ""


def _api_macros(library: Library) -> list[str]:
    key = library.key
    lines, convention = _convention(library)
    group = library.settings["group"]
    line = f"define({key}, {convention}, ret, name, params, args, {{group}})"
    if group["rule"] == "tier":
        core = group["core_only_with"]
        head = f"#define CUSHIM_API_{key}"
        return lines + [
            f"// The table's group column is the tier, and {core} keeps only the core one.",
            *_macro(f"{head}(define, tier, ret, name, params, args)",
                    f"CUSHIM_API_{key}_##tier(define, ret, name, params, args)"),
            *_macro(f"{head}_core(define, ret, name, params, args)", line.format(group="core")),
            f"#ifdef {core}", f"{head}_full(define, ret, name, params, args)", "#else",
            *_macro(f"{head}_full(define, ret, name, params, args)", line.format(group="full")), "#endif"]
    return lines + _macro(f"#define CUSHIM_API_{key}(define, group, ret, name, params, args)",
                          line.format(group="group"))


def _headers_text(library: Library) -> str:
    record = library.record
    shape = record.get("headers_text", "macro")
    title = record.title
    if shape == "cuda":
        return f'"{title} headers of CUDA " CUSHIM_STRINGIFY(CUDART_VERSION)'
    if shape == "release":
        major, minor, patch = (f"CUSHIM_STRINGIFY({m})" for m in record.parts)
        return f'"{title} " {major} "." {minor} "." {patch} " headers"'
    macro = shape["macro"] if isinstance(shape, dict) else record.compiled
    return f'"{title} headers ({macro} " CUSHIM_STRINGIFY({macro}) ")"'


def render_descriptor(library: Library) -> str:
    """detail/libraries/<file>: the library's descriptor, made with describe_library's setters."""
    record = library.record
    stem = _stem(library)
    built, version, major, shimmed = _shimmed_block(library, stem)
    arrays, present = _arrays(library, stem, major)
    about = f"{record.title} as data" + (f" ({record.opt_in})" if record.opt_in else "") + "."
    if record.opt_in:
        about += " Compiles without its headers: what needs them is behind the macro."
    if record.hooks:
        about += f" What only it does: {hooks_file(library)}."
    includes = ['#include "../tables/api_tables.hpp"', '#include "../search/descriptor.hpp"', '#include "../search/version_queries.hpp"',
                '#include "statuses.hpp"']
    if record.hooks:
        includes.append(f'#include "{hooks_file(library)}"')
    setters = _setters(library, stem, version, major, shimmed, present)
    body = [f"inline constexpr library_descriptor {descriptor_name(library)} =",
            f"    describe_library(library::{library.key})"]
    body += [f"        .{setter}" for setter in setters]
    body[-1] += ";"
    lines = [f"// GENERATED by tools/gen_api.py from tools/libraries.json ({library.key}'s record). Do not edit.",
             *_comment(about), "#pragma once", "", *includes, "", "namespace cushim {", "namespace detail {",
             "namespace {", ""]
    lines += _comment(record.version.get("about"))
    lines += built + ([""] if built else []) + arrays + [""] + body
    lines += ["", "}  // namespace", "}  // namespace detail", "}  // namespace cushim", "",
              f"// {record.title}'s table lines (stubs.hpp): `define` is CUSHIM_DEFINE_STUB or "
              "CUSHIM_DEFINE_DECLARED_STUB.", *_api_macros(library),
              *_macro(f"#define CUSHIM_HEADERS_{library.key}", _headers_text(library))]
    return "\n".join(lines) + "\n"


def _status_owner(libraries: list[Library]) -> dict[str, Library]:
    """The status types and the first library of each; every library sharing one agrees on it."""
    owners: dict[str, Library] = {}
    for library in libraries_of(libraries):
        fallback = library.record.fallback
        owner = owners.setdefault(fallback["status"], library)
        theirs = owner.record.fallback
        if (theirs["unavailable"], theirs["missing"], opt_in_condition(owner)) != \
                (fallback["unavailable"], fallback["missing"], opt_in_condition(library)):
            raise GenError(f"{library.key} and {owner.key} share {fallback['status']} but not its fallbacks or "
                           "their opt-in", EXIT_MISMATCH)
    return owners


def _code_comment(fallback: dict, which: str) -> str:
    parts = [str(fallback[f"{which}_code"])] if f"{which}_code" in fallback else []
    parts += [fallback[f"{which}_about"]] if f"{which}_about" in fallback else []
    return f"  // {': '.join(parts)}" if parts else ""


def render_statuses(libraries: list[Library]) -> str:
    """detail/libraries/statuses.hpp: fallback_status<its status type> of every library."""
    lines = ["// GENERATED by tools/gen_api.py from tools/libraries.json (\"fallback\"). Do not edit.",
             "// What each library's functions return when they cannot reach it (docs/errors.md, \"Error codes\"):",
             "// fallback_status<its status type>, an opt-in library's behind its macro, where its headers are.",
             "#pragma once", "", '#include "../search/descriptor.hpp"', '#include "../search/fallback_status.hpp"', "",
             "namespace cushim {", "namespace detail {", "namespace {"]
    for status, library in _status_owner(libraries).items():
        fallback = library.record.fallback
        condition = opt_in_condition(library) if library.opt_in else None
        lines += [""] + _comment(fallback.get("about"))
        lines += [f"#if {condition}"] if condition else []
        lines += ["template <>", f"struct fallback_status<{status}> {{",
                  f"  static constexpr {status} unavailable = {fallback['unavailable']};"
                  f"{_code_comment(fallback, 'unavailable')}",
                  f"  static constexpr {status} missing = {fallback['missing']};{_code_comment(fallback, 'missing')}",
                  "};"]
        lines += ["#endif"] if condition else []
    lines += ["", "}  // namespace", "}  // namespace detail", "}  // namespace cushim"]
    return "\n".join(lines) + "\n"


def render_descriptor_list(libraries: list[Library]) -> str:
    """api/descriptors.inc: every library's descriptor header and descriptor (detail/libraries/all.hpp)."""
    lines = ["// GENERATED by tools/gen_api.py from tools/libraries.json. Do not edit.",
             "// Every library's descriptor (detail/libraries/<file>, generated from its record), for",
             "// detail/libraries/all.hpp, which places each at its cushim::library value."]
    names = []
    for library in libraries_of(libraries):
        lines.append(f'#include "../detail/libraries/{descriptor_file(library)}"')
        names.append("&" + descriptor_name(library))
    lines.append(f"#define CUSHIM_DESCRIPTORS {', '.join(names)}")
    return "\n".join(lines) + "\n"


def render_toolkit_components(libraries: list[Library]) -> str:
    """doctor/inventory/toolkit_components.inc: each library's component of a toolkit's version.json."""
    lines = ["// GENERATED by tools/gen_api.py from tools/libraries.json (\"toolkit_component\"). Do not edit.",
             "// {key, component}: the component of a toolkit's version.json that gives the library's version",
             "// (doctor/inventory/library_names.hpp, toolkit_component)."]
    lines += [f"{{{c_string(library.key)}, {c_string(library.record.get('toolkit_component'))}}},"
              for library in libraries_of(libraries) if library.record.get("toolkit_component")]
    return "\n".join(lines) + "\n"
