"""Where a run starts and what it is called, for tools that print one record a line.

Why this module exists: ``bssl speed``, ``cryptsetup benchmark`` and the benchmark programs of
wolfSSL and mbed TLS print one measurement a line, with no table around it. Their readers
agree on what a run is (:class:`RecordRuns`): the records between two lines that are not
records (a heading, prose, a command), and a record that repeats one already in the run starts
the next (the same benchmark run again, pasted below). The run's label is the last line of
prose above it that can be one (:func:`cipherlab.readers._context.prose_label`), else the host
of the prompt that ran the tool (:func:`~cipherlab.readers._context.prompt_machine`), both
below the last heading above it.
Blank lines and fences are no prose: they neither end a run nor label one.

Examples
--------
>>> runs = RecordRuns()
>>> runs.text("**Laptop**")
>>> runs.add([{"algorithm": "md5"}], {"md5"}, {"tool": "demo"}).meta
{'label': 'Laptop', 'tool': 'demo'}
>>> runs.add([{"algorithm": "md5"}], {"md5"}, {"tool": "demo"}) is runs.runs[1]  # (md5 again)
True
>>> [len(r.cells) for r in runs.runs], runs.runs[1].meta["label"] is None
([1, 1], True)
>>> runs = RecordRuns(command="cryptsetup")
>>> runs.text("root@nas01:~# cryptsetup benchmark")
>>> runs.add([{"algorithm": "aes-256-xts"}], {"aes-256-xts"}, {}).meta
{'label': 'nas01', 'rule': 'label: host of its prompt'}
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from cipherlab.model import Run
from cipherlab.readers._context import HOST_RULE, heading, prompt_machine, prose_label

__all__ = ["RecordRuns"]



def _is_heading(line: str) -> bool:
    """A Markdown ``#`` heading (a shell comment bounds as well); a bold line, a caption, not."""
    h = heading(line)
    return h is not None and h[0] <= 6 and bool(h[1])


class RecordRuns:
    """The runs of one text's records, opened as records and prose come (in text order)."""

    def __init__(self, command: str | None = None) -> None:
        #: A word the command line running the tool holds (its prompt's host labels a run).
        self.command = command
        self.runs: list[Run] = []
        #: The lines of prose since the last run opened: its label's.
        self.prose: list[str] = []
        self._run: Run | None = None
        self._seen: set[Hashable] = set()
        self._moved_on = True

    def __repr__(self) -> str:
        return f"RecordRuns({len(self.runs)} runs, {sum(len(r.cells) for r in self.runs)} cells)"

    def text(self, line: str | None = None) -> None:
        """A line that is no record: the next record opens a run; prose (``line``) may label it."""
        self._moved_on = True
        if line:
            self.prose.append(line)

    def label(self) -> dict[str, str | None]:
        """The label of a run opened now (and the rule that found it, for a host): the nearest
        line of prose above that can be one, else the host of the tool's prompt, both looked
        for below the last heading (a caption above it is another section's)."""
        start = max((i for i, line in enumerate(self.prose) if _is_heading(line)), default=0)
        scope = self.prose[start:][::-1]
        label = next(filter(None, map(prose_label, scope)), None)
        if label is not None or self.command is None:
            return {"label": label}
        host = next(filter(None, (prompt_machine(p) for p in scope if self.command in p)), None)
        return {"label": host, "rule": f"label: {HOST_RULE}"} if host else {"label": None}

    def add(self, cells: Iterable[dict[str, Any]], keys: set[Hashable],
            meta: dict[str, Any]) -> Run:
        """Put a record's ``cells`` (which measure ``keys``) in the current run, or open one
        with ``meta`` (and the label, unless ``meta`` gives one) when text came between or a
        key is in the run already. Returns the run."""
        if self._run is None or self._moved_on or keys & self._seen:
            self._run = Run(meta={**self.label(), **meta})
            self.runs.append(self._run)
            self._seen, self.prose, self._moved_on = set(), [], False
        self._seen |= keys
        self._run.cells.extend(cells)
        return self._run
