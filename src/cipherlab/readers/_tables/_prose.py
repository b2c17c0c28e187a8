"""The prose around a document table: what it states for the table (:class:`Context`).

:class:`Context` collects, lazily, the facts of the prose above each table (its tool version,
machine, heading, label, block size, unit, the algorithms it names); the nearest statement
wins, and a label or unit belongs to the next table only. :func:`text_below` is the paragraph
right below a table (where a unit or footnotes may be stated). :func:`prose_text` and
:func:`unquote` are how a line of a document reads as prose; :func:`lines_with` finds the lines
of a text that hold a word in one search.
"""

from __future__ import annotations

import contextlib
import html
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cipherlab.readers._context import (HOST_RULES, TEMPLATE_SECTION, Label, is_shell_command, label_above,
                                        label_conditions, label_verdict, prose_mask)
from cipherlab.readers._grids import named_algorithms
from cipherlab.readers._tables._facts import (CPU_HINT, FACT_HINT, FACT_WORDS, MACHINE_WORDS, by_first_letter,
                                             line_facts, prose_cpu)
from cipherlab.readers._tables._tex import tex_text
from cipherlab.readers._units import UNIT_HINT, block_size_in_prose, stated_unit

if TYPE_CHECKING:  # (a Table's module imports this one)
    from cipherlab.readers._tables._cells import Table

# Prose saying the bare numbers of the table below are block sizes ("Sizes in bytes", "block
# sizes are columns"; not "key sizes in bits").
_SIZES_STATED = re.compile(r"(?<!key )\b(?:(?:block|buffer|chunk|payload|message|input)[\s-]+"
                           r"sizes?\b|sizes?\s+(?:are\s+)?(?:in\s+)?\(?bytes?\b)", re.IGNORECASE)


_QUOTE = re.compile(r"^\s*(?:>\s?)+")


_HEADING = re.compile(r"^\s*(#{1,6})\s+(.*?)\s*#*\s*$")
_HTML_HEADING = re.compile(r"<h([1-6])\b[^>]{0,200}>(.{0,200}?)</h\1\s*>", re.IGNORECASE)  # (bounded)


# A sentence stating the unit of every table below it, not only of the next one (the words
# within 80 characters of "all": bounded, so a long line of "all"s stays linear).
_FOR_ALL_TABLES = re.compile(r"\ball\b[^.;]{0,80}?\b(?:below|numbers|values|figures|results|tables|"
                             r"throughputs?)\b|\bthroughout\b|\b(?:every|each) table\b",
                             re.IGNORECASE)
# A program's name ending a line of prose: the next line may begin with its version (wrapped).
_TOOL_AT_END = re.compile(r"\b(?:openssl|libressl|boringssl|tongsuo|aws-lc)\s*$", re.IGNORECASE)
_AMBIGUOUS = -1.0  # (stated_unit's answer for a sentence that states two units)
# What a raw line (lower case) holds when, read as prose, it may state a fact, a block size
# (the words block_size_in_prose looks for; its " at " may have any blanks around it here), a
# unit or a heading: the hints above, with any space in them, or markup that may hide them.
_PROSE_HINT = by_first_letter([*FACT_WORDS, "block", "byte", "column", "@", r"at\s",
                                *UNIT_HINT.pattern.replace(" ", r"\s+").split("|"), "<", "&"])
# ... may state a machine (its CPU or clock: see machines_in_prose).
_MACHINE_HINT = by_first_letter([*MACHINE_WORDS, "@", "<", "&"])
_HEADING_HINT = re.compile(r"#|<|&")
_DIGIT_HINT = re.compile(r"[\d&]")  # (an entity may be a digit)


DIGIT = re.compile(r"\d")


_TAG = re.compile(r"<[^>]+>")


_LABEL_WIDTH = 80  # characters of the longest line or caption that may be a label
_LABEL_REACH = 40  # lines of prose above a table that may hold its label
_SENTENCE_LINES = 3  # lines above a line of prose that may begin its sentence (wrapped)
_BELOW_REACH = 3  # lines of prose below a table that may state its unit or footnotes
_STARTS_TABLE = re.compile(r"\||\t|<table|```|~~~|\[code\]|<pre", re.IGNORECASE)  # (a line that may)
_SUP = re.compile(r"<sup>\s*([^<\s]{1,3})\s*</sup>", re.IGNORECASE)  # (a footnote mark: "[1]")


def text_below(lines: list[str], end: int, dialect: str) -> list[str]:
    """The prose right below a table, as read: an HTML table's ``<figcaption>`` or text after
    ``</table>`` on its last line, then the lines after it up to the paragraph's end (one blank
    line may come first). A heading or another table ends it; a paragraph right above another
    table or block ("Next, in MB/s" over it) is that one's, not this one's."""
    tail, out = [], []
    html_ = dialect == "html"
    if html_:
        rest = re.split("</table>", lines[end], flags=re.IGNORECASE)[-1]
        tail = [prose_text(_SUP.sub(r"[\1]", rest))] if len(rest) < len(lines[end]) else []
    i = end + 1
    for i in range(end + 1, min(len(lines), end + 3 + _BELOW_REACH)):
        line = lines[i]
        text = prose_text(_SUP.sub(r"[\1]", line) if html_ and "<" in line else line)
        if not text:
            if out:
                break
            continue
        if _HEADING.match(text) or _STARTS_TABLE.search(line) or html_ and _HTML_HEADING.search(line):
            break
        out.append(text)
        if len(out) > _BELOW_REACH:
            break
    below = next((line for line in itertools.islice(lines, i, i + 3) if line.strip()), "")
    if out and _STARTS_TABLE.search(below):
        out = []  # (it introduces what follows)
    return [t for t in tail + out if t]


def unquote(line: str) -> str:
    m = _QUOTE.match(line) if ">" in line else None
    return line[m.end():] if m else line


def _read_first(name: str) -> property:
    """A fact of the prose, once the prose not read yet is read (see ``Context._read``)."""
    def get(context: Context) -> Any:
        context._read()
        return getattr(context, name)
    return property(get)


@dataclass
class Context:
    """Facts collected from the prose above a table; the nearest statement wins.

    The prose is read when a table first asks what it states: most prose lies above tables
    that are not benchmark tables (a shell session, a /proc/cpuinfo dump), and costs nothing.
    """

    lines: list[str]  # the document's
    hint: re.Pattern = _PROSE_HINT  # what a line of prose holds that may state a fact to read
    plain_large: list[int] = field(default_factory=list)  # 0-based lines, for one warning
    unknown: list[int] = field(default_factory=list)  # 0-based lines of cells of unknown unit
    clash: list[int] = field(default_factory=list)  # ... of cells with k under another stated unit
    # Prose taken but not read yet: for its facts, its label, the algorithms it names.
    _unread: list[tuple[int, int]] = field(default_factory=list)
    _unlabelled: list[tuple[int, int]] = field(default_factory=list)
    _unnamed: list[tuple[int, int]] = field(default_factory=list)
    _facts: dict[str, Any] = field(default_factory=dict)  # (those in force: all and sections')
    _facts_all: dict[str, Any] = field(default_factory=dict)  # stated for every table below
    _level: int | None = None  # the level of the heading the prose is under (None: no section's)
    _scoped: dict[int, dict[str, Any]] = field(default_factory=dict)  # stated under a heading
    _tools: list[str] = field(default_factory=list)  # the programs the prose names (one: its)
    _heading: str | None = None
    _block_bytes: int | None = None
    _block_all: int | None = None  # the block size the prose states for every table below it
    _unit: float | None = None  # bytes/s per unit of plain numbers, as the prose states it
    _unit_all: float | None = None  # the unit the prose states for every table below it
    _sizes: bool = False  # the prose says the table's bare numbers are block sizes
    _multi: int | None = None  # the processes a command above the table ran (-multi N)
    _mask: str | None = None  # the OPENSSL_ia32cap value a caption says the table below ran with
    _mask_all: str | None = None  # ... every table below ran with
    _named: dict[str, None] = field(default_factory=dict)
    _label: tuple[str | None] | None = None  # (the label of the prose taken so far), once found
    _template: bool = False  # the prose is under an issue template's section heading
    _tables: int = 0  # the tables read so far
    # A CPU stated outside any section, not for every table (see _machine_holds): the tables
    # read before it was, and the label of the first table it was given to.
    _cpu_at: int | None = None
    _cpu_label: str | None = None

    def read_prose(self, start: int, stop: int) -> None:
        """Take ``lines[start:stop]`` as prose (read, line by line in effect, when asked)."""
        if start < stop:
            self._unread.append((start, stop))
            self._unlabelled.append((start, stop))
            self._unnamed.append((start, stop))
            self._label = None

    facts = _read_first("_facts")
    @property
    def heading(self) -> str | None:
        """The heading the table is under, if it names a run (as the label rules judge it)."""
        self._read()
        text = self._heading
        verdict = label_verdict(f"# {text}") if text is not None else None
        return verdict.text if isinstance(verdict, Label) else None  # ("Pi 5 (MB/s)": "Pi 5")

    _below: Any = None  # (the table read, whose caption below may state its block size)
    _from_below: bool = False  # (the block size is that caption's: no other table's)

    @property
    def block_bytes(self) -> int | None:
        """The block size the prose states, else the one the caption right below the table
        being read states (see :meth:`block_below`; looked at once, when asked)."""
        self._read()
        if self._block_bytes is None and self._below is not None:
            text = caption_below(self._below.below)
            self._below = None
            self._block_bytes = block_size_in_prose(text) if text else None
            self._from_below = self._block_bytes is not None
        return self._block_bytes
    unit = _read_first("_unit")
    sizes_stated = _read_first("_sizes")

    @property
    def label(self) -> str | None:
        """The label the prose since the last table gives the next one: that of its nearest
        line that names a run (:func:`~cipherlab.readers._context.label_above`), looked for
        from the end among the last ``_LABEL_REACH`` lines of prose (once: each run of a
        table with sections asks)."""
        if self._label is None:
            nearest = (prose_text(self.lines[i]) for start, stop in reversed(self._unlabelled)
                       for i in range(stop - 1, start - 1, -1))
            above = list(itertools.islice(filter(None, nearest), _LABEL_REACH))
            self._label = (_with_cpu(label_above(above[::-1]), above),)
        return self._label[0]

    @property
    def last_line(self) -> str | None:
        """The last short line of the prose since the last table (looked for from the end)."""
        for start, stop in reversed(self._unlabelled):
            label = next(filter(None, map(_label, reversed(self.lines[start:stop]))), None)
            if label:
                return label
        return None

    def _read(self) -> None:
        """The facts of the prose not read yet. Most lines state none: one search over a span
        finds those that may, and the headings among them, read in text order."""
        for start, stop in self._unread:
            low = "\n".join(self.lines[start:stop]).lower()
            facts = lines_with(self.hint, low, start)
            for i in sorted({*lines_with(_HEADING_HINT, low, start), *facts}):
                line = self.lines[i]
                m = _HEADING.match(prose_text(line)) or _HTML_HEADING.search(line) \
                    if _HEADING_HINT.search(line) else None
                if m:
                    self._enter_section(m)
                if i in facts:
                    self._read_facts(prose_text(line), above=self._sentence_above(i, start))
        self._unread = []
        self._facts = dict(self._facts_all)
        for level in sorted(self._scoped):  # (the deepest section's nearest)
            _add_facts(self._facts, self._scoped[level])
        if "tool" not in self._facts and len(self._tools) == 1:
            self._facts["tool"] = self._tools[0]  # (the one program the prose names is its)

    def _sentence_above(self, i: int, start: int) -> list[str]:
        """The lines above line ``i`` whose sentence it goes on (a few: wrapped by a mail
        client), up to a line that ends a sentence, a heading or a blank line."""
        above: list[str] = []
        for k in range(i - 1, max(start, i - 1 - _SENTENCE_LINES) - 1, -1):
            text = prose_text(self.lines[k])
            if not text or text[-1:] in ".:!?;" or _HEADING.match(text):
                break
            above.append(text)
        return above[::-1]

    def _enter_section(self, m: re.Match) -> None:
        """A heading: the run it names (an issue template's section names none, nor does one
        holding the command: "# openssl speed on the RK3588, OpenSSL 3.0.11", as the label
        rules judge a heading; nor an HTML page's title naming it, "<h1>OpenSSL Cipher
        Speed</h1>"). A block size stated above it was its section's; so were the facts stated
        under a heading of its level or deeper (the version under "### Laptop" is not the
        desktop's below "### Desktop"), unless they were stated for every table below."""
        html_ = m.re is _HTML_HEADING
        level, text = (int(m[1]) if html_ else len(m[1])), prose_text(m[2])
        template = TEMPLATE_SECTION.match(text) is not None
        names = text and not template and not (html_ and "speed" in text.lower())
        self._heading = text if names else None  # (judged as a label when asked: see heading)
        self._block_bytes, self._block_all = None, None
        for deeper in [k for k in self._scoped if k >= level]:
            del self._scoped[deeper]
        self._level = None if template else level  # (an issue's "Environment" is every run's)
        self._template = template

    def _read_facts(self, text: str, above: list[str] = ()) -> None:
        """The facts a line of prose states; ``above``: the lines above whose sentence it goes on
        (wrapped: "... in 1000s of" / "bytes per second"), for its unit and its scope ("All
        runs below on ..., gcc 12.2," / "numbers in MB/s.")."""
        low = text.lower()
        for_all = _FOR_ALL_TABLES.search(" ".join([*above, text])) is not None
        wrapped = bool(above) and text[:1].isdigit() and _TOOL_AT_END.search(above[-1][-20:])
        if wrapped or FACT_HINT.search(low):
            facts = line_facts(text)
            if wrapped:  # ("... (J5005, OpenSSL" / "1.1.1f from Ubuntu 20.04)": its version)
                facts = {**line_facts(f"{above[-1][-20:]} {text[:40]}"), **facts}
            self._multi = facts.pop("multi", self._multi)  # (the table right below's only)
            if "tool" in facts and facts["tool"] not in self._tools:
                self._tools.append(facts["tool"])
            if self._level is None or for_all:
                scope = self._facts_all
                if "cpu" in facts or "clock_hz" in facts or "machine" in facts:
                    self._cpu_at = None if for_all or self._template else self._tables
                    self._cpu_label = None
                for other in self._scoped.values():  # (the later statement wins)
                    for key in facts:
                        other.pop(key, None)
            else:
                scope = self._scoped.setdefault(self._level, {})
            _add_facts(scope, facts)
        size = block_size_in_prose(text)  # ("16 KiB blocks")
        if size is None and above and text[:1].islower():  # ("... 8192-byte" / "blocks). ...")
            tail = above[-1][-40:]  # (from a word's start: "16 KB" cut to "6 KB" is 6144)
            size = block_size_in_prose(f"{tail[tail.find(' ') + 1:] if len(above[-1]) > 40 else tail} {text}")
        self._block_bytes = size or self._block_bytes
        if size and for_all:
            self._block_all = size  # ("All results below at 8,192-byte blocks")
        if UNIT_HINT.search(low):
            last = above[-1] if above else ""
            wrapped = text[:1].islower() and UNIT_HINT.search(last.lower())
            unit = stated_unit(f"{last} {text}" if wrapped else text, ambiguous=_AMBIGUOUS)
            if unit == _AMBIGUOUS:  # ("MB/s or Mbit/s, I forget": the unit it had is no longer sure)
                self._unit = unit = None
            self._unit = unit or self._unit
            if unit and for_all:
                self._unit_all = unit  # ("All numbers below are MB/s": every table's below)
        if "size" in low:
            self._sizes = self._sizes or _SIZES_STATED.search(text) is not None
        if "cap" in low:  # ("Without AES-NI (OPENSSL_ia32cap=~0x200000200000000):")
            mask = prose_mask(text)
            self._mask = mask or self._mask
            if mask and for_all:
                self._mask_all = mask

    @property
    def named(self) -> dict[str, None]:
        """The algorithms the prose since the last table names, in order (read when asked)."""
        for start, stop in self._unnamed:
            for line in self.lines[start:stop]:
                text = prose_text(line) if _DIGIT_HINT.search(line) else ""
                if DIGIT.search(text):
                    self._named.update(dict.fromkeys(named_algorithms(text)))
        self._unnamed = []
        return self._named

    def after_table(self) -> None:
        # A label belongs to the table right below it; the facts (version, machine) stay in
        # force until the prose says otherwise.
        self._read()  # (the facts stay: they are read before the label, heading, unit go)
        self._tables += 1
        self._heading, self._unit, self._block_bytes = None, self._unit_all, self._block_all
        self._sizes, self._multi, self._mask = False, None, self._mask_all
        self._unlabelled, self._unnamed, self._named, self._label = [], [], {}, None

    @contextlib.contextmanager
    def block_below(self, table: Table) -> Iterator[None]:
        """While ``table`` is read, the block size a caption right below it states, where the
        prose above states none, is the block size (no other table's)."""
        self._below = table
        try:
            yield
        finally:
            if self._from_below:
                self._block_bytes, self._from_below = None, False
            self._below = None

    def meta(self, table: Table) -> dict[str, Any]:
        """The facts of a table's runs: the prose's, those its caption states, and, where
        they state no version, those of a caption right below it (it states the unit too:
        a ``<figcaption>`` "Throughput in MiB/s, OpenSSL 1.1.1n")."""
        caption = table.caption
        meta: dict[str, Any] = {"dialect": table.dialect}
        # (what the table's caption states is the table's, wherever it stands: a paper's
        # \caption below its tabular "OpenSSL 3.0.11 on ...")
        facts = {**self.facts, **line_facts(caption)} if caption and \
            FACT_HINT.search(caption.lower()) else self.facts
        text = caption_below(table.below) if facts.get("tool_version") is None else None
        if text and FACT_HINT.search(text.lower()):
            facts = {**line_facts(text), **facts}
        for key in ("tool", "tool_version", "timing", "cpu", "clock_hz", "compiler"):
            if facts.get(key) is not None:
                meta[key] = facts[key]
        if self._multi:  # (read with the facts above)
            meta["multi"] = self._multi
        if self._mask:  # (the caption right above the table states it: the table below's)
            meta["isa_mask"] = self._mask
        # (a caption of a sentence or more, a paper's, describes the table: it names no run)
        short = caption if caption and len(caption) <= _LABEL_WIDTH else None
        meta["label"] = short or self.heading or facts.get("machine") or self.label
        meta.update(label_conditions(meta["label"]))  # ("Without AES-NI:": aesni off)
        if not self._machine_holds(meta["label"]):
            for key in _MACHINE_FACTS:
                meta.pop(key, None)
        return meta

    def machine(self, label: str | None) -> dict[str, Any]:
        """The CPU and clock the prose read so far states for a run labelled ``label`` (a
        run of program output among the prose: a terminal session pasted into a post)."""
        facts = self.facts
        if not self._machine_holds(label):
            return {}
        return {key: facts[key] for key in _MACHINE_FACTS if facts.get(key) is not None}

    def _machine_holds(self, label: str | None) -> bool:
        """Whether the CPU the prose stated outside any section, not for every table, is this
        table's: it is the table's right below it, and a later one's that has no label or the
        same one. "On my Ryzen 7 5800X:" over one table and "And on the Pi 4:" over the next
        name two machines: the Ryzen is not the Pi's (which CPU the Pi has, the text does not say)."""
        if self._cpu_at is None:
            return True
        if self._cpu_at == self._tables:
            self._cpu_label = label if self._cpu_label is None else self._cpu_label
            return True
        return label is None or label == self._cpu_label


_MACHINE_FACTS = ("cpu", "clock_hz")


def caption_below(below: list[str]) -> str | None:
    """The text right below a table (:func:`text_below`) if it is the table's caption: it
    states a unit ("*Table 2: 8192-byte blocks, MB/s.*") and introduces nothing below it."""
    text = " ".join(below)  # (the paragraph: a mail client may have wrapped it)
    return text if text and not text.endswith(":") and UNIT_HINT.search(text.lower()) else None


def _add_facts(facts: dict[str, Any], new: dict[str, Any]) -> None:
    """Add facts stated later: a machine named replaces the CPU and clock stated before."""
    if "machine" in new:
        facts.pop("cpu", None)
        facts.pop("clock_hz", None)
    facts.update(new)


def _with_cpu(label: str | None, above: list[str]) -> str | None:
    """A label a phrase of a sentence gives, with the CPU the same sentence names beside it:
    "ECDSA on the signer box (OpenSSL 3.0.9, Xeon E-2388G), ops/s:" -> ``signer box (Xeon
    E-2388G)`` (``above``: the lines of prose, nearest first)."""
    line = next((t for t in above if label and label in t), None)
    cpu = prose_cpu(line).get("cpu") if line else None
    return f"{label} ({cpu})" if cpu and cpu not in label else label


def lines_with(what: str | re.Pattern, text: str, first: int = 0) -> list[int]:
    """The indices of the lines of ``text`` (lines joined by newlines, numbered from ``first``)
    that hold ``what`` (a word, or a pattern's match): one search per such line, no Python step
    for the others.

    >>> lines_with("bytes", "type 16 bytes\\nmd5 1.00k\\n64 bytes"), lines_with(DIGIT, "a\\nb1", 5)
    ([0, 2], [6])
    """
    found, i, pos = [], first, 0
    while True:
        if isinstance(what, str):
            at = text.find(what, pos)
        else:
            m = what.search(text, pos)
            at = -1 if m is None else m.start()
        if at < 0:
            return found
        i += text.count("\n", pos, at)
        found.append(i)
        pos = text.find("\n", at) + 1
        if not pos:
            return found
        i += 1


def _label(line: str) -> str | None:
    """The label a line of prose gives the table below it, if it can be one (short, no command)."""
    text = prose_text(line)
    if text and len(text) <= _LABEL_WIDTH and "speed" not in text.lower() and not text.startswith(("$", "#")):
        return text.lstrip("-*\u2022 ").rstrip(":").strip() or None
    return None


# reST markup: a directive, or one of the directives' options
_REST_MARKUP = re.compile(r"\s*(?:\.\. [\w:-]+::|:(?:widths|width|header-rows|stub-columns|"
                          r"align|class|name|caption|delim|file|encoding|linenos|language|"
                          r"emphasize-lines):(?:\s|$))")


def prose_text(line: str) -> str:
    """A line of prose as its facts are read: unquoted, without tags or LaTeX markup (a line
    that starts with a command: ``\\caption{...}`` is its text, ``\\centering`` none), one
    space between words."""
    text = unquote(line)
    if text.lstrip()[:1] == "\\":
        return tex_text(text)
    if text.lstrip()[:1] in ":." and _REST_MARKUP.match(text):
        return ""  # (markup: ".. table:: Caption" titles the table, it names no run)
    if "<" in text:
        text = _TAG.sub(" ", text)
    if "&" in text:
        text = html.unescape(text)
    return " ".join(text.split())


def _host_label(run) -> str | None:
    """The label of a run when it is the host its prompt names (see ``prompt_machine``)."""
    rule = run.meta.get("rule")
    return run.meta.get("label") if rule and any(f"label: {r}" in rule for r in HOST_RULES) else None


def machines_in_prose(lines: list[str], runs: list, spans: list[tuple[int, int]]) -> None:
    """Give runs of program output the CPU and clock the prose around them names, as a
    document table is given them (:meth:`Context.machine`): ``spans`` holds each run's first
    and last line (0-based), runs in text order. What a run says of itself stays; a run given
    them says so in its ``rule`` (``cpu: prose``).

    >>> from cipherlab.model import Run
    >>> runs = [Run({"label": "desktop"}), Run({"label": "Pi 4"})]
    >>> machines_in_prose(["On my desktop (Ryzen 7 5800X @ 3.8GHz):", "md5 ...", "",
    ...                    "And on the Pi 4:", "md5 ..."], runs, [(1, 1), (4, 4)])
    >>> [(r.meta.get("cpu"), r.meta.get("clock_hz"), r.meta.get("rule")) for r in runs]
    [('Ryzen 7 5800X', 3800000000.0, 'cpu: prose'), (None, None, None)]
    """
    for run in runs:  # (a CPU its own label names: "Old file server (Core 2 Duo E8400):")
        label = run.meta.get("label")
        if label and run.meta.get("cpu") is None and _host_label(run) is None:
            named = prose_cpu(label)
            if named:
                run.meta.update({k: v for k, v in named.items() if run.meta.get(k) is None})
    if all(run.meta.get("cpu") is not None for run in runs):
        return  # (each names its own: "Xeon E5-2680 box:" above it)
    gaps, done = [], 0  # (the lines between runs: the prose, and the runs' headers)
    for first, last in spans:
        gaps.append((done, first))
        done = max(done, last + 1)
    named = [i for a, b in gaps if a < b for i in lines_with(CPU_HINT, "\n".join(lines[a:b]), a)
             if prose_cpu(prose_text(lines[i]))]
    commands = [i for i in named if is_shell_command(lines[i])]
    if commands:  # (a command line's host names no CPU: `root@bench-i7-8700K:~# openssl ...`)
        lines = list(lines)
        for i in commands:
            lines[i] = ""
    if len(commands) == len(named):
        return  # (most output names no CPU around it: no prose to read)
    context = Context(lines, hint=_MACHINE_HINT)
    hosts = [_host_label(run) for run in runs]
    # (one machine's prompts, no other name: as if unlabelled; beside another name, a host is
    # another machine's name, "desktop" then `me@laptop:~$ ssh nas ...`)
    one_host = any(hosts) and len({run.meta.get("label") for run in runs} - {None}) == 1
    for run, gap, host in zip(runs, gaps, hosts, strict=True):
        context.read_prose(*gap)
        label = None if host is not None and one_host else run.meta.get("label")
        found = {k: v for k, v in context.machine(label).items()
                 if run.meta.get(k) is None} if run.meta.get("cpu") is None else {}
        if found:
            run.meta.update(found)
            rule = run.meta.get("rule")
            run.meta["rule"] = f"{rule}; cpu: prose" if rule else "cpu: prose"
        context.after_table()
