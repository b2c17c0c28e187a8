"""Throughput units in text: what a table's numbers are in, as bytes per second.

Why this module exists: openssl prints ``k`` (1000s of bytes/s) or bare bytes/s, but people
retype its numbers into documents in whatever unit they like (``MB/s``, ``MiB/s``, ``Gbps``)
and say so in a column title, a header cell, a caption or a sentence above the table. A number
whose unit is not known is never guessed (a MB/s table read as bytes/s is 10^6 too low): the
readers flag it. This module reads the unit statements; it knows nothing of tables.

Decimal prefixes are powers of 1000 (``kB/s``, ``KB/s``, ``MB/s``), binary ones of 1024
(``KiB/s``); a lower-case ``b`` or ``bit`` (or ``Bit``: ``MBit/s``) is bits (``Mbps`` = 10^6 / 8 bytes/s). ``mb/s``
(milli?) is not read: ambiguous, so unknown.

Numbers as people write them are typed here too: thousands grouped by ``,``, ``'``, blanks, or
``.`` where the table shows decimal commas (:func:`decimal_comma`, :func:`plain_number`); what
is written around a value (``~``, ``± 3.1``, ``(+3%)``, ``(8.3x)``) and footnote marks glued
to it (:func:`footnote_mark`) are no part of it; a range (:func:`is_range`) and a ``1.402``
that may be either (:func:`dot_grouped`) are no value.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from cipherlab.readers._names import canonical, is_digest, is_known

__all__ = ["DOT_GROUP", "FLAG_UNIT_BASE", "FLAG_UNIT_UNKNOWN", "FOOTNOTE_MARK", "INTEGER", "PK_FAMILY",
           "UNIT_HINT", "SIZE", "around_value", "block_size", "block_size_in_prose", "decimal_comma", "dot_grouped",
           "footnote_mark", "is_range", "labelled_rates", "mark_key", "number", "plain_number",
           "rates_in", "sized_name", "sizes_in", "stated_unit", "times_1000", "unit_only",
           "value_with_unit", "without_units"]

#: The flag of a cell whose number has no known unit.
FLAG_UNIT_UNKNOWN = "unit unknown"
#: The flag of a cell whose unit may be decimal or binary (a tool's ``MB`` that meant 2^20
#: bytes in some releases, 10^6 in others): read as decimal, 5 % from the other reading.
FLAG_UNIT_BASE = "unit base unknown"

_PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
_BINARY = {"k": 2.0 ** 10, "K": 2.0 ** 10, "M": 2.0 ** 20, "G": 2.0 ** 30, "T": 2.0 ** 40}
# (atomic alternatives, no nested quantifiers: linear on any input)
_UNIT = r"(?P<prefix>[kKMGT]?)(?P<binary>i?)(?P<what>Bytes|bytes|Byte|byte|Bits|Bit|B|bits|bit|b)" \
        r"(?:/s(?:ec(?:ond)?)?|ps|\s+per\s+sec(?:ond)?)(?![A-Za-z])"
_UNIT_RE = re.compile(r"(?<![A-Za-z0-9.,])" + _UNIT)
_UNIT_ONLY = re.compile(_UNIT)
_THOUSANDS = re.compile(r"1000s of bytes|thousands of bytes|\(k\)", re.IGNORECASE)
# A number right before a unit makes a quantity ("500 MB/s"), not a statement of the unit.
_QUANTITY_END = re.compile(r"\d(?:[\d,.]*\d)?\s*$")  # (not "OpenSSL 3.0.13, MB/s": a comma ends it)
# A unit a sentence rules out ("Gb/s, not GB/s"; "Gbit/s rather than GB/s") or names as what to
# convert the numbers to ("multiply by 125 for MB/s", "divide by 8 to get bytes/s") is not the
# unit the numbers are in (checked on the 40 characters before it: bounded).
_RULED_OUT = re.compile(r"(?:\b(?:not|nor|rather\s+than|instead\s+of)(?:\s+in)?\s+|"
                        r"\b(?:multipl|divid)\w*\b[^,;:.()]*)$", re.IGNORECASE)
# A number as people write one: thousands marked by ",", "'" (Swiss) or U+2019 (a typeset
# apostrophe), any decimals.
_SEPARATOR = "[,'\u2019]"
_NUMBER = rf"[+-]?(?:\d{{1,3}}(?:{_SEPARATOR}\d{{3}})+|\d+)(?:\.\d+)?"
_SEPARATORS = re.compile(_SEPARATOR)
# A cell holding a number and its unit: "522 MB/s", "1,234.5 MiB/s", "1'234.5 MB/s".
_VALUE_UNIT = re.compile(rf"^({_NUMBER})\s*" + _UNIT + r"$")
#: A block size as people write one (groups ``n`` or ``after``, and ``unit``): "16 bytes",
#: "16B", "16 KB", "16K", "8 KiB", "16-byte blocks", "1,024 bytes", "bytes16384", and the word
#: for bytes in the languages benchmark posts are written in ("16 octets", "16バイト", "16字节",
#: "16 байт"). A block size is a power of two, so K/KB/KiB is 1024 (M, 1024**2).
_BYTES_WORDS = ("octets?|\u30d0\u30a4\u30c8|\u5b57\u8282|\u5b57\u7bc0|"  # (バイト, 字节, 字節)
                "\u0431\u0430\u0439\u0442(?:\u0430|\u043e\u0432)?")  # (байт, байта, байтов)
SIZE = (r"(?:bytes?[ -]?(?P<after>\d+)|(?P<n>\d{1,3}(?:,\d{3})+|\d+)[ -]?"
        rf"(?P<unit>bytes?|{_BYTES_WORDS}|B|[KkM](?:i?B)?)(?![A-Za-z/])(?:[ -]blocks?)?)")
# (a header may add a note: "16 bytes (kB/s)"; "8192 Bytes" and "8 kb" are sizes too)
_SIZE_RE = re.compile(rf"^{SIZE}(?:\s*[(\[][^)\]]*[)\]])?$", re.IGNORECASE)
_SIZE_IN_PROSE = re.compile(rf"(?<![\w.,]){SIZE}", re.IGNORECASE)
_SIZE_FACTOR = {"K": 1024, "M": 1024 ** 2}
# openssl speed's own option for one block size, in a command the prose quotes ("-bytes 16384").
_BYTES_OPTION = re.compile(r"(?<!\S)-bytes[ =]+(\d+)(?![\w.])")
# A size that names a column of openssl's table is its block size ("the 16384-byte column").
_COLUMN_AFTER = re.compile(r"[ -]columns?\b", re.IGNORECASE)
#: A footnote mark, glued to a cell's number or name: "*", "†", "[1]", "[^2]", "[*]" (an HTML
#: ``<sup>``), a superscript digit (never part of a number).
FOOTNOTE_MARK = (r"\*{1,3}|[†‡§¶]{1,2}|\[\^?[\w*†‡]{1,3}\]|"
                 r"[¹²³⁰-⁹]+")
_SUPERSCRIPTS = str.maketrans("¹²³⁰⁴⁵⁶⁷⁸⁹", "1230456789", "[]^")
_MARK = re.compile(rf"\s*({FOOTNOTE_MARK})$")
_MARK_HINT = frozenset("*]†‡§¶¹²³⁰⁴⁵⁶⁷⁸⁹")


def number(text: str) -> float | None:
    """The number a token holds, thousands separators dropped; None when it holds none.

    >>> number("1,234.5"), number("1'234'567"), number("12\u2019345.25"), number("1,23")
    (1234.5, 1234567.0, 12345.25, None)
    """
    if not _NUMBER_RE.match(text):
        return None
    return float(_SEPARATORS.sub("", text))


_NUMBER_RE = re.compile(rf"^{_NUMBER}$")
#: A whole number as a table cell writes one: "64", "1,024" (a bare block size, a count).
INTEGER = re.compile(r"^\d{1,3}(?:,\d{3})+$|^\d+$")


def block_size(token: str) -> int | None:
    """Bytes of a block size token (see :data:`SIZE`), else None.

    >>> [block_size(t) for t in ("16 bytes", "16B", "16 KB", "16K", "16-byte blocks", "bytes16384")]
    [16, 16, 16384, 16384, 16, 16384]
    >>> block_size("1,024 bytes"), block_size("8 KiB"), block_size("16 MB/s"), block_size("16")
    (1024, 8192, None, None)
    >>> block_size("8192 Bytes"), block_size("16 bytes (kB/s)")
    (8192, 16)
    """
    m = _SIZE_RE.match(token.strip())
    return None if m is None else _size_of(m)


def block_size_in_prose(text: str) -> int | None:
    """The block size a sentence or title states as one ("at 16 KiB blocks", "16384-byte
    blocks") or after an algorithm's name ("sha256 at 16 KiB", "md5 16 bytes", "sm3 @ 8K"; see
    :func:`sized_name`), else None (any other size may be anything: a key, a buffer, a file).

    >>> block_size_in_prose("aes-128-gcm, 16 KiB blocks, MB/s"), block_size_in_prose("16384-byte blocks")
    (16384, 16384)
    >>> block_size_in_prose("Throughput of `sha256 @ 8K`, MB/s"), block_size_in_prose("rsa 2048 bits")
    (8192, None)
    >>> block_size_in_prose("a 16 KB L1 cache") is None, block_size_in_prose("`speed -bytes 4096 sha1`")
    (True, 4096)
    >>> block_size_in_prose("Figures are from the 16384-byte column of openssl speed, in MB/s.")
    16384
    """
    low = text.lower()
    if "block" not in low and "byte" not in low and "@" not in low and " at " not in low and \
            "column" not in low:
        return None  # (most lines state none: one look at the words a statement needs)
    m = _BYTES_OPTION.search(text) if "-bytes" in low else None
    if m:
        return int(m[1])  # ("openssl speed -evp -bytes 16384")
    for m in _SIZE_IN_PROSE.finditer(text):
        if m[0].lower().endswith(("block", "blocks")) or _COLUMN_AFTER.match(text, m.end()) or \
                sized_name(text[max(0, m.start() - _TAIL):m.end()], prose=True):
            return _size_of(m)
    return None


#: Public-key families: a number after one of them is a key size or a curve, never a block size
#: (``rsa 2048``, ``ecdsa 256``, ``ffdh 4096``).
PK_FAMILY = re.compile(r"^(?:rsa|dsa|ecdsa|ecdh|eddsa|ed25519|ed448|x25519|x448|ffdh|dh|sm2|ec|"
                       r"ml-kem|ml-dsa|slh-dsa|mlkem|mldsa|kyber|dilithium|falcon|sphincs)(?![a-z])",
                       re.IGNORECASE)
# A block size after a name: "md5 1024", "sha256 16 bytes", "AES-128-GCM 8K", "aes-256-cbc @
# 16KiB", "sha1, 64B", "md5 at 1 KB". (Matched on the last characters only: a size is short.)
_SIZE_AFTER_NAME = re.compile(
    rf"(?:\s*[@,]\s*|\s+(?:at\s+)?)(?:{SIZE}|(?P<bare>\d{{1,3}}(?:,\d{{3}})+|\d+))$", re.IGNORECASE)
_TAIL = 40
# A cipher whose name states its key size ("aes-128-cbc"): a bare number after it is no key size.
_KEYED = re.compile(r"-\d{3}(?:-|$)")


def sized_name(text: str, *, prose: bool = False) -> tuple[str, int] | None:
    """``(name, block bytes)`` of an algorithm name followed by a block size, else None.

    The size may carry a unit (``16 bytes``, ``8K``, ``16KiB``) or be a bare number; a bare
    number is a block size only after a name that leaves no key size to state: a hash or MAC
    (``md5 1024``), a cipher whose name has its key size (``aes-128-gcm 16384``), and never where
    the name and number spell an algorithm together (``sha512/256``). After a public-key family
    a number is a key size (``rsa 2048``), and the name must be a known algorithm. In ``prose``
    the name is the word before the size, and the size needs its unit.

    >>> sized_name("md5 1024"), sized_name("sha256 16 bytes"), sized_name("AES-128-GCM 8K")
    (('md5', 1024), ('sha256', 16), ('AES-128-GCM', 8192))
    >>> sized_name("aes-256-cbc @ 16KiB"), sized_name("hmac(sha256), 64B")
    (('aes-256-cbc', 16384), ('hmac(sha256)', 64))
    >>> [sized_name(t) for t in ("rsa 2048", "ecdsa 256", "ffdh 4096", "chacha20 256", "sha512 256")]
    [None, None, None, None, None]
    >>> sized_name("chacha20 256 bytes"), sized_name("sda 1024"), sized_name("16 bytes")
    (('chacha20', 256), None, None)
    """
    text = text.rstrip()
    m = _SIZE_AFTER_NAME.search(text, max(0, len(text) - _TAIL))
    if m is None or m.start() == 0:
        return None
    name = text[:m.start()].strip()
    if prose:
        if m["bare"] is not None:
            return None
        name = name.rpartition(" ")[2].strip("`'\"(*_")
    if not name or PK_FAMILY.match(name):
        return None
    algorithm = canonical(name)[0]
    if not is_known(algorithm):
        return None
    if m["bare"] is not None:
        n = m["bare"].replace(",", "")
        if not (is_digest(algorithm) or _KEYED.search(algorithm)) or any(
                is_digest(canonical(joined)[0]) for joined in (f"{name}/{n}", f"{name}{n}")):
            return None  # (a key size, or part of the name: "chacha20 256", "sha512 256")
        return name, int(n)
    return name, _size_of(m)


def _size_of(m: re.Match) -> int:
    if m["after"]:
        return int(m["after"])
    return int(m["n"].replace(",", "")) * _SIZE_FACTOR.get(m["unit"][0].upper(), 1)


def _factor(m: re.Match) -> float:
    prefix, what = m["prefix"], m["what"]
    scale = _BINARY[prefix] if m["binary"] and prefix else _PREFIX[prefix]
    return scale / 8 if what == "b" or what.lower().startswith("bit") else scale  # (MBit/s: bits)


def stated_unit(text: str, ambiguous: float | None = None) -> float | None:
    """Bytes/s per unit of the numbers ``text`` says a table is in; None when it says none.

    Quantities ("it reached 500 MB/s") state no unit.

    >>> stated_unit("Throughput (MB/s)"), stated_unit("16 bytes (KiB/s)"), stated_unit("Gbps")
    (1000000.0, 1024.0, 125000000.0)
    >>> stated_unit("Durchsatz (MBit/s)"), stated_unit("in Gbit/s")
    (125000.0, 125000000.0)
    >>> stated_unit("Numbers in 1000s of bytes per second:"), stated_unit("in bytes/s")
    (1000.0, 1.0)
    >>> stated_unit("the disk reads at 500 MB/s") is None, stated_unit("16 bytes") is None
    (True, True)
    >>> stated_unit("OpenSSL 3.0.13, MB/s")
    1000000.0

    A unit the text rules out or names as a conversion's target states nothing; a text that
    still states two different units gives ``ambiguous`` (the numbers' unit cannot be told):

    >>> stated_unit("Gb/s, not GB/s: multiply by 125 for MB/s"), stated_unit("in Gbps (not MB/s)")
    (125000000.0, 125000000.0)
    >>> stated_unit("Mbit/s or MB/s, I forget") is None, stated_unit("MB/s or Mbit/s", ambiguous=0.0)
    (True, 0.0)
    """
    if _THOUSANDS.search(text):
        return 1e3
    found = None
    spelled = _SPELLED_RE.finditer(text) if "per" in text or "/s" in text else ()
    for m in (*_UNIT_RE.finditer(text), *spelled):
        before = text[max(0, m.start() - 40):m.start()]
        if not _QUANTITY_END.search(before) and not _RULED_OUT.search(before):
            factor = _factor(m) if "prefix" in m.re.groupindex else _spelled_factor(m)
            if found is not None and factor != found:
                return ambiguous
            found = factor
    return found


#: Lower-case texts one of which a line must hold to state a unit (see :func:`stated_unit`).
UNIT_HINT = re.compile(r"/s|ps\b|per s|1000s|thousands|\(k\)")
# What a caption says of a unit besides the unit: "(in MB/s)", ", in 1000s of bytes per second",
# "(unit: MB/s)", "(单位 MB/s)".
_UNIT_PHRASE = re.compile(r"[\s,;]*[(\[]?\s*"
                          r"(?i:(?:all\s+)?(?:numbers|values|figures)\s+|units?\s*:?\s*|单位\s*:?\s*)?"
                          r"(?i:(?:are|is)\s+)?(?i:in\s+|as\s+)?(?:%s|(?i:(?:1000s|thousands) of bytes)"
                          r"(?:\s*(?:/s|per\s+sec(?:ond)?))?|\(k\))\s*[)\]]?" % _UNIT)


def without_units(text: str) -> str:
    """``text`` without the unit it states and the words that state it (a caption's
    ``(MB/s)``, ``, in 1000s of bytes per second``): what else it says.

    >>> without_units("Laptop (MB/s):"), without_units("Results on the Pi 5, in 1000s of bytes per second")
    ('Laptop:', 'Results on the Pi 5')
    """
    return " ".join(_UNIT_PHRASE.sub(" ", text).split()).replace(" :", ":")


# A unit spelled out ("megabits per second", "kilobytes/s"): a lower-case `mbps` is read only
# where the text defines it so ("mbps = megabits per second"), never guessed.
_SPELLED_RE = re.compile(r"\b(?P<word>kilo|mega|giga|tera)(?P<unit>bits?|bytes?)\s*"
                         r"(?:per\s+sec(?:ond)?|/\s?s(?:ec)?)\b", re.I)
_SPELLED_PREFIX = {"kilo": 1e3, "mega": 1e6, "giga": 1e9, "tera": 1e12}


def _spelled_factor(m: re.Match) -> float:
    """Bytes/s per unit spelled out (``megabits per second``: 10^6 / 8).

    >>> stated_unit("Throughput (mbps = megabits per second)"), stated_unit("in megabytes per second")
    (125000.0, 1000000.0)
    >>> stated_unit("a link of 100 megabits per second") is None
    True
    """
    scale = _SPELLED_PREFIX[m["word"].lower()]
    return scale / 8 if m["unit"].lower().startswith("bit") else scale


def unit_only(text: str) -> float | None:
    """Bytes/s per unit of a text that is a unit and nothing else (a column titled ``MB/s``).

    >>> unit_only("MB/s"), unit_only(" Gbps "), unit_only("KiB/sec"), unit_only("MB/s (avg)")
    (1000000.0, 125000000.0, 1024.0, None)
    >>> unit_only("(MiB/s)"), unit_only("[MB/s]")  # (a header's second line under a name)
    (1048576.0, 1000000.0)
    """
    text = text.strip()
    if text[:1] in "([" and text[-1:] in ")]":
        text = text[1:-1].strip()
    m = _UNIT_ONLY.fullmatch(text)
    return _factor(m) if m else None


def value_with_unit(cell: str) -> float | None:
    """Bytes/s of a cell that carries its own unit (``522 MB/s``), else None.

    >>> value_with_unit("522 MB/s"), value_with_unit("1,024.5 KiB/s"), value_with_unit("12.5")
    (522000000.0, 1049088.0, None)
    >>> value_with_unit("1'250 Mbps"), value_with_unit("2\u2019500.5 kB/s")
    (156250000.0, 2500500.0)
    """
    m = _VALUE_UNIT.match(cell)
    return number(m[1]) * _factor(m) if m else None


# A value with its unit inside a line ("712 MB/s", "4,210 MB/s", "1.1 GB/s"), or in openssl's
# 1000s of bytes/s as it prints them ("1345678.12k": with its decimals; "8K" is a size).
_RATE_IN_TEXT = re.compile(rf"(?<![\w.,'\u2019])(?P<value>{_NUMBER})\s*{_UNIT}|"
                           r"(?<![\w.,])(?P<k>\d[\d,]*\.\d+)k(?![\w/])")


def times_1000(number: str) -> float:
    """Decimal text times 1000 as the float nearest the exact product (``k`` cells -> bytes/s).

    ``float(number) * 1000`` can be off by an ulp (``16791378.47`` gives 16791378469.999998):
    shifting the decimal point in the text is exact and cheap; :class:`~decimal.Decimal`
    covers what a shift cannot (exponents, more than three decimals, ``inf``).

    >>> times_1000("16791378.47"), times_1000("-6916.7"), times_1000("12"), times_1000("1e-3")
    (16791378470.0, -6916700.0, 12000.0, 1.0)
    """
    head, _, frac = number.partition(".")
    digits = head[1:] if head[:1] in "+-" else head
    if len(frac) <= 3 and digits.isdecimal() and (frac.isdecimal() or not frac):
        return float(head + frac + "000"[len(frac):])
    try:
        return float(Decimal(number) * 1000)
    except InvalidOperation:
        raise ValueError(f"not a decimal number: {number!r}") from None


def rates_in(text: str) -> list[tuple[int, int, float]]:
    """``(start, end, bytes/s)`` of each value written with a known unit in ``text``: a rate
    unit (``MB/s``, ``GiB/s``, ``Mbps``; see :func:`value_with_unit`) or openssl's ``k``.

    >>> rates_in("- aes-128-gcm, 8192-byte blocks: 4,210 MB/s")
    [(33, 43, 4210000000.0)]
    >>> rates_in("sha256 1024 bytes 1345678.12k"), rates_in("16 KB blocks: 12.5"), rates_in("8K")
    ([(18, 29, 1345678120.0)], [], [])
    """
    out = []
    for m in _RATE_IN_TEXT.finditer(text):
        if m["k"] is not None:
            out.append((m.start(), m.end(), times_1000(m["k"].replace(",", ""))))
        else:
            out.append((m.start(), m.end(), number(m["value"]) * _factor(m)))
    return out


def sizes_in(text: str) -> list[tuple[int, int, int]]:
    """``(start, end, bytes)`` of each block size written with its unit in ``text`` (see
    :data:`SIZE`); a bare number is none.

    >>> sizes_in("AES-256-CBC @ 1 KB: 1.1 GB/s"), sizes_in("16-byte blocks"), sizes_in("at 16")
    ([(14, 18, 1024)], [(0, 14, 16)], [])
    """
    return [(m.start(), m.end(), _size_of(m)) for m in _SIZE_IN_PROSE.finditer(text)]


def footnote_mark(cell: str) -> tuple[str, str | None]:
    """``(number text, mark)`` of a cell whose number has a footnote mark glued to it, else
    ``(cell, None)``: the mark is a note on the row, never part of the number.

    >>> footnote_mark("221.7*"), footnote_mark("1,234.5k \u2020"), footnote_mark("12.3 [1]")
    (('221.7', '*'), ('1,234.5k', '\u2020'), ('12.3', '[1]'))
    >>> footnote_mark("5.1\u00b9"), footnote_mark("9.8[^2]"), footnote_mark("12.5"), footnote_mark("*")
    (('5.1', '\u00b9'), ('9.8', '[^2]'), ('12.5', None), ('*', None))
    """
    if cell[-1:] not in _MARK_HINT:
        return cell, None
    m = _MARK.search(cell)
    if m is None or m.start() == 0 or not cell[m.start() - 1].isalnum():
        return cell, None  # (a mark after a number, "k" or unit: "*" alone is no value)
    return cell[:m.start()], m[1]


def mark_key(mark: str) -> str:
    """What a footnote mark says, however it is written: the cell's ``[1]``, ``[^1]`` or
    ``¹`` and the footnote's ``1`` are one mark.

    >>> [mark_key(m) for m in ("[1]", "[^1]", "¹", "[*]", "†")]
    ['1', '1', '1', '*', '†']
    """
    return mark.translate(_SUPERSCRIPTS)


# What people write around a value, which is no part of it: "~", "≈", "ca." before it; a
# comparison after it in brackets ("(+3%)", "(8.3x)", "[5.1×]") or an error ("± 3.1", "+/- 4.4").
_APPROX = re.compile(r"^(?:~|≈|∼|ca\.|approx\.|about)\s*(?=[\d.])", re.IGNORECASE)
_BESIDE = re.compile(r"(?<=[\dkKsS])\s*(?:[(\[]\s*[+\-−]?\s*\d[\d.,]*\s*(?:%|x|×)\s*[)\]]|"
                     r"(?:±|\+/-|\+-)\s*\d[\d.,]*\s*%?)$")
_BESIDE_HINT = frozenset("~≈∼)]±/aA")  # (a cell holding none of these is left as it is)
# Thousands grouped by blanks ("1 013 842", "38 812", "7 350,12"): one number.
_BLANK_GROUPS = re.compile(r"(?<![\w.,])\d{1,3}(?:[    ]\d{3})+(?![\d])")
_BLANKS = re.compile("[    ]")
# A decimal comma ("312,45", "1.402,17", "1 912,40"), and a decimal point ("312.45",
# "1,402.17"): a table that shows the one and never the other writes numbers so.
_COMMA_DECIMAL = re.compile(r"\d,\d{1,2}(?![\d])|\d,\d{4,}|[.\s]\d{3},\d")
_POINT_DECIMAL = re.compile(r"\d\.\d{1,2}(?![\d])|\d\.\d{4,}|,\d{3}\.\d")
_COMMA_NUMBER = re.compile(r"(?<![\d.,])(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+,\d+)(?![\d.,])")
_RANGE = re.compile(r"^\d[\d.,]*\s*(?:[-\u2013\u2014~]|\.\.|to)\s*\d[\d.,]*(?:\s*[kK])?$")


def is_range(cell: str) -> bool:
    """Whether a cell gives a range ("4201.3\u20134350.8", "120 - 130"): no one value.

    >>> is_range("4201.3\u20134350.8"), is_range("120 to 130"), is_range("-12.5"), is_range("1,234.5")
    (True, True, False, False)
    """
    return _RANGE.match(cell) is not None


#: A number that may be decimals or a thousands group: "1.402" (1.402, or 1402 in German).
DOT_GROUP = re.compile(r"(?<![\w.,])\d{1,3}\.\d{3}(?![\w.,])")
_OTHER_POINT = re.compile(r"\d\.(?:\d{1,2}|\d{4,})(?!\d)")


def dot_grouped(cells: str) -> bool:
    """Whether a table's cells (joined by TABs) may group thousands with ``.``: some are
    ``1.402`` and none shows a decimal point with other than three decimals (``312.45``),
    which would say how the table writes them. Such a cell cannot be read either way.

    >>> dot_grouped("1.402\t312\t1.170"), dot_grouped("1.402\t312.45"), dot_grouped("1.402k")
    (True, False, False)
    """
    # (a decimal point that says how is looked for first: it is found at once in most tables)
    return "." in cells and _OTHER_POINT.search(cells) is None and DOT_GROUP.search(cells) is not None


def decimal_comma(cells: str) -> bool:
    """Whether a table's cells (joined by TABs) write their numbers with a decimal comma (and
    ``.`` or blanks grouping thousands): some show one, none a decimal point. ``1,234`` alone
    says neither.

    >>> decimal_comma("312,45\t1.402,17"), decimal_comma("1,402.17\t312,45"), decimal_comma("1,234")
    (True, False, False)
    """
    return "," in cells and _POINT_DECIMAL.search(cells) is None and \
        _COMMA_DECIMAL.search(cells) is not None


# What a table's cells hold where a value has something written around it (see plain_number):
# a sign ("~", "\u2248", "\u00b1", "+/-"), a comparison in brackets after it, blank groups, "ca.".
_AROUND_SIGNS = re.compile("[~\u2248\u223c\u00b1\u202f\u2009]")  # (one charset: a quick scan)
_BRACKETED = re.compile(r"[(\[]\s*[+\-\u2212]?\d[\d.,]*\s*(?:%|x|\u00d7)")
_BLANK_GROUP = re.compile(r"[ \u00a0]\d{3}(?!\d)")  # (after a digit: see around_value)


def around_value(cells: str) -> bool:
    """Whether a table's cells (joined) hold a value with something written around it or its
    thousands grouped by blanks (see :func:`plain_number`): most tables hold none. (Characters
    are looked for first, each pattern led by a digit or a letter: one quick look.)

    >>> around_value("95.5\t1,234.5k"), around_value("612.4 \u00b1 3.1"), around_value("1490.6 (8.3x)")
    (False, True, True)
    """
    if _AROUND_SIGNS.search(cells) or "+/-" in cells:
        return True
    if ("(" in cells or "[" in cells) and _BRACKETED.search(cells):
        return True
    if any(cells[m.start() - 1:m.start()].isdigit() for m in _BLANK_GROUP.finditer(cells)):
        return True
    low = cells.lower()
    return "ca." in low or "about" in low or "approx" in low


def plain_number(cell: str, *, comma: bool = False, blanks: bool = True) -> str:
    """A value cell as openssl would print it: without what is written around the value (see
    ``_APPROX``, ``_BESIDE``), thousands grouped by blanks joined (unless ``blanks`` is False:
    cells split at blanks), a decimal comma (``comma``: the table's) made a point.

    >>> plain_number("≈ 98'412.3"), plain_number("612.4 ± 3.1"), plain_number("1490.6 (8.3x)")
    ("98'412.3", '612.4', '1490.6')
    >>> plain_number("712345.67K (+3%)"), plain_number("1 013 842"), plain_number("1 013 842", blanks=False)
    ('712345.67K', '1013842', '1 013 842')
    >>> plain_number("1.402,17", comma=True), plain_number("7 350,12 MB/s", comma=True)
    ('1402.17', '7350.12 MB/s')
    """
    if not _BESIDE_HINT.isdisjoint(cell):
        cell = _BESIDE.sub("", _APPROX.sub("", cell))
    if blanks and _BLANKS.search(cell):
        cell = _BLANK_GROUPS.sub(lambda m: _BLANKS.sub("", m[0]), cell)
    if comma and ("," in cell or "." in cell):
        cell = _COMMA_NUMBER.sub(lambda m: m[0].replace(".", "").replace(",", "."), cell)
    return cell


# A rate typed with its operation's label: "sign/s: 1533.00", "verify/s 51018.50",
# "keygens/s=2.5", "op/s: 12.3" (the label as openssl's column titles print it).
_LABELLED = re.compile(
    r"\b(?P<op>sign|verify|keygen|encaps|decaps|encrypt|decrypt|enc|dec|op)s?/s\b\s*[:=]?\s*"
    rf"(?P<value>{_NUMBER})(?![\w.])", re.IGNORECASE)
_OPERATION = {"enc": "encrypt", "dec": "decrypt", "op": "derive"}
_BETWEEN = " \t;,|"


def labelled_rates(line: str) -> tuple[str, list[tuple[str, float]]] | None:
    """``(name, [(operation, ops/s), ...])`` of a line that gives a public-key row's rates each
    after its label, as people summarise openssl's tables by hand; None for any other line
    (anything but separators between or after the labelled rates).

    >>> labelled_rates("rsa 2048 bits sign/s: 1533.00; verify/s 51018.50")
    ('rsa 2048 bits', [('sign', 1533.0), ('verify', 51018.5)])
    >>> labelled_rates("X25519  op/s=12,345.6"), labelled_rates("sign/s: 12"), labelled_rates("1.5 sign/s on x")
    (('X25519', [('derive', 12345.6)]), None, None)
    """
    found = list(_LABELLED.finditer(line))
    if not found or not line[:found[0].start()].strip(_BETWEEN):
        return None
    for m, nxt in zip(found, found[1:]):
        if line[m.end():nxt.start()].strip(_BETWEEN):
            return None
    if line[found[-1].end():].strip(_BETWEEN + "."):
        return None
    ops = [m["op"].lower() for m in found]
    return line[:found[0].start()].strip(_BETWEEN), [
        (_OPERATION.get(op, op), number(m["value"]))
        for op, m in zip(ops, found)]
