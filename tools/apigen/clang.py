"""The real headers, read through clang: their functions (JSON AST) and their release (macros)."""

from __future__ import annotations

import ast
import json
import operator
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .libraries import Library, Parse
from .model import EXIT_ENV, EXIT_MISMATCH, Function, GenError, Snapshot, make_function


@dataclass(frozen=True)
class Toolchain:
    clang: str
    include_dirs: tuple[Path, ...]

    def has_header(self, header: str) -> bool:
        return any((d / header).is_file() for d in self.include_dirs)

    def run(self, source: str, extra: list[str]) -> str:
        cmd = [self.clang, "-x", "c++", "-std=c++17", *extra]
        cmd += [f"-I{d}" for d in self.include_dirs] + ["-"]
        proc = subprocess.run(cmd, input=source, capture_output=True, text=True)
        if proc.returncode != 0:
            raise GenError(f"{self.clang} failed (exit {proc.returncode}) on {source.strip()!r} "
                           f"(include dirs: {', '.join(map(str, self.include_dirs))}):\n"
                           f"{proc.stderr.strip()}", EXIT_ENV)
        return proc.stdout

    def macros(self, header: str) -> dict[str, str]:
        text = self.run(f"#include <{header}>\n", ["-E", "-dM"])
        found = {}
        for line in text.splitlines():
            parts = line.split(None, 2)
            if len(parts) == 3 and parts[0] == "#define":
                found[parts[1]] = parts[2]
        return found

    def ast_documents(self, source: str, defines: tuple[str, ...], name_filter: str) -> list:
        """JSON AST of the declarations whose name contains name_filter.

        With -ast-dump-filter clang prints one JSON document per matching declaration,
        back to back, so decode them one at a time.
        """
        text = self.run(source, [f"-D{d}" for d in defines] +
                        ["-fsyntax-only", "-Xclang", "-ast-dump=json",
                         "-Xclang", f"-ast-dump-filter={name_filter}"])
        decoder = json.JSONDecoder()
        documents, pos = [], 0
        while True:
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if pos >= len(text):
                return documents
            document, pos = decoder.raw_decode(text, pos)
            documents.append(document)


_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}


def _integer(node: ast.AST) -> int:
    """The value of an expression of integers, +, - and *; ValueError for anything else."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_integer(node.left), _integer(node.right))
    raise ValueError(ast.dump(node))


def macro_value(macros: dict[str, str], name: str) -> int | None:
    """The integer a version macro expands to ("(9 * 10000 + 19 * 100 + 0)" -> 91900)."""
    text = macros.get(name, "")
    for _ in range(8):  # version macros refer to a few others (CUDNN_MAJOR, ...)
        text = re.sub(r"\b[A-Za-z_]\w*", lambda m: f"({macros.get(m.group(), m.group())})", text)
    try:
        return _integer(ast.parse(re.sub(r"\b(\d+)[uUlL]+\b", r"\1", text), mode="eval").body)
    except (SyntaxError, ValueError):
        return None


def function_decls_with_files(documents: list) -> list[tuple[dict, str]]:
    """Each top-level FunctionDecl with the file its name is declared in.

    clang's JSON omits "file" from a location when it equals the previously printed one,
    so walk every location in output order and remember the last file seen.
    """
    state = {"file": ""}
    found: list[tuple[dict, str]] = []
    top_level = {id(document) for document in documents}

    def walk(node) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
            return
        if not isinstance(node, dict):
            return
        for key, value in node.items():
            if key == "includedFrom":  # names the includer; does not move the location
                continue
            if key == "file" and isinstance(value, str):
                state["file"] = value
            else:
                walk(value)
            if key == "loc" and node.get("kind") == "FunctionDecl" and id(node) in top_level:
                found.append((node, state["file"]))

    walk(documents)
    return found


def _return_type(function_type: str, name: str) -> str:
    """"cudnnStatus_t (cudnnHandle_t, int)" -> "cudnnStatus_t"."""
    text = re.sub(r"\s+(noexcept|throw\(\))$", "", function_type.strip())
    if not text.endswith(")"):
        raise GenError(f"{name}: unexpected function type {function_type!r}", EXIT_MISMATCH)
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[i], 0)
        if depth == 0:
            ret = text[:i].strip()
            if "(" in ret:  # a function returning a function pointer; no API has one
                raise GenError(f"{name}: unsupported return type in {function_type!r}",
                               EXIT_MISMATCH)
            return ret
    raise GenError(f"{name}: unbalanced function type {function_type!r}", EXIT_MISMATCH)


def _exported(decl: dict) -> bool:
    """extern "C", not static, not inline: a symbol the shared library exports."""
    mangled = decl.get("mangledName", "")
    c_linkage = bool(mangled) and not mangled.startswith(("_Z", "?"))  # C++ names are mangled
    return (c_linkage and decl.get("storageClass") != "static"
            and not decl.get("inline") and not decl.get("isImplicit"))


def _function(decl: dict, header: str) -> Function:
    name = decl["name"]
    if decl.get("variadic"):
        raise GenError(f"{name}: variadic functions cannot be forwarded", EXIT_MISMATCH)
    params = [(p["type"]["qualType"], p.get("name", ""))
              for p in decl.get("inner", []) if p.get("kind") == "ParmVarDecl"]
    return make_function(name, _return_type(decl["type"]["qualType"], name), params, header)


def parse_functions(toolchain: Toolchain, parse: Parse) -> list[Function]:
    """The exported functions one clang run declares in the headers the parse keeps."""
    found = []
    for decl, path in function_decls_with_files(
            toolchain.ast_documents(parse.source, parse.defines, parse.prefix)):
        base = os.path.basename(path)
        name = decl.get("name", "")
        if (name.startswith(parse.prefix) and re.fullmatch(parse.declared_in, base)
                and _exported(decl) and not (parse.exclude and re.fullmatch(parse.exclude, name))):
            found.append(_function(decl, base))
    return found


def header_functions(toolchain: Toolchain, library: Library) -> dict[str, Function]:
    """The library's exported functions: every parse's, and those no header declares."""
    functions: dict[str, Function] = {}
    for parse in library.parses:
        for function in parse_functions(toolchain, parse):
            previous = functions.setdefault(function.name, function)
            if previous.signature() != function.signature():
                raise GenError(f"{function.name}: conflicting redeclarations in the headers",
                               EXIT_MISMATCH)
    if not functions:
        raise GenError(f"no {library.prefix}* functions found through "
                       f"<{library.umbrella_header}>", EXIT_ENV)
    for function in library.undeclared:
        if function.name in functions:
            raise GenError(f"{function.name} is listed as undeclared, but the headers declare "
                           "it: remove it from tools/libraries.json", EXIT_MISMATCH)
        functions[function.name] = function
    return functions


def overloaded_names(toolchain: Toolchain, source: str, prefix: str) -> set[str]:
    """Names declared both as an exported C function and as C++ overloads (inline, static,
    templates) in one translation unit: the headers cannot be asked for such a name's C
    prototype without spelling it."""
    kinds: dict[str, set[str]] = {}
    for document in toolchain.ast_documents(source, (), prefix):
        name = document.get("name", "")
        if document.get("kind") == "FunctionDecl":
            kinds.setdefault(name, set()).add("C" if _exported(document) else "C++")
        elif document.get("kind") == "FunctionTemplateDecl":
            kinds.setdefault(name, set()).add("C++")
    return {name for name, found in kinds.items() if found == {"C", "C++"}}


def check_overloads(toolchain: Toolchain, library: Library) -> None:
    """Every overloaded name the headers have follows the manifest rule (libraries.json)."""
    detection = library.detection
    for source in detection.overloads_from:
        for name in sorted(overloaded_names(toolchain, source, library.prefix)):
            if not (detection.manifest_rule and re.fullmatch(detection.manifest_rule, name)):
                raise GenError(f"{name}: {source.strip()!r} overloads it in C++, so the "
                               "implementation file cannot ask the headers for its prototype; add "
                               f"it to {library.key}'s detection.manifest_rule in "
                               "tools/libraries.json", EXIT_MISMATCH)


def headers_snapshot(toolchain: Toolchain, library: Library) -> Snapshot:
    """The release of the headers clang sees, with their functions."""
    code = macro_value(toolchain.macros(library.version_header), library.version_macro)
    if code is None:
        raise GenError(f"{library.version_header} does not define {library.version_macro} "
                       "as a number", EXIT_ENV)
    version = library.decode(code)
    check_overloads(toolchain, library)
    return Snapshot(version, library.release(version), "headers",
                    header_functions(toolchain, library))
