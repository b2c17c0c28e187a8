"""LaTeX text as it prints: a table cell, a caption, a line of prose in a paper's source.

:func:`tex_text`: siunitx' ``\\SI{1.2}{\\giga\\byte\\per\\second}`` is ``1.2 GB/s`` and
``\\num{1234}`` is ``1234``, a thin space between digit groups (``1\\,234.5``) groups them,
``$\\times$`` is ``×``, emphasis (``\\textbf`` on the best value), braces and markup commands
(``\\centering``, ``\\label{...}``, ``\\begin{table}``) go, and a superscript after a value
(``$^{a}$``, ``\\tnote{a}``) is a footnote mark (``[a]``).
"""

from __future__ import annotations

import re

# siunitx' units, as they print.
_SI_UNITS = {"kilo": "k", "mega": "M", "giga": "G", "tera": "T", "kibi": "Ki", "mebi": "Mi",
             "gibi": "Gi", "tebi": "Ti", "byte": "B", "bit": "bit", "second": "s", "hertz": "Hz",
             "percent": "%", "cycle": "cycle", "nano": "n", "micro": "µ", "milli": "m"}
_SI = re.compile(r"\\(?:SI|qty)(?:\[[^\]]*\])?\{([^{}]*)\}\{((?:[^{}]|\{[^{}]*\})*)\}")
_SI_UNIT = re.compile(r"\\(?:si|unit)(?:\[[^\]]*\])?\{((?:[^{}]|\{[^{}]*\})*)\}")
_NUM = re.compile(r"\\num(?:\[[^\]]*\])?\{([^{}]*)\}")
_UNIT_MACRO = re.compile(r"\\(per|[a-z]+)\s*")
# Commands whose braced argument is no text of the cell (colours, spacing, references).
_DROPPED = re.compile(r"\\(?:cellcolor|color|hspace\*?|vspace\*?|phantom|hphantom|vphantom|label|begin|end|"
                      r"cite|ref|rule|footnote|setlength)(?:\[[^\]]*\])?(?:\{[^{}]*\})+(?:\[[^\]]*\])?")
_TEXTCOLOR = re.compile(r"\\textcolor(?:\[[^\]]*\])?\{[^{}]*\}")
# A superscript or table note: a footnote mark ("221.7$^{a}$", "\tnote{1}").
_MARK = re.compile(r"\$\^\{?([^{}$]{1,3})\}?\$|\\(?:textsuperscript|tnote)\{([^{}]{1,3})\}")
_SYMBOLS = {r"\times": "×", r"\pm": "±", r"\approx": "≈", r"\sim": "~", r"\dagger": "†",
            r"\ddagger": "‡", r"\ast": "*", r"\cdot": "·", r"\mu": "µ", r"\textmu": "µ",
            r"\textendash": "–", r"\textemdash": "—", r"\textminus": "-", r"\ldots": "…",
            r"\dots": "…", r"\checkmark": "✓", r"\%": "%", r"\&": "&", r"\_": "_", r"\#": "#",
            r"\$": "$", r"\textbackslash": "\\", "---": "—", "--": "–"}
_SYMBOL = re.compile("|".join(re.escape(s) + (r"(?![a-zA-Z])" if s[-1].isalpha() else "")
                              for s in sorted(_SYMBOLS, key=len, reverse=True)))
# A thin space between digit groups ("1\,234.5"), a comma in braces for a decimal ("1{,}5").
_DIGIT_GROUP = re.compile(r"(?<=\d)(?:\\,|\\thinspace(?:\{\})?)(?=\d{3}(?!\d))")
_DECIMAL_COMMA = re.compile(r"(?<=\d)\{,\}(?=\d)")
_SPACE = re.compile(r"\\[,;: !]|\\(?:quad|qquad|enspace|thinspace|newline|linebreak|allowbreak)\b|~")
_COMMAND = re.compile(r"\\[a-zA-Z]+\*?\s*")  # (emphasis and others: their argument is the text)


def _si_unit(unit: str) -> str:
    """siunitx' unit macros as they print: ``\\giga\\byte\\per\\second`` -> ``GB/s``."""
    return _UNIT_MACRO.sub(lambda m: "/" if m[1] == "per" else _SI_UNITS.get(m[1], m[1]),
                           unit).replace("{", "").replace("}", "").strip()


def tex_text(cell: str) -> str:
    """A LaTeX cell's text as it prints (see the module docstring).

    >>> tex_text(r"\\textbf{1\\,234.5}"), tex_text(r"\\SI{1.2}{\\giga\\byte\\per\\second}")
    ('1234.5', '1.2 GB/s')
    >>> tex_text(r"2.1$\\times$"), tex_text(r"981.3$^{a}$"), tex_text(r"aes-128-gcm\\tnote{1}")
    ('2.1×', '981.3 [a]', 'aes-128-gcm[1]')
    """
    if "\\" not in cell and "$" not in cell and "{" not in cell and "~" not in cell and "--" not in cell:
        return cell.strip()
    cell = _SI.sub(lambda m: f"{m[1]} {_si_unit(m[2])}", cell)
    cell = _SI_UNIT.sub(lambda m: _si_unit(m[1]), cell)
    cell = _NUM.sub(r"\1", cell)
    cell = _DROPPED.sub("", _TEXTCOLOR.sub("", cell))
    cell = _MARK.sub(lambda m: (" [{}]" if cell[:m.start()].rstrip()[-1:].isdigit() else "[{}]")
                     .format((m[1] or m[2]).replace("\\", "").strip()), cell)
    cell = _DECIMAL_COMMA.sub(",", _DIGIT_GROUP.sub("", cell))
    cell = _SYMBOL.sub(lambda m: _SYMBOLS[m[0]], cell)
    cell = _SPACE.sub(" ", cell)
    cell = _COMMAND.sub("", cell).replace("$", "").replace("{", "").replace("}", "")
    return " ".join(cell.split())
