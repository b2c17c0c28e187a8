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
import warnings
import zlib
from contextlib import contextmanager
from collections import Counter, defaultdict
from itertools import compress, groupby, islice
from operator import itemgetter

from cipherlab.errors import IngestError, IngestWarning, caught_warnings
from cipherlab.readers import _json, _mail
from cipherlab.readers._context import mask_value, shell_assignment, shell_sets
from cipherlab.readers._names import canonical, is_known

__all__ = ["LineWarning", "SOURCE_RULE", "clean", "decode", "documents", "name_by_source",
           "normalise", "parse_prompt", "renumber", "renumbered_warnings", "sources", "split_lines",
           "stands_in_a_log", "strip_log_prefixes", "strip_shared_prefix"]

# Control characters that never occur in text (NUL, and C0 codes other than TAB/LF/CR/FF/ESC,
# BEL, which ends a terminal's title and Buildkite's time stamps in a log, and BS, which a
# terminal session's typescript holds where keys erased what was typed).
_BINARY = re.compile(rb"[\x00-\x06\x0e-\x1a\x1c-\x1f]")
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
# ANSI CSI sequences, strings (a terminal title, OSC 8 links, Buildkite's APC time stamps: up to
# BEL or ST), other ESC sequences, and their caret renderings (^[[A) left by terminals.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]_P^][^\x07\x1b\n]{0,512}(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\^\[\[[0-9;?]*[A-Za-z]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# One quoting or list decoration left by mail clients, wikis and blogs (group 1: a `|`, which
# is a quote only when no `|` after it ends the line: then the line is a table row).
# (one step at a time, in a loop: a lookahead to the line's end per `|` made a line of
# pipes quadratic, 16 s for 32 KB)
_QUOTE_STEP = re.compile(r"\s*(?:>|(\|)|[*-]\s|#\s(?=\s*(?:[+]|Doing|type\s|version:)))\s?")
# A shell prompt: `$ `, `pi@pi5:~ $ `, `[root@host ~]# `, `C:\Users\me>`, PowerShell's
# `PS C:\Users\me> `, `>>> `, `❯ `, cmder's `λ `, oh-my-zsh's `➜  dir git:(main) ✗ `, after a
# virtualenv's or conda's `(base) ` and before a git branch's `(master)`; IPython's and Jupyter
# console's `In [3]: !` (a shell command run from Python: `!`, `!!`, `%sx`, `%system`); the
# second line of a two-line prompt (oh-my-zsh's bira `╰─$ `, powerlevel10k's `╰─ `, Kali's
# `└─$ `; p10k's right frame `─╯` after the command is no argument).
_PS = r"(?:\([\w.-]{1,40}\)\s+|\[[\d:]{5,8}\]\s+)?(?:(?:(?:PS\s)?[A-Za-z]:\\[^>]{0,120}|\[[^\]]{0,80}\]|" \
      r"[\w.@:~/\\-]{0,80}(?:\s[~\w/.-]{1,80})?(?:\s\([\w./-]{1,60}\))?)" \
      r"\s?[$#%>\u276f\u279c\u00bb\u03bb]\s*|" \
      r"\u279c\s+\S{1,80}(?:\s+git:\([^)]{0,60}\))?(?:\s+\u2717)?\s+)|>>>\s*|" \
      r"In\s?\[\d{1,5}\]:\s+(?:!!?|%(?:sx|system)\s+)\s*|" \
      r"[\u2570\u2514]\u2500++(?:[$#%\u276f\u279c\u27a4\u00bb\u03bb]\s*|\s+)"
# What runs openssl for the user: wrappers with their options (`time -v`, `taskset -c 0`,
# `nice -n 19`, `sudo -E`, `perf stat -e cycles`, `env`), wrapper scripts (`util/wrap.pl`) and
# environment assignments (`OPENSSL_ia32cap=...`), in any order; a wrapper may be named by its
# path (`/usr/bin/time -v`); what pins openssl to CPUs or nodes (`numactl`, `taskset`,
# `hwloc-bind core:2 --`, `cset shield --exec --`, `systemd-run --scope -p AllowedCPUs=2`)
# is read through too (a place, `core:2`, is its argument).
# Each wrapper's name, as placement() sees it, and how a command spells it.
_WRAPPER_SPELLINGS = {
    "sudo": "sudo", "doas": "doas", "time": "time", "nice": "nice", "taskset": "taskset",
    "env": "env", "arch": "arch", "perf": r"perf\s+stat", "numactl": "numactl", "chrt": "chrt",
    "ionice": "ionice", "stdbuf": "stdbuf", "timeout": "timeout", "nohup": "nohup",
    "hwloc-bind": "hwloc-bind", "systemd-run": "systemd-run", "cset": r"cset\s+(?:shield|proc)",
    "cpulimit": "cpulimit", "schedtool": "schedtool", "prlimit": "prlimit",
    "setarch": r"setarch\s+[\w-]+", "valgrind": "valgrind"}
# Wrappers that place or prioritise the process (CPUs, NUMA nodes, scheduler, CPU share): they
# change what openssl measures, so two runs behind different ones are no replicates of one
# setting. The other wrappers (sudo, time, env, nohup, stdbuf, ...) run it unchanged.
_PLACERS = frozenset({"taskset", "numactl", "hwloc-bind", "cset", "chrt", "nice", "schedtool",
                      "cpulimit"})
# Wrappers that run openssl on a synthetic CPU of their own (valgrind's tools: many times
# slower, with a capability vector that is not the host's): what it measures is theirs.
_INSTRUMENTS = frozenset({"valgrind"})
_WRAPPER_NAMES = frozenset(_WRAPPER_SPELLINGS)
_WRAPPER = rf"(?:(?:/[\w.-]+)*/)?(?:{'|'.join(_WRAPPER_SPELLINGS.values())}|\S+\.(?:sh|pl|py))(?:\s+(?:-[ugeC]\s+(?!openssl\b)[\w.,:-]+|-\S+|\d\S*|[a-z]+:\d[\w.:,-]*))*+\s+"
_ASSIGNMENT = r"[A-Za-z_][A-Za-z0-9_]*=(?:\"[^\"]*\"|'[^']*'|\S+)\s+"
# (the command ends at the shell's first `|`, `>`, `2>`, `&>`, `;` or `&&`: `2>&1 | tail`,
# `> out.txt`, `|& tee log`; arguments are `[\w./=+:,-]+`, with a parenthesised tail for
# names such as `hmac(md5)`, or a `$(nproc)` or `$c`: the class holds `-`, and a separate `-?` made
# failing matches backtrack twice as long; the binary may be versioned or relative: `./openssl-1.0.1h`,
# EPEL's `openssl11` and `openssl3` (beside the system's openssl), `apps/openssl`, `.\openssl.exe`,
# Homebrew's `/opt/homebrew/opt/openssl@3/bin/openssl`, a fork's
# (`tongsuo`), or a quoted path PowerShell calls with `&`)
_OPENSSL = r"(?:openssl|tongsuo)"
_PROMPT = re.compile(
    rf"^\s*(?P<ps>{_PS})?(?P<pre>(?:{_WRAPPER}|{_ASSIGNMENT})*+)"
    # (a quoted path read whole, then its end looked at: a lazy scan for the name was quadratic)
    r"(?:&\s*)?(?:(?P<q>['\"])[^'\"]*+"
    r"(?:(?<=openssl)|(?<=tongsuo)|(?<=openssl\.exe)|(?<=tongsuo\.exe))(?P=q)"
    rf"|(?:[\w.~:@+${{}}\\/-]*[/\\])?{_OPENSSL}(?:\d+|-[\w.]+)?(?:\.exe)?)"
    r"\s+speed(?P<args>(?:\s+(?:[\w./=+:,-]+(?:\([\w.,-]*\))?|\$\(\w+\)|\"?\$\{?\w+\}?\"?|%%?\w+))*+)\s*"
    r"(?:\(.*\)|(?P<shell>[|;&<>].*)|(?<=\s)#.*|(?<=\s)\u2500*+\u256f)?\s*$")  # (a comment: `# the second try`)
# A command list or a loop around openssl speed (`cd build && apps/openssl speed ...`, `openssl
# version; openssl speed ...`, `for c in a b; do openssl speed -evp $c; done`, PowerShell's
# `... | % { openssl speed -evp $_ }`, cmd's `for %h in (a b) do @echo %h & ssh %h openssl speed`):
# cut at the shell's list operators and braces.
_LIST = re.compile(r"\s*(?:&&|\|\||;|\|\s*(?:%|ForEach-Object)\s*(?=\{)|[{}]|\s(?=do\s)|\s&(?=\s))\s*")
_LIST_HINT = re.compile(r"&&|\|\||;|\{|\sdo\s|\s&\s")
_LEADING_PS = re.compile(rf"\s*(?:{_PS})?")
_LOOP = re.compile(r"\s*(?:for|while|until|foreach)\b|.*\|\s*(?:%|ForEach-Object)\s*\{|.*\bxargs\s", re.I)
_LIST_WORD = re.compile(r"^(?:do|then|else)\s+")
# (without a prompt, the list is a command when its first word is one: `cd build && ...`)
_SHELL_WORD = re.compile(r"\s*(?:cd|make|ninja|cmake|export|set|source|for|while|until|foreach|"
                         r"openssl|tongsuo|\S*[/\\](?:openssl|tongsuo|Configure|config))\s")
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


# A pager's status line, left in a copy of the screen it paged (more's `--More--(81%)`, less's
# `(END)`, `nohup.out (END)`, `-M`'s `speed.log lines 1-24/64 37%`): no text, a line blank;
# behind a mail reply's quote marks too (`> --More--(81%)`).
_PAGER = re.compile(r"^[ \t]*+(?:>[ \t]?)*+(?:--More--(?:\([^)\n]{0,60}\))?|(?:\S{1,255}+ )?"
                    r"(?:lines \d+-\d+/\d+(?: \d{1,3}%| \(END\))?|\(END\)))[ \t]*$", re.M)
# A CI log's markers that end in a CR ending no line (GitLab's `section_start:1772600706:step`,
# Travis CI's `travis_fold:start:worker_info` and `travis_time:end:0b7e21d5:start=...,event=script`):
# the CR (and the erase after it) becomes a blank, the marker stays for the log's reader
# (strip_log_prefixes: it shows the text is a CI's log, and goes).
_CI_MARK = (r"section_(?:start|end):\d+:[\w.-]+(?:\[[^\]\n]*\])?"
            r"|travis_(?:fold|time):(?:start|end):[\w.:=,-]*")
_CI_MARKER = re.compile(rf"({_CI_MARK})\r(?:\x1b\[0K)?")
# A CR as `cat -v` or an editor shows it, ending a line saved with CRLF ends (`^M`)
_SHOWN_CR = re.compile(r"\^M$", re.M)


def split_lines(text: str) -> list[str]:
    """Text -> lines with CRLF/CR ends removed, mojibake repaired and a pager's status lines
    blank; nothing else changed.

    Only ``\\n`` ends a line, so line numbers match what editors show.

    >>> split_lines("a\\r\\nb\\u00c2\\u00a0c\\r\\n")
    ['a', 'b c', '']
    >>> split_lines("md5 1.00k\\n--More--(81%)\\nsha1 2.00k\\nspeed.log lines 1-24/64 37%\\n> > --More--")
    ['md5 1.00k', '', 'sha1 2.00k', '', '']
    """
    overwritten = "\x08" in text  # (a key that erased what was typed: see _screen)
    if "\r" in text:
        if "section_" in text or "travis_" in text:  # (CI markers: see _CI_MARKER)
            text = _CI_MARKER.sub(r"\1 ", text)
        if "\r\n" not in text:
            text = text.replace("\r", "\n")  # (old Mac line ends)
        else:
            text = text.replace("\r\n", "\n")
            overwritten = overwritten or "\r" in text  # (a terminal's progress, overwritten)
    if "^M\n" in text:
        text = _SHOWN_CR.sub("", text)
    if any(c in text for c in _MOJIBAKE_HINT):
        for bad, good in _MOJIBAKE:
            text = text.replace(bad, good)
    if "--More--" in text or "(END)" in text or "lines " in text and "%" in text:
        text = _PAGER.sub("", text)
    lines = text.split("\n")
    if overwritten:
        lines = [_screen(line) if "\r" in line or "\x08" in line else line for line in lines]
    return lines


# What moves a terminal's cursor on its line or erases it, and the text between (other
# escapes show nothing: colours, titles, bracketed paste).
_TERMINAL = re.compile(r"\x1b\[(?P<n>\d*)(?P<move>[KDC])|\x1b\[[0-?]*[ -/]*[@-~]"
                       r"|\x1b[\]_P^][^\x07\x1b\n]{0,512}(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|[\r\x08]|[^\r\x08\x1b]+")


def _screen(line: str) -> str:
    """A line as a terminal shows it: a CR returns to its start, a BS goes back one, ``ESC[K``
    erases to its end, ``ESC[nD``/``ESC[nC`` move back/on; text overwrites what is under it
    (a progress line redrawn, a typo erased and retyped). Other escapes are dropped.

    >>> _screen("openssl speed -evp aes-256-gmc\\x08\\x08\\x08\\x1b[Kgcm"), _screen("[###...] 3/6\\r[######] 6/6")
    ('openssl speed -evp aes-256-gcm', '[######] 6/6')
    """
    screen: list[str] = []
    col = 0
    for m in _TERMINAL.finditer(line):
        piece = m[0]
        if piece == "\r":
            col = 0
        elif piece == "\x08":
            col = max(col - 1, 0)
        elif m["move"] == "K":
            n = m["n"]  # (to the line's end; 1: from its start; 2: all of it)
            screen = [] if n == "2" else [" "] * col + screen[col:] if n == "1" else screen[:col]
        elif m["move"]:
            col = max(col + int(m["n"] or 1) * (1 if m["move"] == "C" else -1), 0)
        elif piece[0] != "\x1b":
            screen += [" "] * (col - len(screen))
            screen[col:col + len(piece)] = piece
            col += len(piece)
    return "".join(screen)


_FULL_WIDTH = re.compile("[\uff01-\uff5e]")
# (U+FF01..FF5E: "!" .. "~"; the punctuation that spaces CJK text itself is spaced as ASCII's)
_TO_ASCII = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)} | {
    ord(w): a for w, a in zip("\uff0c\uff1a\uff1b\uff01\uff1f\uff08\uff09",
                              (", ", ": ", "; ", "! ", "? ", " (", ") "), strict=True)}


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

    The full-width forms of ASCII that CJK text writes (``（关闭AES-NI）``, ``：``, ``１６``) are
    ASCII's, so a tag in parentheses is one and a number a number:

    >>> normalise("aes-128-gcm（关闭AES-NI）：１６")[0]
    ['aes-128-gcm (关闭AES-NI) :  16']
    """
    if not text.isascii() and _FULL_WIDTH.search(text):
        text = text.translate(_TO_ASCII)
    held = _json.held_text(text, source)
    if held is not None:
        lines, origin = held
    else:
        lines, origin = split_lines(text), None
        if "=" in text and _is_quoted_printable(text):
            lines, origin = _unquoted_printable(lines)
        if text[:1024].lstrip()[:14].lower().startswith(("<!doctype html", "<html")):
            lines = _page_text(lines)  # (a whole page: nbconvert's, a saved web page)
        elif "#+" in text and _ORG_DOCUMENT.search(text):
            lines = _org_headings(lines)
    return _unentitied(text, lines), origin


# An org-mode document shows itself by its keywords and blocks (``#+TITLE:``, ``#+begin_src``,
# ``#+RESULTS:``); in it a line of stars at the margin is a heading (``** laptop``), not
# Markdown's bullet: it is written as the ATX heading of its level, which names the runs under
# it as a Markdown heading does.
_ORG_DOCUMENT = re.compile(r"^#\+(?:title:|results:|begin_(?:src|example)\b)", re.I | re.M)
_ORG_HEADING = re.compile(r"(\*{1,6}) +(?=\S)")


def _org_headings(lines: list[str]) -> list[str]:
    """An org document's headings as Markdown's (see ``_ORG_DOCUMENT``).

    >>> _org_headings(["* laptop", "** run 2 :crypto:", "*bold* text", " * item"])
    ['# laptop', '## run 2 :crypto:', '*bold* text', ' * item']
    """
    out = []
    for line in lines:
        m = _ORG_HEADING.match(line) if line[:1] == "*" else None
        out.append(line if m is None else "#" * len(m[1]) + " " + line[m.end():])
    return out


# In a whole HTML page (a notebook exported by nbconvert, a saved web page): the elements that
# hold no text (style sheets, scripts), and the tags of preformatted and inline text, which
# readers want as plain lines (`<pre>version: 3.0.22`); tables' tags stay for their reader.
_NO_TEXT = re.compile(r"<(style|script)\b", re.I)
_INLINE_TAGS = re.compile(r"</?(?:pre|span|code|samp|kbd|tt)\b[^>\n]{0,512}>", re.I)


def _page_text(lines: list[str]) -> list[str]:
    """The lines of an HTML page without its style sheets and scripts (their lines blank) and
    without the tags of preformatted and inline text (see ``_INLINE_TAGS``).

    >>> _page_text(["<style>", "h1 { color: red }", "</style>", "<pre>md5 <span>1.00k</span>", "</pre>"])
    ['', '', '', 'md5 1.00k', '']
    """
    out, closing = [], None
    for line in lines:
        if closing is None:
            m = _NO_TEXT.search(line)
            if m is not None and f"</{m[1].lower()}" not in line.lower():
                closing = f"</{m[1].lower()}"
                line = line[:m.start()]
        elif closing in line.lower():
            line, closing = line[line.lower().index(closing):].partition(">")[2], None
        else:
            line = ""
        out.append(_INLINE_TAGS.sub("", line) if "<" in line else line)
    return out


def documents(text: str, source: str = "<text>"
              ) -> list[tuple[list[str], list[int] | None, str | None]]:
    """The texts to read apart in ``text``, each as :func:`normalise` gives it, with the name
    of its source where it has one: ``text`` itself, or the posts, steps and fields of a JSON
    reply (a notebook is one text; see :func:`~cipherlab.readers._json.held_documents`), and
    in each the sources of a log whose lines interleave (:func:`sources`).

    >>> documents('[{"body": "a\\\\nb"}, {"body": "c\\\\nd"}]')
    [(['a', 'b'], [0, 1, 1], None), (['c', 'd'], [0, 1, 1], None)]
    """
    held = _json.held_documents(text, source)
    mail = _mail_documents(text) if held is None else None
    if mail is not None:  # (a raw mail: its parts and messages, each a text; see _mail)
        return [(lines, at, name) for part in mail for pane, origin in panes(part.lines, part.origin)
                for lines, at, own in sources(pane, origin) for name in [own or part.name]]
    parts = [normalise(text, source)] if held is None else [
        (_unentitied(text, lines), origin) for lines, origin in held]
    if _PANE_BORDER in text:
        parts = [pane for lines, origin in parts for pane in panes(lines, origin)]
    if "|\t" in text or "@@ -" in text and "+++ " in text:
        return [(lines, at, own or name) for part in parts for got, origin, name in sides(*part)
                for lines, at, own in sources(got, origin)]
    if "\t" in text:
        parts = [side for lines, origin in parts for side in pasted_sides(lines, origin)]
    return [got for lines, origin in parts for got in sources(lines, origin)]


def _mail_documents(text: str) -> list[_mail.Part] | None:
    """The texts of a raw mail (:func:`cipherlab.readers._mail.documents`), each cleaned as
    :func:`normalise` cleans a text (mojibake, full-width forms, entities); None when ``text``
    is no mail (its first lines tell: one look at its head)."""
    if not _mail.looks_like_mail(text):
        return None
    if not text.isascii() and _FULL_WIDTH.search(text):
        text = text.translate(_TO_ASCII)
    parts = _mail.documents(split_lines(text))
    out = []
    for part in parts or ():
        joined = "\n".join(part.lines)
        lines = split_lines(joined) if not joined.isascii() else part.lines
        if len(lines) != len(part.lines):  # (a line never splits: bare CRs left as they were)
            lines = part.lines
        out.append(part._replace(lines=_unentitied(joined, lines)))
    return out if parts is not None else None


# A terminal split in panes (tmux, screen, a tiling terminal) copied with the mouse: each line
# holds the left pane's text, the border at one column, then the right pane's; the lines
# that only draw borders (`───┴───`).
_PANE_BORDER = "\u2502"
_DIGIT = re.compile(r"\d")
_PANE_WIDTH = 30  # (a pane is this wide at least: a table's first column, `md5 │`, is narrower)
_BORDER_ONLY = re.compile(r"[\u2500-\u257f \t]+")


def panes(lines: list[str], origin: list[int] | None) -> list[tuple[list[str], list[int] | None]]:
    """The panes of a split terminal's copy, each a text of the same lines (numbered as the
    copy), where a border stands at one column on three lines or more, and on every line as
    long between the first and the last of them (a status bar below may span the screen);
    else ``[(lines, origin)]``.

    >>> pane = "{:<30}\u2502{}".format
    >>> panes([pane("md5 1.00k", "top"), pane("sha1 2.00k", ""), pane("x", "up 3 days"), "\u2500" * 40], None)
    [(['md5 1.00k', 'sha1 2.00k', 'x', ''], None), (['top', '', 'up 3 days', ''], None)]
    """
    at = [line.find(_PANE_BORDER) for line in lines]
    column = Counter(c for c in at if c >= _PANE_WIDTH).most_common(1)
    if not column or column[0][1] < _SHARED_BLOCK:
        return [(lines, origin)]
    c = column[0][0]
    first, last = at.index(c), len(at) - at[::-1].index(c)
    if any(a != c and len(line) > c and not _BORDER_ONLY.fullmatch(line) or
           a == c and _PANE_BORDER in line[c + 1:] for a, line in zip(at[first:last], lines[first:last])):
        return [(lines, origin)]  # (a border that moves, lines across it, more borders: a table)
    left, right = [], []
    for a, line in zip(at, lines):
        if a == c:
            left.append(line[:c].rstrip())
            right.append(line[c + 1:])
        else:
            left.append("" if _BORDER_ONLY.fullmatch(line) else line)
            right.append("")
    return [(left, origin)] + ([(right, origin)] if any(_DIGIT.search(r) for r in right) else [])


def sides(lines: list[str], origin: list[int] | None
          ) -> list[tuple[list[str], list[int] | None, str | None]]:
    """The texts a diff of saved outputs shows, each read as a text of its own: ``(lines,
    origin, name)``, ``name`` the file's where the diff names it (only where the file's own
    lines name its runs none); ``[(lines, origin, None)]`` when ``lines`` show no diff. Two
    files side by side (:func:`_side_by_side`), or a unified diff (:func:`_unified`).
    """
    unified = _unified(lines, origin)
    if unified is not None:
        return unified
    return [(got, at, None) for got, at in _side_by_side(lines, origin)]


# Two files side by side as ``sdiff`` and ``diff -y`` print them: the left file's line cut at
# half the width and padded with TABs to the gutter, whose mark (`|` where the lines differ,
# `<`, `>`, blank where they agree) a TAB follows, then the right file's line, cut the same.
_GUTTER_MARKS = frozenset(" |<>()")


def _side_by_side(lines: list[str], origin: list[int] | None
                  ) -> list[tuple[list[str], list[int] | None]]:
    """The two files of a side-by-side diff, each a text of the same lines (numbered as the
    copy), where a ``|`` and a TAB stand at one column (TABs expanded) on three lines or more
    and every line between them has its gutter there; else ``[(lines, origin)]``.

    >>> diff = ["md5 1.00k\\t\\t\\t\\t|\\tmd5 3.00k", "sha1 2.00k\\t\\t\\t\\t|\\tsha1 4.00k", "x\\t\\t\\t\\t\\t \\tx",
    ...         "y\\t\\t\\t\\t\\t|\\tz"]
    >>> _side_by_side(diff, None)
    [(['md5 1.00k', 'sha1 2.00k', 'x', 'y'], None), (['md5 3.00k', 'sha1 4.00k', 'x', 'z'], None)]
    """
    expanded = [line.expandtabs() if "\t" in line else line for line in lines]
    at = [len(line[:k].expandtabs()) if (k := line.find("|\t")) >= 0 else -1 for line in lines]
    column = Counter(c for c in at if c >= _PANE_WIDTH).most_common(1)
    if not column or column[0][1] < _SHARED_BLOCK:
        return [(lines, origin)]
    g = column[0][0]
    r = (g + 1 + 7) // 8 * 8  # (the TAB after the mark: the right file's first column)
    def gutter(e: str) -> bool:  # (the line has its mark at g, nothing between it and r)
        return len(e) > g and e[g] in _GUTTER_MARKS and not e[g + 1:r].strip()

    first, last = at.index(g), len(at) - at[::-1].index(g)
    if not all(map(gutter, filter(str.strip, expanded[first:last]))):
        return [(lines, origin)]  # (no gutter at that column: no side-by-side diff)
    while first > 0 and expanded[first - 1].strip() and gutter(expanded[first - 1]):
        first -= 1  # (a line only one file has, `<` or `>`, or one both agree on)
    while last < len(lines) and expanded[last].strip() and gutter(expanded[last]):
        last += 1
    left, right = list(lines), [""] * len(lines)
    for n in range(first, last):
        e = expanded[n]
        left[n], right[n] = e[:g].rstrip(), e[r:].rstrip()
    # (the half width each file's line is cut to: diff puts the mark half way between its end
    # and the right file's column, so the mark's column leaves two widths)
    halves = {r - d for d in range(2, 12) if r - d + (d - 1) // 2 == g}
    return [(_uncut(side, first, last, halves, origin), origin) for side in (left, right)]


def _uncut(side: list[str], first: int, last: int, halves: set[int],
           origin: list[int] | None) -> list[str]:
    """One file's lines of a side-by-side diff without the last word of each line the diff cut
    at its half width (``sdiff -w 80`` prints 37 columns of each: ``162547.7`` of
    ``162547.78k``), which is no value; a warning names those lines. A line is cut where it is
    as long as the longest and that is one of the ``halves`` the gutter's column allows (a
    file that fits has none; a line cut right after a blank is stripped of it, and stays loud
    where its rest is no cell: a header's ``16384`` without ``bytes``)."""
    width = max(map(len, side[first:last]), default=0)
    if width not in halves:
        return side
    cut = [n for n in range(first, last) if len(side[n]) == width]
    side = list(side)
    for n in cut:  # (back to the gap before the last cell: `64 byte` of `64 bytes` goes whole)
        gap = side[n].rfind("  ")
        side[n] = side[n][:max(gap if gap >= 0 else side[n].rfind(" "), 0)].rstrip()
    numbers = [origin[n + 1] if origin else n + 1 for n in cut]
    warnings.warn(LineWarning(f"line(s) {{lines}} are cut at column {width} by the side-by-side "
                              "view: their last word may be part of a value, not read",
                              numbers=numbers), IngestWarning, stacklevel=3)
    return side


# A line of openssl speed output as ``paste a.txt b.txt`` puts one beside another (a TAB
# between, no gutter): a table's header or row (a name, then two values), a public-key
# header, a version or progress line.
_OPENSSL_HALF = re.compile(r"\s*(?:type\s+\d+ bytes|sign\s+verify|version:|built on:|options:|"
                           r"compiler:|CPUINFO:|Doing\s|\S[^\t]*?\s\d[\d.]*k?\s+\d[\d.]*k?(?:\s|$))")


def pasted_sides(lines: list[str], origin: list[int] | None
                 ) -> list[tuple[list[str], list[int] | None]]:
    """The two files of ``paste a.txt b.txt`` (each line: a's line, a TAB, b's line), each a
    text of the same lines, where lines of one TAB each hold an openssl line on both sides on
    three lines or more (a two-column TSV table holds a name or a number on one side: no
    openssl line); the block of one-TAB lines around them is split; else ``[(lines, origin)]``.

    >>> row = "md5  1.00k  2.00k\\tmd5  3.00k  4.00k"
    >>> pasted_sides(["$ paste a b", row, row, row, "\\tsha1  5.00k  6.00k"], None)[1][0]
    ['', 'md5  3.00k  4.00k', 'md5  3.00k  4.00k', 'md5  3.00k  4.00k', 'sha1  5.00k  6.00k']
    """
    one = [line.count("\t") == 1 for line in lines]
    both = [n for n, line in enumerate(lines) if one[n] and all(
        _OPENSSL_HALF.match(half) for half in line.split("\t"))]
    if len(both) < _SHARED_BLOCK:
        return [(lines, origin)]
    first, last = both[0], both[-1] + 1
    if not all(one[first:last]):
        return [(lines, origin)]  # (a line of no TAB or of several inside: no paste of two files)
    while first > 0 and one[first - 1]:
        first -= 1
    while last < len(lines) and one[last]:
        last += 1
    left, right = list(lines), [""] * len(lines)
    for n in range(first, last):
        left[n], right[n] = (half.rstrip() for half in lines[n].split("\t"))
    return [(left, origin), (right, origin)]


# A unified diff (``diff -u``, ``git diff``): each file's header (``--- old``, ``+++ new``,
# GNU diff's time stamp after a TAB; git's ``diff --git`` and ``index`` lines above it) and its
# hunks (``@@ -l,n +l,n @@``), whose lines are both files' (behind a blank; a blank line where
# the paste dropped the blank), the old file's (behind ``-``) or the new one's (behind ``+``);
# all of it behind the quoting or indentation its first header has (a reply, a code block).
_HUNK = re.compile(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")
_DIFF_HEADER = re.compile(r"(?P<p>[ \t>]*)--- \S")
_GIT_HEADER = re.compile(r"diff |index [0-9a-f]+\.\.|(?:old|new|deleted file|new file) mode "
                         r"|(?:dis)?similarity index |(?:rename|copy) (?:from|to) ")
_FILE_STAMP = re.compile(r"\t| +(?=\d{4}-\d\d-\d\d \d|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z])")
_DIFF_RULE = "file name in the diff's header"
_WRAPPED_WIDTH = 60  # (a line this long may go on, unmarked, on the next: a mail client wrapped it)
_OFF = "\0"  # (a line without the diff's prefix: no line of it; text holds no NUL)


def _unified(lines: list[str], origin: list[int] | None
             ) -> list[tuple[list[str], list[int] | None, str | None]] | None:
    """The texts of a unified diff (see ``_HUNK``): each file's old and new side, its lines
    without their mark, named by its header; the lines outside the diff, when they hold any;
    None when ``lines`` hold no file header followed by a hunk.

    Each hunk holds the lines its header counts; where it does not (a mail client wrapped a
    long line, and the rests begin with ``-``: ``-fzero-call-used-regs``), every hunk is read
    while its lines are marked, each rest with the line above.

    >>> for got in _unified(["--- a/x.txt", "+++ b/y.txt", "@@ -1,2 +1,2 @@", " type 16 bytes",
    ...                      "-md5 1.00k", "+md5 2.00k", "thanks"], None):
    ...     print(got)
    (['thanks'], [0, 7], None)
    (['type 16 bytes', 'md5 1.00k'], [0, 4, 5], 'x.txt')
    (['type 16 bytes', 'md5 2.00k'], [0, 4, 6], 'y.txt')
    """
    first = next((m for line in lines if line[:1] in "-> \t" and (m := _DIFF_HEADER.match(line))), None)
    if first is None:
        return None
    p = first["p"]
    view = lines if not p else [line[len(p):] if line.startswith(p) else
                                "" if line == p.rstrip() else _OFF for line in lines]
    read = _diff(view, True)
    if read is not None and read[3]:  # (a hunk that holds other lines than it counts)
        read = _diff(view, False)
    if read is None:
        return None
    outer, files, rests, _ = read
    out = [(*_picked(lines, origin, outer), None)] if any(lines[k].strip() for k in outer) else []
    unmarked = {k: view[k] if k in rests else view[k][1:] for *_, old, new in files for k in old + new}
    for old_name, new_name, old, new in files:
        for name, ks in ((old_name, old), (new_name, new)):
            if ks:
                out.append((*_picked(unmarked, origin, ks), _mail.Fallback(name, _DIFF_RULE)))
    return out


def _diff(view: list[str], counted: bool):
    """``(outer, files, rests, damaged)`` of a unified diff's lines (``view``: without its
    prefix; see :func:`_unified`): the lines outside it, each file's ``(old name, new name,
    old lines, new lines)``, the rests of wrapped lines, and whether a hunk held other lines
    than its header counts (``counted``: each hunk holds so many; else while its lines are
    marked); None when no file header is followed by a hunk."""
    outer: list[int] = []
    files: list[tuple[str, str, list[int], list[int]]] = []
    rests: set[int] = set()
    damaged, k, n = False, 0, len(view)
    while k < n:
        if not (view[k].startswith("--- ") and k + 2 < n and view[k + 1].startswith("+++ ")
                and _HUNK.match(view[k + 2])):
            outer.append(k)
            k += 1
            continue
        top = k
        while outer and outer[-1] == top - 1 and _GIT_HEADER.match(view[top - 1]):
            top = outer.pop()  # (git's header lines above: no text)
        old, new = [], []
        files.append((*_diff_names(view[k], view[k + 1]), old, new))
        k += 2
        while k < n and (m := _HUNK.match(view[k])):
            counts = (int(m[1] or 1), int(m[2] or 1)) if counted else None
            k, whole = _hunk(view, k + 1, counts, old, new, rests)
            damaged = damaged or not whole or _goes_on(view, k)
    return (outer, files, rests, damaged) if files else None


def _goes_on(view: list[str], k: int) -> bool:
    """Whether the line after a hunk, ``view[k]``, is one more line of it (marked, and no
    next file's header): the hunk held more lines than it counts."""
    return k < len(view) and view[k][:1] in ("-", "+") and not (
        view[k].startswith("--- ") and k + 1 < len(view) and view[k + 1].startswith("+++ "))


def _hunk(view: list[str], k: int, counts: tuple[int, int] | None, old: list[int],
          new: list[int], rests: set[int]) -> tuple[int, bool]:
    """Read the hunk whose lines start at ``view[k]`` into ``old`` and ``new`` (and the rests
    of wrapped lines, into ``rests`` and the sides of the line above): the index after it,
    and whether it held the lines ``counts`` says (``None``: read while its lines are marked)."""
    left, right = counts or (-1, -1)  # (-1: no count, never reached)
    sides: tuple = ()
    while k < len(view) and (left or right or view[k][:1] == "\\"):
        line = view[k]
        mark = line[:1]
        if mark == "-" and left:
            sides, left = (old,), left - 1
        elif mark == "+" and right:
            sides, right = (new,), right - 1
        elif (mark == " " or mark == "" and counts) and left and right:
            sides, left, right = (old, new), left - 1, right - 1
        elif mark == "\\":  # (``\\ No newline at end of file``: no text)
            sides = ()
        elif line.strip() and line != _OFF and sides and len(view[k - 1]) >= _WRAPPED_WIDTH:
            rests.add(k)  # (the rest of a line a mail client wrapped: its sides')
        else:
            break  # (a hunk cut short, or a loose one's end: the paste ends, a fence closes it)
        for side in sides:
            side.append(k)
        k += 1
    return k, counts is None or not (left or right)


def _diff_names(old: str, new: str) -> tuple[str, str]:
    """The file names of a unified diff's header lines, without GNU diff's time stamps, and
    without git's ``a/`` and ``b/`` where the two names still differ then.

    >>> _diff_names("--- speed-vm1.txt\\t2026-03-04 10:12:01.000000000 +0000", "+++ b/speed-vm2.txt")
    ('speed-vm1.txt', 'b/speed-vm2.txt')
    >>> _diff_names("--- a/x/speed.txt", "+++ b/y/speed.txt"), _diff_names("--- a/speed.txt", "+++ b/speed.txt")
    (('x/speed.txt', 'y/speed.txt'), ('a/speed.txt', 'b/speed.txt'))
    """
    a, b = (_FILE_STAMP.split(line[4:], 1)[0].strip() for line in (old, new))
    if a[:2] == "a/" and b[:2] == "b/" and a[2:] != b[2:]:
        return a[2:], b[2:]
    return a, b


def _picked(lines, origin: list[int] | None, ks: list[int]) -> tuple[list[str], list[int]]:
    """The text of ``lines[k]`` for each of ``ks`` (``lines``: a list, or a dict of the lines
    picked), with the map back to the original line numbers (see :func:`normalise`)."""
    at = [k + 1 for k in ks] if origin is None else [origin[k + 1] for k in ks]
    return [lines[k] for k in ks], [0, *at]


# The words that start ansible-playbook's task results (``changed: [host] => {...}``).
_RESULT_TAGS = frozenset({"ok:", "changed:", "failed:", "fatal:"})


def _through(inner: list[int], outer: list[int] | None) -> list[int]:
    """The map ``inner`` (to the lines of a text) followed through ``outer`` (to those of the
    text it came from)."""
    return inner if outer is None else [0, *(outer[n] for n in inner[1:])]


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
    return _mail.unquoted_printable(lines, 1, _QP_ESCAPES, _qp_bytes)


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
        with caught_warnings() as caught:
            yield
    finally:  # (re-issued in order once the readers return, or raise: none is lost)
        for w in caught:
            message = w.message.renumbered(origin) if isinstance(w.message, LineWarning) else w.message
            warnings.warn(message, w.category, stacklevel=3)


# The prefix a block of pasted lines may share, whatever it is: mail quoting (``>``, ``> >``),
# a comment marker (a Perl or shell ``#``, a C++ or Go ``//``, a Lisp or ini ``;``, a TeX
# ``%``, ``!``), a list bullet (``*``, ``-``), org-mode's fixed-width ``: `` (a babel block's
# ``#+RESULTS:``; its keywords, ``#+TITLE:``, are no comment), a ``|`` margin, and the blanks around them. Its
# identity is its first mark (``> >`` quotes deeper than ``>``, ``#!`` is a shebang in a ``#``
# comment: each line loses its whole prefix). A ``|`` ending the line makes it a table row,
# not a margin (tested with endswith: a lookahead per ``|`` is quadratic).
_MARKS = r">|//|#(?!\+)|;|%|!|[*:-](?=[ \t]|$)"
# A line-number gutter (``  12 | ``, ``12: ``, ``     12\t`` from ``cat -n``, ``12. ``).
_NUMBER_GUTTER = r"(?P<n>\d{1,7})(?:[ \t]*+[|:][ \t]?|\.[ \t]|[ \t]++|$)"
# One match per line tells both: its prefix's marks (group "marks") or its gutter's number.
_LEAD = re.compile(rf"[ \t]*+(?:(?P<marks>(?:(?:{_MARKS}|\|)[ \t]*+)++)|{_NUMBER_GUTTER})")
_LEAD_NO_PIPE = re.compile(rf"[ \t]*+(?:(?P<marks>(?:(?:{_MARKS})[ \t]*+)++)|{_NUMBER_GUTTER})")
# Comment markers: a line of a comment block labels only the runs of that block.
_COMMENT_MARKS = ("#", "//", ";", "%", "!")
# A chat log's time stamp and nick ("[14:02] <mk> ", "14:02:11 <@mk> "): one prefix, whoever
# speaks (tried before a gutter: "14:02" is no line number).
# (or the nick and a colon, as Matrix, Slack and Discord exports write it: "[12:03] kwame: ")
_CHAT = re.compile(r"\[?\d{1,2}:\d{2}(?::\d{2})?\]?[ \t]++(?:<[@+%~&]?[^<>\s]{1,32}>|[\w.@-]{1,32}:(?=[ \t]|$))[ \t]?")
_CHAT_KEY = "<chat>"
_LEAD_START = frozenset(" \t>#/;%!*:-|0123456789[")
_FIRST_CHAR = itemgetter(slice(None, 1))
_SHARED_BLOCK = 3  # lines a block must have for its shared prefix to be stripped
_WRAPPED = 2  # lines without a stamp a log's block may hold between two (a mail client's wrap)
# Three lines in a row that may start with a mark, a gutter or a chat's stamp (see _lead): the
# mark pass has a block to find only where one scan of the text in C finds these
_MARKED = r"\n[ \t]*+[>/#;%!*:|\d\[-][^\n]*+"
_MARK_BLOCK = re.compile(rf"{_MARKED}(?:{_MARKED}){{{_SHARED_BLOCK - 1}}}")
# Two such lines that are a whole code block (see _whole_code_block): between fences, or
# indented after a blank line and before one
_MARKED_CODE = r"[ \t]*+[>/#;%!*:|-][^\n]*+"
_CODE_PAIR = re.compile(rf"\n(?:```|~~~|#\+(?i:results):)[^\n]*+\n{_MARKED_CODE}\n{_MARKED_CODE}\n(?:```|~~~|\n|$)"
                        rf"|\n\n(?=    |\t){_MARKED_CODE}\n(?=    |\t){_MARKED_CODE}(?:\n\n|\n?$)")
# A gutter's line longer than the width of a mail client or a viewer is wrapped: its tail, on
# lines of their own, has no number (the viewer numbers lines, not rows of the screen). Up to
# this many lines, none blank, may stand between two numbers of one gutter (a 3.x `compiler:`
# line at 72 columns takes five or six).
_GUTTER_WRAPPED = 8
# (three numbered lines with lines between: the gutter pass has a wrapped block to find only
# where this finds one)
_GUTTERED = r"\n[ \t]*+\d{1,7}+(?:[ \t]*+[|:]|\.[ \t]|[ \t])[^\n]*+"
_GUTTER_BLOCK = re.compile(rf"{_GUTTERED}(?:(?:\n[^\n]++){{0,{_GUTTER_WRAPPED}}}?{_GUTTERED}){{2}}")


# The prefix a logger writes before each line it records, in two layers, each stripped from
# blocks of three or more lines of one shape (line numbers never move):
# 1. a head whose digits change from line to line: a time stamp (RFC 3339 from GitHub Actions,
#    `docker logs -t`, `kubectl logs --timestamps`; journalctl's and syslog's `Mar 04 05:06:14`;
#    moreutils `ts`; dmesg's `[   12.440000]` and `[Tue Mar  4 05:06:14 2026]`; Jenkins' or
#    Buildkite's `[05:06:07]`; Windows' `3/4/2026 5:06:07 AM`), with what loggers write beside
#    it (`logger`'s `<13>`, CRI's `stdout F`, GitLab's `00O+`, a level word), BuildKit's
#    `#12 0.282`, Buildkite's escape `ESC_bk;t=1772600767518 BEL`. Its shape is the stamp
#    without digits and blanks (BuildKit's: its step).
# 2. a tag the same on every line: `[pod/bench-7d9f/openssl]`, docker compose's `bench-1  |`,
#    make's `make[1]:`, syslog's `hostb bench.sh[4242]:`, pdsh's `host-a:`; not openssl's own
#    `Got:`/`version:` lines, nor an algorithm's name (`aes-128-cbc: ...` rows).
_SGR = r"(?:\x1b\[[0-9;]*+m)*+"  # colour around a prefix (docker compose, GitHub)
_CLOCK = r"\d{1,2}:\d\d:\d\d(?:[.,]\d{1,9})?"
_STAMP = (rf"(?:\d{{4}}-\d\d-\d\d[T ]{_CLOCK}(?:Z|[+-]\d\d:?\d\d)?(?:[ ]UTC)?"
          rf"|\d{{1,4}}[/.]\d{{1,2}}[/.]\d{{2,4}},?[ ]{_CLOCK}(?:[ ]?[AP]M)?"
          rf"|(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[ ])?"
          rf"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[ ]{{1,2}}\d{{1,2}}[ ]{_CLOCK}(?:[ ]\d{{4}})?"
          rf"|{_CLOCK})")
_HEAD = (r"(?P<step>#\d{1,5})(?:[ ]\d+\.\d+)?"  # BuildKit: the step, its seconds
         rf"|(?P<stamp>\x1b_bk;t=\d+\x07"  # Buildkite's time stamp, an escape sequence
         rf"|(?:<\d{{1,3}}>(?:1[ ])?)?(?:\[[ ]*+(?:{_STAMP}|\d+\.\d+)\]|{_STAMP}))"
         rf"(?:[ ]+(?:stdout|stderr)[ ][FP]|[ ]+[0-9a-f]{{2}}[OE]\+?)?"  # the stream: no shape
         rf"(?:[ ]+\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN(?:ING)?|ERROR|Information|Warning)\]?:?)?")
# (a word, or a host and a program: `hostb bench.sh[4242]:`; possessive: no backtracking)
# (Packer's and Vagrant's `    amazon-ebs.x86: `, indented; Terraform's `aws_instance.x (remote-exec): `)
# (GNU parallel's `--tag`, `xargs`-driven scripts: the job's argument, then a TAB, `md5\t`,
# `-evp aes-128-gcm\t`, a word first (`#\t` starts a comment); a TAB an editor put for spaces
# is no tag: a tag repeats on every line of its block, a table's first column does not)
# (Open MPI's `--tag-output`: the job and rank, then the stream, no blank after: `[1,0]<stderr>:`;
# Slurm's `srun --label`: the task's number, padded to the widest, `0: `, ` 7: `; a gutter's
# numbers count up, never three lines of one; stern's pod and container, each in its colour,
# `ESC[32mbench-5c7d9-kq2lx ESC[0m ESC[32mspeed ESC[0m` (without colour two words start many
# a line: no tag then)
_TAG = (r"\[(?![\d:. ]+\])[^\]\n]{1,80}+\](?:<std(?:out|err|diag)>:)?|==\d{1,9}+==|[ ]{0,4}+\d{1,5}+:(?=[ ]|$)"
        r"|(?:[ ]{4})?[A-Za-z][\w.-]{0,63}+(?:\x1b\[0?m[ ]\x1b\[[0-9;]*+m[A-Za-z][\w.-]{0,63}+(?=\x1b\[0?m[ ])"
        r"|(?:[ ][A-Za-z][\w.-]{0,63}+|[ ]\([\w-]{1,32}+\))?(?:\[[\w.-]{1,32}+\])?(?::|[ ]*+\|))"
        r"|[ ]*+-?\w\S{0,63}+(?:[ ]\S{1,63}+){0,3}+\t")
# (each searched for in the whole text at once, in C: "\n" first, as a literal is found much
# faster than "^", then the characters a head can start with; a chat's nick after a stamp is
# not part of the shape: one prefix whoever speaks)
_LOG_HEAD = re.compile(rf"\n(?=[\d\[<#\x1bJFMASONDTW]){_SGR}(?P<head>{_HEAD})"
                       rf"(?P<nick>[ \t]++<[@+%~&]?[^<>\s]{{1,32}}>)?{_SGR}"
                       rf"(?:(?<=\x07)|(?=[ \t]|$))[ \t]?{_SGR}", re.M)
_LOG_TAG = re.compile(rf"\n{_SGR}(?P<tag>{_TAG})", re.M)
# (a tag is on every line of its block, one match a whole block; the rest of a wrapped line
# ends it: `blocks:` starting the rest of every wrapped `Doing` line is no tag)
_TAG_BLOCK = (rf"(?P<p>{_SGR}(?P<tag>{_TAG}){_SGR})(?:(?<=\t)|(?<=>:)|(?=[ \t]|$))[^\n]*+"
              rf"(?:\n(?P=p)(?:(?<=\t)|(?<=>:)|(?=[ \t]|$))[^\n]*+){{{_SHARED_BLOCK - 1},}}+")
_LOG_TAGGED = re.compile(rf"\n{_TAG_BLOCK}", re.M)
# Three lines or more behind heads, or behind one tag: whether a text holds a log at all (most
# do not: one scan in C says so; the layers then scan again, for each line's prefix)
_HEADED = (r"(?=[\d\[<#\x1bJFMASONDTW])" + _SGR + "(?:" + re.sub(r"\(\?P<\w+>", "(?:", _HEAD) + ")"
           + _SGR + r"(?:(?<=\x07)|(?=[ \t]|$))[^\n]*+")
_LOG_BLOCK = re.compile(rf"\n(?:{_HEADED}(?:(?:\n[^\n]*+){{0,{_WRAPPED}}}?\n{_HEADED})"
                        rf"{{{_SHARED_BLOCK - 1}}}|{_TAG_BLOCK})", re.M)
# openssl's own lines that start with words and a colon (`Got: +F:...` repeats in -multi)
_NOT_TAGS = frozenset({"Got:", "version:", "built on:", "options:", "compiler:", "CPUINFO:",
                       "platform:", "seconds:"})
_NO_DIGITS = str.maketrans("", "", "0123456789 \t")


def _strip_log_heads(lines: list[str], logs: list[int]) -> list[str]:
    """``lines`` with the log heads (time stamps...) of blocks of one shape stripped (and
    ``logs`` marked: see :func:`_stripped_blocks`)."""
    text = "\n" + "\n".join(lines)
    blocks: list[tuple[str, list[tuple[int, int]]]] = []  # (shape, [(line, text begins)])
    count = pos = 0
    for m in _LOG_HEAD.finditer(text):
        start = m.start()
        count += text.count("\n", pos, start + 1)
        pos = start + 1
        shape = m["step"] or m["stamp"].translate(_NO_DIGITS) + ("" if m["nick"] is None else "<>")
        if blocks and blocks[-1][0] == shape and count - 2 - blocks[-1][1][-1][0] <= _WRAPPED:
            last = blocks[-1][1][-1][0]  # (the lines between: a wrapped line's rest)
            blocks[-1][1].extend([(k, None) for k in range(last + 1, count - 1)])
            blocks[-1][1].append((count - 1, m.end() - pos))
        else:
            blocks.append((shape, [(count - 1, m.end() - pos)]))
    return _stripped_blocks(lines, blocks, logs, [key for key, _ in blocks])


def _strip_log_tags(lines: list[str], logs: list[int]) -> list[str]:
    """``lines`` with the tag each line of a block of them starts with stripped (a marker
    tag's lines, Jenkins' ``[Pipeline] stage``, whole)."""
    text = "\n" + "\n".join(lines)
    blocks: list[tuple[str, list[tuple[int, int]]]] = []
    count = pos = 0
    for m in _LOG_TAGGED.finditer(text):
        start = m.start()
        count += text.count("\n", pos, start + 1)
        pos = start + 1
        tag, size, n = m["tag"], len(m["p"]), m[0].count("\n")
        if not _is_tag(tag) or tag[-1] == "|" and m[0].count("|") > n:  # (a table: cells)
            continue
        first = count - 1
        block = [(k, len(lines[k]) if tag in _MARKER_TAGS else
                  size + (lines[k][size:size + 1] in (" ", "\t"))) for k in range(first, first + n)]
        if not _rows_only(lines[k][begin:] for k, begin in block):
            blocks.append((tag, block))
    order = None  # (the tag of every line, when two sources may be interleaved)
    if len({key for key, _ in blocks}) > 1:
        order = [m["tag"] for m in _LOG_TAG.finditer(text)]
    return _stripped_blocks(lines, blocks, logs, order)


def _is_tag(tag: str) -> bool:
    """Whether ``tag`` (see ``_TAG``) may be a log's: not openssl's own ``version:`` lines, nor
    an algorithm's name (``aes-128-cbc: 16 bytes ...`` rows), unless a TAB ends it (GNU
    parallel's ``--tag`` of a job per algorithm: ``md5\tversion: 3.0.22``)."""
    return tag not in _NOT_TAGS and (
        tag[0] == "[" or tag[-1] == "\t" or not is_known(canonical(tag.split("[")[0].rstrip(" :|"))[0]))


def sources(lines: list[str], origin: list[int] | None
            ) -> list[tuple[list[str], list[int] | None, str | None]]:
    """The sources of a log that holds several, each as a text of its own: ``(lines, origin,
    name)``, its lines in order with the map back to the original line numbers (see
    :func:`normalise`) and the name the log gives it; the lines of no source are one more text,
    without a name. ``[(lines, origin, None)]`` when the log names no sources.

    A source is named by a tag before each of its lines, where two sources or more of three
    lines or more interleave (``docker compose`` services, ``pdsh``'s or ``clush``'s hosts,
    ``kubectl logs --prefix``'s containers, ``srun --label``'s tasks, ``mpirun --tag-output``'s
    ranks, stern's pods; behind a time stamp, heroku's dynos: :func:`_stamped_sources`; lines
    without a tag between two tagged ones, at most two, the rest of a wrapped line, stay with
    the source above them), or by a head line
    before its block (ansible's ``host | CHANGED | rc=0 >>``); ansible's task results, each
    named by its host (:func:`~cipherlab.readers._json.held_results`); a PowerShell transcript
    is one source, named by the machine of its header (:func:`_transcript`).

    >>> [(t, o, n) for t, o, n in sources(["$ up", "a: x 1", "b: y 2", "a: x 3", "b: y 4",
    ...                                    "a: x 5", "b: y 6"], None)]  # doctest: +NORMALIZE_WHITESPACE
    [(['$ up'], [0, 1], None), (['a: x 1', 'a: x 3', 'a: x 5'], [0, 2, 4, 6], 'a'),
     (['b: y 2', 'b: y 4', 'b: y 6'], [0, 3, 5, 7], 'b')]
    >>> [n for _, _, n in sources(["h1 | CHANGED | rc=0 >>", "x", "h2 | FAILED | rc=2 >>", "y"], None)]
    [None, 'h1', 'h2']
    """
    text = "\n" + "\n".join(lines)
    tags = Counter(_LOG_TAG.findall(text))  # (in C: most texts have no two tags to follow)
    if "PSVersion:" in tags and "PowerShell transcript start" in text:
        return _transcript(lines, origin)
    piped = any(t[-1] == "|" for t in tags)  # (`host | CHANGED ...`: ansible's ad-hoc output)
    if piped or not _RESULT_TAGS.isdisjoint(tags):
        results = _json.held_results(lines)  # (ansible's results, JSON in the text)
        if results is not None:
            return [(got, _through(at, origin), name) for got, at, name in results]
    owner = (piped and _headed_sources(text, lines)) or _tagged_sources(text, lines, tags) \
        or "]: " in text and _stamped_sources(text, lines)
    if not owner:
        return [(lines, origin, None)]
    streams: dict[str | None, list[int]] = {None: []}
    for k, name in enumerate(owner):
        streams.setdefault(name, []).append(k)
    return [(*_picked(lines, origin, ks), name)
            for name, ks in streams.items() if name or any(lines[k].strip() for k in ks)]


# A PowerShell transcript's own lines (Start-Transcript): its header and footer between lines
# of asterisks (facts: start time, user, the machine), and its notices.
_TRANSCRIPT_FRAME = "**********************"
_TRANSCRIPT_NOTICE = re.compile(r"Transcript (?:started|stopped), output file is ")
_TRANSCRIPT_MACHINE = re.compile(r"Machine: (?P<name>[^\s(]+)")


def _transcript(lines: list[str], origin: list[int] | None
                ) -> list[tuple[list[str], list[int] | None, str | None]]:
    """A PowerShell transcript as one source, named by the machine its header names, its own
    lines blank (no text: their facts and notices name no run but by that machine).

    >>> _transcript(["*" * 22, "Windows PowerShell transcript start", "Machine: BOX7 (Microsoft Windows NT)",
    ...              "*" * 22, "Transcript started, output file is D:/speed.txt", "md5 1.00k"], None)
    [(['', '', '', '', '', 'md5 1.00k'], None, 'BOX7')]
    """
    out, name, framed = list(lines), None, False
    for k, line in enumerate(lines):
        if line.startswith(_TRANSCRIPT_FRAME) and not line.strip("*"):
            framed = not framed
        elif framed:
            m = _TRANSCRIPT_MACHINE.match(line)
            name = name or (m and m["name"])
        elif not _TRANSCRIPT_NOTICE.match(line):
            continue
        out[k] = ""
    return [(out, origin, name)]


# The head line of a host's block in ansible's ad-hoc output: ``host | CHANGED | rc=0 >>``
# (its stdout, then its stderr below).
_SOURCE_HEAD = re.compile(r"^(?P<host>[\w.@:-]{1,80}) \| [A-Z]+!? \| rc=-?\d+ >>$", re.M)


def _headed_sources(text: str, lines: list[str]) -> list[str | None] | None:
    """The source of each of ``lines`` (None: of none; ``text``: the lines joined, after a
    line break) where their blocks have head lines (see ``_SOURCE_HEAD``), else None."""
    if "| rc=" not in text or _SOURCE_HEAD.search(text) is None:
        return None
    owner, name = [], None
    for line in lines:
        m = _SOURCE_HEAD.match(line) if line[-3:] == " >>" else None
        if m is not None:
            name = m["host"]
        owner.append(None if m is not None else name)
    return owner


def _tagged_sources(text: str, lines: list[str], counts: Counter, resuming: int = 1
                    ) -> list[str | None] | None:
    """The source of each of ``lines`` (None: of none; ``text``: the lines joined, after a
    line break; ``counts``: the lines of each tag) where their sources' tags interleave
    (``resuming``: so many sources resume after another's lines, at least), else None (see
    :func:`sources`)."""
    if sum(n >= _SHARED_BLOCK and _is_tag(t) for t, n in counts.items()) < 2:
        return None
    tags: dict[int, str] = {}  # line index -> its source's name
    texts: dict[str, list[str]] = defaultdict(list)  # source -> the texts behind its tags
    named: dict[str, str | None] = {}  # tag -> its source's name (None: no log's tag)
    count = pos = 0
    for m in _LOG_TAG.finditer(text):
        count += text.count("\n", pos, m.start() + 1)
        pos = m.start() + 1
        tag = m["tag"]
        if tag not in named:
            named[tag] = _source_name(tag) if _is_tag(tag) else None
        if named[tag] is not None:
            tags[count - 1] = named[tag]
            texts[named[tag]].append(lines[count - 1][m.end() - pos:])
    names = {t for t, behind in texts.items()  # (rows behind machines' names: see _rows_only)
             if len(behind) >= _SHARED_BLOCK and not _rows_only(behind)}
    at = [k for k, t in sorted(tags.items()) if t in names]
    order = [tags[k] for k in at]
    resumed = [t for t, n in Counter(t for t, _ in groupby(order)).items() if n > 1]
    if len(names) < 2 or len(resumed) < resuming:
        return None  # (no source resumes after another's lines)
    if 2 * len(at) < at[-1] - at[0] + 1:  # (a log tags most lines: keys of a report's records,
        return None  # `    Average: 1834.5 sign/s` among its values, are no sources)
    owner: list[str | None] = [None] * len(lines)
    last, between = None, []  # (the untagged lines since the last tagged one)
    for k in range(len(lines)):
        tag = tags.get(k)
        if tag not in names:
            between.append(k)
            continue
        if last is not None and len(between) <= _WRAPPED:
            for j in between:
                owner[j] = owner[j - 1]
        owner[k] = tag
        last, between = tag, []
    return owner


def _stamped_sources(text: str, lines: list[str]) -> list[str | None] | None:
    """The source of each of ``lines`` (see :func:`_tagged_sources`) where their tags
    interleave behind a time stamp, else None: tags that end in ``]:``, heroku's
    ``2026-03-04T07:05:03.79+00:00 app[worker.1]: ``, syslog's ``Mar  4 07:05:03 host
    speed.sh[981]: ``; two sources resume after another's lines at least (there a tag is a
    program's: a service manager's lines before and after one program's output are no second
    source of it). (:func:`sources` asks only where ``]: `` stands: a tag without a bracket,
    papertrail's ``app/worker.1:``, is not looked for behind a stamp, as a search for a log in
    every text costs ~2 %.)"""
    if _LOG_BLOCK.search(text) is None:
        return None
    headless = _strip_log_heads(lines, [0] * len(lines))
    if headless is lines:
        return None
    behind = "\n" + "\n".join(headless)
    return _tagged_sources(behind, headless, Counter(_LOG_TAG.findall(behind)), 2)


#: The rule that names a run by the tag of its source in an interleaved log (see :func:`sources`).
SOURCE_RULE = "tag of its source in the log"


def name_by_source(runs: list, name: str | None) -> None:
    """Name ``runs``, read from the text of one source of a log (:func:`sources`), by its
    source (before their own label, where a line of theirs gave one)."""
    if name is None:
        return
    if isinstance(name, _mail.Fallback):  # (a mail's: only where the run's own lines name none)
        for run in runs:
            if not run.meta.get("label"):
                rule = run.meta.get("rule")
                run.meta["label"] = str(name)
                run.meta["rule"] = f"{rule}; label: {name.rule}" if rule else f"label: {name.rule}"
        return
    for run in runs:
        label, rule = run.meta.get("label"), run.meta.get("rule")
        run.meta["label"] = f"{name}: {label}" if label else name
        run.meta["rule"] = f"{rule}; label: {SOURCE_RULE}" if rule else f"label: {SOURCE_RULE}"


def _source_name(tag: str) -> str:
    """A log's tag as the name of its source: ``[pod/x/c]`` -> ``pod/x/c``, ``web-1  |`` ->
    ``web-1``, ``    amazon-ebs.x86:`` -> ``amazon-ebs.x86``; a rank's streams are one source:
    ``[1,0]<stderr>:`` -> ``1,0``; stern's coloured pod and container: ``pod container``."""
    tag = _ANSI.sub("", tag).strip() if "\x1b" in tag else tag.strip()
    if tag[-2:] == ">:":
        tag = tag[:tag.rindex("<")]
    return tag.strip("[]").rstrip(" :|")


# (a table's row: a name, then values; not openssl's progress lines or records)
_ROW_VALUE = re.compile(r"(?<!\S)\d[\d.,]*k?(?!\S)")
_NOT_ROWS = ("Doing ", "Got: ", "Did ", "+")


def _rows_only(texts) -> bool:
    """Whether each of ``texts`` is a table's row (a name, then two values or more): a tag
    before each row names the machine it ran on (``FTC663: md5 1.00k 2.00k``), which the
    rows' own rule reads (two machines' rows are two runs); it is no log's prefix.

    >>> _rows_only(["md5 1.00k 2.00k", "sha1 3.00k 4.00k"]), _rows_only(["version: 3.0.2", "md5 1.00k 2.00k"])
    (True, False)
    """
    return all(not s.startswith(_NOT_ROWS) and len(_ROW_VALUE.findall(s)) >= 2 for s in texts)


def _stripped_blocks(lines: list[str], blocks: list[tuple[str, list[tuple[int, int]]]],
                     logs: list[int], order: list[str] | None) -> list[str]:
    """``lines`` with the prefix of each block of three or more stripped (``(key, [(line,
    where its text begins, None on a line that has no prefix: the rest of a wrapped one)])``),
    and the CI markers behind it (:func:`_unmarked`). A key that
    comes back after another such key (``order``: the key of each prefixed line, or block, in
    text order) marks two sources interleaved, whose lines no one can tell apart: its blocks
    are left alone, loud, never mixed. Each line stripped is marked in ``logs`` (unless it
    is already) as a line of the log that begins at line ``-logs[n]``: a program's output,
    no caption (:func:`stands_in_a_log`)."""
    blocks = [b for b in blocks if sum(begin is not None for _, begin in b[1]) >= _SHARED_BLOCK]
    if not blocks:
        return lines
    keys = {key for key, _ in blocks}
    seen, interleaved, last = set(), set(), None
    for key in order or ():
        if key in keys and key != last:
            if key in seen:
                interleaved.add(key)
            seen.add(key)
            last = key
    out = list(lines)
    for key, block in blocks:
        if key not in interleaved:
            log = logs[block[0][0]] or -block[0][0] - 1
            for n, begin in block:
                if begin is not None:
                    line = lines[n][begin:]
                    out[n] = _unmarked(line) if line[:1] in _MARKER_START else line
                logs[n] = logs[n] or log
    return out


def stands_in_a_log(rule: str, line: str) -> bool:
    """Whether a label found by ``rule`` (:data:`~cipherlab.readers._context.LABEL_RULES`) on
    ``line`` stands when the line or the run is in a log: there every line is a program's
    output, and a short one (``Syncing repository: lab/x``, ``10 passed in 0.42s``, ``Using
    Docker executor ...``, a YAML key ``with:``) is no caption; a framed one (``== host-b ==``),
    words that end in a colon (``Results for host-b:``), a heading or a sentence naming a
    machine is.

    >>> stands_in_a_log("caption", "== host-b =="), stands_in_a_log("caption", "Attaching to bench-1")
    (True, False)
    """
    if rule not in ("caption", "title of a paragraph", "status line", "list item"):
        return True
    s = line.strip()
    return len(s) > 2 and s[0] in "=*#-~+" and s[-1] == s[0] or s[-1:] == ":" and " " in s


# A CI log's own markers, no text (a group's title stays; a step's `Run <command>` is its
# command, as a Dockerfile step's `[3/3] RUN <command>`): GitHub's `##[group]`, `##[endgroup]`,
# `::group::`, Azure's `##[section]`, GitLab's `section_start:1709528767:step_script` and
# Travis CI's `travis_time:start:0b7e21d5` (whose CR ends no line: see split_lines).
_MARKER = re.compile(rf"##\[(?P<gh>[a-z]+)\]|::(?P<cmd>[a-z][\w-]*)(?:[ ][^:\n]*)?::"
                     rf"|(?:{_CI_MARK})[ \r]?"
                     r"|(?P<step>\[[^\]\n]{0,40}\d+/\d+\][ ]+)")
_MARKER_START = frozenset("#:st[")
# A CI's raw log without time stamps (Travis CI's, GitLab's): its markers start lines
_CI_LINE = re.compile(rf"(?:{_CI_MARK})[ \r]")
_MARKER_TAGS = frozenset({"[Pipeline]"})  # Jenkins' lines of its pipeline's steps


def _unmarked(line: str) -> str:
    """A log's line without the CI marker it starts with (see ``_MARKER``)."""
    m = _MARKER.match(line)
    if m is None:
        return line
    if (m["gh"] or m["cmd"]) in ("endgroup", "add-mask", "set-output", "stop-commands"):
        return ""
    rest = line[m.end():]
    if rest[:4] in ("Run ", "RUN ") and ((m["gh"] or m["cmd"]) == "group" or m["step"]) and \
            parse_prompt(rest[4:]):
        return rest[4:]
    return rest


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


def strip_shared_prefix(lines: list[str], logs: list[int] | None = None
                        ) -> tuple[list[str], list[int]]:
    """``lines`` with the prefix that every line of a block of them shares removed, and the
    comment block of each line (0 outside comment blocks, 1, 2, ... inside; -1, -2, ... in
    the lines of a log: see :func:`stands_in_a_log`).

    A block is a run of at least three consecutive lines whose prefixes have the same first
    mark (``#rsa  512 bits ...`` in a Perl comment, ``> >`` quoting, ``* `` bullets, ``%%``), or
    whose line-number gutters count up by one, or of a chat log (a time stamp and a nick), or
    of a log (a time stamp whose digits change, a tag that does not: :func:`_strip_log_heads`,
    :func:`_strip_log_tags`); one line so marked (a root prompt ``# openssl speed``, a
    heading) is left alone. A log's own markers (``##[group]``, ``::endgroup::``, GitLab's
    ``section_start:``) are no text (a group's title stays). Line numbers do not change.
    ``logs``: the log of each line, when :func:`strip_log_prefixes` has stripped them already.

    >>> strip_shared_prefix(["#rsa 512 bits 0.1s 0.2s 10.0 5.0", "#", "#\tdsa", "x"])
    (['rsa 512 bits 0.1s 0.2s 10.0 5.0', '', 'dsa', 'x'], [1, 1, 1, 0])
    >>> strip_shared_prefix(["%% type 16 bytes", "%% md5 1.00k", "%%"])[0]
    ['type 16 bytes', 'md5 1.00k', '']
    >>> strip_shared_prefix([" 9 | type 16 bytes", "10 | md5 1.00k", "11 | sha1 2.00k"])[0]
    ['type 16 bytes', 'md5 1.00k', 'sha1 2.00k']
    >>> strip_shared_prefix(["[14:02] <mk> type 16 bytes", "[14:02] <jo> ok", "14:03 <mk> md5 1.00k"])[0]
    ['type 16 bytes', 'ok', 'md5 1.00k']
    >>> strip_shared_prefix(["2026-03-04T05:06:07.51Z ##[group]Run openssl speed md5",
    ...                      "2026-03-04T05:06:08.02Z type 16 bytes", "2026-03-04T05:06:09.93Z md5 1.00k"])[0]
    ['openssl speed md5', 'type 16 bytes', 'md5 1.00k']
    """
    if logs is None:
        lines, logs = strip_log_prefixes(lines)
    text = "\n" + "\n".join(lines)
    if _MARK_BLOCK.search(text) is None and _GUTTER_BLOCK.search(text) is None and \
            _CODE_PAIR.search(text) is None:
        return lines, logs  # (three marked lines in a row, or a wrapped gutter: most texts have none)
    return _stripped_marks(lines, logs)


def strip_log_prefixes(lines: list[str]) -> tuple[list[str], list[int]]:
    """``lines`` with the prefixes of a log stripped (time stamps, tags: see
    :func:`strip_shared_prefix`), and the log of each line (0 outside any, -1, -2, ... in
    one): every reader reads behind them.

    >>> strip_log_prefixes(["bench-1  | md5 1.00k", "bench-1  | sha1 2.00k", "bench-1  | x"])
    (['md5 1.00k', 'sha1 2.00k', 'x'], [-1, -1, -1])
    """
    logs = [0] * len(lines)
    text = "\n" + "\n".join(lines)
    if "travis_" in text or "section_" in text:
        lines = _strip_ci_markers(lines, logs)
    if _LOG_BLOCK.search(text) is None:  # (most texts hold no log)
        return lines, logs
    headless = _strip_log_heads(lines, logs)
    stripped = _strip_log_tags(headless, logs)
    if stripped is not headless:  # (a stamp after the tag: `[pod/x/c] 2025-11-30T11:00:07Z`)
        stripped = _strip_log_heads(stripped, logs)
    return stripped, logs


def _strip_ci_markers(lines: list[str], logs: list[int]) -> list[str]:
    """``lines`` without the CI markers that start them (see ``_CI_LINE``), and every line
    from the first so marked to the last marked in ``logs`` as the CI's log: each is a
    program's output (the worker's `Worker information`, `Runtime kernel version: 6.8.0`),
    no caption (:func:`stands_in_a_log`)."""
    marked = [k for k, line in enumerate(lines) if line[:1] in "st" and _CI_LINE.match(line)]
    if not marked:
        return lines
    out = list(lines)
    for k in marked:
        out[k] = _unmarked(lines[k])
    for k in range(marked[0], marked[-1] + 1):
        logs[k] = logs[k] or -marked[0] - 1
    return out


def _stripped_marks(lines: list[str], blocks: list[int]) -> tuple[list[str], list[int]]:
    """The mark, gutter and chat blocks of :func:`strip_shared_prefix` stripped, and
    ``blocks`` with each comment block's lines marked."""
    # (most lines start with a letter: only the others are matched, once each; the lines
    # are picked in C)
    firsts = map(_LEAD_START.__contains__, map(_FIRST_CHAR, lines))
    found = [(i, m) for i in compress(range(len(lines)), firsts) if (m := _lead(lines[i]))]
    out = list(lines)
    k, n = 0, len(found)
    while k < n:
        i, (key, _) = found[k]
        j = k + 1
        if type(key) is int:  # a gutter: numbers that count up by one, a wrapped line's
            block, last, end = [found[k]], i, k  # tail (no number, not blank) between two
            while j < n and found[j][0] <= last + 1 + _GUTTER_WRAPPED:
                line = found[j][0]
                if found[j][1][0] == key + len(block) and all(map(str.strip, lines[last + 1:line])):
                    block.append(found[j])
                    last, end = line, j
                j += 1
            j = end + 1  # (what the tails held that looked like a lead is read again after)
        else:
            while j < n and found[j][0] == i + j - k and found[j][1][0] == key:
                j += 1
            block = found[k:j]
        if len(block) >= _SHARED_BLOCK or (len(block) == 2 and type(key) is not int and
                                           _whole_code_block(lines, block[0][0], block[-1][0])):
            comment = key in _COMMENT_MARKS
            for line, (_, begin) in block:
                out[line] = lines[line][begin:]
                if comment:
                    blocks[line] = i + 1
        k = j
    return out, blocks


def _whole_code_block(lines: list[str], first: int, last: int) -> bool:
    """Whether ``lines[first:last + 1]`` are a whole Markdown code block: between fences, or
    indented four blanks (a tab) with blank lines around, or org-babel's ``#+RESULTS:`` block. Its lines are code, never headings, so
    a mark they all share is a prefix even on two of them (knitr's ``## `` before each line of
    a chunk's output; a single ``# openssl speed`` root prompt is no block)."""
    before = lines[first - 1].strip() if first > 0 else ""
    after = lines[last + 1].strip() if last + 1 < len(lines) else ""
    if before.startswith(("```", "~~~")) and after.startswith(("```", "~~~")):
        return True
    if before[:10].upper() == "#+RESULTS:" and not after:
        return True  # (org-babel's results, each line behind ": ")
    return not before and not after and all(
        lines[n].startswith(("    ", "\t")) for n in range(first, last + 1))


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


# A code fence glued to the text it opens or closes (Slack: "```$ openssl speed ...", "...
# 4682006.53k```"): not a fence's info string ("```bash"), which holds no blank and digit.
_GLUED_FENCE = re.compile(r"^```(?=[^\w\s`]|\S*\s\D*\d)|(?<=[^\s`])```$")


def _uncoded(s: str) -> str:
    """``s`` without inline-code backticks, and without the delimiter of a source-code raw
    string or of a code fence that opens or closes on it."""
    if "```" in s:
        s = _GLUED_FENCE.sub("", s)
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
    relative binaries (``./openssl-1.0.1h``, ``apps/openssl``) are read through; the command
    ends where the shell's pipes, redirections and lists begin (``2>&1 | tail -20``).

    >>> parse_prompt("$ openssl speed -seconds 1 -elapsed -multi 2 -evp aes-128-cbc")["multi"]
    2
    >>> parse_prompt("OPENSSL_ia32cap='~0x200000200000000' openssl speed -evp aes-128-gcm")["isa_mask"]
    '~0x200000200000000'
    >>> parse_prompt("$ openssl speed -seconds 1 md5 hmac(md5) rsa2048")["args"]
    ['-seconds', '1', 'md5', 'hmac(md5)', 'rsa2048']
    >>> parse_prompt("root@wrt32x:/# time -v openssl speed -elapsed -engine afalg md5")["conditions"]
    {'engine': 'afalg'}
    >>> parse_prompt("[root@box ~]# taskset -c 0 ./openssl-1.0.1h speed -primes 3 rsa2048")["conditions"]
    {'pinning': 'taskset -c 0', 'primes': '3'}
    >>> parse_prompt("$ openssl speed -evp aes-128-gcm 2>&1 | tail -20")["args"]
    ['-evp', 'aes-128-gcm']
    >>> parse_prompt("I ran openssl speed on my laptop"), parse_prompt("openssl speed")
    (None, None)
    """
    if "speed" not in line:
        return None
    m, outer = _speed_command(line)
    if m is not None and not (m["shell"] and "speed" in m["shell"]):  # (`a && openssl speed b`)
        return _command(m, bool(m["ps"]) or outer is not None, outer or "")
    return (_listed(line) if _LIST_HINT.search(line) else None) or _run_elsewhere(line)


# A command that runs openssl elsewhere: in a container, on another host, in WSL, in a pty
# (`docker run --rm -it ubuntu:24.04 openssl speed ...`, `ssh pi@pi5 openssl speed ...`,
# `kubectl exec -it pod -- openssl speed ...`, `winpty openssl speed ...`); its command is read
# from the binary on. (`[^|;&]*?` stops at the first binary name: one anchored scan.)
_RUNNERS = r"docker|podman|nerdctl|kubectl|oc|ssh|adb|wsl|winpty|lxc|multipass|vagrant"
_RUNNER = re.compile(rf"^\s*(?:{_PS})?(?:sudo\s+)?(?:{_RUNNERS})\s(?:[^|;&]*?\s)?"
                     rf"(?P<q>['\"]?)(?=[\w./~-]*{_OPENSSL}\s+speed\b)")
_RUNNER_HINT = re.compile(rf"\b(?:{_RUNNERS})\s")


def _speed_command(text: str) -> tuple[re.Match | None, str | None]:
    """The ``openssl speed`` command of a line (a match of ``_PROMPT``), and, when a runner
    (:data:`_RUNNER`) runs it elsewhere, the runner's words before it (the match is then of the
    text from its binary on); None when it runs here."""
    m = _PROMPT.match(text)
    if m is not None or _RUNNER_HINT.search(text) is None:
        return m, None
    runner = _RUNNER.match(text)
    if runner is None:
        return None, None
    command = text[runner.end():]
    if runner["q"]:  # (`ssh host 'openssl speed ...'`: the quoted command, whole)
        command = command.partition(runner["q"])[0]
    return _PROMPT.match(command), text[:runner.end()]


# A runner's quoted command that runs openssl speed, alone or in a list (`docker run img sh -c
# 'apk add openssl && openssl speed ...'`, `ssh h "cd /opt && ./openssl speed ..."`); each start at a
# quote scans to the next quote only: linear.
_RUNNER_START = re.compile(rf"^\s*(?:{_PS})?(?:sudo\s+)?(?:{_RUNNERS})\s")
_QUOTED_LIST = re.compile(r"(?P<q>['\"])(?P<command>[^'\"]*\bspeed\b[^'\"]*)(?P=q)")


def _run_elsewhere(line: str) -> dict | None:
    """A runner's quoted command list that runs ``openssl speed`` (``docker run --rm alpine sh -c
    'apk add openssl && openssl speed -evp aes-128-gcm'``), read as a list on a prompt of its
    own (:func:`_listed`), with the capability variable the runner's words set
    (``docker run -e OPENSSL_ia32cap=...``, ``kubectl exec pod -- env OPENSSL_armcap=0 sh -c ...``).

    >>> out = _run_elsewhere("$ docker run --rm -e OPENSSL_ia32cap=~0x200000000 alpine sh -c "
    ...                      "'apk add openssl && openssl speed -seconds 1 -evp aes-128-gcm'")
    >>> out["evp"], out["seconds"], out["isa_mask"]
    ('aes-128-gcm', 1, '~0x200000000')
    """
    runner = _RUNNER_START.match(line) if _RUNNER_HINT.search(line) else None
    quoted = _QUOTED_LIST.search(line, runner.end()) if runner is not None else None
    out = _listed(quoted["command"], prompted=True) if quoted is not None else None
    if out is not None and "unbound" not in out:
        mask = _environment_mask(line[:quoted.start()]) if "isa_mask" not in out else None
        if mask is not None:
            out["isa_mask"] = mask
        if "OPENSSL_" in line[:quoted.start()]:
            out["conditions"] = {**environment_conditions(line[:quoted.start()]), **out["conditions"]}
    return out


# A capability variable assigned (any CPU's): `OPENSSL_ia32cap=~0x...` before a command, a
# runner's `-e OPENSSL_armcap=0`, `--env=OPENSSL_ia32cap=...`, `-e "OPENSSL_ia32cap=..."`.
_CAP_ASSIGNMENT = re.compile(r"(?<![\w$])OPENSSL_(\w*?cap)=(\"[^\"]*\"|'[^']*'|[^\s\"';&|]*)", re.I)


def _environment_mask(words: str) -> str | None:
    """The ``isa_mask`` a capability variable assigned in ``words`` sets (``OPENSSL_ia32cap=...``
    before a command, or in a runner's ``-e``/``--env=``/``env``), None when none is (or the
    value is empty: the variable is set to nothing, no mask).

    >>> _environment_mask('docker run --env=OPENSSL_ia32cap=~0x200000000 -e "X=1" img')
    '~0x200000000'
    >>> _environment_mask("podman run -e 'OPENSSL_armcap=0' img"), _environment_mask("OPENSSL_ia32cap= ")
    ('armcap=0', None)
    """
    mask = None
    for m in _CAP_ASSIGNMENT.finditer(words):
        value = m[2].strip("\"'")
        mask = mask_value(m[1], value) if value else None
    return mask


# Environment variables that change what openssl measures without any option saying so: the
# config (which may load the FIPS provider), RHEL 8's FIPS switch, the folders providers and
# engines load from. Assigned before a command, in a runner's `-e`, or exported for the shell's
# later commands, each is a condition of the run named by the variable (`openssl_conf`), its
# value kept as written: the text cannot tell what a config file holds.
_ENV_VARIABLES = r"OPENSSL_(?:CONF|FIPS|MODULES|ENGINES)"
_ENV_ASSIGNMENT = re.compile(rf"(?<![\w$])({_ENV_VARIABLES})=(\"[^\"]*\"|'[^']*'|[^\s\"';&|]*)")
# (the shell statements that set the capability masks, for these variables)
_SET_ENV = re.compile(
    shell_sets(rf"(?P<name>{_ENV_VARIABLES})", rf"(?P<cleared>{_ENV_VARIABLES})") +
    # RHEL's system-wide switches, for every later command (after the reboot they ask for)
    r"|(?:^|[\s>$#%])update-crypto-policies\s+--set\s+(?P<policy>[\w:-]+)\s*$"
    r"|(?:^|[\s>$#%])fips-mode-setup\s+--(?P<fips>enable|disable)\s*$")
# A sentence stating the system's FIPS mode ("with FIPS mode enabled (fips=1 on the kernel
# command line)", `fips-mode-setup --check`'s "FIPS mode is enabled.", "without FIPS").
_FIPS_ON = re.compile(r"\bFIPS(?:[- ]mode)?\s+(?:is\s+|was\s+)?(?:enabled|on|active)\b|"
                      r"\b(?:in|under)\s+FIPS[- ]mode\b|\bfips=1\b", re.I)
_FIPS_OFF = re.compile(r"\bFIPS(?:[- ]mode)?\s+(?:is\s+|was\s+)?(?:disabled|off|not\s+enabled)\b|"
                       r"\b(?:without|no)\s+FIPS\b|\bnon-FIPS\b|\bfips=0\b", re.I)


def environment_conditions(words: str) -> dict[str, str]:
    """The conditions the environment variables assigned in ``words`` set (before a command, or
    in a runner's ``-e``/``env``): ``{"openssl_conf": "/etc/ssl/fips.cnf"}``; an empty value
    sets none.

    >>> environment_conditions("OPENSSL_CONF=/etc/ssl/fips.cnf OPENSSL_FIPS=1 taskset -c 0")
    {'openssl_conf': '/etc/ssl/fips.cnf', 'openssl_fips': '1'}
    >>> environment_conditions("docker run -e 'OPENSSL_MODULES=/opt/ossl' -e OPENSSL_CONF= img")
    {'openssl_modules': '/opt/ossl'}
    """
    out: dict[str, str] = {}
    for m in _ENV_ASSIGNMENT.finditer(words):
        value = m[2].strip("\"'")
        if value:
            out[m[1].lower()] = value
        else:
            out.pop(m[1].lower(), None)
    return out


def shell_environment(line: str) -> tuple[str, str | None] | None:
    """``(condition, value)`` a shell statement on ``line`` sets for the commands after it
    (``value`` None: it clears the variable), or None when the line sets none.

    >>> shell_environment("[root@rhel8 ~]# export OPENSSL_FIPS=1")
    ('openssl_fips', '1')
    >>> shell_environment("$ unset OPENSSL_CONF"), shell_environment("set OPENSSL_CONF in your shell")
    (('openssl_conf', None), None)
    >>> shell_environment("# update-crypto-policies --set FIPS")
    ('crypto_policy', 'FIPS')
    >>> shell_environment("# fips-mode-setup --enable")
    ('fips', 'on')
    """
    m = _SET_ENV.search(line)
    if m is None:
        return None
    if m["cleared"]:
        return m["cleared"].lower(), None
    if m["policy"]:
        return "crypto_policy", m["policy"]
    if m["fips"]:
        return "fips", "on" if m["fips"] == "enable" else "off"
    return m["name"].lower(), m["value"] or None


# A variable of a CI step's environment as the log lists it under `env:` (GitHub Actions:
# `  OPENSSL_CONF: /etc/ssl/fips.cnf`), a YAML mapping's line.
_LISTED_ENV = re.compile(rf"^\s*(?:(?P<name>{_ENV_VARIABLES})|OPENSSL_(?P<cap>\w*?cap)):\s+"
                         r"(?P<q>[\"']?)(?P<value>[^\"'\s]+)(?P=q)\s*$")


def listed_environment(line: str) -> tuple[str, str] | None:
    """``(condition, value)`` a step's environment listing on ``line`` states (``isa_mask`` for
    a capability variable), or None.

    >>> listed_environment("  OPENSSL_CONF: /etc/ssl/fips.cnf"), listed_environment("  OPENSSL_armcap: '0'")
    (('openssl_conf', '/etc/ssl/fips.cnf'), ('isa_mask', 'armcap=0'))
    >>> listed_environment("OPENSSL_CONF: the config file to load") is None
    True
    """
    m = _LISTED_ENV.match(line)
    if m is None:
        return None
    if m["cap"] is not None:
        return "isa_mask", mask_value(m["cap"], m["value"])
    return m["name"].lower(), m["value"]


def prose_fips(line: str) -> str | None:
    """``"on"``/``"off"``: what a sentence states of the system's FIPS mode; None when it states
    neither, or both.

    >>> prose_fips("With FIPS mode enabled (fips=1 on the kernel command line):")
    'on'
    >>> prose_fips("and the same box without FIPS:"), prose_fips("FIPS 140-3 validated module")
    ('off', None)
    >>> prose_fips("If FIPS mode is enabled, md5 fails:")  # (a condition, no statement)
    """
    on, off = _FIPS_ON.search(line), _FIPS_OFF.search(line)
    if bool(on) == bool(off) or _SUPPOSED.search(line, 0, (on or off).start()):
        return None
    return "on" if on else "off"


_SUPPOSED = re.compile(r"\b(?:if|when|unless|whether|once)\s", re.I)


# A command that shows a saved text (`cat nohup.out`, `tail -n 40 bench.log`, `less`, cmd's
# `type`, PowerShell's `Get-Content`), unfiltered (no pipe) and no kernel file (`cat
# /proc/cpuinfo`): its output may be openssl's, with the captions a loop echoed.
_SHOWS_A_FILE = re.compile(r"[$#%>\u276f]\s*(?:sudo\s+)?(?:cat|tac|zcat|tail|head|less|more|bat|type|"
                           r"gc|Get-Content)\s+(?![^|]*(?:\||/proc/|/sys/))\S", re.I)


def shows_a_file(line: str) -> bool:
    """Whether the command on the prompt ``line`` shows a saved file whole: its output is read
    as any text (openssl's output and its captions), not as another program's.

    >>> shows_a_file("$ cat nohup.out"), shows_a_file("PS C:\\bench> Get-Content .\\speed.txt")
    (True, True)
    >>> shows_a_file("$ cat /proc/cpuinfo"), shows_a_file("$ tail -f log | grep x"), shows_a_file("$ apk add x")
    (False, False, False)
    """
    return _SHOWS_A_FILE.search(line) is not None


def _listed(line: str, prompted: bool = False) -> dict | None:
    """A prompt whose command list or loop runs ``openssl speed`` (:func:`parse_prompt`): the
    one ``openssl speed`` command of a list (``cd build && apps/openssl speed -evp x``), read as
    if alone; a loop, or a list of several such commands, prints several runs whose options
    none can pair with them: its ``unbound`` says why, and it binds none (right or loud).

    >>> _listed("$ cd openssl-3.4 && make && LD_LIBRARY_PATH=. apps/openssl speed -elapsed rsa2048")["timing"]
    'elapsed'
    >>> _listed("$ for c in aes-128-gcm sm4-cbc; do openssl speed -evp $c; done")["unbound"]
    'a loop runs openssl speed'
    >>> _listed("$ nohup sh -c 'for n in 1 2; do openssl speed -multi $n md5; done' &")["unbound"]
    'a loop runs openssl speed'

    A variable the list exports before the command is the command's, and the shell's after it
    (``exported``: ``(value,)``, ``(None,)`` when it clears it), as on a line of its own:

    >>> _listed("$ export OPENSSL_armcap=0 && openssl speed sha256")["isa_mask"]
    'armcap=0'
    """
    start = _LEADING_PS.match(line).end()
    if not (start or prompted or _SHELL_WORD.match(line)):
        return None  # ("I tried it; openssl speed was fast" is a sentence)
    found, exported, environment, looped = [], None, {}, False
    for part in _LIST.split(line[start:]):
        looped = looped or part.startswith("do ")  # (a loop inside `nohup sh -c '...'` too)
        m, outer = _speed_command(_LIST_WORD.sub("", part)) if "speed" in part else (None, None)
        if m is not None:
            found.append((m, outer or ""))
        elif not found and "cap" in part:
            exported = shell_assignment(part) or exported
        elif not found and "OPENSSL_" in part:
            environment.update((shell_environment(part),) if _SET_ENV.search(part) else ())
    if not found:
        return None
    if looped or _LOOP.match(line, start):
        out = {"args": [], "conditions": {}, "unbound": "a loop runs openssl speed"}
        if len(found) == 1:
            out["loop"] = _loop_body(line, *found[0])
    elif len(found) > 1:
        out = {"args": [], "conditions": {},
               "unbound": f"one command line runs openssl speed {len(found)} times"}
    else:
        (m, outer), = found
        out = _command(m, prompted or start > 0 or m.start("pre") != m.end("pre") or bool(outer), outer)
        if out is not None and exported and exported[0] is not None:
            out.setdefault("isa_mask", exported[0])
    if out is not None and exported:
        out["exported"] = exported
    if out is not None and environment:
        out["environment"] = environment
        if "unbound" not in out:
            out["conditions"] = {**{k: v for k, v in environment.items() if v}, **out["conditions"]}
    return out


# A loop's variable and the words it takes, as written: sh's and fish's `for c in a b c;`
# (`{1..3}`, `$(seq 1 5)`, `` `seq 3` `` too), cmd's `for %c in (a b) do`, PowerShell's
# `foreach ($c in 'a','b')` and `'a','b' | % {` / `1..3 | ForEach-Object {`.
_FOR_WORDS = re.compile(r"\bfor\s+(?:%%?(?P<cvar>\w+)\s+in\s+\((?P<cwords>[^)]*)\)"
                        r"|(?P<var>\w+)\s+in\s+(?P<words>[^;]*?)\s*;)"
                        r"|\bforeach\s*\(\s*\$(?P<pvar>\w+)\s+in\s+(?P<pwords>[^)]*)\)"
                        r"|(?P<piped>(?:['\"][^'\"]*['\"]\s*,\s*)*['\"][^'\"]*['\"]|\d+\.\.\d+)\s*\|\s*"
                        r"(?:%|ForEach-Object)\s*\{", re.I)
_SEQ = re.compile(r"^(?:\$\(|`)seq\s+(?:(\d+)\s+)?(\d+)\s*(?:\)|`)$|^\{(\d+)\.\.(\d+)\}$|^(\d+)\.\.(\d+)$")
# A word of a command the shell fills in (`$c`, `"${b}"`, `%%c`, `$_`, xargs's `{}`): no
# value the line states.
_FILLED = re.compile(r"[$%]|\{\}")
# The body's output cut to its last line: one row an iteration.
_TAIL_1 = re.compile(r"\|\s*tail\s+(?:-n\s*)?-?1\b")
# An assignment before the command whose value the shell fills in (`OPENSSL_ia32cap=$m`).
_FILLED_ASSIGNMENT = re.compile(r"\S+=\S*[$%]\S*\s+")


def _loop_words(line: str) -> tuple[str | None, list[str] | None]:
    """The loop's variable and its words as the line states them (``None``: it does not, as
    ``while read c`` or ``for ((i=0; ...))``).

    >>> _loop_words("$ for b in 16 64 1024; do openssl speed -bytes $b md5; done")
    ('b', ['16', '64', '1024'])
    >>> _loop_words("$ for i in $(seq 3); do openssl speed md5; done"), _loop_words("$ for i in {1..2}; do x; done")
    (('i', ['1', '2', '3']), ('i', ['1', '2']))
    >>> _loop_words("PS> foreach ($c in 'aes-128-gcm','sm4-cbc') { openssl speed -evp $c }")
    ('c', ['aes-128-gcm', 'sm4-cbc'])
    >>> _loop_words("$ while read c; do openssl speed -evp $c; done < ciphers.txt")
    (None, None)
    """
    m = _FOR_WORDS.search(line)
    if m is None:
        return None, None
    var = m["cvar"] or m["var"] or m["pvar"] or ("_" if m["piped"] else None)
    text = (m["cwords"] or m["words"] or m["pwords"] or m["piped"] or "").strip()
    seq = _SEQ.match(text)
    if seq is not None:
        a, b = [int(g) for g in seq.groups() if g is not None][-2:] if sum(
            g is not None for g in seq.groups()) == 2 else (1, int(seq[2]))
        return var, [str(n) for n in range(a, b + 1)] if b - a < 1000 else None
    words = [w.strip("'\"") for w in re.split(r"\s*,\s*|\s+", text) if w.strip("'\"")]
    if not words or any(_FILLED.search(w) or "*" in w or "`" in w for w in words):
        return var, None  # (`$(cat list)`, a glob: the words are not on the line)
    return var, words


def _loop_body(line: str, m: re.Match, outer: str) -> dict:
    """What a loop's one ``openssl speed`` command (``m``, run by ``outer``) says of every run
    it prints: ``body``, the command without the words the loop fills in (its options that do
    not change from run to run: each run's); ``filled``, the options the loop fills in
    (``-bytes $b``: their value differs from run to run); ``var`` and ``words``, the loop's
    variable and its words (:func:`_loop_words`); ``tail1``, whether each run's output is
    cut to its last line (one row an iteration).

    >>> out = _listed("$ for c in a b; do OPENSSL_ia32cap=~0x2 openssl speed -elapsed -bytes 64 -evp $c | tail -1; done")
    >>> out["loop"]["body"]["timing"], out["loop"]["body"]["bytes"], out["loop"]["body"]["isa_mask"]
    ('elapsed', 64, '~0x2')
    >>> out["loop"]["filled"], out["loop"]["tail1"], out["loop"]["words"]
    (['evp'], True, ['a', 'b'])
    """
    args, kept, filled = m["args"].split(), [], []
    if m["shell"] and m["shell"][0] in "<>" and m.start("shell") == m.end("args") and args \
            and args[-1].isdigit():
        args.pop()  # (`2>/dev/null`: the stream redirected, no argument)
    for j, a in enumerate(args):
        if _FILLED.search(a) is None:
            kept.append(a)
            continue
        option = args[j - 1] if j and args[j - 1].startswith("-") and kept and kept[-1] == args[j - 1] else None
        if option is not None:
            kept.pop()
        filled.append(option.lstrip("-") if option else "algorithm")
    pre = m["pre"] or ""
    if "=" in pre and _FILLED_ASSIGNMENT.search(pre):
        filled += [w.partition("=")[0] for w in _FILLED_ASSIGNMENT.findall(pre)]
        pre = _FILLED_ASSIGNMENT.sub("", pre)
    binary = m.string[m.end("pre"):m.start("args")]
    command = _PROMPT.match(f"{pre}{binary} {' '.join(kept)}".rstrip() + (" " if kept else ""))
    outer = _FILLED_ASSIGNMENT.sub("", outer) if "=" in outer else outer
    body = _command(command, True, outer) if command is not None else None
    if body is None:
        body = {"args": [], "conditions": {}}
    var, words = _loop_words(line)
    return {"body": body, "filled": filled, "var": var, "words": words,
            "tail1": _TAIL_1.search(m.string, m.end("args")) is not None}


def placement(pre: str, kinds: frozenset[str] = _PLACERS) -> str | None:
    """The words of the wrappers before a command that place or prioritise it, as written
    (None: none does); ``kinds``: the wrappers looked for (``_INSTRUMENTS``: those that run
    it on a CPU of their own, ``valgrind --tool=callgrind``).

    >>> placement("numactl --cpunodebind=0 --membind=0 "), placement("sudo nice -n -20 hwloc-bind core:2 -- ")
    ('numactl --cpunodebind=0 --membind=0', 'nice -n -20 hwloc-bind core:2')
    >>> placement("sudo /usr/bin/time -v "), placement("OPENSSL_ia32cap=~0x200000000000000 taskset -c 3 ")
    (None, 'taskset -c 3')
    """
    words, placing = [], False
    for token in pre.split():
        name = token.rsplit("/", 1)[-1]
        if name in _WRAPPER_NAMES or "=" in token.partition("-")[0] or token == "--":
            placing = name in kinds
            if not placing:
                continue
        if placing:
            words.append(name if name in kinds else token)
    return " ".join(words) or None


def _command(m: re.Match, prompted: bool, outer: str = "") -> dict | None:
    """What one ``openssl speed`` command (a match of ``_PROMPT``) says of its run; ``outer``:
    the words of a runner that runs it elsewhere (``kubectl exec pod -- env OPENSSL_...=``)."""
    args = m["args"].split()
    if m["shell"] and m["shell"][0] in "<>" and m.start("shell") == m.end("args") and args \
            and args[-1].isdigit():
        args.pop()  # (`2>err`: the number is the stream redirected, no argument)
    if not (prompted or args or m["pre"]):
        return None  # a bare "openssl speed" is a subject line, not a command
    binary = m.string[m.end("pre"):m.start("args")].strip().lstrip("&").strip()
    out: dict = {"args": args, "conditions": {}, "binary": binary[:-5].rstrip()}  # (less " speed")
    assigned = "=" in m["pre"] or "=" in outer
    mask = _environment_mask(f"{outer} {m['pre']}") if assigned else None
    if mask is not None:
        out["isa_mask"] = mask
    if assigned and "OPENSSL_" in f"{outer}{m['pre']}":
        out["conditions"].update(environment_conditions(f"{outer} {m['pre']}"))
    if m["pre"] and (pinning := placement(m["pre"])):
        out["conditions"]["pinning"] = pinning
    if m["pre"] and (instrument := placement(m["pre"], _INSTRUMENTS)):
        out["conditions"]["instrumentation"] = instrument
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
            # `-engine afalg`, `-primes 3`; an option given again adds to it (`-provider
            # default -provider legacy` loads both: `default,legacy`)
            key, conditions = a.replace("-", "_"), out["conditions"]
            conditions[key] = f"{conditions[key]},{nxt}" if key in conditions else nxt
            next(it, None)
        else:
            out["conditions"][a.replace("-", "_")] = "yes"
    return out
