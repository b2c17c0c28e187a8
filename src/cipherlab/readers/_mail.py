"""Raw mail: a message as mail clients and list archives save it (a Mailman/pipermail "raw"
download, Thunderbird's or Outlook's ``.eml``, Gmail's "Show original", an mbox of a thread,
public-inbox's ``.mbox.gz``), read through its MIME structure.

Why this module exists: the numbers of such a file sit in parts encoded for transport
(base64, quoted-printable, 8-bit in a declared charset), often twice (``multipart/alternative``:
a text/plain and a text/html copy), beside attachments, and in several messages (a digest, an
mbox). Python's :mod:`email` package walks the parts; this module gives each part that holds
text as a text of its own (:func:`documents`), each of its lines mapped back to the line of the
original file it came from:

* 7bit/8bit and quoted-printable parts: each line to the line its text began on (a QP soft
  break joins lines: the first of them);
* base64 parts: each decoded line to the encoded line that holds its first byte, where every
  encoded line but the last is a multiple of 4 characters (what every encoder writes: each
  line then decodes to a fixed byte count); else every line to the part's first line;
* HTML parts: each line of its text to the source line its first text (or the tag that opened
  it) stands on.

Only a text whose first lines are a mail's headers naming its MIME structure (``MIME-Version:``
or ``Content-Type:`` beside ``From:``, ``Subject:``, ``Date:``...), or an mbox (``From `` lines
starting messages) is read so; any other text (a paste that quotes one ``Subject:`` line) is
left as it is.
"""

from __future__ import annotations

import binascii
import email
import email.message
import html
import re
from bisect import bisect_right
from html.parser import HTMLParser
from typing import NamedTuple

from cipherlab.readers._context import subject_machine

__all__ = ["Fallback", "Part", "documents", "is_mail", "looks_like_mail"]

# A header line (``Name: value``), a folded continuation (starts with a blank), an mbox's
# separator (``From alice@example.org Tue Mar  5 10:12:01 2024``, public-inbox's ``From
# mboxrd@z Thu Jan  1 00:00:00 1970``).
_HEADER = re.compile(r"([A-Za-z][\w-]{0,76}):[ \t]?")
# (pipermail writes the address with " at ": ``From lukas.berger at mailbox.org  Mon Jun  3 ...``)
_MBOX_FROM = re.compile(r"^From \S[^\n]{0,320}? +[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d(?::\d\d)? ")
_MESSAGE_HEADERS = frozenset({"from", "subject", "date", "message-id", "to", "received",
                              "return-path", "delivered-to", "x-original-to", "in-reply-to"})
_MIME_HEADERS = frozenset({"mime-version", "content-type"})
_HEAD_LINES = 400  # (a header block is read this far at most: DKIM and Received lines are many)


class Fallback(str):
    """The name a mail gives the runs of one of its texts that their own lines leave
    unlabelled: an attachment's file name, a subject that names a machine. ``rule`` says which."""

    rule: str

    def __new__(cls, text: str, rule: str):
        self = super().__new__(cls, text)
        self.rule = rule
        return self


class Part(NamedTuple):
    """A text of the mail: its lines, the map back to the file's lines (index 0 unused), the
    message it belongs to (its 0-based number in the file) and its fallback name."""
    lines: list[str]
    origin: list[int]
    message: int
    name: Fallback | None


def _head(lines: list[str], start: int) -> dict[str, str] | None:
    """The header block starting at ``lines[start]`` (names lowercased, unfolded), or None
    when the lines there are no header block."""
    found: dict[str, str] = {}
    last = None
    for line in lines[start:start + _HEAD_LINES]:
        if not line.strip():
            return found or None
        if line[0] in " \t" and last is not None:
            found[last] += " " + line.strip()
            continue
        m = _HEADER.match(line)
        if m is None:
            return None
        last = m[1].lower()
        found.setdefault(last, line[m.end():].strip())
    return None


# (what a mail's first line starts with: one anchored match rejects every other text)
_FIRST = re.compile(r"[ \t\r\n]{0,200}(?:From |[A-Za-z][\w-]{0,76}:)")


def looks_like_mail(text: str) -> bool:
    """Whether ``text`` is a raw mail (:func:`is_mail` of its head); most texts fail at their
    first characters."""
    return _FIRST.match(text) is not None and is_mail(text[:1 << 15].split("\n", 500)[:500])


def is_mail(lines: list[str]) -> bool:
    """Whether ``lines`` are a raw mail: an mbox (its first line a ``From `` separator, a
    header block below it), or a header block that names a message and its MIME structure.

    >>> is_mail(["From: a@b.c", "Subject: x", "MIME-Version: 1.0", "", "md5 1.00k"])
    True
    >>> is_mail(["Subject: Re: [openssl-users] AES-GCM slower?", "", "md5 1.00k"])
    False
    """
    start = next((i for i, line in enumerate(lines[:50]) if line.strip()), None)
    if start is None:
        return False
    first = lines[start]
    if first.startswith("From ") and _MBOX_FROM.match(first + " "):
        return _head(lines, start + 1) is not None
    if not _HEADER.match(first):
        return False
    head = _head(lines, start)
    return head is not None and not _MESSAGE_HEADERS.isdisjoint(head) and not _MIME_HEADERS.isdisjoint(head)


def documents(lines: list[str], copies: bool = False) -> list[Part] | None:
    """The texts of a raw mail (see the module's docstring), in file order; None when
    ``lines`` are no mail (:func:`is_mail`). A later message's quotes of an earlier one are
    blank (:func:`_without_quoted_copies`) unless ``copies``.

    >>> mail = ["From: a@b.c", "Subject: x", "MIME-Version: 1.0",
    ...         "Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: base64",
    ...         "", "bWQ1IDEuMDBrCnNoYTEgMi4wMGsK"]
    >>> documents(mail)
    [Part(lines=['md5 1.00k', 'sha1 2.00k', ''], origin=[0, 7, 7, 7], message=0, name=None)]
    """
    if not is_mail(lines):
        return None
    starts = _message_starts(lines)
    parts: list[Part] = []
    for number, (a, b) in enumerate(zip(starts, starts[1:] + [len(lines)])):
        parts += _message_parts(lines, a, b, number)
    return parts if copies else _without_quoted_copies(parts)


def _message_starts(lines: list[str]) -> list[int]:
    """The 0-based line where each message of the file starts (after an mbox's ``From `` line)."""
    starts = [i + 1 for i, line in enumerate(lines) if line.startswith("From ") and
              (i == 0 or not lines[i - 1].strip()) and _MBOX_FROM.match(line + " ") and
              _head(lines, i + 1) is not None]
    return starts or [0]


def _message_parts(lines: list[str], a: int, b: int, number: int) -> list[Part]:
    """The texts of the message on ``lines[a:b]``, numbered ``number``; the messages inside it
    (a digest's, one forwarded as an attachment) each a message of its own."""
    text = "\n".join(lines[a:b])
    msg = email.message_from_string(text)
    out: list[Part] = []
    # (where the next part's body is looked for in ``text``, parts coming in order, and the
    # lines before it: counted on from the last part's, once over the text)
    cursor, counted = [0, 0], [0]
    counter = [0]

    def walk(part: email.message.Message, message: int, subject: str | None):
        ctype = part.get_content_type()
        if part.is_multipart():
            children = part.get_payload()
            if ctype == "multipart/alternative":  # (one copy of the text: the plain one)
                plain = [c for c in children if _holds(c, "text/plain")]
                children = plain[:1] or [c for c in children if _holds(c, "text/html")][:1]
            for child in children:
                if ctype == "multipart/digest" or child.get_content_type() == "message/rfc822":
                    inner = child.get_payload()[0] if child.get_content_type() == "message/rfc822" \
                        and child.is_multipart() else child
                    counter[0] += 1
                    walk(inner, number * 1000 + counter[0], inner.get("Subject"))
                else:
                    walk(child, message, subject)
            return
        if ctype not in ("text/plain", "text/html"):
            return  # (images, signatures, calendar files: no benchmark text)
        raw = part.get_payload()
        if not isinstance(raw, str):
            return
        at = text.find(raw, cursor[0]) if raw else -1
        at = cursor[0] if at < 0 else at
        counted[0] += text.count("\n", cursor[1], at)
        cursor[:] = [at + len(raw), at]
        first = a + counted[0] + 1  # (1-based line of the file)
        got = _decoded(part, raw, first)
        if got is None:
            return
        body, origin = got
        if ctype == "text/plain" and (part.get_param("format") or "").lower() == "flowed":
            body, origin = unflowed(body, origin, (part.get_param("delsp") or "").lower() == "yes")
        if ctype == "text/html":
            body, origin = _html_text(body, origin)
        name = _fallback(part, subject)
        out.append(Part(body, origin, message, name))

    walk(msg, number * 1000, msg.get("Subject"))
    return out


def _holds(part: email.message.Message, ctype: str) -> bool:
    return any(p.get_content_type() == ctype for p in part.walk())


def _fallback(part: email.message.Message, subject: str | None) -> Fallback | None:
    """An attachment's file name (``speed.txt``), else the message's subject where it names a
    machine, for the runs of the part that their own lines leave unlabelled."""
    filename = part.get_filename()
    disposition = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
    if filename and disposition == "attachment":
        return Fallback(_header_text(filename), "file name of the mail's attachment")
    if subject:
        machine = subject_machine(_header_text(subject))
        if machine:
            return Fallback(machine, "machine the mail's subject names")
    return None


def _header_text(value: str) -> str:
    """A header's text with its RFC 2047 encoded words decoded (``=?utf-8?q?...?=``)."""
    try:
        return str(email.header.make_header(email.header.decode_header(value)))
    except (ValueError, LookupError, UnicodeDecodeError):
        return value


def _charset(part: email.message.Message) -> str:
    charset = (part.get_content_charset() or "utf-8").lower()
    if charset in ("us-ascii", "ascii", "iso-8859-1", "latin-1", "latin1"):
        # (ASCII is a subset; a mail's Latin-1 is Windows-1252 in practice, as browsers read it)
        charset = "utf-8" if charset in ("us-ascii", "ascii") else "cp1252"
    try:
        "".encode(charset)
    except LookupError:
        charset = "utf-8"
    return charset


def _bytes_text(data: bytes, charset: str) -> str:
    try:
        return data.decode(charset)
    except UnicodeDecodeError:
        return data.decode("cp1252" if charset == "utf-8" else charset, errors="replace")


def _decoded(part: email.message.Message, raw: str, first: int) -> tuple[list[str], list[int]] | None:
    """The lines of a part's body decoded from its transfer encoding and charset, with the
    map to the file's lines (``first``: the line its body starts on)."""
    cte = (part.get("Content-Transfer-Encoding") or "7bit").strip().lower()
    charset = _charset(part)
    rows = raw.split("\n")
    if cte == "base64":
        return _base64(rows, first, charset)
    if cte == "quoted-printable":
        return _quoted_printable(rows, first, charset)
    if charset == "utf-8" and not raw.isascii():
        try:  # (an 8-bit UTF-8 part of a file read as Windows-1252: another part was not UTF-8)
            raw = raw.encode("cp1252").decode("utf-8")
            rows = raw.split("\n")
        except (UnicodeEncodeError, UnicodeDecodeError):
            pass
    return rows, [0, *range(first, first + len(rows))]


def _quoted_printable(rows: list[str], first: int, charset: str) -> tuple[list[str], list[int]]:
    """QP lines decoded in ``charset``, soft breaks joined; each line mapped to the one it began on."""
    return unquoted_printable(rows, first, _QP_ESCAPES,
                              lambda m: _bytes_text(bytes.fromhex(m[0].replace("=", "")), charset))


def unquoted_printable(rows: list[str], first: int, escapes: re.Pattern,
                       unescape) -> tuple[list[str], list[int]]:
    """Quoted-printable ``rows`` with their soft breaks (``=`` at the end) joined and each
    match of ``escapes`` replaced by ``unescape(match)``; and the origin map of the result
    (:func:`cipherlab.readers._text.normalise`'s): each line's number, counted from ``first``,
    of the row it began on. Mail parts (in their charset) and QP text pasted whole share it."""
    out, origin, pieces, start = [], [0], [], None
    for n, line in enumerate(rows, start=first):
        if start is None:
            start = n
        body = line.rstrip(" \t")
        if body.endswith("="):
            pieces.append(body[:-1])
            continue
        pieces.append(line)
        out.append(escapes.sub(unescape, "".join(pieces)))
        origin.append(start)
        pieces, start = [], None
    if start is not None:
        out.append(escapes.sub(unescape, "".join(pieces)))
        origin.append(start)
    return out, origin


_QP_ESCAPES = re.compile(r"(?:=[0-9A-Fa-f]{2})+")
# A flowed line's quote marks and the space that stuffs it (RFC 3676: after the marks, or at
# the start of an unquoted line that begins with a blank, ``From `` or ``>``).
_FLOWED_QUOTE = re.compile(r">*+ ?")


def unflowed(lines: list[str], origin: list[int], delsp: bool) -> tuple[list[str], list[int]]:
    """The lines of a ``format=flowed`` text (RFC 3676) with its soft breaks joined: a line
    that ends in a blank (but the signature's ``-- ``) goes on on the next one when that has
    as many quote marks; the next one's marks and stuffing go, and with ``delsp`` the blank
    too. A mail client wraps long lines so (a table row broken after its fourth value, quoted
    again in the reply): each joined line is the row as it was typed, mapped (``origin``, as
    :func:`unquoted_printable`'s) to the line it began on. An unquoted line loses its stuffing.

    >>> unflowed(["> md5  1.00k ", "> 2.00k", ">> sha1 ", "> x", " From here"], [0, 5, 6, 7, 8, 9], False)
    (['> md5  1.00k 2.00k', '>> sha1 ', '> x', 'From here'], [0, 5, 7, 8, 9])
    """
    out, at, prev = [], [0], None  # (prev: the quote marks of a line that flows on, else None)
    for n, line in enumerate(lines, start=1):
        marks = len(line) - len(line.lstrip(">"))
        head = _FLOWED_QUOTE.match(line).end()
        body = line[head:]
        if prev == marks:
            out[-1] = (out[-1][:-1] if delsp else out[-1]) + body
        else:
            out.append(line if marks else body)
            at.append(origin[n] if n < len(origin) else origin[-1])
        prev = marks if body.endswith(" ") and body.strip() and body != "-- " else None
    return out, at


def _base64(rows: list[str], first: int, charset: str) -> tuple[list[str], list[int]] | None:
    """A base64 body decoded: each decoded line mapped to the encoded line holding its first
    byte (each encoded line decodes to ``len * 3 / 4`` bytes, less its padding), where every
    encoded line but the last is a multiple of 4 long; else each to the body's first line.

    >>> _base64(["bWQ1IDEu", "MDBrCnNo", "YTEgMi4w", "MGsK"], 20, "utf-8")
    (['md5 1.00k', 'sha1 2.00k', ''], [0, 20, 21, 23])
    """
    filled = [(n, r.strip()) for n, r in enumerate(rows, start=first) if r.strip()]
    try:
        data = binascii.a2b_base64("".join(e for _, e in filled).encode("ascii"))
    except (binascii.Error, UnicodeEncodeError):
        return None
    exact = bool(filled) and all(len(e) % 4 == 0 for _, e in filled[:-1])
    ends, total = [], 0
    for _, e in filled:  # (the decoded bytes up to each encoded line's end)
        total += len(e) * 3 // 4 - e[-2:].count("=")
        ends.append(total)
    lines, origin, offset = [], [0], 0
    for piece in data.split(b"\n"):  # (by bytes: a line's start is a byte offset)
        lines.append(_bytes_text(piece[:-1] if piece.endswith(b"\r") else piece, charset))
        k = bisect_right(ends, offset) if exact else 0
        origin.append(filled[min(k, len(filled) - 1)][0] if filled else first)
        offset += len(piece) + 1
    return lines, origin


# Tags that end a line of an HTML part's text (``<br>``, a paragraph, a division, a list item).
_BREAKS = frozenset({"br", "p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
                     "blockquote", "table", "ul", "ol", "hr", "dt", "dd"})
_CELLS = frozenset({"td", "th"})
_SILENT = frozenset({"style", "script", "head", "title"})


class _Text(HTMLParser):
    """An HTML part's text, a line per paragraph, break or table row (cells ``|``-separated, a
    Markdown table), preformatted text line by line; each line with the source line it began on."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.at: list[int] = []
        self.line: list[str] = []
        self.start: int | None = None
        self.pre = 0
        self.silent = 0
        self.rows = 0  # rows of the table being read (a separator row after the first)
        self.cells = 0
        self.quote = 0
        self.shown = False  # (the line shows something: a blank paragraph, ``&nbsp;``, is one)

    def _end(self, force: bool = False):
        """The line read so far ends: kept where it shows text, or a blank line the page shows
        (a ``<br>``, a paragraph of ``&nbsp;``, a blank line of preformatted text), not where
        only the source's line breaks stood between two tags."""
        text = "".join(self.line)
        if not self.pre:
            text = " ".join(text.split())
        if text or self.shown or force:
            self.lines.append(("> " * self.quote) + text)
            self.at.append(self.start or self.getpos()[0])
        self.line, self.start, self.shown = [], None, False

    def handle_starttag(self, tag, attrs):
        if tag in _SILENT:
            self.silent += 1
        elif tag in _BREAKS:
            self._end(force=tag == "br")
            if tag == "pre":
                self.pre += 1
            elif tag == "table":
                self.rows = 0
            elif tag == "tr":
                self.cells = 0
            elif tag == "blockquote":
                self.quote += 1
        elif tag in _CELLS:
            self.line.append(" | " if self.cells else "| ")
            self.cells += 1
            if self.start is None:
                self.start = self.getpos()[0]

    def handle_startendtag(self, tag, attrs):
        if tag in _BREAKS:
            self._end(force=tag == "br")

    def handle_endtag(self, tag):
        if tag in _SILENT:
            self.silent = max(self.silent - 1, 0)
        elif tag in _BREAKS:
            if tag == "tr" and self.cells:
                self.line.append(" |")
                n = self.cells
                self._end()
                self.rows += 1
                if self.rows == 1:
                    self.lines.append("|" + " --- |" * n)
                    self.at.append(self.at[-1])
                return
            self._end()
            if tag == "pre":
                self.pre = max(self.pre - 1, 0)
            elif tag == "blockquote":
                self.quote = max(self.quote - 1, 0)

    def handle_data(self, data):
        if self.silent:
            return
        line = self.getpos()[0]
        if self.pre:
            pieces = data.split("\n")
            for i, piece in enumerate(pieces):
                if i:
                    self._end(force=True)
                    line += 1
                if piece and self.start is None:
                    self.start = line
                self.line.append(piece.replace("\u00a0", " "))
            return
        if data.strip() and self.start is None:
            self.start = line + data[:len(data) - len(data.lstrip())].count("\n")
        self.shown = self.shown or "\u00a0" in data
        self.line.append(data.replace("\u00a0", " "))


def _html_text(body: list[str], origin: list[int]) -> tuple[list[str], list[int]]:
    """An HTML part's lines -> its text's lines (see :class:`_Text`), mapped through ``origin``.

    >>> _html_text(["<p>a&nbsp;b</p><p>c", "d</p><pre>x", "y</pre>"], [0, 10, 11, 12])
    (['a b', 'c d', 'x', 'y'], [0, 10, 10, 11, 12])
    """
    parser = _Text()
    parser.feed("\n".join(body))
    parser.close()
    parser._end()
    out = [html.unescape(line) if "&" in line else line for line in parser.lines]
    return out, [0, *(origin[min(max(n, 1), len(origin) - 1)] for n in parser.at)]


def _key(line: str) -> str:
    return " ".join(line.lstrip(" \t>").split())


def _without_quoted_copies(parts: list[Part]) -> list[Part]:
    """Each part of a later message with the blocks of quoted lines (``>``) that copy an earlier
    message of the file blanked: a reply in a thread quoting the message above it holds that
    message's numbers again, not a run of its own (a block is a copy when every line of it
    that holds a digit is a line of an earlier message, quoting and blanks aside; a block that
    quotes numbers the file does not hold otherwise is read as any quote is)."""
    if len({p.message for p in parts}) < 2:
        return parts
    earlier: set[str] = set()  # (the lines of the messages before the current one)
    current: set[str] = set()
    message = parts[0].message
    out = []
    for part in parts:
        if part.message != message:
            earlier |= current
            current, message = set(), part.message
        current.update(_key(line) for line in part.lines if line.strip())
        if not earlier or ">" not in "".join(part.lines):
            out.append(part)
            continue
        lines, n = list(part.lines), 0
        while n < len(lines):
            end = n
            while end < len(lines) and lines[end].lstrip().startswith(">"):
                end += 1
            if end == n:
                n += 1
                continue
            data = [k for k in map(_key, lines[n:end]) if any(c.isdigit() for c in k)]
            if data and all(k in earlier for k in data):
                lines[n:end] = [""] * (end - n)
            n = end
        out.append(part._replace(lines=lines))
    return out
