"""One function of one release, one release's API, and the errors that end a run."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from .declarators import normalize_type

EXIT_STALE, EXIT_ENV, EXIT_MISMATCH = 1, 2, 3

Version = tuple[int, int, int]

# C++ names a tag's type with or without its keyword ("enum cudaStreamAttrID" is
# "cudaStreamAttrID"), so a header that only drops the keyword keeps the prototype.
_ELABORATED = re.compile(r"\b(?:enum|struct|union) (?=[A-Za-z_])")


class GenError(Exception):
    """A failure that ends the run with a given exit status."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


def parse_version(text: str) -> Version:
    """"9.6.0" -> (9, 6, 0), "11.8" -> (11, 8, 0)."""
    parts = [int(p) for p in text.split(".")]
    return tuple((parts + [0, 0, 0])[:3])  # type: ignore[return-value]


@dataclass(frozen=True)
class Function:
    name: str
    ret: str
    params: tuple[tuple[str, str], ...]  # (normalised type, name as declared, may be "")
    header: str  # base name of the declaring header, e.g. "cudnn_ops.h"

    def signature(self) -> tuple:
        """The exact spelling of the prototype (parameter names don't count)."""
        return (self.ret, tuple(t for t, _ in self.params), self.header)

    def prototype(self) -> tuple:
        """The prototype as C++ sees it: one stub serves every release that shares it."""
        ret, types, header = self.signature()
        return (_ELABORATED.sub("", ret), tuple(_ELABORATED.sub("", t) for t in types), header)


def make_function(name: str, ret: str, params, header: str) -> Function:
    return Function(
        name=name,
        ret=normalize_type(ret),
        params=tuple((normalize_type(t), n or "") for t, n in params),
        header=os.path.basename(header),
    )


@dataclass(frozen=True)
class Snapshot:
    """The functions of one release, read from its manifest or from its headers."""
    version: Version
    release: str  # as the vendor writes it: "9.6.0", "11.8"
    origin: str  # "manifest" or "headers"
    functions: dict[str, Function]

    @property
    def label(self) -> str:
        return f"{self.release} {self.origin}"
