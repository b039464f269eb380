#!/usr/bin/env python3
"""Applies one measurement-only change to a COPY of cushim's include/ folder.

    patch_copy.py INCLUDE_COPY NAME

NAME is one of the changes below. Exit 0 when the change applied (each pattern matched exactly
once), 1 when the copy does not have the expected code (the tree changed: the variant is skipped,
the rest of the benchmark runs). The checkout's own include/ is never touched.
"""
import os
import re
import sys

CHANGES = {
    # The proposed per-call fix: the exported stub loads its slot with memory_order_relaxed.
    "relaxed": [
        ("cushim/detail/stubs/stubs.hpp",
         r'(extern "C" ret conv name params \{ return cushim_stub_##name::cushim_slot\.load\(std::memory_order_)acquire(\) args; \})',
         r"\1relaxed\2"),
    ],
    # "Preflight off": the loader accepts cuDNN without inspecting its sub-libraries.
    "preflight_off": [
        ("cushim/detail/load/copy_acceptance.hpp",
         r"if \(version\.result == outcome::loaded && d_\.hooks\.before_version\) version\.result = d_\.hooks\.before_version\(check\);",
         r""),
    ],
    # The preflight restricted to cuDNN 9's root sub-library (libcudnn_graph), the one every
    # call needs: the others are not even located.
    "preflight_root_only": [
        ("cushim/detail/search/sublibrary_specs.hpp",
         r'return \{\{"graph", true(, "cudnn_graph_version")?\},[^;]*\};',
         r'return {{"graph", true\1}};'),
    ],
}


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in CHANGES:
        sys.stderr.write(f"usage: patch_copy.py INCLUDE_COPY {{{'|'.join(CHANGES)}}}\n")
        return 64
    root, name = sys.argv[1], sys.argv[2]
    for rel, pattern, replacement in CHANGES[name]:
        path = os.path.join(root, rel)
        try:
            text = open(path, encoding="utf-8").read()
        except OSError as e:
            sys.stderr.write(f"patch_copy: {name}: {e}\n")
            return 1
        new, count = re.subn(pattern, replacement, text)
        if count != 1:
            sys.stderr.write(f"patch_copy: {name}: expected 1 match in {rel}, found {count}\n")
            return 1
        open(path, "w", encoding="utf-8").write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
