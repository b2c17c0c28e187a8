"""A document table's header row (:func:`read_header`): which column names the rows, which
are block sizes (``16 bytes``, ``8 KB``, bare sizes the text says are sizes) or conditions
(``AES-NI Enabled``), or, in a transposed table, which are algorithms under one block size
stated in the prose, the rows being implementation tiers (:func:`tier_name`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

from cipherlab.readers._grids import RUN_HEADER, algorithm_of, condition_key, is_derived
from cipherlab.readers._names import NO, YES, canonical
from cipherlab.readers._tables._cells import clean_cell, clean_value
from cipherlab.readers._tables._prose import Context
from cipherlab.readers._units import INTEGER, block_size

# A header that says its bare numbers are block sizes ("Block size (bytes)", "type \\ bytes").
SIZE_HINT = re.compile(r"\b(?:bytes?\b|block|size)", re.IGNORECASE)


# Column headers that name the row-name column of an ordinary (rows = algorithms) table.
_NAME_HEADERS = {"cipher", "ciphers", "algorithm", "algorithms", "algo", "type", "name", "digest",
                 "hash", "primitive", "function", "mode", "cipher suite", "suite"}
# First header cell of a transposed table (rows = implementation, columns = algorithms).
_TIER_HEADERS = {"method", "methods", "implementation", "implementations", "tier", "tiers",
                 "engine", "provider", "build", "variant", "configuration", "config", ""}
# Implementation tiers people write as a row name, and their canonical spelling.
_TIER_WORDS = {
    "no-asm": "no-asm", "noasm": "no-asm", "no asm": "no-asm", "portable c": "no-asm",
    "c": "no-asm", "asm": "asm", "assembler": "asm", "assembly": "asm",
    "kernel": "kernel", "afalg": "kernel", "af_alg": "kernel", "af-alg": "kernel",
    "padlock": "padlock", "aes-ni": "aes-ni", "aesni": "aes-ni", "sha ext": "sha-ext",
    "sha-ext": "sha-ext", "sha extensions": "sha-ext", "sha-ni": "sha-ext", "shani": "sha-ext",
    "avx2": "avx2", "avx512": "avx512", "vaes": "vaes", "qat": "qat", "engine": "engine",
}
# "Kerneld,e" / "Padlockb" / "asmc": a known tier word with footnote letters glued to it.
_TIER_FOOTNOTE = re.compile(
    r"^(" + "|".join(sorted((re.escape(w) for w in _TIER_WORDS if len(w) > 1), key=len,
                            reverse=True)) + r")((?:[a-z],)*[a-z])$", re.IGNORECASE)
# "IDEAa" in "IDEAa CBC": an upper-case algorithm word with footnote letters glued to it.
_NAME_FOOTNOTE = re.compile(r"^([A-Z][A-Z0-9-]+)((?:[a-z],)*[a-z])$")
_TIER_JOINS = re.compile(r"\s*(?:&|\+|/|\band\b)\s*")  # "AES-NI & SHA Ext.", "asm+padlock"
_TIER_SPACES = re.compile(r"[\s.]+")


def tier_name(cell: str) -> tuple[str, str | None]:
    """Canonical implementation tier and the footnote letters glued to it.

    Examples
    --------
    >>> tier_name("Kerneld,e"), tier_name("Padlockb"), tier_name("asmc"), tier_name("no-asm")
    (('kernel', 'd,e'), ('padlock', 'b'), ('asm', 'c'), ('no-asm', None))
    >>> tier_name("AES-NI & SHA Ext.")
    ('aes-ni+sha-ext', None)
    """
    parts, notes = [], []
    for part in _TIER_JOINS.split(clean_cell(cell)):
        word = part.strip().rstrip(".").strip()
        if not word:
            continue
        key = word.lower()
        if key not in _TIER_WORDS:
            m = _TIER_FOOTNOTE.match(word)
            if m:
                key, notes = m[1].lower(), notes + m[2].split(",")
        parts.append(_TIER_WORDS.get(key, _TIER_SPACES.sub("-", key).strip("-")))
    return "+".join(parts), (",".join(notes) if notes else None)


@dataclass
class Header:
    kind: str                         # "sizes" (rows = algorithms) or "transposed"
    name_col: int
    sizes: dict[int, int]             # column -> block bytes ("sizes")
    conditions: dict[int, str]        # column -> condition name
    algorithms: dict[int, str]        # column -> name as printed ("transposed")
    block_bytes: int | None = None    # the one block size of a transposed table
    width: int = 0                    # number of header cells: data rows are padded to it
    unit: float | None = None         # bytes/s per unit of plain numbers, stated by the text
    units: dict[int, float] = field(default_factory=dict)  # column -> unit its title states
    has_k: bool = False               # a cell under this header has openssl's "k"
    ranged: set[int] = field(default_factory=set)  # rows with a range in a value cell
    plain: list[tuple[dict[str, Any], str, int, int]] = field(default_factory=list)
    # (cells without k: cell, text, row index, column)
    k_cells: list[tuple[dict[str, Any], str, int, int]] = field(default_factory=list)  # (with k)

    @functools.cached_property
    def named_columns(self) -> dict[int, tuple[str, str, str | None, list[str]]]:
        """Each algorithm column's name as printed, its algorithm, operation and footnotes."""
        out = {}
        for j, printed in self.algorithms.items():
            bare, notes = _split_footnote(printed)
            out[j] = (printed, *canonical(bare), notes)
        return out


def condition_value(key: str, cell: str) -> str | None:
    if not cell:
        return None
    if key == "aesni":
        low = cell.lower()
        if low in YES:
            return "on"
        if low in NO:
            return "off"
    return cell


def read_header(cells: list[str], context: Context, dialect: str,
            hint_above: bool = False, bare: bool = True) -> Header | None:
    """The header a row starts, or None.

    ``hint_above``: the row above was a section row about block sizes ("Block size (bytes)"),
    so bare numbers here are sizes, as in a two-level HTML header. ``bare``: bare numbers may
    be sizes at all (not below a row of data: "| Pi 5 | aes-128-cbc | 64 | 1,012 |" is one).
    """
    cleaned = cells
    sizes = {}
    for j, c in enumerate(cleaned):
        # (a header naming a block size: "16 bytes", "8192 Bytes", "1,024 B", "8 KB", "16 bytes (kB/s)")
        size = block_size(c) if c and c[-1] in "sSBeE)]" else None
        if size is not None:
            sizes[j] = size
    if not sizes:
        ints = {j: c for j, c in enumerate(cleaned)
                if c.isdecimal() or "," in c and INTEGER.match(c)}  # (isdecimal: a regex less)
        words = [c for j, c in enumerate(cleaned) if j not in ints]
        # (bare sizes among names: "Sizes in bytes" above; growing, as sizes are printed: a row
        # that holds decimals too, "16 | 0.290 | 159", or counts, "1 | 129 | 30", is data)
        if bare and len(ints) >= 2 and words and (hint_above or any(SIZE_HINT.search(c) for c in words)
                                         or context.sizes_stated) and \
                all(clean_value(c) is None for c in words):
            sizes = {j: int(c.replace(",", "")) for j, c in ints.items()}
            sizes = sizes if list(sizes.values()) == sorted(set(sizes.values())) else {}
    if sizes:
        others = [j for j in range(len(cleaned)) if j not in sizes]
        if not others or len(set(sizes.values())) < len(sizes):
            return None  # (one size twice: columns under a spanning header, read by _grids)
        name_col = next((j for j in others if cleaned[j].lower() in _NAME_HEADERS), others[0])
        if any(RUN_HEADER.match(cleaned[j]) for j in others):
            return None  # (rows of hosts or versions, not of algorithms: a grid, read by _grids)
        conditions = {j: condition_key(cleaned[j]) for j in others  # (a ratio: no condition)
                      if j != name_col and cleaned[j] and not is_derived(cleaned[j])}
        return Header("sizes", name_col, sizes, conditions, {}, width=len(cleaned))
    # A blank corner cell is normal in a marked-up table; in a TAB paste it is what openssl's
    # own public-key header ("\t\tsign\tverify\tsign/s") looks like, so it is not taken there.
    corner_ok = cleaned[0].lower() in _TIER_HEADERS and (cleaned[0] or dialect != "tabs")
    # (its columns name algorithms: "| | Graviton3 | EPYC 9R14 |" names machines, a grid's)
    if (len(cleaned) >= 3 and corner_ok and context.block_bytes
            and all(c and clean_value(c) is None and not is_derived(c) for c in cleaned[1:])
            and all(algorithm_of(_split_footnote(c)[0]) is not None for c in cleaned[1:])):
        key = "tier" if cleaned[0].lower() not in ("engine", "provider", "build") else \
            condition_key(cleaned[0])
        return Header("transposed", 0, {}, {0: key},
                       {j: c for j, c in enumerate(cleaned) if j > 0},
                       block_bytes=context.block_bytes, width=len(cleaned))
    return None


def _split_footnote(name: str) -> tuple[str, list[str]]:
    """``IDEAa CBC`` -> (``IDEA CBC``, [``a``]): footnote letters glued to upper-case words."""
    words, notes = [], []
    for word in name.split():
        m = _NAME_FOOTNOTE.match(word)
        if m:
            word, notes = m[1], notes + m[2].split(",")
        words.append(word)
    return " ".join(words), notes
