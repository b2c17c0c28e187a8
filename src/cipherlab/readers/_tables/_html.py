"""The finder of HTML ``<table>`` s (a page's source, a mail's HTML part): rows with the line
each starts on, ``colspan``/``rowspan`` spread as the table is shown, ``<caption>``, a
``<sup>`` after a value kept as a footnote mark. Plain markup is read by a regex tokenizer
several times faster than :mod:`html.parser`, which reads any other.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

from cipherlab.readers._tables._cells import Row, Table
from cipherlab.readers._tables._prose import unquote

HTML_TABLE = re.compile("<table", re.IGNORECASE)


class _HTMLTableParser(HTMLParser):
    """Collects ``<table>`` rows with the line each row starts on (nested tables kept apart)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[dict[str, Any]] = []
        self._stack: list[dict[str, Any]] = []
        self._cell: list[str] | None = None
        self._span = self._rows = 1  # (the open cell's colspan and rowspan)
        self._sup = False  # (inside a <sup> after a value)
        self._caption: list[str] | None = None

    def _line(self) -> int:
        return self.getpos()[0] - 1

    def _end_cell(self) -> None:
        if self._cell is not None and self._stack and self._stack[-1]["row"] is not None:
            table = self._stack[-1]
            cells = table["row"]["cells"]
            if table["down"]:
                self._carry(table)
            text = " ".join("".join(self._cell).split())
            if self._rows > 1:  # (a cell spanning rows is in each of them, as it is shown)
                for j in range(len(cells), len(cells) + self._span):
                    table["down"][j] = [text if j == len(cells) else "", self._rows - 1]
            cells.extend([text] + [""] * (self._span - 1))
        self._cell = None

    @staticmethod
    def _carry(table: dict[str, Any]) -> None:
        """Put into the open row the cells of rows above that span down to it, where it is."""
        cells, down = table["row"]["cells"], table["down"]
        while len(cells) in down:
            j = len(cells)
            cells.append(down[j][0])
            down[j][1] -= 1
            if not down[j][1]:
                del down[j]

    def _end_row(self) -> None:
        self._end_cell()
        table = self._stack[-1] if self._stack else None
        if table is not None and table["row"] is not None:
            if table["down"]:
                self._carry(table)
            row = table["row"]
            row["end"] = self._line()
            if row["cells"]:
                table["rows"].append(row)
            table["row"] = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._end_cell()
            self._stack.append({"start": self._line(), "rows": [], "row": None, "caption": None,
                                "down": {}})  # (column -> [text, rows] of cells spanning down)
        elif not self._stack:
            return
        elif tag == "tr":
            self._end_row()
            self._stack[-1]["row"] = {"start": self._line(), "line": self._line(), "cells": []}
        elif tag in ("td", "th"):
            self._end_cell()
            row = self._stack[-1]["row"]
            if row is None:
                row = self._stack[-1]["row"] = {"start": self._line(), "line": self._line(),
                                                "cells": []}
            if not row["cells"] and self._cell is None:
                row["line"] = self._line()  # provenance: the line the values start on
            self._span = self._rows = 1
            if attrs:
                spans = dict(attrs)
                self._span, self._rows = _span(spans.get("colspan")), _span(spans.get("rowspan"))
            self._cell = []
        elif tag == "caption":
            self._caption = []
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")
        elif tag == "sup" and self._cell is not None:
            # A superscript after a value is a footnote mark ("221.7 [*]", see _row_note);
            # after a word it stays glued ("IDEAa", read by _split_footnote and tier_name).
            self._sup = bool(self._cell) and self._cell[-1].rstrip()[-1:].isdigit()
            if self._sup:
                self._cell.append(" [")

    def handle_endtag(self, tag: str) -> None:
        if not self._stack:
            return
        if tag in ("td", "th"):
            self._end_cell()
        elif tag == "sup" and self._cell is not None and self._sup:
            self._cell.append("]")
            self._sup = False
        elif tag == "tr":
            self._end_row()
        elif tag == "caption" and self._caption is not None:
            self._stack[-1]["caption"] = " ".join("".join(self._caption).split()) or None
            self._caption = None
        elif tag == "table":
            self._end_row()
            table = self._stack.pop()
            table["end"] = self._line()
            self.tables.append(table)

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        elif self._caption is not None:
            self._caption.append(data)

    def feed_plain(self, text: str) -> bool:
        """Read ``text`` as ``feed`` and ``close`` would, when it is plain markup (tags and
        text, no comment, script or odd tag): a regex tokenizer, several times faster than
        html.parser's. False, and nothing read, for any other text."""
        tags = list(_PLAIN_TAG.finditer(text))
        if len(tags) != text.count("<") or _RAW_TEXT.search(text):
            return False  # (a "<" that starts no plain token)
        pos = last = 0
        for m in tags:
            start = m.start()
            if pos < start and (self._cell is not None or self._caption is not None):
                self.handle_data(html.unescape(text[pos:start]))
            pos = m.end()
            name, attrs, empty, end = m.groups()
            tag = (end or name or "").lower()
            if tag not in _TABLE_TAGS:
                continue  # (the handlers do nothing with other tags)
            self.lineno += text.count("\n", last, start)  # (getpos(): where the tag starts)
            last = start
            if end is not None:
                self.handle_endtag(tag)
            else:
                # (only a cell's colspan and rowspan are read: others need no parsing)
                span = attrs and tag in ("td", "th") and "span" in attrs.lower()
                self.handle_starttag(tag, [(a.lower(), _attr_value(v)) for a, v in
                                           _PLAIN_ATTR.findall(attrs)] if span else [])
                if empty:
                    self.handle_endtag(tag)
        if pos < len(text):
            self.handle_data(html.unescape(text[pos:]))
        return True


def _span(value: str | None) -> int:
    """The number of columns (rows) a cell's ``colspan`` (``rowspan``) spans: 1 when not given."""
    return int(value) if value and value.strip().isdigit() else 1


# Plain markup, which the quick route below reads as html.parser does: a start tag with plain
# attributes (its name, attributes and the "/" of an empty tag), an end tag or a doctype. Any
# other "<" (a comment, a stray "<", odd attributes) is no token: such text goes to html.parser.
_PLAIN_TAG = re.compile(r"<(?:([a-zA-Z][^\t\n\r\f />\x00<]*)((?:\s+[a-zA-Z_:][-.\w:]*"
                        r"(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)\s*(/?)>"
                        r"|/([a-zA-Z][-.a-zA-Z0-9:_]*)\s*>|!(?i:doctype)[^<>]*>)")
_PLAIN_ATTR = re.compile(r"([a-zA-Z_:][-.\w:]*)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")
_TABLE_TAGS = frozenset({"table", "tr", "td", "th", "caption", "br", "sup"})  # what the handlers use
_RAW_TEXT = re.compile(r"<(?:script|style)", re.IGNORECASE)  # (html.parser: text, not markup)


def _attr_value(value: str) -> str | None:
    """An attribute's value as html.parser gives it (None when the attribute has no value)."""
    if not value:
        return None
    if value[0] in "\"'":
        value = value[1:-1]
    return html.unescape(value) if value else value


def html_tables(lines: list[str], blob: str, taken: set[int]) -> list[Table]:
    """The outermost ``<table>`` s of the text (the first finder: ``taken`` is empty)."""
    if "<" not in blob or not HTML_TABLE.search(blob):
        return []
    parser = _HTMLTableParser()
    text = "\n".join(unquote(line) for line in lines)
    if not parser.feed_plain(text):
        parser.feed(text)
        parser.close()
    tables = []
    for t in parser.tables:
        if "end" not in t:
            continue
        rows = [Row(r["line"], r["cells"], set(range(r["start"], r["end"] + 1)))
                for r in t["rows"]]
        in_rows = set().union(*(r.lines for r in rows)) if rows else set()
        markup = set(range(t["start"], t["end"] + 1)) - in_rows
        tables.append(Table("html", t["start"], t["end"], rows, markup, t["caption"]))
    # Keep the outermost tables only; a nested table's rows are read inside its parent's span.
    outer = [t for t in tables
             if not any(o is not t and o.start <= t.start and t.end <= o.end for o in tables)]
    return outer
