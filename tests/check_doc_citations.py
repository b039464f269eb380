#!/usr/bin/env python3
"""Every citation of a documentation section in the sources, `<page>.md, "<heading>"` (also across a
wrapped comment, also with the quotes escaped inside a string literal), names a page that exists and
a heading of it with that text; every relative link of README.md and docs/*.md names a file that
exists and, with #anchor, a heading of it. Fails naming each citation or link that does not."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else '.').resolve()
skipped_dirs = {'.git', 'subprojects', 'node_modules'}
too_big = 4 << 20

# A line break and the comment marker that continues a comment become spaces of the same length,
# so a citation wrapped over two comment lines is found and offsets still give line numbers.
continuation = re.compile(r'\n[ \t]*(?://+|#+|\*+|--)?')
citation = re.compile(r'(?<![\w./-])((?:[\w.-]+/)*[\w.-]+\.md|README),[ \t]+\\?"([^"\\\n]{1,160}?)\\?"')
link = re.compile(r'\[[^\]\n]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
fence = re.compile(r'^\s*(```|~~~)')
numbered = re.compile(r'^\d+(?:\.\d+)*\.\s+')


def source_files():
    for path in sorted(root.rglob('*')):
        rel = path.relative_to(root)
        if any(part in skipped_dirs or part.startswith('build') for part in rel.parts[:-1]):
            continue
        if path.is_file() and path.stat().st_size < too_big:
            data = path.read_bytes()
            if b'\0' not in data:
                yield path, data.decode('utf-8', 'replace')


def headings(path):
    """The ATX headings of a markdown file outside code fences, in order."""
    out, fenced = [], False
    for line in path.read_text(encoding='utf-8', errors='replace').split('\n'):
        if fence.match(line):
            fenced = not fenced
        elif not fenced:
            m = re.match(r'#{1,6}\s+(.*?)\s*#*\s*$', line)
            if m:
                out.append(m.group(1))
    return out


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r'[^\w\- ]', '', heading.strip().lower())
    return text.replace(' ', '-')


def anchors(path):
    seen, out = {}, set()
    for h in headings(path):
        s = slug(h)
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else f'{s}-{n}')
    return out


def resolve(cited, citing):
    if cited == 'README':
        cited = 'README.md'
    for base in (root, citing.parent):
        candidate = (base / cited).resolve()
        if candidate.is_file():
            return candidate
    return None


def line_of(text, offset):
    return text.count('\n', 0, offset) + 1


failures, cited_count, link_count = [], 0, 0
for path, text in source_files():
    rel = path.relative_to(root)
    joined = continuation.sub(lambda m: ' ' * len(m.group(0)), text)
    for m in citation.finditer(joined):
        cited, section = m.group(1), re.sub(r'\s+', ' ', m.group(2)).strip()
        cited_count += 1
        where = f'{rel}:{line_of(text, m.start())}: {cited}, "{section}"'
        page = resolve(cited, path)
        if page is None:
            failures.append(f'{where}: no such page')
        elif section not in {numbered.sub('', h) for h in headings(page)} | set(headings(page)):
            failures.append(f'{where}: {page.relative_to(root)} has no heading "{section}"')

pages = [root / 'README.md'] + sorted((root / 'docs').glob('*.md'))
for page in pages:
    if not page.is_file():
        failures.append(f'{page.relative_to(root)}: missing')
        continue
    fenced = False
    for number, line in enumerate(page.read_text(encoding='utf-8').split('\n'), 1):
        if fence.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        for m in link.finditer(re.sub(r'`[^`]*`', '', line)):
            target = m.group(1)
            if re.match(r'[a-z][a-z0-9+.-]*:', target):
                continue  # https:, mailto:: not checked here
            link_count += 1
            where = f'{page.relative_to(root)}:{number}: link {target}'
            file_part, _, anchor = target.partition('#')
            linked = (page.parent / file_part).resolve() if file_part else page
            if not linked.exists():
                failures.append(f'{where}: no such file')
            elif anchor and (not linked.is_file() or anchor not in anchors(linked)):
                failures.append(f'{where}: no heading with the anchor #{anchor} in {linked.relative_to(root)}')

if failures:
    print('\n'.join(failures))
    print(f'{len(failures)} of {cited_count} citations and {link_count} links name nothing that exists')
    sys.exit(1)
print(f'{cited_count} citations of a section and {link_count} relative links in {len(pages)} pages: all name '
      'an existing page and heading')
