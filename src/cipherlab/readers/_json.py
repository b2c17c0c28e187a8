"""Benchmark text held inside JSON: notebooks, API replies, JSON logs (layer 1, normalise).

Why this module exists: cipherlab is used from notebooks, and people keep ``!openssl speed``
outputs in their ``.ipynb`` files; CI and issue-tracker APIs hand text back as JSON strings with
``\\n`` escapes. Read as text, such a file is one quoted line per output line (or one line for
all of them) and no reader can place it. :func:`held_text` gives the text a JSON document holds,
with the map from each of its lines back to the JSON line it came from (the ``origin`` map of
:func:`~cipherlab.readers._text.normalise`), so that cells, warnings and errors name the file's
own lines; :func:`held_documents` gives them apart where they are texts of their own (the
comments of an issue, the steps of a CI job), so that no context crosses them.

Whether a text is JSON is decided cheaply and surely: its first character (past blanks) must
open an object, an array or a string, and the whole text must then parse as JSON (or as JSON
Lines: one object or array per line). Any other text costs one anchored regex match.
"""

from __future__ import annotations

import ast
import json
from bisect import bisect_right
import re
import warnings
from json.decoder import scanstring  # (the C scanner of the stdlib's json)

from cipherlab.errors import IngestWarning
from cipherlab.readers import _text  # (which calls held_text: its functions are used at call time)

__all__ = ["held_documents", "held_results", "held_text", "is_document"]

_START = re.compile(r"[ \t\r\n\ufeff]*+[\[{\"]")
_BLANKS = re.compile(r"[ \t\r\n]*+")
_SCALAR = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")
# An escaped line break of a text with no real one (a JSON string's body pasted alone).
_ESCAPED = re.compile(r"\\(?:r\\n|[nrt\"\\/])")
_UNESCAPED = {"\\r\\n": "\n", "\\n": "\n", "\\r": "\n", "\\t": "\t", '\\"': '"', "\\\\": "\\",
              "\\/": "/"}
# Cell magics whose body is shell commands: each of its lines is a command line.
_SHELL_MAGIC = re.compile(r"%%(?:bash|sh|shell|system|script\s+(?:ba|z)?sh)\b")
# A line that runs a shell command in IPython: ``!cmd``, ``!!cmd``, ``%sx cmd``, ``%system cmd``.
_LINE_MAGIC = re.compile(r"!{1,2}|%(?:sx|system)\s")
# Notebook outputs that hold text (``text/html``, images and JavaScript are no benchmark text).
_TEXT_OUTPUTS = {"stream", "execute_result", "display_data", "pyout"}


# The keys of nbformat 4 and 3 that lead to a cell's text.
_NOTEBOOK_KEYS = frozenset({"nbformat", "cells", "worksheets", "cell_type", "source", "input",
                            "outputs", "output_type", "name", "stream", "text", "data",
                            "text/plain"})
_scan = json.JSONDecoder().scan_once  # (value, end) of the JSON value at a position, in C


class _Str(str):
    """A JSON string value and the 1-based line of the JSON text it starts on."""

    line: int


class _NotJson(ValueError):
    pass


# What parsing a text that is no JSON raises (JSONDecodeError is a ValueError; the C scanner
# raises StopIteration where no value starts; nesting too deep for the stack, RecursionError).
_NOT_JSON = (_NotJson, ValueError, StopIteration, RecursionError)


def held_text(text: str, source: str = "<text>") -> tuple[list[str], list[int]] | None:
    """The lines of the benchmark text a JSON document holds, and each one's JSON line
    (``origin``: index 0 unused); None when ``text`` is no JSON document, or one whose strings
    hold no lines (then it is read as it is: ``bssl speed -json``).

    A notebook (nbformat 4, or 3) gives its cells in order: markdown and raw cells' text (prose
    that may label the run below), and each code cell's shell command lines (``!openssl speed
    ...``, the body of a ``%%bash`` cell) as prompts followed by its text outputs (``stream``,
    ``text/plain``), each output a block of its own; error tracebacks and rich outputs are left
    out. Any other JSON gives every string value holding a line break, in document order, each
    a block of its own but for a line (a string whose one line break ends it) after a string
    ending in a line break, which it continues (a log written line by line, as JSON Lines); a
    string equal to one given already is not given again. A text of one line holding escaped
    line breaks (``\\n``) is split at them.

    >>> held_text('{"body": "type 16 bytes\\\\nmd5 1.00k\\\\n", "id": 7}')
    (['type 16 bytes', 'md5 1.00k'], [0, 1, 1])
    >>> held_text('{\\n "text": [\\n  "type 16 bytes\\\\n",\\n  "md5 1.00k\\\\n"\\n ]\\n}')
    (['type 16 bytes', 'md5 1.00k'], [0, 3, 4])
    >>> held_text("[root@box ~]# openssl speed md5"), held_text('[{"numCalls": 5}]')
    (None, None)
    """
    if not _START.match(text):
        if "\n" not in text and "\\n" in text:
            return _unescaped(text)
        return None
    got = _blocks(text, source)
    return _joined(got[0]) if got else None


def held_documents(text: str, source: str = "<text>") -> list[tuple[list[str], list[int]]] | None:
    """The texts a JSON document holds as :func:`held_text` gives them, but each block that is a
    text of its own (a post, a step, a field of an API reply) apart: no context crosses them. A
    notebook is one text (a markdown cell labels the cells below it).

    >>> [lines for lines, _ in held_documents('[{"body": "a\\\\nb"}, {"body": "c\\\\nd"}]')]
    [['a', 'b'], ['c', 'd']]
    """
    if not _START.match(text):
        return None
    got = _blocks(text, source)
    if not got:
        return None
    blocks, notebook = got
    return [_joined(blocks)] if notebook else [_joined([block]) for block in blocks]


# A task's result in ansible's output: ``ok: [host] => {`` (its JSON below, up to a ``}`` of
# its own; ``debug`` and ``-v``), ``changed: [host] => {...}`` on one line (``-v``), or an
# ad-hoc result on one line (``-o``: ``host | SUCCESS => {...}``).
_RESULT = re.compile(r"^(?:(?:ok|changed|failed|fatal): \[(?P<host>[^\]\n]{1,80})\](?: => \(item=[^\n]*\))?"
                     r"(?::? [A-Z]+!)?|(?P<adhoc>[\w.@:-]{1,80}) \| [A-Z]+!?) => (?P<json>\{[^\n]*)$", re.M)
# A command's ad-hoc result on one line (``-o``): its output's line breaks escaped.
_ONE_LINE = re.compile(r"(?P<host>[\w.@:-]{1,80}) \| [A-Z]+!? \| rc=-?\d+ \| \(stdout\) (?P<out>.*?)"
                       r"(?: \(stderr\) (?P<err>.*))?")
# (the text of a result: the output of its command, a string or a list of lines: a
# ``*_lines`` list where the string itself is not given, as ``debug: var=out.stdout_lines``
# shows it, or ``debug: msg="{{ out.stdout_lines }}"``)
_RESULT_TEXT = ("stdout", "stderr", "msg")


def held_results(lines: list[str]) -> list[tuple[list[str], list[int], str | None]] | None:
    """The outputs of the task results an ansible log shows (``changed: [host] => {...}``,
    ``host | CHANGED | rc=0 | (stdout) ...``), each as a text of its own named by its host,
    with its lines' map back to the lines of ``lines`` (origin, see :func:`held_text`); the
    lines outside them are one more text, without a name. None when ``lines`` show no result
    that holds text.

    >>> held_results(['changed: [pi] => {"rc": 0, "stdout": "type 16 bytes\\\\nmd5 1.00k"}', "x"])
    [(['x'], [0, 2], None), (['type 16 bytes', 'md5 1.00k'], [0, 1, 1], 'pi')]
    >>> held_results([r"pi | CHANGED | rc=0 | (stdout) type 16 bytes\\nmd5 1.00k (stderr) "])[1][:2]
    (['type 16 bytes', 'md5 1.00k'], [0, 1, 1])
    """
    taken, got, closes = set(), [], None
    for k, line in enumerate(lines):
        if line.endswith(" => {") and closes is None:  # (a pretty result ends at a "}" line)
            closes = [j for j, close in enumerate(lines) if close == "}"]
        found = _result(lines, k, closes) if " => {" in line or "| (stdout) " in line else \
            _yaml_result(lines, k) if "] =>" in line and line[:1] in "ocf" else None
        if found is not None:
            (text_lines, origin), host, end = found
            got.append((text_lines, [0, *(k + n for n in origin[1:])], host))
            taken.update(range(k, end + 1))
    if not got:
        return None
    rest = [j for j in range(len(lines)) if j not in taken]
    return [([lines[j] for j in rest], [0, *(j + 1 for j in rest)], None), *got]


def _result(lines: list[str], k: int, closes: list[int] | None
            ) -> tuple[tuple[list[str], list[int]], str, int] | None:
    """The text a result starting on line ``k`` holds (its lines, each mapped to its line of
    the result, 1 the first), its host and its last line, or None (``closes``: the indices of
    the lines that are a ``}``)."""
    line = lines[k]
    m = _ONE_LINE.fullmatch(line)
    if m is not None:
        text = "\n".join(_ESCAPED.sub(lambda e: _UNESCAPED.get(e[0], e[0]), part)
                         for part in (m["out"], m["err"]) if part is not None)
        return _joined([[_at(text, 1)]]), m["host"], k
    m = _RESULT.match(line)
    if m is None:
        return None
    if line.endswith("}"):
        end = k
    else:
        at = bisect_right(closes or [], k)
        if at == len(closes or []):
            return None
        end = closes[at]
    try:
        values = _document("\n".join([m["json"], *lines[k + 1:end + 1]]), _EVERY_KEY)
    except _NOT_JSON:  # (lists of one-line strings read too)
        return None
    pieces = [p for v in values for p in _result_text(v)]
    return (_joined([pieces]), m["host"] or m["adhoc"], end) if pieces else None


# A task's result as ansible's YAML callbacks print it (``stdout_callback = yaml``,
# ``callback_result_format = yaml``): ``changed: [host] => changed=true`` or ``... =>`` alone,
# the result's keys indented below it, its output in block scalars (``stdout: |-``).
_YAML_RESULT = re.compile(r"(?:ok|changed|failed|fatal): \[(?P<host>[^\]\n]{1,80})\]"
                          r"(?: => \(item=[^\n]*\))? =>(?: (?![{\[])[^\n]*)?")


def _yaml_result(lines: list[str], k: int
                 ) -> tuple[tuple[list[str], list[int]], str, int] | None:
    """The text a YAML result starting on line ``k`` holds, as :func:`_result` gives a JSON
    one's (its ``stdout``/``stderr``/``msg`` and ``cmd``, each line of a block scalar mapped to
    its own line), or None (no result, no indented block below it, no YAML, no text).

    >>> _yaml_result(["changed: [pi] => changed=true", "  rc: 0", "  stdout: |-",
    ...               "    type 16 bytes", "    md5 1.00k", "PLAY RECAP"], 0)
    ((['type 16 bytes', 'md5 1.00k'], [0, 4, 5]), 'pi', 4)
    """
    m = _YAML_RESULT.fullmatch(lines[k].rstrip())
    end = k
    while end + 1 < len(lines) and (lines[end + 1][:1] in (" ", "\t") or not lines[end + 1].strip()):
        end += 1
    while end > k and not lines[end].strip():
        end -= 1  # (blank lines after the block are no part of it)
    if m is None or end == k:
        return None
    import yaml  # (only for an ansible log with YAML results)

    try:
        node = yaml.compose("\n".join(lines[k + 1:end + 1]), Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    pieces = _yaml_pieces(node, 2) if isinstance(node, yaml.MappingNode) else []
    return (_joined([pieces]), m["host"], end) if pieces else None


def _yaml_pieces(node, first: int) -> Block:
    """The pieces of text a YAML result (a composed mapping node; its first line is line
    ``first`` of the result) holds, as :func:`_result_text` reads a JSON one's."""
    import yaml

    def text(value) -> list:
        if isinstance(value, yaml.ScalarNode):
            at = first + value.start_mark.line + (1 if value.style in ("|", ">") else 0)
            return [_at(line + "\n", at + n) for n, line in enumerate(value.value.split("\n"))
                    if value.value] if value.style in ("|", ">") else \
                [_at(value.value + "\n", at)] if value.value else []
        if isinstance(value, yaml.SequenceNode):
            return [p for item in value.value for p in text(item)]
        return []

    keys = {key.value: value for key, value in node.value if isinstance(key, yaml.ScalarNode)}
    command = keys.get("cmd")
    out: Block = []
    if command is not None:
        words = text(command)
        if words:
            out.append(_at("$ " + " ".join(w.rstrip("\n") for w in words) + "\n", words[0].line))
    for name in _RESULT_TEXT:
        value = keys.get(name)
        if value is None or (isinstance(value, yaml.ScalarNode) and not value.value):
            value = keys.get(f"{name}_lines")  # (where the string itself is not given)
            if isinstance(value, yaml.ScalarNode):
                continue  # ("<omitted>")
        out += text(value) if value is not None else []
    return out


class _Every(frozenset):
    """Every key (a ``keep`` for :func:`_document` that reads all of them, line by line)."""

    def __contains__(self, key) -> bool:
        return True


_EVERY_KEY = _Every()


def _result_text(value) -> Block:
    """The pieces of text a task's result holds (see ``_RESULT_TEXT``), in its order."""
    if isinstance(value, list):
        return [p for v in value for p in _result_text(v)]
    if not isinstance(value, dict):
        return []
    command = value.get("cmd")  # (the command the result ran: its options bind its run)
    if isinstance(command, list):
        command = " ".join(c for c in command if isinstance(c, str))
    out: Block = [_at(f"$ {command}\n", getattr(value["cmd"], "line", 1))] if command else []
    for key, v in value.items():
        base = key[:-6] if key.endswith("_lines") else key
        if base.split(".")[-1] not in _RESULT_TEXT or base != key and base in value:
            if isinstance(v, (dict, list)):
                out += _result_text(v)  # (a loop's results, a nested result)
        elif isinstance(v, _Str) and v:
            out.append(_at(v if v.endswith("\n") else v + "\n", v.line))
        elif isinstance(v, list):
            out += [_at(p + "\n", p.line) for p in v if isinstance(p, _Str)]
    return out


def _blocks(text: str, source: str) -> tuple[list[Block], bool] | None:
    """The blocks of text a JSON document holds, and whether it is a notebook; None when it
    is no JSON or holds no lines."""
    if "\\n" not in text and "\\r" not in text:
        return None  # (no string holds a line break: a JSON string must escape it)
    # (a notebook's values that hold no cell text, widget state, plots, images, are skipped
    # by the C scanner: cheap, however many tokens they hold)
    if _CAST.match(text):  # (an asciinema recording: one terminal's output)
        try:
            values = _document(text, _EVERY_KEY)
        except _NOT_JSON:
            return None
        block = _cast(values)
        return ([block], True) if block else None
    maybe_notebook = '"nbformat"' in text
    try:
        values = _document(text, _NOTEBOOK_KEYS if maybe_notebook else None)
        notebook = len(values) == 1 and _is_notebook(values[0])
        if maybe_notebook and not notebook:
            values = _document(text)
    except _NOT_JSON:
        return None
    blocks = _notebook(values[0], source) if notebook else _string_blocks(values)
    return (blocks, notebook) if blocks else None


# An asciinema recording (asciicast v2 or v3): a header object on the first line, then one
# event a line, ``[time, "o", "text"]``, whose texts joined are what the terminal printed.
_CAST = re.compile(r'[ \t\ufeff]*+\{[^\n]*"version":[ ]?[23]\b[^\n]*\n[ \t]*+\[')


def _cast(values: list) -> Block:
    """The lines an asciinema recording printed (its ``"o"`` events' texts joined), each a
    piece of the JSON line where it began."""
    events = [v for v in values[1:] if isinstance(v, list) and len(v) >= 3 and v[1] == "o"
              and isinstance(v[2], _Str)]
    text = "".join(e[2] for e in events)
    starts, pos = [], 0  # (the offset where each event's text begins, and its JSON line)
    for e in events:
        starts.append((pos, e[2].line))
        pos += len(e[2])
    out: Block = []
    k, begin = 0, 0
    for line in text.split("\n") if text else []:  # (only LF ends a line: a CR redraws it)
        while k + 1 < len(starts) and starts[k + 1][0] <= begin:
            k += 1
        out.append(_at(line + "\n", starts[k][1]))
        begin += len(line) + 1
    return out


def is_document(text: str) -> bool:
    """Whether ``text`` is a JSON document (an object, an array, a string; or JSON Lines).

    >>> is_document('{"body": "md5 1.00k"}'), is_document("[root@box ~]# openssl speed md5")
    (True, False)
    """
    if not _START.match(text):
        return False
    try:
        json.loads(text)
        return True
    except (ValueError, RecursionError):
        pass
    try:  # (JSON Lines)
        return "\n" in text and bool(_document(text))
    except _NOT_JSON:
        return False


def _unescaped(text: str) -> tuple[list[str], list[int]]:
    lines = _text.split_lines(_ESCAPED.sub(lambda m: _UNESCAPED.get(m[0], m[0]), text))
    return lines, [0] + [1] * len(lines)


# --- parsing, with the line of each string ------------------------------------------------------

def _document(text: str, keep: frozenset | None = None) -> list:
    """The JSON values of ``text``: one, or one a line (JSON Lines: objects or arrays only);
    with ``keep``, the values of other keys are None (skipped unread: checked, not built)."""
    lines = _Lines(text, keep)
    end = 0
    pos = _BLANKS.match(text).end()
    values = []
    while pos < len(text):
        if values and "\n" not in text[end:pos]:
            raise _NotJson  # (two values on one line: no JSON Lines)
        value, end = _value(text, pos, lines)
        values.append(value)
        pos = _BLANKS.match(text, end).end()
    if len(values) > 1 and not all(isinstance(v, (dict, list)) for v in values):
        raise _NotJson
    return values


class _Lines:
    """The 1-based line of a position of ``text``, for positions that only grow (linear)."""

    def __init__(self, text: str, keep: frozenset | None = None):
        self.text, self.pos, self.line = text, 0, 1
        self.keep = keep  # the keys whose values are read (None: all)

    def __call__(self, pos: int) -> int:
        self.line += self.text.count("\n", self.pos, pos)
        self.pos = pos
        return self.line


def _value(s: str, pos: int, lines: _Lines):
    """``(value, end)`` of the JSON value at ``pos``; strings are :class:`_Str`, other scalars
    None (only strings can hold text)."""
    c = s[pos:pos + 1]
    if c == '"':
        value, end = scanstring(s, pos + 1)
        return _at(value, lines(pos)), end
    if c == "{" or c == "[":
        if lines.keep is None:  # (read in C first: most containers of a large document are
            # no text, or on one line, where each of its strings is on that line)
            value, end = _scan(s, pos)
            if s.find("\\n", pos, end) < 0 and s.find("\\r", pos, end) < 0:
                return None, end
            if s.find("\n", pos, end) < 0:
                return _on_line(value, lines(pos)), end
        return _object(s, pos + 1, lines) if c == "{" else _array(s, pos + 1, lines)
    m = _SCALAR.match(s, pos)
    if m is None:
        raise _NotJson
    return None, m.end()


def _on_line(value, line: int):
    """A JSON value all on one line, its strings as :class:`_Str` of that line."""
    if isinstance(value, str):
        return _at(value, line)
    if isinstance(value, dict):
        return {k: _on_line(v, line) for k, v in value.items()}
    if isinstance(value, list):
        return [_on_line(v, line) for v in value]
    return None


def _object(s: str, pos: int, lines: _Lines) -> tuple[dict, int]:
    obj: dict = {}

    def member(pos: int) -> int:
        if s[pos:pos + 1] != '"':
            raise _NotJson
        key, pos = scanstring(s, pos + 1)
        pos = _BLANKS.match(s, pos).end()
        if s[pos:pos + 1] != ":":
            raise _NotJson
        pos = _BLANKS.match(s, pos + 1).end()
        if lines.keep is not None and key not in lines.keep:
            obj[key] = None
            return _scan(s, pos)[1]  # (the C scanner: a value no reader wants)
        obj[key], pos = _value(s, pos, lines)
        return pos

    return obj, _items(s, pos, "}", member)


def _array(s: str, pos: int, lines: _Lines) -> tuple[list, int]:
    arr: list = []

    def item(pos: int) -> int:
        value, pos = _value(s, pos, lines)
        arr.append(value)
        return pos

    return arr, _items(s, pos, "]", item)


def _items(s: str, pos: int, close: str, item) -> int:
    """The end of a container whose items (read by ``item(pos) -> end``) start at ``pos``,
    separated by commas, up to ``close``."""
    pos = _BLANKS.match(s, pos).end()
    if s[pos:pos + 1] == close:
        return pos + 1
    while True:
        pos = _BLANKS.match(s, item(pos)).end()
        c = s[pos:pos + 1]
        if c == close:
            return pos + 1
        if c != ",":
            raise _NotJson
        pos = _BLANKS.match(s, pos + 1).end()


# --- what a document holds ----------------------------------------------------------------------

Block = list  # the strings of one block of text, each a _Str (its text, its line)


def _joined(blocks: list[Block]) -> tuple[list[str], list[int]]:
    """Blocks -> their lines, a blank line between two blocks, and each line's JSON line.

    A block's pieces are one text (as nbformat joins a list of lines, as a stream's chunks
    are shown): a line may begin in one piece and end in the next; it comes from the JSON line
    where it began.
    """
    out: list[str] = []
    origin = [0]
    for block in blocks:
        if out:
            out.append("")
            origin.append(block[0].line)
        open_line = None  # (text, JSON line) of a line a piece left unfinished
        for piece in block:
            got = _text.split_lines(piece)
            first = piece.line
            if open_line is not None:
                got[0] = open_line[0] + got[0]
                first = open_line[1]
            *whole, last = got
            out += whole
            origin += [first] + [piece.line] * (len(whole) - 1) if whole else []
            open_line = (last, first if not whole else piece.line) if last else None
        if open_line is not None:
            out.append(open_line[0])
            origin.append(open_line[1])
    return out, origin


def _string_blocks(values: list) -> list[Block]:
    """Every string value holding a line break, in document order (see :func:`held_text`)."""
    blocks: list[Block] = []
    seen: set[str] = set()
    todo = list(reversed(values))
    going_on = False  # the last string given ended in a line break: a line after it goes on
    while todo:
        v = todo.pop()
        if isinstance(v, dict):
            todo.extend(reversed(v.values()))
        elif isinstance(v, list):
            todo.extend(reversed(v))
        elif isinstance(v, str) and ("\n" in v or "\r" in v):
            if len(v) > 1 and v in seen:
                continue
            seen.add(v)
            if going_on and v.find("\n") == len(v) - 1:  # (one line, going on from the last)
                blocks[-1].append(v)
            else:
                blocks.append([v])
            going_on = v.endswith("\n")
    return blocks


def _is_notebook(doc) -> bool:
    return isinstance(doc, dict) and "nbformat" in doc and (
        isinstance(doc.get("cells"), list) or isinstance(doc.get("worksheets"), list))


def _notebook(nb: dict, name: str) -> list[Block]:
    """A notebook's cells in order: prose, then each code cell's prompts and text outputs."""
    cells = nb.get("cells")
    if cells is None:  # (nbformat 3: cells in worksheets)
        cells = [c for ws in nb["worksheets"] if isinstance(ws, dict)
                 for c in ws.get("cells", []) or []]
    blocks: list[Block] = []
    for cell in cells:
        if not isinstance(cell, dict):
            continue
        source = _pieces(cell.get("source", cell.get("input")))
        if cell.get("cell_type") != "code":  # markdown, raw (and nbformat 3's headings)
            if source:
                blocks.append(source)
            continue
        prompts = _prompts(source)
        outputs = _outputs(cell.get("outputs"))
        speed = sum(_text.parse_prompt(p.rstrip("\n")) is not None for p in prompts)
        if speed > 1 and outputs:  # (one output for all: whose options are whose, none can say)
            warnings.warn(
                f"{name}: line {prompts[0].line}: a cell runs {speed} openssl speed commands and "
                f"prints their outputs as one: no command's options are bound to a run (run "
                f"each command in a cell of its own)", IngestWarning, stacklevel=2)
            prompts = []
        if prompts and outputs:
            outputs[0] = prompts + outputs[0]
        elif prompts:
            outputs = [prompts]  # (a command without output: its options say nothing)
        blocks += outputs
    return blocks


def _pieces(value) -> Block:
    """nbformat's multi-line string (one string, or a list of lines) as a block."""
    if isinstance(value, _Str):
        return [value] if value else []
    if isinstance(value, list):
        return [v for v in value if isinstance(v, _Str) and v]
    return []


def _prompts(source: Block) -> Block:
    """The shell command lines of a code cell, written as a terminal shows them (``$ cmd``):
    ``!cmd`` (``%sx cmd``) lines, and every line of a ``%%bash`` (``%%sh``, ``%%script bash``)
    cell."""
    lines: list = []
    for piece in source:
        for line in piece.splitlines():
            if lines and lines[-1][1].endswith("\\"):  # (a command continued on this line)
                lines[-1] = (lines[-1][0], lines[-1][1][:-1].rstrip() + " " + line.strip())
            else:
                lines.append((piece, line))
    shell = bool(lines) and _SHELL_MAGIC.match(lines[0][1].strip()) is not None
    out = []
    for piece, line in lines[1:] if shell else lines:
        command = line.strip()
        if not shell:
            m = _LINE_MAGIC.match(command)
            if m is None:
                continue
            command = command[m.end():].strip()
        if command and not command.startswith("#"):
            out.append(_at(f"$ {command}\n", piece.line))
    return out


def _outputs(outputs) -> list[Block]:
    """A code cell's outputs that hold text, each a block; its streams are one block, in the
    order their chunks came (a line that one stream left open ends where the other begins)."""
    blocks: list[Block] = []
    stream = None  # the stream (stdout, stderr) of the last block's last chunk, if it is one
    for output in outputs if isinstance(outputs, list) else []:
        if not isinstance(output, dict) or output.get("output_type") not in _TEXT_OUTPUTS:
            continue  # (an error's traceback is Python's, not the benchmark's; HTML, images)
        if output["output_type"] == "stream":
            pieces = _pieces(output.get("text"))
            if not pieces:
                continue
            if stream is None:
                blocks.append([])
            elif output.get("name", output.get("stream")) != stream and \
                    not blocks[-1][-1].endswith("\n"):
                blocks[-1].append(_at("\n", pieces[0].line))  # (the other stream's line ends)
            blocks[-1] += pieces
            stream = output.get("name", output.get("stream"))
            continue
        data = output.get("data", output)  # (nbformat 3: "text" beside output_type)
        pieces = _pieces(data.get("text/plain", data.get("text"))) if isinstance(data, dict) else []
        if pieces:
            blocks.append(_shown_string(pieces))
            stream = None
    return blocks


def _shown_string(pieces: Block) -> Block:
    """A ``text/plain`` output: the string or bytes it shows by its repr (a cell returning
    ``subprocess.check_output(...)``), else as it is."""
    shown = "".join(pieces).strip()
    if shown[:1] not in "'\"(b" or "\\n" not in shown:
        return pieces
    try:
        value = ast.literal_eval(shown)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return pieces
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    return [_at(value, pieces[0].line)] if isinstance(value, str) else pieces


def _at(text: str, line: int) -> _Str:
    out = _Str(text)
    out.line = line
    return out
