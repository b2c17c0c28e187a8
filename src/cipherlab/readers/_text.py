"""Decoding and normalising pasted benchmark text.

Why this module exists: ``openssl speed`` output reaches cipherlab through terminals, mail
clients, wikis and blogs. Before any dialect parser looks at it, the bytes must become text
(or a clear error when they are not text at all), line ends must be unified, and the damage done
by pasting (``>`` quoting, indentation, tabs, ANSI escape junk, mojibake such as ``Â`` from
UTF-8 read as Latin-1, non-breaking spaces) must be undone, without ever shifting line numbers:
line numbers are provenance.

Two levels of cleaning are offered: :func:`split_lines` repairs only what no reader wants to see
(line ends, mojibake) and is what table readers receive; :func:`clean` also strips quoting,
prompts' decorations, escapes and outer blanks for the line-oriented openssl parsers.
"""

from __future__ import annotations

import gzip
import html
import re
import shlex
import warnings
import zlib
from contextlib import contextmanager
from itertools import islice

from cipherlab.errors import IngestError, IngestWarning
from cipherlab.readers import _json

__all__ = ["LineWarning", "clean", "decode", "documents", "normalise", "parse_prompt", "renumber",
           "renumbered_warnings", "split_lines",
           "strip_shared_prefix"]

# Control characters that never occur in text (NUL, and C0 codes other than TAB/LF/CR/FF/ESC).
_BINARY = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")
_MOJIBAKE = (
    ("\u00c2\u00a0", " "),   # NBSP encoded in UTF-8, read as Latin-1
    ("\u00c2 ", " "),        # the same after a mail client turned the NBSP into a space
    ("\u00e2\u0080\u0099", "'"), ("\u00e2\u0080\u009c", '"'), ("\u00e2\u0080\u009d", '"'),
    ("\u00e2\u0080\u0093", "-"), ("\u00e2\u0080\u0094", "-"),
    ("\u00e2\u20ac\u2122", "'"), ("\u00e2\u20ac\u0153", '"'), ("\u00e2\u20ac\u009d", '"'),
    ("\u00e2\u20ac\u201c", "-"), ("\u00e2\u20ac\u201d", "-"),
    ("\u00a0", " "), ("\u202f", " "), ("\u2009", " "), ("\ufeff", ""),
)
# Characters one of which every mojibake above contains. (Tested with `in`, one character at
# a time: a memchr-speed scan, none at all when the text's kind cannot hold the character; a
# regex character class costs several times more on every clean text.)
_MOJIBAKE_HINT = "\u00c2\u00e2\u00a0\u202f\u2009\ufeff"
# ANSI CSI sequences, other ESC sequences, and their caret renderings (^[[A) left by terminals.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]|\^\[\[[0-9;?]*[A-Za-z]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# One quoting or list decoration left by mail clients, wikis and blogs (group 1: a `|`, which
# is a quote only when no `|` after it ends the line: then the line is a table row).
# (one step at a time, in a loop: a lookahead to the line's end per `|` made a line of
# pipes quadratic, 16 s for 32 KB)
_QUOTE_STEP = re.compile(r"\s*(?:>|(\|)|[*-]\s|#\s(?=\s*(?:[+]|Doing|type\s|version:)))\s?")
# A shell prompt: `$ `, `pi@pi5:~ $ `, `[root@host ~]# `, `C:\Users\me>`, `>>> `, `❯ `.
_PS = r"(?:\[[^\]]{0,80}\]|[\w.@:~/\\-]{0,80}(?:\s[~\w/.-]{1,80})?)\s?[$#%>\u276f\u279c\u00bb]\s*|>>>\s*"
# What runs openssl for the user: wrappers with their options (`time -v`, `taskset -c 0`,
# `nice -n 19`, `sudo -E`, `perf stat -e cycles`, `env`), wrapper scripts (`util/wrap.pl`) and
# environment assignments (`OPENSSL_ia32cap=...`), in any order.
_WRAPPER = r"(?:sudo|time|nice|taskset|env|perf\s+stat|numactl|chrt|ionice|stdbuf|timeout|nohup|" \
           r"\S+\.(?:sh|pl|py))(?:\s+(?:-\S+|\d\S*))*+\s+"
_ASSIGNMENT = r"[A-Za-z_][A-Za-z0-9_]*=(?:\"[^\"]*\"|'[^']*'|\S+)\s+"
# (arguments are `[\w./=+:,-]+`, with a parenthesised tail for names such as `hmac(md5)`, or a
# `$(nproc)`: the class holds `-`, and a separate `-?` made failing matches backtrack twice as
# long; the binary may be versioned or relative: `./openssl-1.0.1h`, `apps/openssl`)
_PROMPT = re.compile(
    rf"^\s*(?P<ps>{_PS})?(?P<pre>(?:{_WRAPPER}|{_ASSIGNMENT})*+)"
    r"(?:\S*/)?openssl(?:-[\w.]+)?(?:\.exe)?\s+speed"
    r"(?P<args>(?:\s+(?:[\w./=+:,-]+(?:\([\w.,-]*\))?|\$\(\w+\)))*+)\s*(?:\(.*\))?\s*$")
_ENV = re.compile(_ASSIGNMENT.replace(r"\s+", r"(?=\s)"))
# `openssl speed` options and what they do to a run; every other option (`-primes 3`, and any
# option openssl may gain) becomes a condition of the run.
_FLAGS = {"elapsed", "decrypt", "mr", "aead", "mb", "testmode", "mlock"}
_VALUED = {"multi", "bytes", "seconds", "evp", "hmac", "cmac"}  # read into the run's options
_NOT_CONDITIONS = {"kem-algorithms", "signature-algorithms", "help"}


def decode(data: bytes, source: str) -> str:
    """Bytes -> text: gzip is unpacked; UTF-16 with a BOM (or ASCII text in UTF-16 without
    one: every other byte NUL), UTF-8 (with or without BOM), else Windows-1252; binary is
    refused.

    Raises
    ------
    IngestError
        When the bytes hold NUL or other control characters that text never contains, or
        cannot be decoded at all.

    Examples
    --------
    >>> decode(b"md5 1.00k\\r\\n", "x.txt")
    'md5 1.00k\\r\\n'
    >>> decode(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00", "plot.png")
    Traceback (most recent call last):
    ...
    cipherlab.errors.IngestError: this is binary data, not benchmark text: byte 0x1a at offset 6; give ingest a text file (plot.png)
    >>> import gzip; decode(gzip.compress("md5 1.00k\\n".encode("utf-16")), "speed.txt.gz")
    'md5 1.00k\\n'
    """
    if data[:2] == b"\x1f\x8b":  # gzip (a saved capture: speed.txt.gz)
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as err:
            raise IngestError(f"a damaged gzip file: {err}", source=source) from None
    codec = "utf-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else _bomless_utf16(data)
    if codec:  # UTF-16 (Windows redirects), with its BOM or ASCII text without one
        try:
            return data.decode(codec)
        except UnicodeDecodeError as err:
            raise IngestError(f"cannot decode the UTF-16 text (bad bytes at offset {err.start})",
                              source=source) from None
    bad = _BINARY.search(data, 0, 1 << 16)
    if bad:
        raise IngestError(
            f"this is binary data, not benchmark text: byte 0x{bad.group()[0]:02x} at offset "
            f"{bad.start()}; give ingest a text file", source=source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        try:
            return data.decode("cp1252")
        except UnicodeDecodeError:
            raise IngestError(
                f"cannot decode the text as UTF-8 or Windows-1252 (bad byte at offset "
                f"{err.start}); save it as UTF-8 and retry", source=source) from err


def _bomless_utf16(data: bytes) -> str | None:
    """The codec of ASCII text in UTF-16 without a BOM (every other byte NUL), else None."""
    head = data[:4096]
    if len(head) < 4 or len(head) % 2 or head[1] and head[0]:
        return None
    if not any(head[1::2]) and all(head[0::2]):
        return "utf-16-le"
    if not any(head[0::2]) and all(head[1::2]):
        return "utf-16-be"
    return None


def split_lines(text: str) -> list[str]:
    """Text -> lines with CRLF/CR ends removed and mojibake repaired; nothing else changed.

    Only ``\\n`` ends a line, so line numbers match what editors show.

    >>> split_lines("a\\r\\nb\\u00c2\\u00a0c\\r\\n")
    ['a', 'b c', '']
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n") if "\r\n" not in text else \
            text.replace("\r\n", "\n").replace("\r", " ")
    if any(c in text for c in _MOJIBAKE_HINT):
        for bad, good in _MOJIBAKE:
            text = text.replace(bad, good)
    return text.split("\n")


def normalise(text: str, source: str = "<text>") -> tuple[list[str], list[int] | None]:
    """Text -> its lines (:func:`split_lines`) with the transfer encodings it shows undone, and
    the map back to the original line numbers (``None`` when they did not change).

    A JSON document (a notebook, an API reply) gives the text its strings hold
    (:func:`~cipherlab.readers._json.held_text`), each line mapped to the JSON line it came from.

    Quoted-printable (mail) is decoded only when the text is so encoded: it holds a soft line
    break (a long line ending in ``=``) or an ``=XX`` escape, and every ``=`` in it starts one
    (QP must escape each literal ``=``; ordinary text has some other ``=``) but those of the
    MIME header lines of a part that says ``Content-Transfer-Encoding: quoted-printable``. Soft breaks join
    lines: the map then gives, for each 1-based line number of the result, the original line
    its text began on (index 0 unused). HTML entities (``&amp;``, ``&lt;``, ``&#160;``) are
    decoded in the lines that hold one; a line never splits.

    >>> normalise("md5  1.00k  2.00k=\\n  3.00k\\nCPUINFO: OPENSSL_ia32cap=3D0x1=20\\n")
    (['md5  1.00k  2.00k  3.00k', 'CPUINFO: OPENSSL_ia32cap=0x1 ', ''], [0, 1, 3, 4])
    >>> normalise("x &lt; y&nbsp;z\\na = b=\\n")
    (['x < y z', 'a = b=', ''], None)
    """
    held = _json.held_text(text, source)
    if held is not None:
        lines, origin = held
    else:
        lines, origin = split_lines(text), None
        if "=" in text and _is_quoted_printable(text):
            lines, origin = _unquoted_printable(lines)
    return _unentitied(text, lines), origin


def documents(text: str, source: str = "<text>") -> list[tuple[list[str], list[int] | None]]:
    """The texts to read apart in ``text``, each as :func:`normalise` gives it: ``text`` itself,
    or the posts, steps and fields of a JSON reply (a notebook is one text; see
    :func:`~cipherlab.readers._json.held_documents`).

    >>> documents('[{"body": "a\\\\nb"}, {"body": "c\\\\nd"}]')
    [(['a', 'b'], [0, 1, 1]), (['c', 'd'], [0, 1, 1])]
    """
    held = _json.held_documents(text, source)
    if held is None:
        return [normalise(text, source)]
    return [(_unentitied(text, lines), origin) for lines, origin in held]


def _unentitied(text: str, lines: list[str]) -> list[str]:
    """``lines`` (of ``text``) with HTML entities decoded in the lines that hold one, when the
    text holds one; a line never splits."""
    if "&" not in text or not _ENTITY.search(text):
        return lines
    return [html.unescape(line).replace("\u00a0", " ").replace("\n", " ").replace("\r", " ")
            if "&" in line else line for line in lines]


# What shows a text is quoted-printable: an escape of a character QP must escape (``=``, a
# trailing blank, 8-bit), or a soft break (``=`` ending a line of 40+ characters: encoders cut
# at 76 columns). (Each regex starts with a literal "=": scanned for at C speed.)
_QP_ESCAPE = re.compile(r"=(?:3D|20\r?$|09\r?$|[89A-F][0-9A-F])", re.MULTILINE)
_QP_SOFT_BREAK = re.compile(r"=\r?$", re.MULTILINE)
# An ``=`` that starts no QP sequence: then the text is not QP.
_NOT_QP = re.compile(r"=(?![0-9A-F]{2}|[ \t]*\r?$)", re.MULTILINE)
_QP_ESCAPES = re.compile(r"(?:=[0-9A-F]{2})+")
_ENTITY = re.compile(r"&(?:amp|lt|gt|quot|apos|nbsp|#\d{1,7}|#x[0-9a-fA-F]{1,6});")


# A mail part that says it is QP: the "=" of its MIME header lines (charset="utf-8") is no
# QP sequence, and shows nothing.
_QP_DECLARED = re.compile(r"^Content-Transfer-Encoding:[ \t]*quoted-printable[ \t]*\r?$", re.I | re.M)
_MIME_HEADER = re.compile(r"^(?:Content-[\w-]+|MIME-Version):[^\n]*", re.I | re.M)


def _is_quoted_printable(text: str) -> bool:
    if "uoted-printable" in text and _QP_DECLARED.search(text):
        text = _MIME_HEADER.sub("", text)
    if _NOT_QP.search(text) is not None:  # (most texts with "=" fail here, at their first)
        return False
    if _QP_ESCAPE.search(text) is not None:
        return True
    return any(m.start() - text.rfind("\n", 0, m.start()) > 40
               for m in islice(_QP_SOFT_BREAK.finditer(text), 1000))


def _unquoted_printable(lines: list[str]) -> tuple[list[str], list[int]]:
    """QP lines decoded, soft breaks joined; and each result line's original line number."""
    out, origin, pieces = [], [0], []
    start = None
    for n, line in enumerate(lines, start=1):
        if start is None:
            start = n
        body = line.rstrip(" \t")
        if body.endswith("="):
            pieces.append(body[:-1])
            continue
        pieces.append(line)
        out.append(_QP_ESCAPES.sub(_qp_bytes, "".join(pieces)))
        origin.append(start)
        pieces, start = [], None
    if start is not None:
        out.append(_QP_ESCAPES.sub(_qp_bytes, "".join(pieces)))
        origin.append(start)
    return out, origin


def _qp_bytes(m: re.Match) -> str:
    data = bytes.fromhex(m[0].replace("=", ""))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    return text.replace("\u00a0", " ")


def renumber(runs: list, unplaced: list[tuple[int, str]], origin: list[int]) -> list[tuple[int, str]]:
    """The line numbers of ``runs``' cells and rows (in place) and of ``unplaced`` (returned)
    mapped back through ``origin`` (see :func:`normalise`) to the lines of the original text."""
    def back(n):
        return origin[n] if n is not None and 0 < n < len(origin) else n

    for run in runs:
        run.cells = [{**c, "line": back(c.get("line"))} if isinstance(c, dict)
                     else type(c)((back(c[0]), *c[1:])) for c in run.cells]
        run.rows = [type(r)((back(r[0]), *r[1:])) for r in run.rows]
    return [(back(n), line) for n, line in unplaced]


class LineWarning(IngestWarning):
    """An :class:`~cipherlab.errors.IngestWarning` that names lines: ``template`` holds
    ``{lines}``, filled with the first line numbers of ``indices`` (0-based, of the lines the
    readers see). Issued inside :func:`renumbered_warnings`, it names the original text's lines.

    >>> str(LineWarning("cells at line(s) {lines} have no unit", [2, 0, 9, 3, 4, 5, 7]))
    'cells at line(s) 1, 3, 4, 5, 6 ... have no unit'
    """

    def __init__(self, template: str, indices=(), *, numbers: list[int] | None = None):
        # (indices default to none: a warning replayed from its message, by the ingest cache)
        self.template = template
        self.numbers = sorted({i + 1 for i in indices}) if numbers is None else numbers
        shown = ", ".join(map(str, self.numbers[:5])) + (" ..." if len(self.numbers) > 5 else "")
        super().__init__(template.replace("{lines}", shown, 1))  # (not format: "{" in a name)

    def renumbered(self, origin: list[int]) -> LineWarning:
        numbers = sorted({origin[n] if 0 < n < len(origin) else n for n in self.numbers})
        return LineWarning(self.template, (), numbers=numbers)

    def __reduce__(self):  # (pickled back from a worker process: args alone cannot rebuild it)
        return _line_warning, (self.template, self.numbers)


def _line_warning(template: str, numbers: list[int]) -> LineWarning:
    return LineWarning(template, (), numbers=numbers)


@contextmanager
def renumbered_warnings(origin: list[int] | None):
    """Warnings naming lines (:class:`LineWarning`) issued inside name the original lines:
    mapped back through ``origin`` (see :func:`normalise`), like :func:`renumber` maps cells."""
    if origin is None:
        yield
        return
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
    finally:  # (re-issued in order once the readers return, or raise: none is lost)
        for w in caught:
            message = w.message.renumbered(origin) if isinstance(w.message, LineWarning) else w.message
            warnings.warn(message, w.category, stacklevel=3)


# The prefix a block of pasted lines may share, whatever it is: mail quoting (``>``, ``> >``),
# a comment marker (a Perl or shell ``#``, a C++ or Go ``//``, a Lisp or ini ``;``, a TeX
# ``%``, ``!``), a list bullet (``*``, ``-``), a ``|`` margin, and the blanks around them. Its
# identity is its first mark (``> >`` quotes deeper than ``>``, ``#!`` is a shebang in a ``#``
# comment: each line loses its whole prefix). A ``|`` ending the line makes it a table row,
# not a margin (tested with endswith: a lookahead per ``|`` is quadratic).
_MARKS = r">|//|#|;|%|!|[*-](?=[ \t]|$)"
# A line-number gutter (``  12 | ``, ``12: ``, ``     12\t`` from ``cat -n``, ``12. ``).
_NUMBER_GUTTER = r"(?P<n>\d{1,7})(?:[ \t]*+[|:][ \t]?|\.[ \t]|[ \t]++|$)"
# One match per line tells both: its prefix's marks (group "marks") or its gutter's number.
_LEAD = re.compile(rf"[ \t]*+(?:(?P<marks>(?:(?:{_MARKS}|\|)[ \t]*+)++)|{_NUMBER_GUTTER})")
_LEAD_NO_PIPE = re.compile(rf"[ \t]*+(?:(?P<marks>(?:(?:{_MARKS})[ \t]*+)++)|{_NUMBER_GUTTER})")
# Comment markers: a line of a comment block labels only the runs of that block.
_COMMENT_MARKS = ("#", "//", ";", "%", "!")
# A chat log's time stamp and nick ("[14:02] <mk> ", "14:02:11 <@mk> "): one prefix, whoever
# speaks (tried before a gutter: "14:02" is no line number).
_CHAT = re.compile(r"\[?\d{1,2}:\d{2}(?::\d{2})?\]?[ \t]++<[@+%~&]?[^<>\s]{1,32}>[ \t]?")
_CHAT_KEY = "<chat>"
_LEAD_START = frozenset(" \t>#/;%!*-|0123456789[")
_SHARED_BLOCK = 3  # lines a block must have for its shared prefix to be stripped


def _lead(line: str) -> tuple[str | int, int] | None:
    """``(first mark, where the text begins)`` of a line behind a prefix, ``(number, where
    the text begins)`` of a line behind a gutter's number, else None."""
    if line[:1] in "[0123456789":
        m = _CHAT.match(line)
        if m is not None:
            return _CHAT_KEY, m.end()
    m = _LEAD.match(line)
    if m is None:
        return None
    marks = m["marks"]
    if marks is None:
        return int(m["n"]), m.end()
    if "|" in marks and line.rstrip().endswith("|"):  # a table row: its | is no margin
        return _lead_no_pipe(line)
    marks = marks.lstrip(" \t")
    return marks[:2] if marks.startswith("//") else marks[:1], m.end()


def _lead_no_pipe(line: str) -> tuple[str | int, int] | None:
    m = _LEAD_NO_PIPE.match(line)
    if m is None:
        return None
    if m["marks"] is None:
        return int(m["n"]), m.end()
    marks = m["marks"].lstrip(" \t")
    return marks[:2] if marks.startswith("//") else marks[:1], m.end()


def strip_shared_prefix(lines: list[str]) -> tuple[list[str], list[int]]:
    """``lines`` with the prefix that every line of a block of them shares removed, and the
    comment block of each line (0 outside comment blocks, 1, 2, ... inside).

    A block is a run of at least three consecutive lines whose prefixes have the same first
    mark (``#rsa  512 bits ...`` in a Perl comment, ``> >`` quoting, ``* `` bullets, ``%%``), or
    whose line-number gutters count up by one, or of a chat log (a time stamp and a nick); one
    line so marked (a root prompt
    ``# openssl speed``, a heading) is left alone. Line numbers do not change.

    >>> strip_shared_prefix(["#rsa 512 bits 0.1s 0.2s 10.0 5.0", "#", "#\tdsa", "x"])
    (['rsa 512 bits 0.1s 0.2s 10.0 5.0', '', 'dsa', 'x'], [1, 1, 1, 0])
    >>> strip_shared_prefix(["%% type 16 bytes", "%% md5 1.00k", "%%"])[0]
    ['type 16 bytes', 'md5 1.00k', '']
    >>> strip_shared_prefix([" 9 | type 16 bytes", "10 | md5 1.00k", "11 | sha1 2.00k"])[0]
    ['type 16 bytes', 'md5 1.00k', 'sha1 2.00k']
    >>> strip_shared_prefix(["[14:02] <mk> type 16 bytes", "[14:02] <jo> ok", "14:03 <mk> md5 1.00k"])[0]
    ['type 16 bytes', 'ok', 'md5 1.00k']
    """
    out, blocks = list(lines), [0] * len(lines)
    n = len(lines)
    # (most lines start with a letter: only the others are matched, once each)
    leads = [_lead(line) if line[:1] in _LEAD_START else None for line in lines]
    i = 0
    while i < n:
        m = leads[i]
        if m is None:
            i += 1
            continue
        j, key = i + 1, m[0]
        if type(key) is int:  # a gutter: numbers that count up by one
            while j < n and leads[j] is not None and leads[j][0] == key + (j - i):
                j += 1
        else:
            while j < n and leads[j] is not None and leads[j][0] == key:
                j += 1
        if j - i >= _SHARED_BLOCK:
            comment = key in _COMMENT_MARKS
            for k in range(i, j):
                out[k] = lines[k][leads[k][1]:]
                blocks[k] = i + 1 if comment else 0
        i = j
    return out, blocks


def clean(line: str) -> str:
    """One line as the openssl parsers want it: no escapes, quoting, markup or outer blanks.

    >>> clean(">> \\tmd5   1.00k\\x1b[0m  ")
    'md5   1.00k'
    >>> clean("| rsa 2048 bits 0.000289s"), clean("- md5 1.00k"), clean("-DL_ENDIAN -O3")
    ('rsa 2048 bits 0.000289s', 'md5 1.00k', '-DL_ENDIAN -O3')
    >>> clean("* `sha1  1.00k  2.00k (node 3)`"), clean("Doing md5 for **3s**: **12** md5's in 3.00s")
    ('sha1  1.00k  2.00k (node 3)', "Doing md5 for 3s: 12 md5's in 3.00s")
    >>> clean("data := `+H:16:64"), clean("+F:3:md5:1.5:2.5`);"), clean("**Laptop**")
    ('+H:16:64', '+F:3:md5:1.5:2.5', '**Laptop**')
    """
    if "\x1b" in line or "^[" in line or "\x7f" in line or "\x08" in line:  # (INNER_MARKS)
        line = _ANSI.sub("", line)
    s = line.strip()
    if s and s[0] in ">|*#-":
        if s[0] == ">":  # mail quoting, the common case: no regex needed
            s = s.lstrip("> \t")
            if s and s[0] in "|*#-":
                s = _unquoted(s)
        else:
            s = _unquoted(s)
    if "`" in s:
        s = _uncoded(s)
    if "**" in s:
        s = _EMPHASIS.sub(_unemphasised, s)
    return s


#: What clean() removes from inside a line; in a text without them (most texts), clean(line) is
#: ``line.strip()`` unless that starts with one of QUOTE_FIRST.
INNER_MARKS = ("\x1b", "^[", "\x7f", "\x08", "`", "**")
QUOTE_FIRST = frozenset(">|*#-")


# Markdown inline code: a span in one or two backticks (a fence of three is left alone).
# (each match scans to the next backtick only: linear)
_CODE_SPAN = re.compile(r"(?<!`)(`{1,2})(?!`)([^`]+)\1(?!`)")
# A lone backtick that opens a raw string in source code (Go, JS: ``out := `+H:16:64``) or
# closes one (``...:1465597952.00`)``): the text inside the string is the data.
_STRING_OPEN = re.compile(r"^[^`]*?(?::=|=|\(|,|\breturn)\s*`")
_STRING_CLOSE = re.compile(r"`\s*[),;]*\s*$")
# Markdown emphasis around a span (``**512457**``); see _unemphasised.
_EMPHASIS = re.compile(r"\*\*([^*\s](?:[^*]*[^*\s])?)\*\*")


def _uncoded(s: str) -> str:
    """``s`` without inline-code backticks, and without the delimiter of a source-code raw
    string that opens or closes on it."""
    s = _CODE_SPAN.sub(r"\2", s) if s.count("`") > 1 else s
    if s.count("`") == 1:
        m = _STRING_OPEN.match(s)
        if m:
            return s[m.end():].strip()
        m = _STRING_CLOSE.search(s)
        if m:
            return s[:m.start()].strip()
    return s.strip()


def _unemphasised(m: re.Match) -> str:
    """Emphasis around a span holding a digit (a value, a data row) is markup to drop;
    around words only it is kept: a bold line is a heading, which may label a run."""
    inner = m[1]
    return inner if any(c.isdigit() for c in inner) else m[0]


def _unquoted(s: str) -> str:
    """``s`` without its leading quoting and list decorations (see ``_QUOTE_STEP``)."""
    tail = s.rstrip()
    last_pipe = len(tail) - 1 if tail.endswith("|") else -1  # a table row's closing `|`
    pos, step = 0, _QUOTE_STEP.match
    while True:
        m = step(s, pos)
        if m is None or m.end() == pos or (m.start(1) != -1 and m.start(1) < last_pipe):
            return s[pos:].strip()
        pos = m.end()


def parse_prompt(line: str) -> dict | None:
    """Read a shell prompt running ``openssl speed``; return what it tells about the run.

    Returns ``None`` when the line is not such a prompt. Keys: ``args`` (the argument list),
    ``conditions`` (the options that change what is measured, ``-engine afalg``, ``-primes 3``,
    and any option openssl does not document), and when the arguments say so ``timing``
    (``elapsed``), ``multi``, ``decrypt``, ``mr``, ``aead``, ``mb``, ``bytes``, ``evp``,
    ``seconds``, and ``isa_mask`` from an ``OPENSSL_ia32cap=`` environment prefix. Wrappers
    (``time -v``, ``taskset -c 0``, ``sudo``, ``env``, ``util/wrap.pl``) and versioned or
    relative binaries (``./openssl-1.0.1h``, ``apps/openssl``) are read through.

    >>> parse_prompt("$ openssl speed -seconds 1 -elapsed -multi 2 -evp aes-128-cbc")["multi"]
    2
    >>> parse_prompt("OPENSSL_ia32cap='~0x200000200000000' openssl speed -evp aes-128-gcm")["isa_mask"]
    '~0x200000200000000'
    >>> parse_prompt("$ openssl speed -seconds 1 md5 hmac(md5) rsa2048")["args"]
    ['-seconds', '1', 'md5', 'hmac(md5)', 'rsa2048']
    >>> parse_prompt("root@wrt32x:/# time -v openssl speed -elapsed -engine afalg md5")["conditions"]
    {'engine': 'afalg'}
    >>> parse_prompt("[root@box ~]# taskset -c 0 ./openssl-1.0.1h speed -primes 3 rsa2048")["conditions"]
    {'primes': '3'}
    >>> parse_prompt("I ran openssl speed on my laptop"), parse_prompt("openssl speed")
    (None, None)
    """
    if "speed" not in line:
        return None
    m = _PROMPT.match(line)
    if not m:
        return None
    args = m["args"].split()
    if not (m["ps"] or args or m["pre"]):
        return None  # a bare "openssl speed" is a subject line, not a command
    out: dict = {"args": args, "conditions": {}}
    for assignment in _ENV.finditer(m["pre"]):
        try:
            key, _, value = shlex.split(assignment[0])[0].partition("=")
        except ValueError:
            continue
        if key.upper() == "OPENSSL_IA32CAP":
            out["isa_mask"] = value
    it = iter(range(len(args)))
    for i in it:
        a = args[i].lstrip("-") if args[i].startswith("-") else None
        nxt = args[i + 1] if i + 1 < len(args) else None
        if a is None or a in _NOT_CONDITIONS:
            continue
        if a == "elapsed":
            out["timing"] = "elapsed"
        elif a in _FLAGS:
            out[a] = True
        elif a in _VALUED and nxt is not None:
            if a in ("multi", "bytes", "seconds"):
                if nxt.isdigit():
                    out[a] = int(nxt)
                elif a == "multi":
                    out[a] = None  # `-multi $(nproc)`: several processes, how many unknown
            else:
                out[a] = nxt
            next(it, None)
        elif nxt is not None and not nxt.startswith("-") and (
                a in ("engine", "provider", "propquery", "provider-path") or nxt[:1].isdigit()):
            out["conditions"][a.replace("-", "_")] = nxt  # `-engine afalg`, `-primes 3`
            next(it, None)
        else:
            out["conditions"][a.replace("-", "_")] = "yes"
    return out
