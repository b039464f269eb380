"""What tools/libraries.json says of each library beside its tables: the facts its descriptor, cushim's
own tests and the documentation are generated from, with each field's default in one place.

The fields (tools/apigen/libraries.py lists the tables' ones), each optional unless said otherwise:
  id               cushim::library's value (required; stable: programs compare with it)
  in_sentence      how a sentence names it ("the CUDA runtime"; default: title)
  disabled_by      the macro that decides whether a build shims it (default: opt_in)
  disabled_why     what the program does instead (default, with an opt_in: "<opt_in> is not
                   defined: the program links <title> itself, if it uses it")
  files            (required) {"posix": {"M": file name}, "windows": {...}}, keyed by the
                   library's own major, the one its version function reports ("*": one file
                   for every major, the driver's libcuda.so.1); "by": the headers whose major
                   picks the file in a build: "cuda" (default), "cudnn", or "own" (its one
                   major whatever the toolkit's); "of_cuda": {"CUDA major": its own major} for
                   a library versioned on its own (its major 10 in CUDA 11's toolkit); "about"
  version          (required) its version function: {"function", "form": how it is called
                   ("returns": size_t f(void); "int_out": f(int*); "property": f(type, int*) for
                   MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL; "major_minor": f(&major, &minor)),
                   "encoding": a key of the file's "encodings", "compiled": the headers' version
                   in that encoding (default: version_macro), "compiled_major" (default: the
                   first of "parts", else CUSHIM_<TABLE>_MAJOR), "parts": {"header", "macros":
                   its headers' MAJOR, MINOR and PATCH macros}, "zero_is_no_answer": true where a
                   version of 0 means "ask the file" (CUDA 13's runtime without a driver), "about"}
  newer_major_works, older_major_works, older_minor_works
                   true: another major, or an older minor, is accepted (the driver; NVML)
  system_only      true: found only where the system installs it, trusted folders only, with no
                   override variable; else CUSHIM_<KEY>_PATH overrides it and the toolkit's
                   folders are searched
  reports_driver   true: its status is also the report's driver section (the driver)
  home_variables   its own install-root variables (cuDNN's CUDNN_PATH, ...)
  pip_packages     its folders under site-packages/nvidia ("cu{cuda_major}": the CUDA major's
                   shared wheel folder, nvidia/cu13)
  windows_installer  %ProgramFiles%\\<it>\\v<major>.*: where NVIDIA's own installer puts it
  fallback         (required) {"status": its status type, "unavailable", "missing": the status its
                   functions return when it cannot be used and when the loaded copy lacks the
                   function, "unavailable_code", "missing_code" (their values, for the
                   documentation), "unavailable_about", "missing_about", "missing_text" (default:
                   "cushim: the loaded <title> lacks this function; ..."), "effect": what calls
                   do while it is unavailable (explain()), "zeroed_outputs": functions whose
                   number outputs the fallback sets to 0, "text_outputs": whose const char**
                   output it points at the text, "recorded": the status values a recording
                   fixture may return, "about"}
  startup_functions  {"names", "about"}: what a program calls on its own before main
  driver_free_functions  {"names", "about"}: for a library that loads the driver by name as it
                   starts, the calls that never do: the only ones made while a FIFO is named
                   libcuda.so.1 where the system loader looks
  install_advice   {"posix", "windows"}: what to do when no copy is found, where "install it or
                   point cushim at it" does not apply
  calling_convention  the headers' calling-convention macro its stubs are declared with, or
                   {"windows": macro, "about"} where it is one on Windows only
  headers_text     how the build's messages name its headers: "macro" (default: "<title> headers
                   (<compiled> n)"), {"macro": another macro}, "cuda" ("<title> headers of CUDA
                   n"), "release" ("<title> M.m.p headers", from version "parts")
  hooks            what only this library does, by name: {"<library_hooks field>": the function
                   in <key>_hooks:: (or a qualified name), "uses": the libraries whose
                   descriptors the hooks read}; the code is detail/libraries/<file>_hooks.hpp
  toolkit_component  the component of a toolkit's version.json that gives its version (the doctor)
  doc_note         what README.md's row of its opt-in macro says beside what the record gives
  tests            for cushim's own tests: {"missing_call": a function its test fixtures lack,
                   which puts it in the scenarios every plain library gets (a 32-bit copy, a
                   text file, another major, an empty override, a missing function), and in
                   the real-library checks; "imported_by": the libraries that import it and are
                   loaded first (kept behind empty overrides); "other_major": the step to the
                   major of its "another major" fixture (default -1), "about"}
  undeclared_exports, declared_not_exported
                   {"names": regular expression, "about"}: what its library exports and no header
                   declares, and what the newest headers declare and the library does not export
                   (the test that holds every table against its library's exports)
  named_in         {"<path or glob>": why}: the hand-written files that may name it (the test
                   library_mentions); "*" for a library every part of cushim names
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .model import EXIT_ENV, GenError

FORMS = ("returns", "int_out", "property", "major_minor")
HOOK_FIELDS = ("before_version", "after_version", "adopted", "wrap", "blocks_call", "complete_status",
               "cross_check", "install_advice", "load_pending")


@dataclass(frozen=True)
class Encoding:
    name: str
    weights: tuple[int, ...]  # of the major, the minor and, where it has one, the patch level

    @property
    def has_patch(self) -> bool:
        return len(self.weights) == 3


@dataclass(frozen=True)
class Record:
    key: str
    title: str
    id: int
    settings: dict  # the entry as written
    encoding: Encoding
    table_stem: str  # CUSHIM_<stem>_MAJOR, the selected table's major

    def get(self, name: str, default=None):
        return self.settings.get(name, default)

    # --- names
    @property
    def in_sentence(self) -> str:
        return self.settings.get("in_sentence", self.title)

    @property
    def opt_in(self) -> str | None:
        return self.settings.get("opt_in")

    @property
    def disabled_by(self) -> str:
        return self.settings.get("disabled_by", self.opt_in or "")

    @property
    def disabled_why(self) -> str:
        if "disabled_why" in self.settings:
            return self.settings["disabled_why"]
        if not self.opt_in:
            return ""
        return f"{self.opt_in} is not defined: the program links {self.title} itself, if it uses it"

    # --- files
    @property
    def files(self) -> dict:
        return self.settings["files"]

    def file_names(self, os_name: str) -> dict[str, str]:
        """{own major or "*": file name} of one OS."""
        return self.files.get(os_name, {})

    @property
    def files_by(self) -> str:
        return self.files.get("by", "cuda")

    @property
    def link_name(self) -> str:
        """cudnn for libcudnn.so.9: what -l names."""
        first = next(iter(self.file_names("posix").values()))
        return re.sub(r"^lib|\.so.*$", "", first)

    def own_major_of_cuda(self, cuda_major: str) -> str | None:
        """Its own major in a CUDA major's toolkit, or None where that toolkit has none."""
        names = self.file_names("posix")
        if "*" in names:
            return "*"
        of_cuda = self.files.get("of_cuda")
        if of_cuda is not None:
            own = of_cuda.get(cuda_major)
            return None if own is None else str(own)
        return cuda_major if cuda_major in names else None

    # --- version
    @property
    def version(self) -> dict:
        return self.settings["version"]

    @property
    def compiled(self) -> str:
        return self.version.get("compiled", self.settings["version_macro"])

    @property
    def parts(self) -> list[str] | None:
        parts = self.version.get("parts")
        return parts["macros"] if parts else None

    @property
    def compiled_major(self) -> str:
        if "compiled_major" in self.version:
            return self.version["compiled_major"]
        return self.parts[0] if self.parts else f"CUSHIM_{self.table_stem}_MAJOR"

    # --- search
    @property
    def system_only(self) -> bool:
        return bool(self.settings.get("system_only"))

    @property
    def override_variable(self) -> str | None:
        return None if self.system_only else f"CUSHIM_{self.key.upper()}_PATH"

    @property
    def in_toolkit(self) -> bool:
        return not self.system_only

    def pip_packages(self) -> list[str]:
        return self.settings.get("pip_packages", [])

    # --- fallbacks
    @property
    def fallback(self) -> dict:
        return self.settings["fallback"]

    @property
    def unavailable_text(self) -> str:
        return f"cushim: {self.in_sentence} is unavailable; cushim::explain() says why and what to do"

    @property
    def missing_text(self) -> str:
        return self.fallback.get(
            "missing_text", f"cushim: the loaded {self.title} lacks this function; cushim::explain() says which copy "
                            "was loaded")

    @property
    def older_minor_effect(self) -> str:
        return f"return {self.fallback['missing']}"

    # --- hooks and tests
    @property
    def hooks(self) -> dict[str, str]:
        return {k: v for k, v in self.settings.get("hooks", {}).items() if k in HOOK_FIELDS}

    @property
    def tests(self) -> dict:
        return self.settings.get("tests", {})

    @property
    def plain(self) -> bool:
        """In the scenarios every plain library gets (tests: "missing_call")."""
        return "missing_call" in self.tests


def load_encodings(data: dict) -> dict[str, Encoding]:
    return {name: Encoding(name, tuple(entry["weights"]))
            for name, entry in data.get("encodings", {}).items() if name != "about"}


def make_record(settings: dict, encodings: dict[str, Encoding], table_stem: str) -> Record:
    key = settings["key"]
    version = settings.get("version")
    if not version or version.get("form") not in FORMS or version.get("encoding") not in encodings:
        raise GenError(f"{key}: \"version\" needs a \"function\", a \"form\" ({', '.join(FORMS)}) and an "
                       f"\"encoding\" ({', '.join(encodings)})", EXIT_ENV)
    unknown = set(settings.get("hooks", {})) - set(HOOK_FIELDS) - {"uses"}
    if unknown:
        raise GenError(f"{key}: unknown hooks {sorted(unknown)} (library_hooks has {', '.join(HOOK_FIELDS)})",
                       EXIT_ENV)
    return Record(key=key, title=settings["title"], id=settings["id"], settings=settings,
                  encoding=encodings[version["encoding"]], table_stem=table_stem)
