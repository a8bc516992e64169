#!/usr/bin/env python3
"""Writes a Markdown report on a CSV table with the project's tabletools package."""
import sys

try:
    import tabletools
except ModuleNotFoundError:
    sys.exit("tabletools is not installed in the project's .venv: python3 -m venv .venv, then install it")

if len(sys.argv) < 2:
    sys.exit("usage: report.py TABLE.csv [REPORT.md]")
source = sys.argv[1]
target = sys.argv[2] if len(sys.argv) > 2 else "report.md"
table = tabletools.read_table(source)
with open(target, "w", encoding="utf-8") as report:
    report.write(tabletools.markdown_report(table, title=source))
print(f"wrote {target}: {len(table.rows)} rows, {len(table.columns)} columns")
