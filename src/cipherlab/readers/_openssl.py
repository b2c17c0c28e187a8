"""The run builder: one pass over the lines of an openssl text, every dialect at once.

Why this module exists: real files mix dialects. A ``2>&1`` capture holds ``Doing ...`` lines,
then the header block and tables; a ``-multi`` run adds ``Forked child``, children's ``+DT``/``+R``
records and ``Got: ... from N`` lines before a header-less parent table; a mailing-list post
holds several machines' runs, each introduced by a line of prose, with rows wrapped by the mail
client. The dialect modules (``_terminal``, ``_progress``, ``_mr``, ``_harness``) recognise single
lines; this module decides which run a line belongs to, rejoins wrapped lines, ties progress
records to the table cells they measured, and returns :class:`cipherlab.model.Run` records plus
the lines that looked like data but fit nowhere.

Its parser, :class:`_Parser`, is made of parts, each in a module of its own: ``_runs`` (the run
being built, and the rules of where one run ends and the next begins), ``_blocks`` (runs of the
commonest lines read at once, for speed) and ``_assembly`` (the runs made into
:class:`cipherlab.model.Run` records). This module holds the pass over the lines and the
per-line dispatch and handlers: what each line does, which the block readers follow.

Speed: every line that no block reader takes goes through the per-line dispatch, whose pure
classifiers of header, prompt and prose lines are memoised (those lines repeat from run to run)
and consulted only for lines that can be theirs (by prefix, or last character).
"""

from __future__ import annotations

import re
import warnings
from itertools import accumulate, islice
from typing import Any

from cipherlab.model import Run
from cipherlab.readers import _harness, _listed, _mr, _progress, _terminal as T, _units
from cipherlab.readers._assembly import _Assembly
from cipherlab.readers._blocks import _BlockReaders, _pk_kind
from cipherlab.readers._grids import split_tag
from cipherlab.readers._names import canonical, glued_condition, is_known, switch
from cipherlab.readers._boundaries import (FORKED, HEADER_LINE, LIST_CELL, MR_PK_PROMPT, MR_PROMPT, MR_TABLE,
                                           PK_HEADER, PK_ROW, PROGRESS, PROMPT, SYM_HEADER, SYM_ROW,
                                           VERSION, Event, _RunBoundaries, bind_context,
                                           check_cpuinfo, merged_fact, names_a_version,
                                           prose_version)
from cipherlab.readers._runs import ALG, _memo, _Run, pk_id
from cipherlab.readers._tables._facts import prose_cpu
from cipherlab.readers._context import (HOST_RULE, HOST_RULES, INHERITED_HOST_RULE, SKIP, STOP, Label,
                                        is_byline, is_list_item,
                                        is_shell_command, label_verdict, prompt_machine,
                                        prose_mask, setext_level, shell_assignment, shell_host,
                                        wrapped_tail)
from cipherlab.readers._text import (INNER_MARKS, QUOTE_FIRST, LineWarning, clean, parse_prompt,
                                     listed_environment, prose_fips, shell_environment,
                                     shows_a_file, stands_in_a_log)

__all__ = ["ENGINE", "ENGINES", "parse"]

# The rule of a label taken from the run above (see find_label; a host's: INHERITED_HOST_RULE).
_INHERITED = "label of the run above"

#: How the pass reads lines: ``"blocks"`` (the default: runs of the commonest lines read at once
#: by the block readers) or ``"lines"`` (every line through the per-line dispatch). Both must
#: give the same runs on every input: the reader tests run with each (``tests/readers``'s
#: ``engine`` fixture).
ENGINES = ("blocks", "lines")
ENGINE = "blocks"

_NUMBERS = re.compile(r"(?<!\S)(?:-?\d[\d,]*\.\d+[ks]?|[-+]?(?:inf|nan)k?)(?!\S)")
_INTS = re.compile(r"^\S+(?:\s+\d{3,}){2,}$")
_K_VALUE = re.compile(r"\d\.\d\dk\b")
_K_ENDS = frozenset("kK")
_HEADING = re.compile(r"#{1,6}\s+[^\W\d]")  # ("### Desktop, Ryzen 7 5800X 3.80 GHz / 4.70 GHz")
# A value in one of openssl's own rates, spelled out (a benchmark harness's summary of its
# trials: the Phoronix Test Suite's `Average: 7610554920 byte/s`, `1834.5 sign/s`); a disk's or a
# network's `GB/s`, `MB/s` are no openssl rate
# A value alone on its line, and the heading of a list of them that names an algorithm (the
# Phoronix Test Suite's trials under `Algorithm: RSA4096:`)
_BARE_VALUE = re.compile(r"-?\d[\d,]*(?:\.\d+)?k?")
_RATE = re.compile(r"\d\s?(?:bytes?|signs?|verify|verifies|ops?|keygens?|encaps|decaps|derives?)/s\b")
_FIRST_VALUE = re.compile(r"\s-?\d[\d,]*\.\d")  # where a row's name ends
# Characters no name openssl prints holds: an R console's `[1]` index, a comment's `#`, an
# assignment's `=`, a shell's `<`/`>`/`{`: such a line under a table is another program's; nor
# starts with org's `:` (a fixed-width line whose block a wrap broke: reported, not read).
_NOT_IN_NAMES = re.compile(r"[\[\]#=<>{}]|^:")
_RELEASE = re.compile(r"\d\.\d+\.\d")  # (a release, "3.0.2": in no name openssl prints)
# A whole number before a name openssl prints (`9  AES-128-CTR`): a line number of a gutter
# the prefix pass did not take (too few lines), or a list's; no name openssl prints is one
# (`160 bit ecdsa` is no cipher's name).
# The ` env:` part of a 3.x `CPUINFO:` line (the variable's value, `env:~0x200000200000000`)
# that a mail client wrapped onto a line of its own: the run's mask is that line's too.
_CPUINFO_ENV = re.compile(r"env:\S+$")
# A command line a mail client broke after an option that takes a value (`... -evp` /
# `aes-128-gcm`), and a tail of arguments only (no option, no output line) that may complete it.
_VALUED_OPTION_END = re.compile(r"\s-(?:evp|hmac|cmac|seconds|bytes|multi|primes|engine|provider|"
                                r"provider-path|propquery|async_jobs|misalign)$")
_ARGUMENTS = re.compile(r"[\w.+()/:,=-]+(?:[ \t]+[\w.+()/:,=-]+)*(?:[ \t]+(?:\d?>|[|;&<]).*)?")
# A shell command that prints a binary's version (`$ openssl version`, `# /opt/x/bin/openssl
# version -a`): the version line after it is that binary's.
_VERSION_COMMAND = re.compile(r"(?:^|[\s$#%>])(?P<bin>(?:[\w.~@+-]*/)*(?:openssl|tongsuo)[\w.@-]*)"
                              r"\s+version(?:\s+-[a-z]+)*\s*$")
_NUMBERED_NAME = re.compile(r"\d{1,7}[ \t]++(?=[A-Za-z])")
_WORD = re.compile(r"[A-Za-z][\w-]*(?:\([\w-]+\))?")
_MARKER_CONDITION = re.compile(r"\b([a-z][a-z0-9_]*)=([\w.~+-]+)")
# A row name led by the machine it ran on ("FTC663: aes-256-cbc", "A73:    aes-256-cbc").
# A row's values, then the machine it ran on in parentheses.
_ROW_TAG = re.compile(r"^(.*[\dks])\s+\(([^()]{1,40})\)\s*$")
_ROW_LABEL = re.compile(r"^([^:\s][^:]{0,39}?):\s+(\S.*)$")
# A `type` line that holds sizes but is no header the reader can read ("type 16 bytes 64 byts").
_SIZES_TAIL = re.compile(r"type\s+\d+\s*(?:bytes?|byts|B)\b")
_GOT = re.compile(r"^Got: (?P<rec>\+.*?) from (?P<child>\d+)\s*$")
_WRAPPED_COMMAND = 50  # a command line this long, its next line an option: a mail client broke it
# A loop at a prompt (in the line's first _LOOP_AT characters), and the words that close one
# (sh's `done`, fish's `end`, PowerShell's `}`): a loop's line without them was broken.
_LOOP_START = re.compile(r"(?:^|[$#%>\u276f]\s*)(?:for|while|until|foreach)\s")
_LOOP_AT = 64
_LOOP_CLOSED = re.compile(r"(?:^|[;&|\s])(?:done|end)\b|\}")
_FORKED = re.compile(r"^Forked child (?P<child>\d+)\s*$")
# What time(1) prints of a command, on one line: zsh's "<command>  18.00s user 0.09s system 99%
# cpu 18.127 total", BSD's "18.12 real  18.00 user  0.09 sys", tcsh's "18.004u 0.092s 0:18.12 99.8%";
# hyperfine's "Time (mean ± σ):  6.021 s ±  0.006 s", "Range (min … max):  6.016 s …  6.027 s".
_TIME_SUMMARY = re.compile(r"\d[\d.]*s user \d[\d.]*s system|\d[\d.]* real\s+\d[\d.]* user\s|"
                           r"\d[\d.]*u \d[\d.]*s \d+:\d|"
                           r"^(?:Time \(mean|Range \(min)[^)]{0,12}\):\s+\d")  # (hyperfine's)
_ROW_END = frozenset("0123456789k")
_DIGITS = frozenset("0123456789")
# How a whole progress line ends: with its result's time.
_DOING_RESULT = re.compile(r" in \d+\.\d+s\s*$")
_LABEL_REACH = 200  # lines of prose above a run that may hold its label
_TITLE_WIDTH, _TITLE_LEVEL = 60, 8  # a paragraph's title: its width, its level (below all others)
_DOING_PIECES = 7  # lines after a cut progress line that may complete it (long names, 30 columns)
# first (after quoting) and last characters of raw public-key rows (T.PK_LINE)
_PK_START, _PK_END = frozenset("rd0123456789"), frozenset("0123456789 \t")
# The header block, prompt and notices of a run repeat verbatim from run to run of a collection:
# the pure classifiers of such lines are memoised (their results are never changed).
_version_line, _meta_line, _parse_prompt, _label_verdict, _is_failure = map(
    _memo, (T.version_line, T.meta_line, parse_prompt, label_verdict, T.is_failure))
_sym_header, _pkey_header, _parse_version = map(
    _memo, (T.sym_header, T.pkey_header, _mr.parse_version))
# Last characters of a cleaned line that T.sym_row may read (a value ends it).
_SYM_END = frozenset("0123456789kfn")
# What every line a handler of the dispatch (:meth:`_Parser.line`) takes holds: a number
# (a digit, any the handlers' \d reads, or openssl's inf/nan), a failure's words, "speed" (a
# prompt) or one of the prefixes the handlers look for (first letters of public-key headers and
# engine notices included). A line with none of them is prose whatever the state (but a harness
# block's rows), and holds no measurement either (looks_like_data needs a number, a "+",
# "Doing " or "Got: ").
_DIGIT = re.compile(r"\d")
_MARK_CHARS = re.compile("[\x1b\x7f\x08^`*]")  # (the characters of INNER_MARKS)
_PLACED_WORDS = ("inf", "nan", "speed", *T.FAILURE_WORDS)
_PLACED_STARTS = ("+", "s", "k", "o", "E", "e", "Doing ", "Got: ", "Forked child", "type", "^C",
                  *T.VERSION_PREFIXES, *T.META_PREFIXES, *T.ELAPSED_NOTICES, *T.NOTICES,
                  *T.FAILURE_STARTS)


# What a loop fills in that each run's output states: the row's name (`-evp $c`, `$c`), the
# `type` header's size or the loop's words (`-bytes $b`), the seconds (no condition of a run).
_FILLED_BY_OUTPUT = frozenset({"evp", "hmac", "cmac", "algorithm", "bytes", "seconds"})


_TAIL_FIRST = frozenset("0123456789~(=\u2248")  # (the value of a list row broken onto its own line)


def is_prose(line: str) -> bool:
    """Whether no handler of the dispatch can take a cleaned line (see _PLACED_WORDS).

    >>> is_prose("Compiled with the usual flags:"), is_prose("md5 1.00k"), is_prose("speed")
    (True, False, False)
    """
    if line.startswith(_PLACED_STARTS) or _DIGIT.search(line) is not None:
        return False
    for word in _PLACED_WORDS:
        if word in line:
            return False
    return True


@_memo
def looks_like_data(line: str, in_table: bool = False) -> bool:
    """Whether an unplaced line looks like a measurement (and so must be reported).

    Numbers are openssl's when they carry its ``k``, stand beside a cipher's name, sit
    inside a table openssl printed (``in_table``) or are one of its rates spelled out (a
    harness's ``Average: 1834.5 sign/s``); other tools' tables (iostat, sar, sysbench) are not
    unplaced openssl data.

    >>> looks_like_data("Average: 7610554920 byte/s"), looks_like_data("copied, 0.5 s, 2.1 GB/s")
    (True, False)
    >>> looks_like_data("run 1: sha256  1024 bytes  1345678.12k"), looks_like_data("sda 1.00k")
    (True, False)
    """
    if line[:1] == "+" and len(line) > 2 and line[1].isalpha() and ":" in line:
        return True
    if line.startswith(("Doing ", "Got: ")):
        return True
    if ("u" in line or "(m" in line) and _TIME_SUMMARY.search(line):
        return False  # (the time a command took, with its name: "openssl speed md5  9.1s user ...")
    if "/s" in line and _RATE.search(line):
        return True
    if "k" in line and _K_VALUE.search(line):
        head = _FIRST_VALUE.split(line, 1)[0]  # (one value in openssl's k after a cipher's name,
        if len(head) <= 48 and _names_a_cipher(head):  # "sha256 1024 bytes 1345.67k", a row
            return True  # cut to its last line by `| tail -1`; not a sentence quoting a value)
    # (a number token holds "." or is inf/nan: prose mostly holds none)
    if not (("." in line or "inf" in line or "nan" in line) and
            next(islice(_NUMBERS.finditer(line), 1, None), None)) and not _INTS.match(line):
        return _name_then_numbers(line)  # (two number tokens, found without splitting a line)
    if in_table and not _HEADING.match(line) or _K_VALUE.search(line):
        return True  # (under a table, numbers are its rows; a Markdown heading's are no row)
    # a row's name comes first, its values after it (BYTEmark's "IDEA   :  6520.5 : ..." is
    # no openssl row)
    head = _FIRST_VALUE.split(line, 1)[0]
    return " : " not in line and _names_a_cipher(head)


def _names_a_cipher(text: str) -> bool:
    """Whether a row's head names a cipher: a word of it, or the whole (``des ede3``)."""
    return any(is_known(canonical(w)[0]) for w in _WORD.findall(text)) or \
        is_known(canonical(" ".join(text.split()))[0])


# The fields of a row of a long table: blanks, commas, semicolons or bars between them.
_FIELDS = re.compile(r"[\s,;|]+")


@_memo
def _lists_ciphers(text: str) -> bool:
    """Whether a label's words are all names of algorithms (``sm4-cbc aes-128-cbc``): a list
    of what a loop reads, no name of a run.

    >>> _lists_ciphers("sm4-cbc aes-128-cbc"), _lists_ciphers("Raspberry Pi 4"), _lists_ciphers("")
    (True, False, False)
    """
    words = text.split()
    return bool(words) and len(words) <= 8 and all(is_known(canonical(w)[0]) for w in words)


def _name_then_numbers(line: str) -> bool:
    """A cipher's name, then nothing but two or more numbers: a row of a long table whose
    header was not read (``aes-128-gcm,16,512.3``: name, size, rate), which must be reported.

    >>> _name_then_numbers("aes-128-gcm,16,512.3"), _name_then_numbers("aes-128-gcm 16 bytes")
    (True, False)
    """
    if len(line) > 200:
        return False  # (a row of a long table is short; a longer line is no such row)
    fields = [t for t in _FIELDS.split(line) if t]
    if not fields:
        return False  # (separators only: `;`, `,,`)
    first, *rest = fields
    return (len(rest) >= 2 and all(_BARE_VALUE.fullmatch(t) for t in rest)
            and is_known(canonical(first)[0]))


class _Memo(dict):
    """A dict of the values of a pure function, made on first look-up (``d[x]`` is ``f(x)``)."""

    def __init__(self, f):
        super().__init__()
        self.f = f

    def __missing__(self, key):
        value = self[key] = self.f(key)
        return value


class _Parser(_RunBoundaries, _BlockReaders, _Assembly):
    """The pass over a text's lines, with the parts of the parser mixed in (see the module)."""

    def __init__(self, lines: list[str], skip: set[int], source: str, hints: dict[str, Any]):
        self.lines, self.skip, self.source = lines, skip, source
        self.hint_version = _mr.parse_version(hints.get("tool_version"))
        self.runs: list[_Run] = []
        self.cur: _Run | None = None
        self.unplaced: list[tuple[int, str]] = []
        self.prose: list[tuple[int, str]] = []  # lines of prose, see find_label
        self.headings: list[tuple[int, Label]] = []  # (line, heading): see find_label
        self.bylines: list[int] = []  # lines that start a post (the title above is no label)
        self.fences: list[int] = []  # code fences (```, ~~~): each odd one closes a block
        self.verdicts: dict[int, Any] = {}  # line -> its label verdict, once judged
        self.pending_context: dict[str, Any] = {}  # notices for the next run (see bind)
        # (line, version, heading level) the prose stated a version for the runs below it
        self.stated_version: tuple[int, Any, int | None] | None = None  # (see standing_version)
        # (a capability mask a shell exported, for its later prompts: (mask, the shell's user@host))
        self.shell_mask: tuple[str, str | None] | None = None
        # (conditions a shell set for its later prompts, `export OPENSSL_CONF=...`: name ->
        # (value, the shell's user@host))
        self.shell_conditions: dict[str, tuple[str, str | None]] = {}
        self.comment_blocks: list[int] | None = None  # comment block of each line (see parse)
        self.marker: tuple[int, dict[str, str]] | None = None
        self.ended = 0  # line of the last "[exit status: N]" (captures end with it)
        self.output_to = -1  # last line of a shell command's output in prose (see note_prose)
        # (the machine a loop's command line ran on, for the runs it prints: see unbound_prompt)
        self.loop_machine: str | None = None
        # (`$ openssl version` and the version it printed: that binary's, for its later prompts)
        self.version_command: tuple[int, str] | None = None  # (line, binary)
        self.binary_versions: dict[str, tuple] = {}  # binary -> (tool, version)
        self.listed = 0  # line of the last value of a list under an algorithm (listed_value)
        self.quoted: dict[tuple, str] = {}
        # continuation state
        self.pending_row: tuple | None = None  # (run, lineno, name, tokens)
        self.pending_pk: tuple | None = None  # (run, lineno, parsed, kind)
        self.pending_hdr: str | None = None  # "sym" or a public-key kind head
        self.pending_hdr_text = ""
        self.pending_doing: _progress.Progress | None = None
        self.cont_field: str | None = None
        self.harness: _harness.Harness | None = None
        # canonical algorithms of the names of block records, ints of their texts (memos)
        self.algorithm_of = _Memo(lambda name: canonical(name)[0])
        self.ints = _Memo(int)
        self.canonical_of = _Memo(canonical)
        self.mr_headers = _Memo(lambda text: tuple(map(int, text.split(":"))))  # +H sizes
        self.not_names: dict[str, bool] = {}  # row names seen: True for prose or values
        self.row_names: dict[str, str | None] = {}  # raw names in row blocks: name, None if bad
        self.row_tags: dict[int, str] = {}  # line -> the machine tag after a row's values
        self.notes: dict[int, str] = {}  # line -> words after a row's values that are no value
        self.tagged_rows: int | None = None  # rows with words in parentheses after their values
        self.tag_runs: dict[str, _Run | None] = {}  # machine tag -> its one run (None: several)
        self.switch_runs: dict[tuple, _Run] = {}  # (table's first run, (feature, on/off) or None) -> its run
        self.plain_spans: dict = {}  # block candidates pattern -> end of a span not all records
        self.loop: dict | None = None  # the loop whose output this is (see unbound_prompt)
        self.plain_doing_span: tuple[int, int] | None = None  # (see plain_doing_block)

    # --- pending continuations ------------------------------------------------------------
    def flush_pending(self) -> None:
        if self.pending_row is not None:
            run, lineno, name, toks = self.pending_row
            self.pending_row = None
            self.add_row(run, lineno, name, toks)
        if self.pending_pk is not None:
            run, lineno, parsed, kind = self.pending_pk
            self.pending_pk = None
            self.add_pk(run, lineno, parsed, kind)
        self.pending_hdr = None
        self.cont_field = None

    def continuation(self, i: int, line: str) -> bool:
        if self.pending_row is not None:
            run, lineno, name, toks = self.pending_row
            # (a terminal's width cut a value: "3315666.4" / "9k  4118118.40k", or its "k")
            cut = T.cut_value(toks) and (line[0].isdigit() or line[0] == "k")
            tail, _, rest = line.partition(" ") if cut else ("", "", line)
            vals = T.values_only(rest) if rest.strip() else [] if cut else None
            if vals is not None:
                toks = [*toks[:-1], toks[-1] + tail, *vals] if cut else toks + vals
                want = run.sizes_for(len(toks))
                if want is not None and len(toks) >= len(want):
                    self.pending_row = None
                    self.add_row(run, lineno, name, toks)
                else:
                    self.pending_row = (run, lineno, name, toks)
                run.last = i
                return True
        if self.pending_pk is not None:
            vals = T.pkey_continuation(line)
            if vals is not None:
                run, lineno, parsed, kind = self.pending_pk
                parsed = (*parsed[:4], parsed[4] + vals)
                if len(parsed[4]) >= 2 * len(T.OPS[kind]):
                    self.pending_pk = None
                    self.add_pk(run, lineno, parsed, kind)
                else:
                    self.pending_pk = (run, lineno, parsed, kind)
                run.last = i
                return True
        if self.pending_hdr == "sym":
            # the tail of a wrapped `type` header, cut between sizes or inside "8192 bytes"; a
            # terminal's width cuts inside a word too (tmux's copy: "8192 bytes  1" / "6384 bytes")
            text = f"{self.pending_hdr_text} {line}"
            sizes = _sym_header(text)
            if sizes is None:
                glued = _sym_header(self.pending_hdr_text + line)
                text, sizes = (self.pending_hdr_text + line, glued) if glued else (text, sizes)
            if sizes is not None or T.SYM_HEADER_HEAD.match(text):
                if sizes is not None:
                    self.cur.sizes = sizes
                self.pending_hdr_text = text
                self.cur.last = i
                return True
        elif self.pending_hdr is not None:
            text = f"{self.pending_hdr_text} {line}"
            kind = _pkey_header(text)
            if kind is not None:
                self.cur.pk_kind = kind
                self.pending_hdr = None
                self.cur.last = i
                return True
            if T.pkey_header_head(text):
                self.pending_hdr_text = text
                return True
        if self.cont_field == "cpuinfo":
            run = self.cur
            run.meta["cpuinfo"] = f"{run.meta['cpuinfo']} {line}"
            check_cpuinfo(run, run.meta["cpuinfo"])
            run.last, self.cont_field = i, None
            return True
        if self.cont_field is not None:
            rx = T.OPTIONS_CONT if self.cont_field == "options" else T.COMPILER_CONT
            if rx.match(line):
                run = self.cur
                run.meta[self.cont_field] = f"{run.meta.get(self.cont_field, '')} {line}".strip()
                run.last = i
                return True
        return False

    # --- cells ----------------------------------------------------------------------------
    def add_row(self, run: _Run, lineno: int, name: str, toks: list[str]) -> None:
        """Add a throughput row."""
        sizes = run.sizes_for(len(toks))
        if sizes is not None and len(toks) == len(sizes) + 1 and run.opts.get("mb") and \
                T.row_bytes_per_s(toks[-1:]) == [0.0]:
            toks = toks[:-1]  # a -multi -mb summary prints a value past its lengths, 0.00
        if sizes is None or len(toks) != len(sizes):
            # no table to put it in, or a row cut short (and never continued) or longer than
            # its header: the columns cannot be told apart, so it is reported, not guessed
            self.unplaced.append((lineno, self.lines[lineno - 1]))
            return
        self.add_rows(run, sizes, [(lineno, name, toks)])

    def add_rows(self, run: _Run, sizes: list[int], rows: list[tuple],
                 values: list[float] | None = None) -> None:
        """Add throughput rows ``(lineno, name, tokens)`` of ``len(sizes)`` cells each.

        ``values`` are their cells in bytes/s, row after row, when already converted.
        """
        quoted, n, added = self.quoted, len(sizes), False
        decrypt = run.opts.get("decrypt")
        for j, (lineno, name, toks) in enumerate(rows):
            key = tuple(toks)
            seen = quoted.get(key)
            if seen is not None and seen != name and name.endswith(seen) and \
                    name[-len(seen) - 1] in " :>\t":
                continue  # a later quotation of a row already read ("L : aes-128 cbc ...")
            if toks[0] != "0.00":  # all-zero rows repeat legitimately (unavailable algorithms)
                quoted.setdefault(key, name)
            algorithm, op = canonical(name)
            tag = self.row_tags.get(lineno) if self.row_tags else None
            if name[-1] == ")" or ":" in name and not is_known(algorithm):
                algorithm, op, tag = self.named_tag(name, algorithm, op, tag)
            switched = switch(tag) if tag is not None else None
            if tag is not None:
                if added:
                    run.dialects.add("text")
                run = self.tagged_run(run, lineno, tag, algorithm) if switched is None else \
                    self.switched_run(run, lineno, switched, algorithm)
            elif run.switched is not None:  # (no tag under rows that switch a feature)
                run = self.switched_run(run, lineno, None, algorithm)
            if op == "encrypt" and decrypt:
                op = "decrypt"
            cells = T.row_bytes_per_s(toks) if values is None else values[j * n:j * n + n]
            run.rows.append([lineno, algorithm, name, op, sizes, cells, None, None])
            if algorithm == "evp":
                run.evp = True
            added = True
        if added:
            run.dialects.add("text")

    @staticmethod
    def named_tag(name: str, algorithm: str, op: str | None, tag: str | None) -> tuple:
        """``(algorithm, operation, tag)`` of a row whose name holds its tag: the machine it
        ran on before it (``FTC663: aes-256-cbc``) or in parentheses after it
        (``aes-128-gcm (Cortex-A720)``, ``aes-128-gcm (AES-NI off)``)."""
        labelled = _ROW_LABEL.match(name) if name[-1] != ")" else None
        if labelled and is_known(canonical(labelled[2])[0]):
            return (*canonical(labelled[2]), labelled[1])
        base, in_name = split_tag(name) if name[-1:] == ")" else (name, None)
        if in_name is not None and is_known(canonical(base)[0]):
            return (*canonical(base), in_name)
        return algorithm, op, tag

    def tagged_run(self, run: _Run, lineno: int, label: str, algorithm: str) -> _Run:
        """The run of a row that names the machine it ran on (``label``): the current run
        while its rows name that machine, this algorithm is new to it and no earlier run had
        that name (machines of one name interleaved, four clusters of two core types: which
        rows ran together cannot be known, so each is a run of its own)."""
        if run.row_label == label and self.tag_runs.get(label) is run and not any(
                r[ALG] == algorithm for r in run.rows) and not any(
                c[ALG] == algorithm for c, _ in run.pk):
            return run
        new = self.labelled_run(run, lineno, label)
        self.tag_runs[label] = new if label not in self.tag_runs else None
        return new

    def add_pk(self, run: _Run, lineno: int, parsed: tuple, kind: str) -> None:
        name, fam, algorithm, bits, toks = parsed
        tag = self.row_tags.get(lineno) if self.row_tags else None
        if tag is not None:
            run = self.tagged_run(run, lineno, tag, algorithm)
        rates = T.rates(toks)
        ops = T.OPS[kind]
        if len(rates) != len(ops):
            self.unplaced.append((lineno, self.lines[lineno - 1]))
            return
        for op, rate in zip(ops, rates):
            cell = [lineno, algorithm, name, op, None, None, rate, None, None, None]
            run.pk.append((cell, (fam, bits, op)))
        run.dialects.add("text")

    # --- the pass ---------------------------------------------------------------------------
    def parse(self) -> None:
        skip = self.skip
        # Blocks of the two commonest lines of captures (complete progress lines, -mr +DT/+R
        # pairs) are read by one regex over the whole text instead of line by line. Lines taken
        # by document tables (skip) would cut into blocks: such texts go line by line, as every
        # text does with the block readers off (ENGINES: the tests run both ways).
        lines_only = bool(skip) or ENGINE == "lines"
        text = "\n".join(self.lines)
        # (whether clean() has more to do than strip lines and unquote them: one scan in C)
        plain = _MARK_CHARS.search(text) is None or not any(m in text for m in INNER_MARKS)
        if not lines_only:
            self.text = text
            # offset of each line in self.text (accumulate and map run in C)
            self.starts = list(accumulate(map((1).__add__, map(len, self.lines)), initial=0))
        resume = 0
        for idx, raw in enumerate(self.lines):
            if idx < resume or idx in skip:
                continue  # read by a block, or taken by a document table
            # (a line that continues another; a block reader that reads none changes none)
            pending = self.pending_row or self.pending_pk or self.pending_hdr or self.cont_field
            if self.pending_hdr == "sym" and not lines_only and self.cur.sizes:
                n = self.row_block(idx)  # the table under a whole `type` header
                if n:
                    resume = idx + n
                    continue
            c0 = raw[:1]
            if not pending:
                if c0 == "D" or c0 == "+":
                    n = 0 if lines_only else (self.doing_block(idx) or self.plain_doing_block(idx)) \
                        if c0 == "D" else self.mr_block(idx)
                    if n:
                        resume = idx + n
                        continue
                    if c0 == "D" and self.pending_doing is not None:
                        self.complete_doing(raw)
                elif raw[-1:] in _PK_END and raw.lstrip(" \t>")[:1] in _PK_START and \
                        self.cur is not None and self.cur.pk_kind and not lines_only:
                    n = self.pk_block(idx)  # the rows under a public-key header
                    if n:
                        resume = idx + n
                        continue
            line = raw.strip()
            if not plain or line[:1] in QUOTE_FIRST:
                line = clean(raw)
            if not line:
                continue
            i = idx + 1  # 1-based line numbers from here on
            if line[-1] == ")":
                line = self.untagged(i, line)
            elif line[-1] in _DIGITS and self.cur is not None and self.cur.sizes:
                line = self.unnumbered(i, line)
            if pending:
                if self.continuation(i, line):
                    continue
                self.flush_pending()
            if line.startswith("Doing ") and not _DOING_RESULT.search(line):
                line, extra = self.rejoined(idx, line)  # a progress line wrapped by a mail client
                resume = idx + 1 + extra
            elif line.startswith("Got:") and _GOT.match(line) is None:
                line, extra = self.rejoined_got(idx, line)  # (wrapped the same way)
                resume = idx + 1 + extra
            elif len(line) >= _WRAPPED_COMMAND and ("for" in line or "while" in line or "until" in line) \
                    and _LOOP_START.search(line, 0, _LOOP_AT) and \
                    _LOOP_CLOSED.search(line) is None and (joined := self.rejoined_loop(idx, line))[1]:
                line, extra = joined  # (a loop's command line a mail client broke)
                resume = idx + 1 + extra
            elif "speed" in line and len(line) >= _WRAPPED_COMMAND:
                line, extra = self.rejoined_command(idx, line)
                resume = idx + 1 + extra
            if self.harness is None and is_prose(line):
                self.note_prose(i, line)
                continue
            try:
                # Inside a throughput table most lines are rows: try that first.
                run = self.cur
                row = T.sym_row(line) if run is not None and run.sizes and \
                    line[-1] in _ROW_END and line[0] not in "+D" else None
                placed = (row is not None and self.sym_line(i, *row)) or self.line(i, line)
            except (ValueError, IndexError):
                placed = False
            if not placed and (listed := _listed.read(line)) is not None:
                placed = self.list_row(i, raw, listed)  # ("- aes-128-gcm, 16 bytes: 712 MB/s")
            elif not placed and (n := self.broken_list_row(idx, line)):
                placed, resume = True, idx + 1 + n
            if not placed:
                run = self.cur
                if looks_like_data(line, run is not None and bool(run.sizes or run.pk_kind or run.pk)
                                   and run.last >= i - 2) or \
                        self.listed_value(i, line):  # (values right under a table's rows)
                    self.unplaced.append((i, raw))
                else:
                    self.note_prose(i, line)
        self.flush_pending()
        if self.loop is not None:
            self.close_loop()
        self.one_label_per_host()

    def one_label_per_host(self) -> None:
        """A run a heading labels whose prompt names a host that labels other runs of the text
        takes the host's label too: one machine, one label (its runs would look like two
        machines' otherwise); what the heading says of its CPU stays."""
        hosts = {run.host for run in self.runs if run.label_rule == HOST_RULE and run.host}
        for run in self.runs if hosts else ():
            if run.label_rule == "heading" and run.host in hosts:
                run.meta["label"], run.label_rule = run.host, HOST_RULE

    def listed_value(self, i: int, line: str) -> bool:
        """Whether line ``i`` (cleaned: ``line``) is a value alone in a list of them right under
        a heading that names an algorithm (a harness's trials: ``Algorithm: SHA256:``, then a
        value a line): data no table places, to be reported."""
        if _BARE_VALUE.fullmatch(line) is None:
            return False
        above = self.lines[i - 2].strip() if i > 1 else ""
        if self.listed != i - 1 and not (above[-1:] == ":" and any(
                is_known(canonical(w)[0]) for w in _WORD.findall(above))):
            return False
        self.listed = i
        return True

    def untagged(self, i: int, line: str) -> str:
        """A table row without the words in parentheses after its values. Where other rows
        have such words too (``... 2065623.72k (Cortex-A720)``, one row per cluster; a mail's
        ``(PIV 2GHz)`` and ``(PII 350MHz)``) they name the machine each row ran on and label
        its run (``row_tags``), as do words that switch a CPU feature (``(AES-NI off)``); on the
        only row with them (``(padlock engine)``, ``(default)``) they are the row's ``note``."""
        m = self.tagged(line)
        if m is None:
            return line
        if self.tagged_rows is None:  # (counted once, over the lines ending in ")")
            self.tagged_rows = sum(1 for raw in self.lines if raw.rstrip(" \t`*")[-1:] == ")"
                                   and self.tagged(clean(raw)) is not None)
        tag = m[2].strip()
        if self.tagged_rows > 1 or switch(tag) is not None:  # ("(AES-NI off)": its condition)
            self.row_tags[i] = tag
        else:
            self.notes[i] = tag
        return m[1]

    def unnumbered(self, i: int, line: str) -> str:
        """A table row without the whole number after its values (a PDF's page number, a
        footnote's), which is kept as the row's ``note``."""
        head, _, last = line.rpartition(" ")
        if not (last.isdigit() and len(last) <= 4 and head.rstrip()[-1:] in _ROW_END):
            return line
        row = T.sym_row(head)
        if row is None or not all("." in t for t in row[1]) or len(row[1]) < len(self.cur.sizes):
            return line  # (a row short of values: the number starts the next, cut by a terminal)
        self.notes[i] = last
        return head.rstrip()

    @staticmethod
    def tagged(line: str) -> re.Match | None:
        m = _ROW_TAG.match(line)
        return m if m is not None and (T.sym_row(m[1]) or T.pkey_row(m[1])) else None

    def rejoined(self, idx: int, line: str) -> tuple[str, int]:
        """A ``Doing`` line cut short (by a mail client) joined with the lines that complete it.

        Returns the whole line and how many lines after ``idx`` it took; ``(line, 0)`` when no
        following lines (a few, none a record of its own) make a progress line ending in its
        result.
        """
        text = line
        for j, nxt in self.pieces(idx, ("Doing ", "+")):
            if j == idx + 1 and line.endswith(":") and _progress.looks_like_result(nxt):
                break  # (a bare prompt's whole result line: read as the prompt's, as it was)
            text = f"{text} {nxt}"
            if _DOING_RESULT.search(text) and _progress.doing(text, idx + 1) is not None:
                return text, j - idx
        return line, 0

    def rejoined_command(self, idx: int, line: str) -> tuple[str, int]:
        """A long ``openssl speed`` command line a mail client broke before an option (``...
        openssl speed`` / ``-elapsed -decrypt -evp aes-128-cbc``) joined with its tail: the
        tail's options are the run's (read apart, a -decrypt run read as encrypt). ``(line, 0)``
        when the next line is no such tail (a separator, ``-bash: openssl: not found``)."""
        nxt = clean(self.lines[idx + 1]) if idx + 1 < len(self.lines) and idx + 1 not in self.skip \
            else ""
        if nxt[:1] != "-" or not nxt[1:2].isalpha() or ": " in nxt:
            # (or broken after an option that takes a value, `... -evp` / `aes-128-gcm`, or
            # before more algorithms, `... -evp aes-128-gcm` / `rsa2048 ecdsap256`)
            if not nxt or nxt[:1] == "-" or _ARGUMENTS.fullmatch(nxt) is None or not (
                    _VALUED_OPTION_END.search(line) or all(is_known(canonical(w)[0]) for w in nxt.split())):
                return line, 0
        if _parse_prompt(line) is None:
            return line, 0
        joined = f"{line} {nxt}"
        return (joined, 1) if _parse_prompt(joined) is not None else (line, 0)

    def rejoined_loop(self, idx: int, line: str) -> tuple[str, int]:
        """A loop's command line a mail client broke (``$ for c in a b`` / ``c; do openssl speed
        -evp`` / ``$c | tail -1; done``) joined with its pieces up to the one that closes the
        loop, when the whole is a loop that runs openssl speed; ``(line, 0)`` else."""
        text = line
        for j, nxt in self.pieces(idx, ("Doing ", "+")):
            text = f"{text} {nxt}"
            if _LOOP_CLOSED.search(nxt) is not None:
                prompt = _parse_prompt(text) if "speed" in text else None
                return (text, j - idx) if prompt is not None and "loop" in prompt else (line, 0)
        return line, 0

    def rejoined_got(self, idx: int, line: str) -> tuple[str, int]:
        """A ``-multi`` child's ``Got: +F:... from N`` line cut short (a mail client breaks it
        after ``Got:``, inside the record, before ``from``) joined with the lines that complete
        it, as :meth:`rejoined` does. The record holds no blank: its pieces join without one."""
        text = line
        for j, nxt in self.pieces(idx, ("Got:", "Doing ")):
            text = f"{text} {nxt}" if text == "Got:" or nxt.startswith("from ") else text + nxt
            if _GOT.match(text):
                return text, j - idx
        return line, 0

    def pieces(self, idx: int, stops: tuple[str, ...]):
        """The lines after line index ``idx`` that may continue a record a mail client broke,
        cleaned, with their indices: a few, up to a blank line, a line another reader took or
        one that starts a record of its own (``stops``)."""
        for j in range(idx + 1, min(idx + 1 + _DOING_PIECES, len(self.lines))):
            nxt = clean(self.lines[j])
            if j in self.skip or not nxt or nxt.startswith(stops):
                return
            yield j, nxt

    def note_prose(self, i: int, line: str) -> None:
        if self.output_to == i - 1 or ("speed" not in line and is_shell_command(line)
                                       and not shows_a_file(line)):
            # a command that runs no openssl speed, and its output up to a blank line, name no
            # run ("~ $ pkg install ...", "Setting up openssl-tool (3.3.2) ..."), but where the
            # output names a CPU (lscpu's "Model name: AMD EPYC 7763 ..."); a command that runs
            # it elsewhere may print the hosts' names (clush's frames, a loop's echo)
            output, self.output_to = self.output_to == i - 1, i
            if not output:  # (another command: a loop's or a list's output is over)
                if self.loop is not None:
                    self.close_loop()
                self.loop_machine = None
            m = _VERSION_COMMAND.search(line) if not output and "version" in line else None
            if m is not None:
                self.version_command = (i, m["bin"])
            if not output or not prose_cpu(line):
                self.verdicts[i] = SKIP
        mask = prose_mask(line) if "cap" in line else None  # (OPENSSL_ia32cap, OPENSSL_armcap)
        stated = shell_assignment(line) if "cap" in line else None
        if stated is not None:  # (`export OPENSSL_ia32cap=...`: every command after it, until unset)
            self.set_shell_mask(stated[0], line)
        named_fips = "fips" in line or "FIPS" in line
        setting = shell_environment(line) if named_fips or "OPENSSL_" in line else None
        if setting is not None:  # (`export OPENSSL_CONF=...`, `fips-mode-setup --enable`)
            self.set_shell_conditions(dict((setting,)), line)
        fips = prose_fips(line) if named_fips else None
        if fips is not None:  # ("with FIPS mode enabled:": the output below it, as a mask)
            self.notice({"fips": fips})
        if mask is not None:  # for the output below it: this run's while it has none
            self.notice({"isa_mask": mask})
        listed = listed_environment(line) if "OPENSSL_" in line and ":" in line else None
        if listed is not None:  # (a CI step's `env:` under its command: that step's run)
            name, value = listed
            self.notice({name: value} if name == "isa_mask" else {"environment": {name: value}})
        version = prose_version(line) if ("ssl" in line or "SSL" in line or "same " in line) \
            and "." in line else None
        if version is not None:  # (the same way; two versions stated for one run cancel)
            if self.cur is not None and not self.cur.has_cells():
                bind_context(self.cur, {"prose_version": version})
                version = self.cur.prose_version
            else:
                pending = self.pending_context
                version = pending["prose_version"] = merged_fact(pending.get("prose_version"), version)
            self.state_version(i, version)  # (and the runs after it: see standing_version)
        elif self.stated_version is not None and "." in line and names_a_version(line):
            self.stated_version = None  # (another version, or two it cannot tell apart)
        if line.startswith("#"):
            conds = dict(_MARKER_CONDITION.findall(line))
            if conds:
                self.marker = (i, conds)
        prose = self.prose
        if line[0] in "-=" and prose and prose[-1][0] == i - 1 and setext_level(line):
            # a Setext underline: the line above is a heading
            above = self.verdict(*prose[-1])
            if isinstance(above, Label) and not above.level:
                self.verdicts[i - 1] = h = Label(above.text, "heading", setext_level(line))
                self.headings.append((i - 1, h))
            self.verdicts[i] = SKIP
        elif line[0] in "#*_" or self.lines[i - 1][:1] in "#*_ >":
            v = self.verdict(i, line)
            if isinstance(v, Label) and v.level:
                self.headings.append((i, v))
        byline = is_byline(line)
        if prose and prose[-1][0] == i - 1 and len(prose[-1][1]) <= _TITLE_WIDTH and \
                self.verdict(i, line) == STOP and not byline and \
                not is_list_item(self.lines[i - 1]) and not len(self.fences) % 2 and not (
                    len(prose) > 1 and prose[-2][0] == i - 2 and
                    wrapped_tail(prose[-2][1], prose[-1][1])):
            # a short line right above a paragraph is its title (a heading that lost its markup;
            # not in a code block: "Latency (ms):" above sysbench's figures; not the tail of a
            # line a mail client wrapped: "... It should be significantly improve" / "performance.")
            above = self.verdict(*prose[-1])
            if isinstance(above, Label) and above.rule == "caption":
                self.verdicts[i - 1] = h = Label(above.text, "title of a paragraph", _TITLE_LEVEL)
                self.headings.append((i - 1, h))
        if byline:
            self.shell_mask = None  # (another author's post: another shell)
            self.shell_conditions = {}
            self.bylines.append(i)
        if line[0] in "`~" and line.startswith(("```", "~~~")):
            self.fences.append(i)
        prose.append((i, line))  # (judged as a label only when a run asks: most never are)
        if len(prose) > 2 * _LABEL_REACH:
            del prose[:-_LABEL_REACH]  # a label names the run below it, not one pages on
            for j in [j for j in self.verdicts if j < prose[0][0]]:
                del self.verdicts[j]

    def verdict(self, i: int, line: str):
        """The label verdict of the prose line ``i`` (see :mod:`~cipherlab.readers._context`)."""
        v = self.verdicts.get(i)
        if v is None:
            v = self.verdicts[i] = _label_verdict(line, self.lines[i - 1])
        return v

    def label_after(self, after: int) -> tuple[int, Label] | None:
        """The last line of prose after line ``after`` that names a run, or tells a story: the
        text has moved on since then."""
        for i, text in reversed(self.prose):
            if i <= after:
                return None
            v = self.verdict(i, text)
            if v != SKIP:
                return i, v
        return None

    def find_label(self, i: int, after: int) -> Label | None:
        """The label of a run opened at line ``i``, the run before it ending at line ``after``
        (the order of the search: :mod:`~cipherlab.readers._context`)."""
        blocks = self.comment_blocks
        said, prose = False, self.prose
        code = self.code_blocks_above(i)
        for k in range(len(prose) - 1, -1, -1):
            j, text = prose[k]
            if j <= after:
                break
            v = self.verdict(j, text)
            if v == SKIP or code and getattr(v, "rule", None) == "caption" and \
                    any(a < j < b and b - a > 2 for a, b in code):
                continue  # (a short line of another program's output, in a code block of its
                # own, is no caption: "Latency (ms):"; one fenced alone is; a comment may name)
            if k and prose[k - 1][0] == j - 1 and isinstance(v, Label) and v.rule == "caption" \
                    and wrapped_tail(prose[k - 1][1], text):
                # the tail of a wrapped line ("... 32-bit compiler" / "generated code:"), or of
                # program output ("Linux 5.15.72-v7l+ ... armv7l unknown" / "unknown GNU/Linux")
                if self.verdict(*prose[k - 1]) != SKIP:
                    joined = _label_verdict(f"{prose[k - 1][1]} {text}", self.lines[j - 2])
                    v = v if joined == SKIP else joined  # (joined, it may be program output)
                elif wrapped_tail(prose[k - 1][1], text, by_case=False):
                    continue  # (not after a fence: "```" / "without:")
            if self.vetoed_in_a_log(v, j, i, text) or isinstance(v, Label) and bool(v.text) and \
                    _lists_ciphers(v.text):
                continue  # (a list of cipher names, `cat ciphers.txt`'s output, names no run)
            said = True
            if v == STOP or (blocks and blocks[j - 1] and blocks[j - 1] != blocks[i - 1]):
                break  # (a comment's line labels only the runs inside that comment)
            return v
        if not said and self.runs and self.runs[-1].label_rule:
            above = self.runs[-1]
            return Label(above.meta["label"], INHERITED_HOST_RULE if above.label_rule in HOST_RULES
                         else _INHERITED)
        for j, h in reversed(self.headings):
            if j < i and not self.vetoed_in_a_log(h, j, i, self.lines[j - 1]) and \
                    not self.in_another_log(j, i):
                if any(j < b < i for b in self.bylines[-1::-1] if b < i and b > j):
                    return None  # a heading above a byline (a thread's title) names no post
                return h
        return None

    def vetoed_in_a_log(self, v, j: int, i: int, text: str) -> bool:
        """Whether label ``v``, of line ``j``, names no run at line ``i`` because the line or
        the run is in a log: a program's output, no caption (see ``stands_in_a_log``)."""
        blocks = self.comment_blocks
        return bool(blocks) and (blocks[j - 1] < 0 or blocks[i - 1] < 0) and \
            isinstance(v, Label) and not stands_in_a_log(v.rule, text)

    def in_another_log(self, j: int, i: int) -> bool:
        """Whether line ``j`` is in a log that line ``i`` is not in: another program's output
        (valgrind's ``==4242== HEAP SUMMARY:``), whose headings name none of the run's lines."""
        blocks = self.comment_blocks
        return bool(blocks) and blocks[j - 1] < 0 and blocks[j - 1] != blocks[i - 1]

    def code_blocks_above(self, i: int) -> list[tuple[int, int]]:
        """The fenced code blocks closed above line ``i`` (opening and closing fence lines)."""
        f = self.fences
        return [(f[k], f[k + 1]) for k in range(0, len(f) - 1, 2) if f[k + 1] < i]

    def line(self, i: int, line: str) -> bool:  # noqa: C901 - one dispatch table, kept flat for speed
        c = line[0]
        if c == "+":
            return self.mr(i, line, None)
        if c == "D" and line.startswith("Doing "):
            return self.doing(i, line)
        if c == "G" and line.startswith("Got: "):
            m = _GOT.match(line)
            if m is None:
                return False
            run = self.run(i)
            child = int(m["child"])
            run.multi = max(run.multi, child + 1)
            return self.mr(i, m["rec"], child)
        if c == "F" and line.startswith("Forked child"):
            m = _FORKED.match(line)
            if m is None:
                return False
            run = self.open(i, Event(FORKED))
            run.last = i
            run.multi = max(run.multi, int(m["child"]) + 1)
            return True
        if c == "t" and line.startswith("type"):
            sizes = _sym_header(line)
            head = sizes is not None or T.SYM_HEADER_HEAD.match(line)
            if head or _SIZES_TAIL.match(line):
                run = self.open(i, Event(SYM_HEADER))
                run.last = i
                run.sizes, run.header_used, run.sizes_unknown = sizes, True, sizes is None
                if not head:  # sizes it cannot read: its rows are reported, never guessed
                    self.unplaced.append((i, self.lines[i - 1]))
                    return True
                self.pending_hdr, self.pending_hdr_text = "sym", line
                return True
        ver = _version_line(line) if line.startswith(T.VERSION_PREFIXES) else None
        if ver is not None:
            run = self.open(i, Event(VERSION, tuple(ver)))
            run.last = i
            run.has_version = True
            run.meta["tool"], run.meta["tool_version"] = ver
            run.version = _parse_version(ver[1]) if ver[0] == "openssl" else (1, 0, 1)
            if self.version_command is not None and self.version_command[0] == i - 1:
                self.binary_versions[self.version_command[1]] = tuple(ver)
            return True
        meta = _meta_line(line) if line.startswith(T.META_PREFIXES) else None
        if meta is not None:
            field, value = meta
            self.open(i, Event(HEADER_LINE, field))
            run = self.run(i)
            if field in ("timing_options", "timing_function"):
                run.meta.setdefault("tool", "openssl")
                if field == "timing_function":
                    run.timing = T.timing_of(value)
                return True
            run.meta[field] = value
            if field == "cpuinfo":
                if " env:" not in value and i < len(self.lines) and \
                        _CPUINFO_ENV.match(clean(self.lines[i])) is not None:
                    self.cont_field = field  # (its env: part on the next line: checked there)
                    return True
                check_cpuinfo(run, value)
            if field in ("options", "compiler"):
                self.cont_field = field
            return True
        if c in "sko" and _DIGIT.search(line) is None:  # (no value: "encr./s" has a dot)
            kind = _pkey_header(line)
            if kind is not None:
                self.open(i, Event(PK_HEADER))
                run = self.run(i)
                run.pk_kind = kind
                return True
            head = T.pkey_header_head(line)
            if head is not None:  # (its tail on the next line: the header opens the run now)
                if self.cur is None:
                    self.open(i, Event(PK_HEADER))
                    self.run(i)
                self.pending_hdr, self.pending_hdr_text = head, line
                return True
        if "speed" in line:
            prompt = _parse_prompt(line)
            if prompt is not None and self.loop is not None:
                self.close_loop()
            if prompt is not None and "unbound" in prompt:
                return self.unbound_prompt(i, prompt)
            if prompt is not None:
                self.loop_machine = None  # (a command of its own: its prompt names its machine)
                run = self.open(i, Event(PROMPT))
                run.last = i
                self.apply_prompt(run, i, prompt)
                return True
        if c.isdigit() or c in "rd":
            parsed = T.pkey_row(line)
            if parsed is not None:
                return self.pk_row(i, parsed)
        if "/s" in line:
            labelled = _units.labelled_rates(line)  # "rsa 2048 bits sign/s: 1533.00; verify/s 51018.50"
            parsed = labelled and T.pkey_row(labelled[0])
            if parsed:
                return self.labelled_pk_row(i, parsed, labelled[1])
        run = self.cur
        if run is not None and run.pk_kind in ("kem", "sig"):
            ks = T.kem_sig_row(line)
            if ks is not None and len(ks[1]) >= 1 and any(t.endswith("s") for t in ks[1]):
                name, toks = ks
                algorithm = canonical(name)[0]
                parsed = (name, f"{run.pk_kind}:{algorithm}", algorithm, None, toks)
                return self.pk_row(i, parsed)
        row = T.sym_row(line) if line[-1] in _SYM_END else None
        if row is not None:
            return self.sym_line(i, *row)
        return self.other_line(i, line)

    def sym_line(self, i: int, name: str, toks: list[str]) -> bool:
        """A throughput row (possibly cut short by a mail client)."""
        if _listed.may_be_sized(name) and (listed := _listed.read(f"{name} {' '.join(toks)}")):
            return self.list_row(i, self.lines[i - 1], listed)  # ("sha256 1024 bytes 1345.67k")
        if self.bad_name(name):
            return False  # prose, or values where a name should be
        run = self.cur
        if run is None or not (run.sizes or run.mr_sizes):
            # A row without a `type` header or +H above it (a -multi parent's, a header-less
            # paste) is a cipher's only when it names one: `sda` in iostat is not.
            if not is_known(self.algorithm_of[name]):
                return False
        if self.loop is not None and not self.in_loop(run):
            run = self.new_run(i, "a loop's output")  # (the loop's command: its options)
        elif run is None or not (run.sizes or run.mr_sizes or run.opts or run.has_version):
            tail = self.row_tail(i, toks) if len(toks) < 5 else []
            if len(toks) + len(tail) not in (5, 6) or toks[0][-1:] not in _K_ENDS:
                # no table here, and not a whole header-less row either: openssl prints its
                # rates in 1000s with a `k` (bare numbers are another table's, in a unit
                # this row does not state: reported, never read as bytes/s)
                return False
            run = self.run(i)
            if tail:  # (a header-less row a mail client wrapped: the next line completes it)
                run.last, self.pending_row = i, (run, i, name, toks)
                return True
        elif run.rows and (run.sizes or self.loop is not None):
            new = self.open(i, Event(SYM_ROW, self.algorithm_of[name]))
            if new is not run:  # (the table again, under the header above)
                new.sizes, new.header_used, run = run.sizes, run.header_used, new
        run.last = i
        want = run.sizes_for(len(toks))
        if want is not None and (len(toks) < len(want) or T.cut_value(toks)):
            self.pending_row = (run, i, name, toks)
        else:
            self.add_row(run, i, name, toks)
        return True

    def row_tail(self, i: int, toks: list[str]) -> list[str]:
        """The values on the line after line ``i`` (1-based) that complete its row, which a mail
        client wrapped: openssl rates only (``1140120.38k  1141002.45k``), under a row named by
        one name (a run of blanks in it, ``md5     md5``, is a tag beside the name: GNU
        parallel's, its TAB made blanks); else none."""
        head = clean(self.lines[i - 1]).partition(toks[0])[0].strip()
        nxt = clean(self.lines[i]) if i < len(self.lines) and i not in self.skip and "  " not in head \
            else ""
        vals = T.values_only(nxt) if nxt else None
        return vals if vals and all(v[-1:] in _K_ENDS for v in vals) else []

    def list_row(self, i: int, raw: str, listed: _listed.Cell | str) -> bool:
        """A cell retyped on a line of its own (``_listed``): a cell of the current run, or of
        the next where a run rule says so; a line of that shape that cannot be read is
        reported."""
        if listed is _listed.LOUD:
            self.unplaced.append((i, raw))
            return True
        name, algorithm, op, size, value, switched = listed
        if op == "encrypt" and self.cur is not None and self.cur.opts.get("decrypt"):
            op = "decrypt"
        self.open(i, Event(LIST_CELL, (algorithm, op, size, switched)))
        run = self.run(i)
        if switched != run.switched:  # ("(AES-NI off)": the run of the list's cells in that state)
            run = self.switched_run(run, i, switched, algorithm)
        run.rows.append([i, algorithm, name, op, [size], [value], None, None])
        run.dialects.add("text")
        return True

    def broken_list_row(self, idx: int, line: str) -> int:
        """A list row broken after its size, its value alone on the next line (``- aes-256-gcm,
        16384 bytes:`` / ``3,912 MB/s``): read as one row (``_listed.continued``), or both lines
        reported where they state a cell that cannot be read (``3912``: which unit?), or where a
        blank line parts them (a value of its own? the row's?). Returns how many lines after
        ``idx`` it took (0: none, no such row)."""
        if line[-1:] not in ":)sSBkKb":
            return 0  # (cheap: the head ends in its size or a colon)
        nxt = idx + 1
        if nxt < len(self.lines) and not self.lines[nxt].strip(" \t>"):
            nxt += 1  # (a blank between: reported, never read)
        if nxt >= len(self.lines) or nxt in self.skip or \
                self.lines[nxt].lstrip(" \t>")[:1] not in _TAIL_FIRST:
            return 0  # (the value starts the next line)
        raw = self.lines[nxt]
        cell = _listed.continued(line, clean(raw))
        if cell is None:
            return 0
        if cell is _listed.LOUD or nxt > idx + 1:
            self.unplaced += [(idx + 1, self.lines[idx]), (nxt + 1, raw)]
        else:
            self.list_row(idx + 1, self.lines[idx], cell)
        return nxt - idx

    def bad_name(self, name: str) -> bool:
        """Whether a row's name is prose (``...:``, ``3) WSL 2, Ubuntu`` before ``24.04``: no
        name openssl prints holds ``, ``), holds values or a release (``OpenSSL 3.0.2 on
        Ubuntu`` before ``22.04``) or has another column's cell glued to it (``aes-128-cbc
        Yes``), or is a line number and a name (:meth:`numbered`): then it is no row."""
        bad = self.not_names.get(name)
        if bad is None:  # (a table repeats its names: judged once each)
            bad = self.not_names[name] = name.endswith(":") or ", " in name or any(
                T.VALUE.fullmatch(w) for w in name.split()) or _RELEASE.search(name) is not None \
                or glued_condition(self.algorithm_of[name]) or self.numbered(name) \
                or _NOT_IN_NAMES.search(name) is not None
        return bad

    def numbered(self, name: str) -> bool:
        """Whether a row's name is a known name behind a line number (``9  AES-128-CTR``):
        no row of its own, reported (the number is no part of the name, and where it comes
        from cannot be told)."""
        m = _NUMBERED_NAME.match(name) if name[:1].isdigit() else None
        return m is not None and is_known(self.algorithm_of[name[m.end():]])

    def other_line(self, i: int, line: str) -> bool:
        """Progress results on their own line, notices, failures, harness output."""
        if self.pending_doing is not None and _progress.looks_like_result(line):
            rec = self.pending_doing
            self.pending_doing = None
            return _progress.result(rec, line)
        if line.startswith(T.ELAPSED_NOTICES):
            self.bind(i, "elapsed", True)
            return True
        if line == "^C":  # (a run stopped on a line of its own: see _after_an_interrupt)
            if self.cur is not None:
                self.cur.killed = True
            return True
        if line.startswith(T.NOTICES):
            if line.startswith("[exit status:"):
                self.ended = i  # a capture's last line: what follows is another run's
            return True
        if T.engine_line(line) is not None:
            self.bind(i, "engine", T.engine_line(line))
            return True
        if _is_failure(line):
            if self.cur is not None:
                self.cur.stderr_seen = True
            return True
        return self.harness_line(i, line)

    def bind(self, i: int, key: str, value) -> None:
        """A notice (``engine "afalg" set.``, ``You have chosen to measure elapsed time``) binds
        to the output that follows it: the current run while it has no cells, else the next
        run opened (:meth:`new_run` takes ``pending_context``)."""
        run = self.cur
        if run is not None and run.has_cells():
            self.pending_context[key] = value
            return
        run = self.run(i)
        bind_context(run, {key: value})

    def harness_line(self, i: int, line: str) -> bool:
        header = _harness.header(line)
        if header is not None:
            run = self.open(i, Event(PROMPT))
            run.last = i
            self.harness = _harness.Harness(run.meta, header)
            run.opts["harness"] = True
            return True
        if self.harness is not None and self.cur is not None and self.cur.opts.get("harness"):
            cells = self.harness.row(i, line)
            if cells is not None:
                self.cur.children.extend(({}, c, None) for c in cells)
                self.cur.last = i
                self.cur.dialects.add("harness")
                return True
        return False

    def set_shell_mask(self, mask: str | None, line: str) -> None:
        """A shell statement on ``line`` set (or, None, cleared) a capability variable: every
        later command of that shell runs with it (:meth:`apply_prompt`)."""
        self.shell_mask = None if mask is None else (mask, shell_host(line))
        if mask is None:
            self.pending_context.pop("isa_mask", None)

    def notice(self, context: dict) -> None:
        """What a line of prose says of the output below it: the current run's while it has
        no cells, else the next run's (:func:`bind_context`)."""
        if self.cur is not None and not self.cur.has_cells():
            bind_context(self.cur, context)
        else:
            self.pending_context.update(context)

    def set_shell_conditions(self, settings: dict[str, str | None], line: str) -> None:
        """Shell statements on ``line`` set (or, None, cleared) conditions for every later
        command of that shell (:meth:`apply_prompt`)."""
        for name, value in settings.items():
            if value is None:
                self.shell_conditions.pop(name, None)
            else:
                self.shell_conditions[name] = (value, shell_host(line))

    def unbound_prompt(self, i: int, prompt: dict) -> bool:
        """A loop's or a list's command line that prints several runs: whose options are whose?
        None is bound (loud). The run above ends here; the runs it prints open at their own
        output, each labelled by what the loop prints above it (``echo "== $h"``)."""
        if "exported" in prompt:
            self.set_shell_mask(prompt["exported"][0], self.lines[i - 1])
        if "environment" in prompt:
            self.set_shell_conditions(prompt["environment"], self.lines[i - 1])
        self.loop_machine = self.prompt_machine(i)  # (the runs it prints ran there)
        self.ended = i
        loop = prompt.get("loop")
        if loop is None:
            warnings.warn(LineWarning(
                f"{self.source}: line {{lines}}: {prompt['unbound']}: none of its options is bound "
                f"to a run (run each command on a prompt of its own)", [i - 1]), stacklevel=3)
            return True
        # The loop's one command: what it states of every run holds for each run it prints
        # (as a prompt's), each iteration a run; what the loop fills in, the output says
        # (the row's name, the `type` header's size) or the loop's words in order (-bytes $b
        # under `| tail -1`: checked when the loop's output ends, see close_loop).
        unstated = [o for o in loop["filled"] if o not in _FILLED_BY_OUTPUT]
        if unstated:
            warnings.warn(LineWarning(
                f"{self.source}: line {{lines}}: a loop runs openssl speed: its "
                f"{', '.join('-' + o if o.islower() else o for o in unstated)} changes from run "
                f"to run and is bound to none (run each command on a prompt of its own)", [i - 1]),
                stacklevel=3)
        by_order = "bytes" in loop["filled"] and loop["words"] is not None and \
            all(w.isdigit() for w in loop["words"])
        self.loop = {"line": i, "body": loop["body"], "tail1": loop["tail1"], "runs": [],
                     "bytes": [int(w) for w in loop["words"]] if by_order else None}
        return True

    def in_loop(self, run: _Run | None) -> bool:
        """Whether ``run`` is one the current loop printed."""
        return run is not None and any(r is run for r in self.loop["runs"])

    def loop_run(self, run: _Run) -> None:
        """A run the loop prints (opened by :meth:`new_run`): the loop's command's options are
        its own, and its ``-bytes``, where the loop fills it from literal words, the word of
        its iteration (the k-th run the k-th word)."""
        loop = self.loop
        k = len(loop["runs"])
        loop["runs"].append(run)
        body = loop["body"]
        if loop["bytes"] is not None and k < len(loop["bytes"]):
            body = {**body, "bytes": loop["bytes"][k]}
        self.apply_prompt(run, loop["line"], body)

    def close_loop(self) -> None:
        """The loop's output ended: when its ``-bytes`` was taken from its words in order but
        it printed another number of runs than it has words (an iteration failed, or printed
        two), which size each headerless row measured is unknown: its rows are reported."""
        loop, self.loop = self.loop, None
        sizes, runs = loop["bytes"], loop["runs"]
        if sizes is None or len(runs) == len(sizes):
            return
        lost = []
        for run in runs:
            if run.rows and not (run.sizes or run.mr_sizes):
                lost += [(r[0], self.lines[r[0] - 1]) for r in run.rows]
                run.rows = []
        if lost:
            self.unplaced.extend(lost)
            warnings.warn(LineWarning(
                f"{self.source}: line {{lines}}: a loop over -bytes printed {len(runs)} runs for "
                f"its {len(sizes)} sizes: which size each row measured cannot be told (reported)",
                [loop["line"] - 1]), stacklevel=3)

    def apply_prompt(self, run: _Run, i: int, prompt: dict) -> None:
        if "exported" in prompt:  # (`export OPENSSL_ia32cap=... && openssl speed ...`)
            self.set_shell_mask(prompt["exported"][0], self.lines[i - 1])
        self.name_machine(run, self.prompt_machine(i))
        host = shell_host(self.lines[i - 1])
        for name, (value, shell) in self.shell_conditions.items():
            if shell in (None, host):  # (the same shell: its prompts name the same user@host)
                run.meta[name] = value
        if "environment" in prompt:  # (`export OPENSSL_CONF=... && openssl speed ...`)
            self.set_shell_conditions(prompt["environment"], self.lines[i - 1])
        run.opts.update({k: v for k, v in prompt.items()
                         if k not in ("conditions", "exported", "environment")})
        run.meta.update(prompt["conditions"])
        run.opts["prompt"] = True  # the command line is known: no -elapsed means CPU time
        known = self.binary_versions.get(prompt.get("binary")) if self.binary_versions else None
        if known is not None and "tool_version" not in run.meta:  # (its own version line wins)
            run.meta["tool"], run.meta["tool_version"] = known
        if prompt.get("timing") == "elapsed":
            run.elapsed = True
        if prompt.get("multi"):
            run.multi = max(run.multi, prompt["multi"])
        mask = prompt.get("isa_mask")
        if mask is None and self.shell_mask is not None and \
                self.shell_mask[1] in (None, shell_host(self.lines[i - 1])):
            mask = self.shell_mask[0]  # (the same shell: its prompts name the same user@host)
        if mask is not None:
            run.meta["isa_mask"] = mask
        run.opts["shell_mask"] = mask  # (None: its shell set none: see _Assembly.native_runs)

    def prompt_machine(self, i: int) -> str | None:
        """The machine the command line ``i`` ran on (:func:`prompt_machine`)."""
        return prompt_machine(self.lines[i - 1], self.lines[i - 2] if i > 1 else "")

    def name_machine(self, run: _Run, machine: str | None) -> None:
        """Label ``run`` with the ``machine`` its command line ran on (the host of its prompt,
        see :func:`~cipherlab.readers._context.prompt_machine`) when nothing nearer names it:
        a caption, heading or machine phrase above the run wins. A label the run took from
        the run above (nothing but output between them) yields when the run above ran on
        another host: the prompt says the text moved on to another machine. A host is no CPU:
        ``cpu`` is never read from it (``bench-i7`` may have been upgraded)."""
        run.host = machine
        label, rule = run.meta.get("label"), run.label_rule
        prev = self.runs[-2] if len(self.runs) > 1 else None
        above = prev.host if prev is not None else None  # (the run above's machine)
        if machine and above and above != machine and prev.label_rule == "heading" and \
                rule in ("heading", _INHERITED) and label == prev.meta.get("label"):
            # one heading over runs on two hosts: each is its host's (not repeats of one
            # setting); what the heading says of their CPU holds for both
            prev.meta["label"], run.meta["label"] = above, machine
            prev.label_rule = run.label_rule = HOST_RULE
            return
        if not machine:  # ("": it ran on a machine the line does not name, not the one above's)
            if machine == "" and (rule == INHERITED_HOST_RULE or rule == _INHERITED and above):
                run.meta["label"] = run.label_rule = None
                run.forget_machine()
            return
        if label and rule != INHERITED_HOST_RULE and not (
                rule == _INHERITED and above not in (None, machine)):
            return
        if rule not in HOST_RULES:
            run.forget_machine()  # (what the label it replaces said)
        run.meta["label"], run.label_rule = machine, HOST_RULE

    def pk_row(self, i: int, parsed: tuple) -> bool:
        run = self.cur if self.cur is not None else self.run(i)  # (its last line: see below)
        toks = parsed[4]
        kind = _pk_kind(run.pk_kind, parsed[1], len(toks), sum(1 for t in toks if t[-1] != "s"))
        new = self.open(i, Event(PK_ROW, tuple(pk_id(parsed[2], op, parsed[1]) for op in T.OPS[kind])))
        if new is not run:  # (the next run's table: of the same kind)
            new.pk_kind, run = run.pk_kind, new
        run.last = i
        if len(toks) < 2 * len(T.OPS[kind]):
            self.pending_pk = (run, i, parsed, kind)
        else:
            self.add_pk(run, i, parsed, kind)
        return True

    def labelled_pk_row(self, i: int, parsed: tuple, rates: list[tuple[str, float]]) -> bool:
        """A public-key row typed by hand, each rate after its label (``_units.labelled_rates``)."""
        name, fam, algorithm, bits, _ = parsed
        self.open(i, Event(PK_ROW, tuple(pk_id(algorithm, op, fam) for op, _ in rates)))  # (as printed)
        run = self.run(i)
        for op, rate in rates:
            run.pk.append(([i, algorithm, name, op, None, None, rate, None, None, None],
                           (fam, bits, op)))
        run.dialects.add("text")
        return True

    # --- progress -------------------------------------------------------------------------
    def doing(self, i: int, line: str) -> bool:
        got = _progress.doing(line, i)
        if got is None:
            return False
        rec, rest = got
        run = self.open(i, Event(PROGRESS, rec.key(), rec.count, rec.block, rec.seconds))
        run.last = i
        run.stderr_seen = True
        if run.opts.get("decrypt") and rec.operation == "encrypt":
            rec.operation = "decrypt"
        run.progress.append(rec)
        if rec.count is not None or _progress.result(rec, rest):
            run.done.add(rec.key())
        else:
            self.pending_doing = rec if not rest.strip() else None
            if rest.rstrip().endswith("^C"):
                run.killed = True  # (stopped on this size: it prints nothing more)
        run.dialects.add("progress")
        return True

    def complete_doing(self, raw: str) -> None:
        """A complete ``Doing`` line before any table ends the wait for a bare result line."""
        run = self.cur
        if run is not None and not run.has_cells() and not run.opts.get("decrypt") and \
                _progress.DOING_FULL.match(raw):
            self.pending_doing = None

    # --- -mr records ----------------------------------------------------------------------
    def mr(self, i: int, line: str, child: int | None) -> bool:
        body = line[1:]
        tag, _, rest = body.partition(":")
        if not rest:
            return False
        fields = rest.split(":")
        run = self.cur
        if tag in ("DT", "DN"):
            if len(fields) < 3:
                return False
            name, block = ":".join(fields[:-2]), int(fields[-1])
            algorithm, op = canonical(name)
            rec = _progress.Progress(i, name, block, None, None, algorithm, op)
            run = self.open(i, Event(MR_PROMPT, rec.key(), None, block, None, child))
            if run.opts.get("decrypt") and op == "encrypt":
                rec.operation = "decrypt"
            run.last = i
            run.progress.append(rec)
            run.open_dt.append(rec)
            run.dialects.add("mr")
            return True
        # -mr output (+DTP prompts, a +H/+F... table) after a printed table is another run's;
        # so is a +DTP prompt after a line of prose, as for +DT.
        if tag in ("DTP", "DNP"):
            if tag == "DNP":
                fields = fields[1:] + ["0"]
            rec = _mr.dtp_record(fields, i)
            self.open(i, Event(MR_PK_PROMPT, rec.key(), child=child))
        elif tag[0] in "HF":
            self.open(i, Event(MR_TABLE, child=child))
        run = self.run(i)
        run.dialects.add("mr")
        version = run.version or self.hint_version
        if tag == "R":
            count, name, secs = int(fields[0]), ":".join(fields[1:-1]), float(fields[-1])
            # Results come in the order of their +DT prompts (children interleave theirs), and
            # -mb names every result "evp".
            opened = run.open_dt
            if opened and (opened[0].name == name or name == "evp"):
                rec = opened.popleft()  # the usual case: the oldest open prompt
            else:
                rec = next((r for r in opened if r.name == name), None)
                if rec is None:
                    return False  # a result without its block size
                opened.remove(rec)
            rec.count, rec.seconds = count, secs
            run.done.add(rec.key())
            return True
        if tag in ("DTP", "DNP"):
            run.open_dtp.append(rec)
            if rec.family.startswith(("kem", "sig")):
                names = run.sig_names if rec.family.startswith("sig") else run.kem_names
                if rec.family.startswith(("kem:", "sig:")) and rec.algorithm not in [
                        canonical(n)[0] for n in names]:
                    names.append(fields[0])
            run.progress.append(rec)
            return True
        if tag[0] == "R" and tag[1:].isdigit():
            # results come in the order of their +DTP prompts (children interleave theirs)
            opened = run.open_dtp.popleft() if run.open_dtp else None
            rec = _mr.r_record(int(tag[1:]), fields, opened, version, i)
            if rec is None:
                return False  # (its index contradicts its +DTP prompt: reported, not placed)
            if rec is not opened:
                run.progress.append(rec)
            return True
        if tag == "H":
            sizes = [int(x) for x in fields]
            if child is None:
                run.mr_sizes = sizes
            else:
                run.child_sizes[child] = sizes
                run.mr_sizes = run.mr_sizes or sizes
            return True
        if tag == "F":
            sizes = run.child_sizes.get(child) if child is not None else None
            sizes = sizes or run.mr_sizes
            n = len(sizes) if sizes else None
            if n is None:
                # parent of -mr -multi: no +H; children's sizes, else all values
                n = len(fields) - 2
                sizes = run.sizes_for(n)
                if sizes is None:
                    return False
            name = ":".join(fields[1:len(fields) - n])
            toks = fields[len(fields) - n:]
            algorithm, op = canonical(name)
            if run.opts.get("decrypt") and op == "encrypt":
                op = "decrypt"
            if child is None and algorithm == "evp":
                run.evp = True
            if child is None:
                k = min(len(sizes), len(toks))
                run.rows.append([i, algorithm, name, op, sizes[:k], list(map(float, toks[:k])),
                                 None, None])
                return True
            for size, tok in zip(sizes, toks):
                v = float(tok)
                cell = [i, algorithm, name, op, size, v, v / size, None, None, None]
                run.children.append(({"child": child}, cell, (algorithm, size)))
            return True
        if tag[0] == "F" and tag[1:].isdigit():
            n = int(tag[1:])
            if n == 10:
                run.f10 = True
            ks_seen = run.ks_seen if child is None else run.child_ks.setdefault(child, [0, 0])
            cells = _mr.f_records(n, fields, version, run.kem_names, run.sig_names, run.f10,
                                  ks_seen)
            for c in cells:
                cell = [i, c.algorithm, c.name, c.operation, None, None, c.ops_per_s, None, None, None]
                key = (c.family, c.bits, c.operation)
                if child is None:
                    run.pk.append((cell, key))
                else:
                    run.children.append(({"child": child}, cell, key))
            return True
        return False


def parse(lines: list[str], blocks: list[int] | None, skip: set[int], source: str,
          hints: dict[str, Any] | None = None) -> tuple[list[Run], list[tuple[int, str]]]:
    """Parse every line not in ``skip`` (0-based indices); return runs and unplaced lines.

    ``blocks`` gives each line's comment block (:func:`~cipherlab.readers._text.strip_shared_prefix`:
    0 outside any): a line of a comment block labels only a run of that block.

    ``hints`` may hold ``tool_version`` for ``-mr`` records of unknown release. Unplaced lines
    are ``(1-based line number, line)`` pairs of lines that looked like data but fit nowhere.
    """
    p = _Parser(lines, skip, source, hints or {})
    p.comment_blocks = blocks
    p.parse()
    return p.build(), sorted(set(p.unplaced))
