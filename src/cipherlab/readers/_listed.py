"""List rows: benchmark figures retyped one measurement a line, not as a table.

Why this module exists: people post openssl's figures as a list, one cell a line, in whatever
unit they like::

    sha256   1024 bytes  1345678.12k
    - aes-128-gcm, 8192-byte blocks: 4,210 MB/s
    * AES-256-CBC @ 1 KB: 1.1 GB/s
    chacha20-poly1305 (16 bytes) = 402.5 MB/s
    aes-256-gcm decrypt, 16 KiB: 3.9 GB/s

Such a line is a **cell** when it holds exactly one known algorithm name (``_names``), exactly
one block size with its unit and exactly one value with a known unit (openssl's ``k``, or a rate
unit of ``_units``: ``MB/s``, ``GiB/s``, ``Mbps`` ...), and nothing else but a bullet,
punctuation, filler words (``at``, ``@``, ``with``, ``blocks``, ``byte``, ``=``, ``:``) and at
most one operation word (``decrypt``, ``sign``, ``verify``: the cell's operation).

Right or loud: a line of that shape that holds a bare number instead of a value with its unit,
two values or two sizes, is **loud** (reported, never guessed); so is a sentence that names an
algorithm, a block size and a rate with other words around them ("we got about 1.6 GB/s with
aes-256-gcm at 8K on the laptop"): only list-shaped lines are read. A line that names no known
algorithm (``memcpy 16 bytes: 9.1 GB/s``) is none of this module's.

A row broken over two lines (a mail client wrapped it after its size, or the writer put the
value under it: ``- aes-256-gcm, 16384 bytes:`` / ``  3,912 MB/s``) is one row where the
second line is its value alone (:func:`continued`); where the two make no row they are reported.

This module only recognises lines (:func:`read`, :func:`continued`); the line pass (``_openssl``) places the cells
in runs: consecutive cells make one run, and the run rules of ``_boundaries`` (prose, a heading
or a prompt between, a cell repeated) end it, as for any run.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from cipherlab.readers._names import (canonical, canonical_operation, glued_condition, is_digest,
                                     is_known, needs_more, switch, switches_in)
from cipherlab.readers._units import DOT_GROUP, PK_FAMILY, rates_in, sizes_in, unit_only

__all__ = ["LOUD", "Cell", "continued", "may_be_sized", "read"]


class Cell(NamedTuple):
    """A list row's one cell: the name as written, its algorithm, operation, block size and
    value in bytes/s."""

    name: str
    algorithm: str
    operation: str | None
    block_bytes: int
    bytes_per_s: float
    switched: tuple[str, str] | None = None  # ("aesni", "off") for a "(AES-NI off)" tag


#: What :func:`read` gives for a line that looks like a list row but cannot be read: report it.
LOUD = "loud"

# A size may be in the line: a digit before a unit of bytes, or "bytes" before a number (one
# scan that most lines fail: the cheap rejection before anything else is looked for).
_SIZE_HINT = re.compile(r"(?<![A-Za-z\d.])\d+[ -]?(?:[Bb](?![A-Za-z/])|[kKM](?:i?B)?(?![A-Za-z/])|"
                        r"[Bb]ytes?|[Oo]ctet|\u30d0\u30a4\u30c8|\u5b57|\u0431\u0430\u0439\u0442)|"
                        r"[Bb]ytes?[ -]?\d")
# The words a list row may hold beside its name, size, value and operation.
_FILLER = frozenset({"at", "with", "blocks", "block", "byte", "bytes", "of", "size", "buffer",
                     "buffers", "for", "in", "=", "->", "=>", "\u2192", "\u2013", "\u2014", "-",
                     "+", "*", "\u2022", "\u00b7", "~", "\u2248", "@", ":", "|"})
_OPERATION_WORDS = frozenset({"encrypt", "encryption", "decrypt", "decryption", "sign", "verify"})
# A leading bullet or list number ("- ", "* ", "1. ", "2) ").
_BULLET = re.compile(r"^\s*(?:[-*+\u2022\u00b7>]+|\d{1,2}[.)])\s+")
# The words of what is left once the sizes and values are cut out: a name keeps its inner
# dashes, slashes and parentheses (``aes-128-gcm``, ``sha512/256``, ``hmac(sha256)``).
_TOKEN = re.compile(r"[\w/]+(?:[-.][\w/]+)*(?:\([\w-]+\))?|[=\u2192\u2013\u2014~\u2248@|+*\u2022]|->|=>")
_BARE = re.compile(r"\d[\d,.']*")
_TAG = re.compile(r"\(([^()]{1,40})\)")  # (words in parentheses: a switch, see _names.switch)
# A CPU feature's name may be in the line (the cheap test before _names.switches_in).
_FEATURE_HINT = re.compile(r"(?i)ni(?![a-z])|avx|vaes|neon|sve|pclmul|padlock|sha[\s_-]?ext")
# The words after a name's first that openssl's own names hold (``aes-128 cbc``, ``des ede3``):
# any other word is no part of the name (``aes-256-gcm on the laptop``, ``sha256 (laptop)``).
_NAME_PART = re.compile(r"(?i)(?:cbc|ecb|cfb\d*|ofb|ctr|gcm|ccm|ocb|xts|ige|wrap|siv|ede3?|"
                        r"hmac|poly1305|cbc-hmac-sha\d+)$")
# The characters a sized name may end in (see may_be_sized).
_SIZE_LAST = frozenset("sSbBkKMeEt\u30c8\u8282\u7bc0\u0442\u0430\u0432")


def may_be_sized(name: str) -> bool:
    """Whether a table row's name may end in a block size (``sha256 1024 bytes``): a list row
    read as a row of values (cheap: its last character).

    >>> may_be_sized("sha256 1024 bytes"), may_be_sized("aes-128 cbc"), may_be_sized("md5")
    (True, False, False)
    """
    return name[-1:] in _SIZE_LAST


@lru_cache(maxsize=1024)  # (pure; a list's lines repeat from machine to machine)
def _switched(rest: str) -> tuple[str, tuple[str, str] | None] | str:
    """A row's text without the words that switch a CPU feature, and the condition they state
    (``("aesni", "off")``; None), or :data:`LOUD` when it switches two (which cell is which?)."""
    switched = None
    if "(" in rest:  # ("aes-128-gcm (AES-NI off), 16 bytes": the cell's condition)
        tags = [(m, c) for m in _TAG.finditer(rest) if (c := switch(m[1].strip())) is not None]
        if len(tags) > 1:
            return LOUD
        if tags:
            (m, switched), = tags
            rest = rest[:m.start()] + " " + rest[m.end():]
    if _FEATURE_HINT.search(rest):  # ("aes-128-gcm w/o AES-NI, 16 bytes": the same condition)
        said = switches_in(rest)
        if len(said) + (switched is not None) > 1:
            return LOUD
        if said:
            (start, end, switched), = said
            rest = rest[:start] + " " + rest[end:]
    return rest, switched


_REMARK = re.compile(r"\s*\(([^()]{1,80})\)$")  # (words in parentheses ending a line)
_CLAUSES = re.compile(r"\s*[,;]\s*")


def _remarked(remark: str) -> list[str] | str:
    """What a remark in parentheses after a row's value says of its cell: the switches its
    clauses state (``with AES-NI``: the cell's condition), or :data:`LOUD` where a clause
    states a value of its own, a rate with a size or a switch (``1.2 GB/s without AES-NI``:
    another cell, untold). A rate alone is what the value is compared with (``was 1.2 GB/s
    before``): no value of the text's; other words are a note (``after switching the VM``).

    >>> _remarked("with AES-NI, was 1.2 GB/s before"), _remarked("after switching the VM")
    (['with AES-NI'], [])
    >>> _remarked("1.2 GB/s without AES-NI"), _remarked("vs 1.1 GB/s at 16 KB")
    ('loud', 'loud')
    """
    said = []
    for clause in _CLAUSES.split(remark):
        switched = [clause[a:b] for a, b, _ in switches_in(clause)] if _FEATURE_HINT.search(clause) else []
        if rates_in(clause):
            if switched or sizes_in(clause):
                return LOUD
        else:
            said += switched or ([clause] if switch(clause) else [])
    return said


def read(line: str) -> Cell | str | None:
    """The :class:`Cell` of a list row, :data:`LOUD` for a line that looks like one (or a
    sentence stating a cell) but cannot be read, else None (none of this module's).

    >>> read("- aes-128-gcm, 8192-byte blocks: 4,210 MB/s")
    Cell(name='aes-128-gcm', algorithm='aes-128-gcm', operation='encrypt', block_bytes=8192, bytes_per_s=4210000000.0, switched=None)
    >>> read("sha256   1024 bytes  1345678.12k")[2:5]
    ('digest', 1024, 1345678120.0)
    >>> read("* AES-256-CBC @ 1 KB: 1.1 GB/s")[3:5], read("chacha20-poly1305 (16 bytes) = 402.5 MB/s")[3:5]
    ((1024, 1100000000.0), (16, 402500000.0))
    >>> read("aes-256-gcm decrypt, 16 KiB: 3.9 GB/s")[2:4]
    ('decrypt', 16384)
    >>> read("- aes-128-gcm, 16-byte blocks: 712"), read("aes-128-gcm 16 bytes: 712 MB/s (1.9 GB/s at 16 KB)")
    ('loud', 'loud')

    A list row that states no block size is loud too (its size, if the prose above gives it,
    is not bound to it); a sentence with a rate but no size is none of this module's:

    >>> read("- AES-256-GCM: 3.6 GB/s (with AES-NI)"), read("aes-256-gcm went to 3.6 GB/s on the laptop")
    ('loud', None)

    A remark in parentheses after the value is the cell's note (its rates what the value is
    compared with); the switches it states are the cell's condition (see :func:`_remarked`):

    >>> read("aes-128-gcm 16 bytes: 712 MB/s (was 650 MB/s)")[3:]
    (16, 712000000.0, None)
    >>> read("- AES-128-GCM @ 16 KB: 4.1 GB/s (with AES-NI, was 1.2 GB/s before)")[3:]
    (16384, 4100000000.0, ('aesni', 'on'))
    >>> read("we got about 1.6 GB/s with aes-256-gcm at 8K on the laptop, which is odd")
    'loud'
    >>> read("- memcpy, 16-byte blocks: 9.1 GB/s"), read("we got about 1.6 GB/s at 8K on the laptop")
    (None, None)
    >>> read("aes-128-gcm 16 bytes"), read("Ran it at 16 bytes, see below")
    (None, None)
    >>> read("## Benchmarks (MB/s, aes-128-gcm, 16 KiB blocks)")  # (a unit, but no value)
    >>> read("- aes-256-gcm, 16 bytes: 3,9 GB/s")  # (a decimal comma: no value read)
    'loud'
    >>> read("- AES-128-GCM, 16 KB: 5.412 MB/s")  # (decimals, or a thousands group: untold)
    'loud'

    A name is one word, or openssl's legacy spelling (``aes-128 cbc``, ``des ede3``): other
    words beside a known name make the line a sentence (reported), never a longer name.

    >>> read("aes-128 cbc 16 bytes 1.1 GB/s")[1], read("aes-256-gcm on the laptop: 1.6 GB/s at 8K")
    ('aes-128-cbc', 'loud')
    >>> read("sha256 (laptop) 16 bytes: 500 MB/s"), read("aes-128-gcm aesni 16 bytes 1.2 GB/s")
    ('loud', 'loud')

    A tag in parentheses that switches a CPU feature is the cell's condition:

    >>> read("- aes-128-gcm (AES-NI off), 16 bytes: 142 MB/s").switched
    ('aesni', 'off')

    and so are the same words without parentheses (``_names.switches_in``: one vocabulary):

    >>> read("- aes-128-gcm w/o AES-NI, 16 bytes: 142 MB/s").switched
    ('aesni', 'off')
    >>> read("* AES-256-GCM with AES-NI: 4.1 GB/s at 16 KB")[3:]
    (16384, 4100000000.0, ('aesni', 'on'))
    >>> read("- sha256 without SHA-NI 1024 bytes 512 MB/s")[3:]
    (1024, 512000000.0, ('shani', 'off'))
    >>> read("- aes-128-gcm with AES-NI, without AVX2, 16 bytes: 1.2 GB/s")
    'loud'
    """
    if len(line) > 200:
        return None
    sized = _SIZE_HINT.search(line) is not None
    if not sized and "/s" not in line and "bps" not in line:
        return None  # (most lines state no size and no rate: one scan, two finds)
    if line[-1:] == ")" and (remark := _REMARK.search(line)) and rates_in(line[:remark.start()]):
        said = _remarked(remark[1])  # ("4.1 GB/s (with AES-NI, was 1.2 GB/s before)")
        if said == LOUD:
            return LOUD
        line = line[:remark.start()] + "".join(f" ({s})" for s in said)
    rates = rates_in(line)
    rest = line
    for start, end, _ in reversed(rates):
        rest = rest[:start] + " " + rest[end:]
    sizes = sizes_in(rest) if sized else []
    if not sizes and not rates:
        return None
    for start, end, _ in reversed(sizes):
        rest = rest[:start] + " " + rest[end:]
    got = _switched(_BULLET.sub("", rest))
    if got == LOUD:
        return LOUD
    rest, switched = got
    words, ops, bare = [], [], 0
    for tok in _TOKEN.findall(rest):
        low = tok.lower()
        if low in _FILLER:
            continue
        if low in _OPERATION_WORDS:
            ops.append(canonical_operation(low))
        elif _BARE.fullmatch(tok):
            bare += 1
        elif unit_only(tok) is None:  # (a unit left without its value: "3,9 GB/s", "MB/s")
            words.append(tok)
    if not words:
        return None
    name = " ".join(words)
    algorithm, operation = canonical(name)
    if not is_known(algorithm) or needs_more(algorithm) or PK_FAMILY.match(algorithm) or \
            operation not in ("encrypt", "digest") or glued_condition(algorithm) or \
            not all(_NAME_PART.match(w) for w in words[1:]):
        # no list row; a sentence that names a known algorithm beside a size and a rate states
        # a cell in prose: reported, never read
        named = any(is_known(canonical(w)[0]) and not PK_FAMILY.match(w) for w in words)
        return LOUD if named and rates and sizes else None
    if not sizes:  # (a list row that states no block size: its cell cannot be told, reported)
        return LOUD
    if len(rates) != 1 or len(sizes) != 1 or bare or len(ops) > 1:
        return LOUD if rates or bare else None  # (a bare number, two values or sizes: untold)
    if DOT_GROUP.search(line, rates[0][0], rates[0][1]):
        return LOUD  # ("5.412 MB/s": 5.412, or 5412 as German groups thousands: untold)
    if ops:
        if is_digest(algorithm):
            return LOUD  # (a hash decrypts nothing: which cell it is cannot be told)
        operation = ops[0]
    return Cell(name, algorithm, operation, sizes[0][2], rates[0][2], switched)


# A line that may be the value of the list row above it, broken off: it starts with a number
# (or "~ 2.1 GB/s", "(3,912 MB/s)") and is short; a bullet or a list number starts a new item.
_TAIL = re.compile(r"^[~\u2248=(]?\s*\d[\d,.'\u2019]*(?:\s*[^\W\d]\S*)?\s*\)?\s*\S{0,3}$")


def continued(line: str, nxt: str) -> Cell | str | None:
    """The cell of a list row broken after its size, its value alone on the next line ``nxt``
    (both cleaned); :data:`LOUD` where the two lines state a cell together but cannot be
    read (a bare number: its unit is not told); None where ``nxt`` continues no list row.

    >>> continued("- aes-256-gcm, 16384 bytes:", "3,912 MB/s")[1:5]
    ('aes-256-gcm', 'encrypt', 16384, 3912000000.0)
    >>> continued("* chacha20-poly1305 (16 KB blocks):", "2.1 GB/s")[3:5]
    (16384, 2100000000.0)
    >>> continued("- aes-256-gcm, 16384 bytes:", "3912"), continued("- aes-256-gcm:", "3,912 MB/s")
    ('loud', 'loud')
    >>> continued("Ran it at 16 bytes, see below", "2.1 GB/s"), continued("- aes-256-gcm, 16 bytes:", "- 3.9 GB/s")
    (None, None)
    """
    if len(nxt) > 24 or _TAIL.match(nxt) is None or _BULLET.match(nxt) or read(line) is not None:
        return None
    cell = read(f"{line} {nxt}")
    if cell is None or cell is LOUD and read(f"{line} 1 MB/s") is None:
        return None  # (the line above states no cell that lacks only its value: no row's head)
    return cell
