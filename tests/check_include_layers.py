#!/usr/bin/env python3
"""include/cushim/detail/ is one folder per stage of the data flow, and includes point down.

STAGES lists the folders bottom-up; docs/contributing.md ("Repository") shows them in the same
order, which this check compares. A detail header may include one of its own stage or of a stage
below it, never one above; detail/implementation.hpp, the one entry (diagnostics.hpp includes it
under CUSHIM_IMPLEMENTATION), sits above them all. #include CUSHIM_OS_* counts as including both
platforms' files that platform/os.hpp names. A detail header includes no public header (cushim.hpp,
status.hpp, diagnostics.hpp): the public headers lead into detail/, never the other way.

usage: check_include_layers.py <repository root>
"""
import os
import re
import sys

# Bottom-up: a folder may include only itself and those before it.
STAGES = ['types', 'files', 'platform', 'tables', 'search', 'probe', 'load', 'report', 'libraries',
          'stubs', 'answers']
PUBLIC = {'cushim.hpp', 'status.hpp', 'diagnostics.hpp'}

root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
cushim = os.path.join(root, 'include', 'cushim')
detail = os.path.join(cushim, 'detail')
failures = []


ENTRY = 'implementation.hpp'  # detail/'s one file of its own: the entry, above every stage


def stage_of(rel):
    """The stage index of a detail-relative path: len(STAGES) for the entry, None outside the stages."""
    if rel == ENTRY:
        return len(STAGES)
    top = rel.split('/')[0]
    return STAGES.index(top) if '/' in rel and top in STAGES else None


macros = {}
os_hpp = os.path.join(detail, 'platform', 'os.hpp')
for name, path in re.findall(r'#define (CUSHIM_OS_\w+) "([^"]+)"', open(os_hpp, encoding='utf-8').read()):
    macros.setdefault(name, []).append(path)

INCLUDE = re.compile(r'^\s*#\s*include\s+(?:"([^"]+)"|(CUSHIM_OS_\w+))', re.M)
headers = 0
for folder, _, names in os.walk(detail):
    for name in sorted(names):
        path = os.path.join(folder, name)
        rel = os.path.relpath(path, detail).replace(os.sep, '/')
        if not name.endswith(('.hpp', '.inc')):
            continue
        headers += 1
        here = stage_of(rel)
        if here is None:
            failures.append(f'detail/{rel}: in no stage folder (STAGES in {sys.argv[0]})')
            continue
        publics = set()
        for line_text, quoted, macro in ((m.group(0), m.group(1), m.group(2))
                                         for m in INCLUDE.finditer(open(path, encoding='utf-8').read())):
            for inc in [quoted] if quoted else macros.get(macro, []):
                target = os.path.normpath(os.path.join(folder, inc))
                if not os.path.exists(target):
                    failures.append(f'detail/{rel}: {line_text.strip()} names no file ({inc})')
                    continue
                to_cushim = os.path.relpath(target, cushim).replace(os.sep, '/')
                if to_cushim in PUBLIC:
                    publics.add(to_cushim)
                    continue
                if not to_cushim.startswith('detail/'):
                    continue  # api/*.inc: generated fragments of the header that includes them
                to = to_cushim[len('detail/'):]
                there = stage_of(to)
                if there is not None and there > here:
                    failures.append(f'detail/{rel} ({STAGES[here] if here < len(STAGES) else "detail/"}) includes '
                                    f'detail/{to}, a stage above it ({STAGES[there]})')
        for pub in sorted(publics):
            failures.append(f'detail/{rel} includes the public header {pub}: move what it needs into detail/types/')

# The layout section of docs/contributing.md shows the same stages in the same order.
doc = open(os.path.join(root, 'docs', 'contributing.md'), encoding='utf-8').read()
block = doc[doc.index('include/cushim/detail/ '):doc.index('\ndoctor/')]
shown = re.findall(r'^  (\w+)/', block, re.M)
if shown != STAGES:
    failures.append(f'docs/contributing.md ("Repository") shows the stages {shown}, this check {STAGES}')

if failures:
    print('\n'.join(failures))
    sys.exit(1)
print(f'{headers} detail headers in {len(STAGES)} stages; every include points to its own stage or one below')
