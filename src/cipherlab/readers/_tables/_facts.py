"""What one line of prose around a document table states: the tool and its version, the
machine (a CPU and its clock, an AWS instance), the compiler, ``-elapsed`` timing.

:func:`line_facts` reads one line; :func:`prose_cpu` names the CPU of a phrase (also used for
section rows inside a table, and by :mod:`cipherlab.readers._boundaries`). :data:`FACT_HINT`
is the quick test a line must pass to state any of these (most lines state none).
"""

from __future__ import annotations

import itertools
import re
from typing import Any

# Prose facts. Versions as openssl prints them, or as people write them ("OpenSSL version 1.0.1f").
VERSION = re.compile(r"\b(OpenSSL|LibreSSL|SSLeay)\s+(?:version\s+)?v?"
                      r"(\d+\.\d+\.\d+[a-z]{0,2}(?:-(?!on\b)[\w.]+)?)", re.IGNORECASE)
_SPEED_COMMAND = re.compile(r"\bopenssl\s+speed\b", re.IGNORECASE)
_AWS = re.compile(r"\bAWS\b.*?\b([a-z]\d[a-z0-9-]*\."
                  r"(?:\d*x?large|medium|small|micro|nano|metal))\b")
#: A clock as a CPU's name or a label writes it: ``3.40GHz``, ``750 Mhz``, ``1,800 MHz`` (groups:
#: the number, G or M; :func:`hz` gives Hz). The one definition: stats._clock reads labels with it.
#: A comma groups thousands only ("2,4 GHz" is no clock: which one was meant cannot be known).
CLOCK = r"(?<![\d.,])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*([GM])Hz"
_CLOCK = re.compile(r"@\s*" + CLOCK + r"\b", re.IGNORECASE)
# A CPU named in prose starts at a vendor or family word; "Core", "Atom", "Nano" ... are words
# too, so they name a CPU only after a vendor or before a model number (see prose_cpu).
_VENDORS = ("Intel|AMD|VIA|Apple|ARM|Arm|Qualcomm|Ampere|IBM|Cyrix|Transmeta|Marvell|Cavium|"
            "HiSilicon|Broadcom|Allwinner|Rockchip|Amlogic|NVIDIA|Samsung|MediaTek|NXP|"
            "Freescale|Motorola|Fujitsu|SiFive|StarFive|Loongson|Hygon|Zhaoxin|Centaur")
_FAMILIES = ("Xeon|Pentium|Celeron|EPYC|Ryzen|Threadripper|Opteron|Athlon|Phenom|Turion|"
             "Sempron|Cortex-[AMRX]\\d+\\w*|Neoverse[-\\w]*|Graviton\\d*|Altra|Snapdragon|Kryo|"
             "Exynos|POWER\\d+\\w*|PowerPC|UltraSPARC[-\\w]*|SPARC[-\\w]*|Itanium|ThunderX\\d*|"
             "Kunpeng|Tegra|(?:Core\\s+)?[iI][3579]-\\d{4,5}\\w*")
_WEAK_FAMILIES = "Core|Atom|Nano|Eden|Luke|Esther|Nehemiah|C3|C7|G[345]|M[1-5]"
_CPU_START = re.compile(rf"\b(?:(?P<vendor>{_VENDORS})|(?P<family>{_FAMILIES})|"
                        rf"(?P<weak>{_WEAK_FAMILIES}))(?![\w-])")
_IS_FAMILY = re.compile(rf"(?:{_FAMILIES}|{_WEAK_FAMILIES})$")
# Apple's chips are named after a Mac ("MacBook Air M1", "Mac mini M2") or with their tier
# ("M2 Pro", "M3 Max"): an "M1" alone is a word like any other.
_APPLE_TIER = re.compile(r"M[1-5]$")
_MAC_BEFORE = re.compile(r"(?:MacBook(?:\s+(?:Air|Pro))?|Mac\s*(?:mini|Studio|Pro)|iMac|iPad\s+\w+)"
                         r"(?:\s+\d\d(?:-inch|\u2033|\")?)?\s+$")
_CHIP_TIERS = ("Pro", "Max", "Ultra")
_MAC_AFTER = re.compile(r"\s+(?:MacBook|Mac\s*(?:mini|Studio|Pro)|iMac|iPad)\b")  # ("M1 MacBook Air")
# Words that name the machine, not its CPU: they end a CPU's name ("Celeron J4125 NUC", "Ryzen
# 5 5600X Desktop"); after a vendor alone they name none ("Intel NUC").
# (and the machine lines of the CPU vendors that also build machines: "Fujitsu Primergy",
# "Samsung Galaxy S21 (Exynos 2100)", "NVIDIA Jetson Nano")
_MACHINE_NOUNS = frozenset({"NUC", "PC", "VM", "NAS", "SBC", "Box", "Server", "Desktop", "Laptop",
                            "Workstation", "Notebook", "Machine", "Host", "Node", "Board", "Mac",
                            "MacBook", "iMac", "Mini", "Instance", "System", "Primergy", "PRIMERGY",
                            "Esprimo", "ESPRIMO", "Lifebook", "LIFEBOOK", "Celsius", "CELSIUS",
                            "Galaxy", "Jetson"})
# A server model's generation after its model number ("TX1320 M2", "DL380 G9", "DL360 Gen10",
# "C220 M5"): the name is a machine's, and the suffix no chip of its own (Apple's M2 is named
# after a Mac or with its tier).
_GENERATION = re.compile(r"(?:M\d|G\d{1,2}|Gen\d{1,2})$")
_MODEL_NUMBER = re.compile(r"[A-Z]+\d+[A-Za-z]*$")
# A board's SoC, named by its part number (Raspberry Pi's BCM2711/BCM2712, Rockchip's RK3588):
# the CPU where the text names no core ("Raspberry Pi 5 (BCM2712)"; a board's name alone, "Pi
# 5", names none: which CPU a board has, the text must say).
_SOC = re.compile(r"(?<![\w-])(?:BCM2\d{3}|RK3\d{3}[A-Z]?)(?![\w-])")
# CPUs named by their code name ("Sapphire Rapids", "Zen 4"): prose also names them for the
# generation a feature came with ("AES-NI since Westmere"), so one names no run's CPU, but
# beside another CPU it is a second one (and a code name in parentheses after a CPU is its own).
_CODE_NAMES = re.compile(r"\b(?:(?:Sapphire|Emerald|Granite|Sierra)\s+Rapids|(?:Ice|Cascade|Cooper|"
                         r"Kaby|Coffee|Comet|Tiger|Alder|Raptor|Meteor|Lunar|Arrow)\s+Lake|"
                         r"Skylake|Haswell|Broadwell|(?:Ivy|Sandy)\s+Bridge|Westmere|Nehalem|"
                         r"Zen\s?[1-5]\+?)(?![\w-])")
_TRADEMARK = re.compile("\\((?:R|TM|tm)\\)|[\u00ae\u2122]")
_CLOCK_WORD = re.compile(r"\(?" + CLOCK + r"\)?$", re.IGNORECASE)
_CLOCK_SPACED = re.compile(CLOCK + r"\b", re.IGNORECASE)  # ("8480+ 2.0 GHz": no part of the name)
_RANGE_ON = re.compile("\\s*[-\u2013~]\\s*\\d")  # ("1.60GHz-3.40GHz": a range names no one clock)
_CLOCK_NEXT = re.compile(r"\s*" + _CLOCK.pattern, re.IGNORECASE)  # (right after a name)
_WORD = re.compile(r"\S+")
_NAME_END = re.compile("[,;:()\\[\\]@/|]|\\s[-\u2013\u2014]\\s")
_GCC = re.compile(r"\bgcc\s*[-\u2013]?\s*(\d+\.\d+(?:\.\d+)?)", re.IGNORECASE)
_LEADING_OPTIONAL = re.compile(r"^\(\?:[^()|]*\)\?")
_ONE_LETTER_CLASS = re.compile(r"^\[(\w)\1*\]")
_TWO_CASES_CLASS = re.compile(r"^\[(\w)(\w)\]")


def by_first_letter(alternatives: list[str]) -> re.Pattern:
    """The alternation of ``alternatives`` (patterns), grouped by their first letter:
    re tries every alternative at every position of a text, this only those that start with
    the letter there (70 words made the search of a page of prose cost milliseconds). Used to
    tell whether a text holds a match, for which a leading optional group does not matter: it
    is left out, a class of one letter is that letter (``[ii]``, what lower() makes of
    ``[iI]``) and one of a letter's two cases is two alternatives, so that alternatives start
    with a literal (re then skips other characters fast; one that starts with a class made
    the search of a text 6 times slower).

    >>> by_first_letter(["aws", "amd", "(?:core )?[ii][3579]-", "<"]).pattern
    'a(?:ws|md)|i(?:[3579]-)|<'
    >>> by_first_letter(["Intel", "(?:Core )?[iI][3579]-"]).pattern
    'I(?:ntel|[3579]-)|i(?:[3579]-)'
    """
    groups: dict[str, list[str]] = {}
    for alt in alternatives:
        alt = _ONE_LETTER_CLASS.sub(r"\1", _LEADING_OPTIONAL.sub("", alt))
        m = _TWO_CASES_CLASS.match(alt)
        cases = [c + alt[m.end():] for c in m.groups()] if m and m[1].lower() == m[2].lower() \
            and m[1] != m[2] else [alt]
        for case in cases:
            plain = case[0].isalnum() and case[1:2] not in ("?", "*", "+", "{")
            groups.setdefault(case[0] if plain else case, []).append(case[1:])
    return re.compile("|".join(f"{first}(?:{'|'.join(rests)})" if len(first) == 1 and
                               first.isalnum() else first for first, rests in groups.items()))


# Lower-case words one of which a line must contain to state a fact _facts() looks for (the
# weak family words name a CPU only beside a vendor or a model number, which this finds).
MACHINE_WORDS = ["aws", "hz", "core", "bcm2", "rk3", *_VENDORS.lower().split("|"),
                 *_FAMILIES.lower().split("|")]
FACT_WORDS = ["ssl", "gcc", *MACHINE_WORDS]
FACT_HINT = by_first_letter(FACT_WORDS)
# The words a CPU name starts with (see prose_cpu), for a quick "none here" (in a line or a text).
CPU_HINT = by_first_letter([*_VENDORS.split("|"), *_FAMILIES.split("|"),
                              *_WEAK_FAMILIES.split("|"), "BCM2", "RK3"])


_OPENSSL = re.compile(r"\bopenssl\b", re.IGNORECASE)
_ELAPSED = re.compile(r"(?:^|\s)-elapsed\b")
_MULTI = re.compile(r"(?:^|\s)-multi\s+(\d+)\b")


def line_facts(text: str) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    # (a word each pattern needs is looked for first: most lines hold few. Beyond ASCII,
    # ignoring case is more than lower(): there every pattern is tried)
    low, every = text.lower(), not text.isascii()
    # (of two versions in a sentence, the last is nearest the table: "LibreSSL 3.3.6 is what
    # macOS ships, so I used OpenSSL 3.3.1")
    versions = VERSION.findall(text) if every or "ssl" in low else None
    if versions:
        facts["tool"] = versions[-1][0].lower()
        facts["tool_version"] = versions[-1][1]
    elif (every or "openssl" in low) and _OPENSSL.search(text):
        facts["tool"] = "openssl"
    if (every or "speed" in low) and _SPEED_COMMAND.search(text):
        if _ELAPSED.search(text):
            facts["timing"] = "elapsed"
        m = _MULTI.search(text) if "-multi" in text else None
        if m:  # ("openssl speed -multi 8 -evp aes-128-gcm": the table's figures are 8 processes')
            facts["multi"] = int(m[1])
    m = _AWS.search(text) if "AWS" in text else None
    if m:
        facts["machine"] = f"AWS {m[1]}"
    cpu = prose_cpu(text)
    if cpu:
        facts.update(cpu)
    m = _GCC.search(text) if every or "gcc" in low else None
    if m:
        facts["compiler"] = f"gcc {m[1]}"
    return facts


def prose_cpu(text: str) -> dict[str, Any]:
    """``cpu`` and ``clock_hz`` from prose that names one CPU (``i7-4770 CPU @ 3.40GHz``).

    The name is a family word (``Xeon``, ``EPYC``, ``Cortex-A76``), or a vendor followed by a
    family or a model number, with the words after it while they look like a model's (a capital
    or a digit first: ``Xeon Gold 6230``, ``Ryzen 5 3600``); a lower-case word, punctuation or a
    clock ends it. The clock is the one written right after the name (``@ 2.4GHz``, ``1.8GHz``,
    ``(2.4 GHz)``); without a CPU name, a short capitalised phrase right before ``@ <clock>``
    names the machine (``Raspberry Pi 4 @ 1.5GHz``). Prose naming two CPUs (two machines
    compared in one sentence) gives neither: which row ran on which cannot be known here.

    >>> prose_cpu("On an Intel(R) Xeon(R) CPU E5-2680 v2 @ 2.80GHz box")
    {'cpu': 'Intel Xeon CPU E5-2680 v2', 'clock_hz': 2800000000.0}
    >>> prose_cpu("Running on the new EPYC 9654 box"), prose_cpu("Intel Advanced Encryption Standard")
    ({'cpu': 'EPYC 9654'}, {})
    >>> prose_cpu("a Pi 5 (Cortex-A76 @ 2.4GHz) and a Pi 4 (Cortex-A72 @ 1.8GHz)")
    {}

    A word naming the machine ends the name; a board's SoC is its CPU when no core is named:

    >>> prose_cpu("Celeron J4125 NUC"), prose_cpu("M1 MacBook Air"), prose_cpu("Intel NUC")
    ({'cpu': 'Celeron J4125'}, {'cpu': 'M1'}, {})
    >>> prose_cpu("Raspberry Pi 5 (BCM2712)"), prose_cpu("Pi 5"), prose_cpu("Pi 4 (BCM2711, Cortex-A72)")
    ({'cpu': 'BCM2712'}, {}, {'cpu': 'Cortex-A72'})

    A server's model and generation name the machine, not a second CPU:

    >>> prose_cpu("Fujitsu Primergy TX1320 M2, Xeon E3-1230 v5, 32 GB RAM")
    {'cpu': 'Xeon E3-1230 v5'}
    >>> prose_cpu("Cisco UCS C220 M5 (Xeon Silver 4110)"), prose_cpu("Mac mini M2")
    ({'cpu': 'Xeon Silver 4110'}, {'cpu': 'M2'})
    """
    text = _TRADEMARK.sub("", text)
    if "@" not in text and not CPU_HINT.search(text):
        return {}  # (no CPU word and no clock, the common case: one quick search says so)
    found: list[tuple[str, float | None, int]] = []  # (name, clock, where it ends)
    starts = []
    for m in _CPU_START.finditer(text):
        if found and m.start() < found[-1][2]:
            continue  # (a word inside the name just read)
        got = _cpu_at(text, m)
        if got is not None:
            found.append(got)
            starts.append(m.start())
    if len({name for name, _, _ in found}) + _rival_code_names(text, starts, found) > 1:
        return {}
    if found:
        name, clock, _ = found[0]
        return {"cpu": name} if clock is None else {"cpu": name, "clock_hz": clock}
    socs = set(_SOC.findall(text)) if "BCM" in text or "RK" in text else None
    if socs:
        return {"cpu": socs.pop()} if len(socs) == 1 else {}
    c = _CLOCK.search(text)
    if c is None or _CLOCK.search(text, c.end()):
        return {}
    phrase = _NAME_END.split(text[: c.start()])[-1].strip(" -*")
    if not phrase or not (phrase[0].isupper() or phrase[0].isdigit()) or len(phrase.split()) > 4:
        return {}
    return {"cpu": phrase, "clock_hz": hz(c[1], c[2])}


def _rival_code_names(text: str, starts: list[int], found: list[tuple[str, float | None, int]]) -> int:
    """How many CPU code names the text holds besides the CPUs ``found`` (starting at
    ``starts``): one right before a CPU or in parentheses right after it is that CPU's (``Zen 4
    EPYC 9654``, ``Xeon Platinum 8480+ (Sapphire Rapids)``)."""
    if not found or "a" not in text and "e" not in text:  # (every code name holds one)
        return 0
    own = {*starts, *(e for _, _, e in found)}
    return len({m[0] for m in _CODE_NAMES.finditer(text)
                if not any(text[e:m.start()].strip() in ("", "(") for e in own if e <= m.start())
                and not any(not text[m.end():s].strip() for s in starts if s >= m.end())})


def _cpu_at(text: str, m: re.Match) -> tuple[str, float | None, int] | None:
    """The CPU name starting at ``m`` (a :data:`_CPU_START` match), its clock and where it
    ends, or None when the words there name no CPU (a vendor's technology, a common word)."""
    head = _NAME_END.search(text, m.start())
    stop = head.start() if head else len(text)
    words, clock, end, ranged = [], None, m.start(), False
    for w in itertools.islice(_WORD.finditer(text, m.start(), stop), 7):
        word = w[0]
        c = _CLOCK_WORD.match(word) or _CLOCK_SPACED.match(text, w.start()) if words else None
        if c is not None and (word[0].isdigit() or word[0] == "("):
            after = c.end() + (w.start() if c.string is not text else 0)
            ranged = _RANGE_ON.match(text, after) is not None
            clock = None if ranged else hz(c[1], c[2])
            break
        if words and (not (word[0].isupper() or any(ch.isdigit() for ch in word))
                      or word.rstrip(".") in _MACHINE_NOUNS):
            break  # (a model number may start in lower case: "i7-4770", "v2"; "NUC" is no model)
        words.append(word)
        end = w.end()
        if len(words) == 2 and word in _CHIP_TIERS and _APPLE_TIER.match(words[0]):
            break  # ("M2 Pro Mac mini": the chip's name ends at its tier)
    tail = words[1:]
    if len(words) >= 3 and _GENERATION.match(words[-1]) and _MODEL_NUMBER.match(words[-2]):
        return None  # ("Fujitsu Primergy TX1320 M2": a server, not a CPU)
    named = (m["family"] is not None
             or any(ch.isdigit() for w in tail for ch in w)
             or (m["vendor"] is not None and any(_IS_FAMILY.match(w) for w in tail))
             or _APPLE_TIER.match(words[0]) is not None and (
                 tail[:1] and tail[0] in _CHIP_TIERS
                 or _MAC_BEFORE.search(text, max(0, m.start() - 30), m.start()) is not None
                 or not tail and _MAC_AFTER.match(text, end) is not None))
    if not named:
        return None
    if clock is None and not ranged:
        c = _CLOCK_NEXT.match(text, end)
        clock = hz(c[1], c[2]) if c else None
    return " ".join(words), clock, end


def hz(value: str, prefix: str) -> float:
    """Hz of a :data:`CLOCK` match's groups: ``hz("1,800", "M")`` is 1.8e9."""
    return float(value.replace(",", "")) * (1e9 if prefix.upper() == "G" else 1e6)
