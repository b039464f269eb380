"""C types and declarators as text: the spelling clang prints, a name put where it belongs."""

from __future__ import annotations

import re

# Identifiers that cannot be used as parameter names in C or C++ (incl. alternative tokens).
RESERVED_WORDS = frozenset("""
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t
    char16_t char32_t class compl concept const consteval constexpr constinit const_cast
    continue co_await co_return co_yield decltype default delete do double dynamic_cast else
    enum explicit export extern false float for friend goto if inline int long mutable
    namespace new noexcept not not_eq nullptr operator or or_eq private protected public
    register reinterpret_cast requires restrict return short signed sizeof static
    static_assert static_cast struct switch template this thread_local throw true try typedef
    typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq
    _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn _Static_assert
    _Thread_local
""".split())

_TOKEN = re.compile(r"[A-Za-z_]\w*|\d+|::|\.\.\.|\S")


def _is_word(tok: str) -> bool:
    return tok[0].isalnum() or tok[0] == "_"


def _needs_space(prev: str, tok: str) -> bool:
    """Spacing rule of clang's type printer: "const void *const *", "void (*)(int)", "int [4]"."""
    if prev in "([" or tok in ")],":
        return False
    if prev == ",":
        return True
    if tok in ("*", "&", "&&"):
        return prev not in ("*", "&", "&&")
    if tok == "(":
        return _is_word(prev)
    if tok == "[":
        return _is_word(prev)
    if _is_word(tok):
        return prev not in ("*", "&", "&&")
    return True


def normalize_type(text: str) -> str:
    """Canonical spelling of a C type so manifest and clang spellings compare equal."""
    out: list[str] = []
    for tok in _TOKEN.findall(text):
        if out and _needs_space(out[-1], tok):
            out.append(" ")
        out.append(tok)
    return "".join(out)


def _matching_paren(text: str, open_index: int) -> int:
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] in "([":
            depth += 1
        elif text[i] in ")]":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError(f"unbalanced parentheses in {text!r}")


def declare(type_text: str, name: str) -> str:
    """Put `name` into the (normalised) type where a declarator's identifier belongs.

    "int" -> "int name", "const void *" -> "const void *name", "const int [8]" ->
    "const int name[8]", "void (*)(void *)" -> "void (*name)(void *)".
    """
    depth = 0
    for i, ch in enumerate(type_text):
        if ch in "([" and depth == 0:
            if ch == "(" and type_text[i + 1:i + 2] in ("*", "&", "^"):
                # A grouping paren: the name lives inside it, e.g. "(*)" -> "(*name)".
                close = _matching_paren(type_text, i)
                inner = declare(type_text[i + 1:close], name)
                return type_text[:i + 1] + inner + type_text[close:]
            return _join_name(type_text[:i], name) + type_text[i:]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
    return _join_name(type_text, name)


def _join_name(prefix: str, name: str) -> str:
    prefix = prefix.rstrip()
    if not prefix or prefix[-1] in "*&(^":
        return prefix + name
    return f"{prefix} {name}"


def param_names(params: tuple[tuple[str, str], ...]) -> list[str]:
    """Names as declared; unnamed, reserved or duplicate names become p<position>."""
    names: list[str] = []
    for index, (_, name) in enumerate(params):
        if not name or name in RESERVED_WORDS or name in names:
            name = f"p{index}"
        names.append(name)
    return names


def render_params(params: tuple[tuple[str, str], ...]) -> tuple[str, str]:
    """The "(parameters)" and "(arguments)" texts of one X-macro line."""
    if not params:
        return "(void)", "()"
    names = param_names(params)
    decls = [declare(t, n) for (t, _), n in zip(params, names)]
    return "(" + ", ".join(decls) + ")", "(" + ", ".join(names) + ")"
