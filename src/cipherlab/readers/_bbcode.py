"""Forum posts written in BBCode (phpBB, vBulletin, XenForo, SMF): read as the markup they
stand for, line for line (line numbers are provenance).

``[table]``, ``[tr]``, ``[td]`` and ``[th]`` become the HTML tags the table finders read;
``[b]...[/b]`` becomes Markdown bold (a bold line may label the run below it); a line that
is only ``[code]`` or ``[/code]`` becomes a code fence; other inline tags (``[i]``,
``[color=red]``, ``[url=...]``, ``[quote="dave"]``, ``[size=85]``) are taken away, their
text kept.
"""

from __future__ import annotations

import re

__all__ = ["from_bbcode"]

# A closing tag of the BBCode that posts use: a text holds one if it is written in BBCode.
_BBCODE = re.compile(r"\[/(?:b|i|u|s|table|tr|td|th|code|quote|color|size|font|url|img|list|"
                     r"center|left|right|spoiler)\]", re.IGNORECASE)
_TABLE_TAG = re.compile(r"\[(/?)(table|tr|td|th)(?:[= ][^\[\]\n]{0,100})?\]", re.IGNORECASE)
_BOLD = re.compile(r"\[/?b\]", re.IGNORECASE)
_CODE = re.compile(r"\[/?code(?:=[^\[\]\n]{0,40})?\]", re.IGNORECASE)
_FENCE = re.compile(rf"\s*(?:{_CODE.pattern}\s*)+", re.IGNORECASE)
_INLINE = re.compile(r"\[/?(?:i|u|s|quote|color|size|font|url|img|list|center|left|right|"
                     r"spoiler|\*)(?:=[^\[\]\n]{0,200})?\]", re.IGNORECASE)


def from_bbcode(lines: list[str]) -> list[str]:
    """The lines of a text, with BBCode read as the markup it stands for (``lines`` itself
    when the text holds none).

    >>> from_bbcode(["[b]On the J4125:[/b]", "[code]", "md5 1.00k", "[/code]",
    ...              "[table][tr][td]md5[/td][td][color=red]1.00k[/color][/td][/tr][/table]"])
    ['**On the J4125:**', '```', 'md5 1.00k', '```', '<table><tr><td>md5</td><td>1.00k</td></tr></table>']
    """
    if not any("[/" in line and _BBCODE.search(line) for line in lines):
        return lines
    return [_line(line) if "[" in line else line for line in lines]


def _line(line: str) -> str:
    line = _INLINE.sub("", line)
    if "[" not in line:
        return line
    if _FENCE.fullmatch(line):  # ("[/code][/quote]": a quoted block ends)
        return "```"
    line = _TABLE_TAG.sub(lambda m: f"<{m[1]}{m[2].lower()}>", line)
    return _CODE.sub("", _BOLD.sub("**", line))  # (inline code: its text)
