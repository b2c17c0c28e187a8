"""Colour-blind-safe colours, one per algorithm, stable across every figure of a report.

Why a module of its own: a reader who learns "blue is AES-128-GCM" in the first figure must be able
to rely on it in the last one, and in next month's report too. Seaborn's default hue mapping colours
levels by their order in the plotted frame, so the same algorithm changes colour whenever a figure
shows a different subset. Here the colour of a name depends only on the name:

1. well-known algorithms have a fixed slot in :data:`COLORS` (:data:`ALGORITHM_ORDER`);
2. any other name gets a slot from a CRC-32 of its text (stable across runs and machines, unlike
   Python's salted ``hash``); :func:`palette` resolves clashes inside one set of names by probing
   to the next free slot, in sorted-name order, so a report that builds one palette from all its
   names and passes it to every figure keeps every colour distinct and consistent.

The colours are Okabe & Ito's set (2008, "Color Universal Design") followed by Paul Tol's "muted"
scheme (SRON technical note 2021); both are designed to stay distinguishable under the common
forms of colour-vision deficiency. Yellow comes last: it is hard to see on white.
"""

from __future__ import annotations

import zlib
from typing import Iterable, Mapping

from cipherlab.algorithms import ALGORITHM_ORDER, ALGORITHM_RANK

__all__ = ["ALGORITHM_ORDER", "COLORS", "color_for", "palette"]

#: The colour cycle, in order of preference (hex RGB).
COLORS: tuple[str, ...] = (
    # Okabe-Ito, without yellow
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#000000",  # black
    # Paul Tol "muted"
    "#332288",  # indigo
    "#44AA99",  # teal
    "#999933",  # olive
    "#882255",  # wine
    "#CC6677",  # rose
    "#117733",  # green
    "#AA4499",  # purple
    "#DDCC77",  # sand
    "#88CCEE",  # cyan
    "#F0E442",  # Okabe-Ito yellow: last, low contrast on white
)


def _hashed_slot(name: str) -> int:
    return zlib.crc32(name.encode("utf-8")) % len(COLORS)


def color_for(name: object) -> str:
    """The colour of one name, whatever else is plotted beside it.

    Known algorithms have a reserved colour; other names get one from a stable hash, so two
    unknown names may share a colour: use :func:`palette` for a set of names that must differ.

    Examples
    --------
    >>> color_for("aes-128-gcm")
    '#0072B2'
    >>> color_for("my-cipher") == color_for("my-cipher")
    True
    """
    key = str(name)
    return COLORS[ALGORITHM_RANK.get(key.lower(), _hashed_slot(key))]


def palette(names: Iterable[object], *, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """A name -> colour mapping for a set of names, distinct as long as there are enough colours.

    Parameters
    ----------
    names
        The hue levels (algorithms, machines, conditions...). Order does not matter: the result
        depends only on the set.
    base
        Colours already decided (e.g. a report-wide palette); kept as they are.

    Returns
    -------
    dict
        ``{str(name): "#rrggbb"}`` for every name, ready for seaborn's ``palette=``.

    Examples
    --------
    >>> p = palette(["aes-128-cbc", "aes-128-gcm", "Linux (P3 750Mhz)"])
    >>> p["aes-128-gcm"], p["aes-128-cbc"]
    ('#0072B2', '#D55E00')
    >>> len(set(p.values()))
    3
    >>> palette(["aes-128-gcm"], base={"aes-128-gcm": "#123456"})
    {'aes-128-gcm': '#123456'}
    """
    out: dict[str, str] = {}
    keys = sorted({str(n) for n in names})
    base = dict(base or {})
    for key in keys:
        if key in base:
            out[key] = base[key]
    # reserved algorithm colours next, so an unknown name never takes a known one's colour
    for key in keys:
        if key not in out and key.lower() in ALGORITHM_RANK:
            out[key] = COLORS[ALGORITHM_RANK[key.lower()]]
    for key in keys:
        if key in out:
            continue
        taken = set(out.values())
        start = _hashed_slot(key)
        for step in range(len(COLORS)):
            colour = COLORS[(start + step) % len(COLORS)]
            if colour not in taken:
                break
        else:  # more names than colours: reuse the hashed one (line styles still tell them apart)
            colour = COLORS[start]
        out[key] = colour
    return {str(n): out[str(n)] for n in keys}
