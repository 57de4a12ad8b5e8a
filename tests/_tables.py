"""Parse the all_reduce table back out of each rendered view (terminal, Markdown, HTML)
and compare it cell by cell with report.json, so a view that prints a wrong number
fails a test instead of only one that drops a header.

A rendered number is compared within half a unit of its last printed digit: the view
rounds, it must not change the value. Integers (size, count, #wrong, slowest rank)
must be equal.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

# Report key (or a function of the row), decimals the views print (None: exact integer).
COLUMNS = [
    ("size", None),
    ("count", None),
    ("type", "text"),
    ("redop", "text"),
    ("root", None),  # nccl-tests' root column (schema 1.2; -1 for rootless collectives)
    ("time_us", 1),
    ("algbw_gbps", 3),
    ("busbw_gbps", 3),
    ("wrong", None),
    ("slowest_rank", None),
    ("max_min", 2),
]


def _expected(row: dict, key: str):
    if key == "max_min":
        return row["time_us_max"] / max(row["time_us_min"], 1e-9)
    return row[key]


def compare_rows(cells: list[list[str]], rows: list[dict], view: str) -> None:
    """Raise AssertionError naming view, row, column and both values on the first difference."""
    assert len(cells) == len(rows), f"{view}: {len(cells)} table rows rendered, report has {len(rows)}"
    for i, (got, row) in enumerate(zip(cells, rows)):
        assert len(got) == len(COLUMNS), f"{view} row {i}: {len(got)} cells: {got}"
        for text, (key, digits) in zip(got, COLUMNS):
            want = _expected(row, key)
            where = f"{view} row {i} (size {row['size']}) column {key}: rendered {text!r}, report.json {want!r}"
            if digits == "text":
                assert text == str(want), where
            elif digits is None:
                assert int(text) == int(want), where
            else:
                assert abs(float(text) - want) <= 0.5 * 10**-digits + 1e-9 * abs(want), where


def terminal_rows(text: str) -> tuple[list[list[str]], dict[str, str]]:
    """The rows between the nccl-tests header and '# Out of bounds', plus the summary lines."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("#        (B)")) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("# Out of bounds"))
    summary = {
        "out_of_bounds": lines[end],
        "avg": next(ln for ln in lines[end:] if ln.startswith("# Avg bus bandwidth")),
    }
    return [ln.split() for ln in lines[start:end]], summary


def parse_avg_line(line: str) -> tuple[float, float]:
    m = re.match(r"# Avg bus bandwidth\s*: ([\d.]+) GB/s\s+\(peak ([\d.]+) GB/s\)", line)
    assert m, line
    return float(m.group(1)), float(m.group(2))


def markdown_rows(md: str, heading_prefix: str = "## all_reduce") -> list[list[str]]:
    lines = md.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(heading_prefix))
    table = []
    for ln in lines[start + 1 :]:
        if not ln.strip() and table:
            break
        if ln.startswith("|"):
            table.append([c.strip() for c in ln.strip().strip("|").split("|")])
    assert table[1][0].startswith("---"), table[:2]
    return table[2:]


class _Tables(HTMLParser):
    def __init__(self, want_id: str):
        super().__init__()
        self.want, self.active, self.rows, self.cell = f"table-{want_id}", False, [], None
        self.after_heading = False

    def handle_starttag(self, tag, attrs):
        if tag == "h2":
            self.after_heading = dict(attrs).get("id") == self.want
        elif tag == "table" and self.after_heading:
            self.active = True
        elif self.active and tag == "tr":
            self.rows.append([])
        elif self.active and tag == "td":
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "table" and self.active:
            self.active = self.after_heading = False
        elif tag == "td" and self.cell is not None:
            self.rows[-1].append(self.cell.strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def html_rows(page: str, table_id: str = "all_reduce") -> list[list[str]]:
    p = _Tables(table_id)
    p.feed(page)
    return [r for r in p.rows if r]  # the header row has <th>, no <td>
