#!/usr/bin/env python3
"""Every sentence a person reads is written in a words file (docs/contributing.md, "Where words
live"). Lists the string literals of four or more words in doctor/ and include/cushim/detail/
outside the words files and fails on each one the baseline does not hold, printing file:line and
the literal. The baseline (sentence_literals_baseline.txt, one literal a line as this script prints
it) holds those not yet moved; it only ever shrinks: a line no literal matches any more fails too,
and --shrink removes such lines (it never adds one).

Usage: check_sentence_literals.py ROOT [--shrink]"""
import collections
import pathlib
import re
import sys

SCANNED = ('doctor', 'include/cushim/detail')
SOURCE_SUFFIXES = ('.hpp', '.cpp', '.inc', '.h')
BASELINE = pathlib.Path(__file__).with_name('sentence_literals_baseline.txt')


def is_words_file(rel):
    """The words files: those in a words/ folder (the doctor's, and each stage's in include/cushim/detail/)."""
    return 'words' in rel.parts[:-1]


# One token of C++ source that matters here: a comment, a string or character literal (with its
# prefix; raw strings whole), or a preprocessor line's start.
TOKEN = re.compile(
    r'''(?P<line_comment>//[^\n]*)'''
    r'''|(?P<block_comment>/\*.*?\*/)'''
    r'''|(?P<raw>(?<!\w)(?:u8|[uUL])?R"(?P<delim>[^ ()\\\t\n]{0,16})\((?P<raw_body>.*?)\)(?P=delim)")'''
    r'''|(?P<string>(?:u8|[uUL])?"(?P<body>(?:[^"\\\n]|\\.)*)")'''
    r'''|(?P<char>(?<![\w.])(?:u8|[uUL])?'(?:[^'\\\n]|\\.)*')'''
    r'''|(?P<include>^[ \t]*\#[ \t]*include[^\n]*)''', re.S | re.M)
BETWEEN_PIECES = re.compile(r'\s*')
ESCAPE = re.compile(r'\\(.)')
LETTER = re.compile(r'[A-Za-z]')


def literals(text):
    """(line, text) of each string literal, the pieces of an adjacent-literal concatenation joined
    as the compiler joins them; comments and #include lines are not code a person reads."""
    pieces = []  # (start line, end offset, body) of each literal, the last one still being joined
    for m in TOKEN.finditer(text):
        if m.group('string') is not None or m.group('raw') is not None:
            body = m.group('body') if m.group('string') is not None else m.group('raw_body').replace('\n', '\\n')
            if pieces and BETWEEN_PIECES.fullmatch(text, pieces[-1][1], m.start()):
                line, _, joined = pieces.pop()
                pieces.append((line, m.end(), joined + body))
            else:
                pieces.append((text.count('\n', 0, m.start()) + 1, m.end(), body))
    return [(line, body) for line, _, body in pieces]


def words(body):
    """The whitespace-separated tokens with a letter in them (\\n, \\t and \\r are spaces). A token
    with a path separator is a path, a fact of the machine, not a word: "NVIDIA GPU Computing
    Toolkit\\CUDA" is a folder's name, "pip install cupy --index-url https://..." still four words."""
    text = ESCAPE.sub(lambda m: ' ' if m.group(1) in 'ntr' else m.group(1), body)
    return [w for w in text.split() if LETTER.search(w) and '/' not in w and '\\' not in w]


def sentences(root):
    """(path, line, literal) of every literal of four or more words outside the words files."""
    for folder in SCANNED:
        for path in sorted((root / folder).rglob('*')):
            rel = path.relative_to(root)
            if path.suffix not in SOURCE_SUFFIXES or not path.is_file() or is_words_file(rel):
                continue
            for line, body in literals(path.read_text(encoding='utf-8')):
                if len(words(body)) >= 4:
                    yield rel.as_posix(), line, body


def main():
    args = [a for a in sys.argv[1:] if a != '--shrink']
    shrink = '--shrink' in sys.argv[1:]
    root = pathlib.Path(args[0] if args else '.').resolve()
    baseline = [l for l in BASELINE.read_text(encoding='utf-8').split('\n') if l]
    allowed = collections.Counter(baseline)
    new = []
    for rel, line, body in sentences(root):
        if allowed[body] > 0:
            allowed[body] -= 1
        else:
            new.append(f'{rel}:{line}: "{body}"')
    stale = +allowed
    if shrink:
        kept = collections.Counter(baseline) - stale
        BASELINE.write_text(''.join(l + '\n' for l in sorted(kept.elements())), encoding='utf-8')
        print(f'{BASELINE.name}: {sum(stale.values())} lines removed, {sum(kept.values())} left')
        baseline, stale = list(kept.elements()), collections.Counter()
    for n in new:
        print(n)
    if new:
        print(f'{len(new)} sentence literals outside the words files: build them in a words file from named '
              'constructors that take facts (docs/contributing.md, "Where words live")')
    for body, count in sorted(stale.items()):
        print(f'{BASELINE.name}: "{body}" ({count}x) is gone: run with --shrink to remove it')
    if not new and not stale:
        print(f'no new sentence literals; {len(baseline)} in the baseline')
    return 1 if new or stale else 0


if __name__ == '__main__':
    sys.exit(main())
