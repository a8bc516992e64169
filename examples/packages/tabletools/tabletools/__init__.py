"""tabletools: read a CSV table and describe its numeric columns (an example package)."""
import csv
from dataclasses import dataclass

__all__ = ["Table", "read_table", "markdown_report"]


@dataclass
class Table:
    columns: list
    rows: list


def read_table(path):
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        columns = next(reader, [])
        rows = [row for row in reader if row]
    return Table(columns=columns, rows=rows)


def _number(text):
    try:
        return float(text)
    except ValueError:
        return None


def markdown_report(table, title="table"):
    lines = [f"# Report on {title}", "", f"{len(table.rows)} rows.", ""]
    lines += ["| column | values | total | average |", "| --- | ---: | ---: | ---: |"]
    for index, name in enumerate(table.columns):
        numbers = [
            value
            for value in (_number(row[index]) for row in table.rows if index < len(row))
            if value is not None
        ]
        if not numbers:
            continue
        total = sum(numbers)
        lines.append(f"| {name} | {len(numbers)} | {total:g} | {total / len(numbers):g} |")
    return "\n".join(lines) + "\n"
