#!/usr/bin/python3
"""Puts a generated file into README.md and docs/*.md between its markers.

usage: figures_embed.py NAME FILE [LANG]
Replaces what lies between `<!-- figures.sh: NAME -->` and the next `<!-- /figures.sh -->` with
FILE's text, fenced as ```LANG when LANG is given (a table or text to show as it is otherwise).
A NAME found in no file is an error: a marker that was renamed or lost must not pass unnoticed.
"""
import glob
import os
import re
import sys

name, source = sys.argv[1], sys.argv[2]
lang = sys.argv[3] if len(sys.argv) > 3 else None
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
text = open(source, encoding="utf-8").read().rstrip("\n") + "\n"
if lang is not None:
    text = f"```{lang}\n{text}```\n"
pattern = re.compile(r"(<!-- figures\.sh: " + re.escape(name) + r" -->\n)(.*?)(<!-- /figures\.sh -->)", re.S)
found = 0
for path in [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md"))):
    old = open(path, encoding="utf-8").read()
    new, n = pattern.subn(lambda m: m.group(1) + text + m.group(3), old)
    found += n
    if new != old:
        open(path, "w", encoding="utf-8").write(new)
if not found:
    sys.exit(f"figures_embed.py: no block '<!-- figures.sh: {name} -->' in README.md or docs/*.md")
