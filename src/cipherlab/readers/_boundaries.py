"""Where one run ends and the next begins: every rule, in one ordered list (layer 4).

Why this module exists: a text holds many runs, and nothing but the text says where one ends.
Each line (or block of lines) that may start a run is an :class:`Event` (a progress record, a
``-mr`` prompt, a header block, a command line...); :data:`BOUNDARIES` is the ordered tuple of
small named predicates that say whether it opens a new run, and
:meth:`_RunBoundaries.boundary` asks them in order (the first that holds names the boundary).
The line pass (``_openssl``) and the block readers (``_blocks``) ask the same question the
same way, so both engines open the same runs; :meth:`_RunBoundaries.open` is the only place
where a run is opened. The name of an inferred boundary (not the printed structure of a
capture, such as a header block) goes to the tidy table's ``rule`` column.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Callable, NamedTuple

from cipherlab.readers._context import HOST_RULES, MASK_RULE, TEMPLATE_SECTION, heading, label_conditions
from cipherlab.readers._runs import ALG, LINE, OP, OPS, SIZES, VALUES, _Run
from cipherlab.readers._tables._facts import VERSION as _VERSION, prose_cpu  # (the one reader)

# The kinds of event that may open a run.
PROGRESS = "progress"            # a Doing line (or a block of them)
MR_PROMPT = "mr prompt"          # a -mr +DT/+DN prompt (or a block of +DT/+R pairs)
MR_PK_PROMPT = "mr pk prompt"    # a -mr +DTP/+DNP public-key prompt
MR_TABLE = "mr table"            # a -mr +H/+F... table line
VERSION = "version"              # the first line of a header block
HEADER_LINE = "header line"      # another line of one (built on:, compiler:...; key: its field)
SYM_HEADER = "sym header"        # a `type 16 bytes ...` header
PK_HEADER = "pk header"          # a `sign verify sign/s verify/s` header
PK_ROW = "pk row"                # a public-key table row
PROMPT = "prompt"                # a command line running openssl speed, or a harness's header
FORKED = "forked"                # `Forked child N`
SYM_ROW = "sym row"              # a throughput table row (key: its algorithm)
LIST_CELL = "list cell"          # a cell retyped on a line of its own (key: algorithm, op, size,
#                                  and the feature it switches)


class Event(NamedTuple):
    """What a line (or a block of lines) brings to the current run: its ``kind`` and, for a
    record, its cell ``key``, ``count``, ``block`` and ``seconds``, and the ``-multi`` child that
    sent it (``Got: ... from N``)."""

    kind: str
    key: tuple | None = None
    count: int | None = None
    block: int | None = None
    seconds: float | None = None
    child: int | None = None


class Boundary(NamedTuple):
    """A rule of where a run ends: its ``name``, the ``events`` it judges, its ``test``
    (parser, current run, event) -> bool, the events after which the new run is the *next* one
    (it takes the trailing progress records that are not the old run's, see
    :meth:`_RunBoundaries.next_run`), and whether it is ``inferred`` (kept in ``rule``) rather
    than printed structure."""

    name: str
    events: frozenset
    test: Callable
    next: frozenset = frozenset()
    inferred: bool = True
    joins: bool = False  # the event joins the earlier run the test found, not a new one


def _no_run(p, run: _Run | None, ev: Event) -> bool:
    """Nothing read yet: the first record, header or command opens the first run."""
    return run is None


def _header_block_again(p, run: _Run, ev: Event) -> bool:
    """A header block (``OpenSSL 1.1.1w ...``, ``version: 3.0.2``) after the run's own header
    block or cells is the next run's (a ``-multi`` parent's header follows its children's
    ``Got:`` lines: same run); not after a lone version line of the same version, which
    ``openssl version`` printed (``openssl version; openssl speed ...``)."""
    if run.rows or run.pk or "harness" in run.dialects:
        return True
    return run.has_version and not (ev.key is not None and not run.has_cells() and
                                    ev.key == (run.meta.get("tool"), run.meta.get("tool_version"))
                                    and not _HEADER_FIELDS & run.meta.keys())


_HEADER_FIELDS = frozenset({"built_on", "options", "compiler", "cpuinfo", "platform"})


def _header_line_after_a_table(p, run: _Run, ev: Event) -> bool:
    """A line of a header block (``compiler: ...``, ``CPUINFO: ...``: one whose ``version:``
    line was not pasted) after the run's table, with text between or stating a fact the run
    has already: openssl prints the header block above its table, so it is the next run's
    (never new facts of the run above)."""
    return bool(run.rows or run.pk) and (ev.key in run.meta or p.prose_after(run))


def _table_header_again(p, run: _Run, ev: Event) -> bool:
    """A ``type 16 bytes ...`` header after a table of rows under a header: the next table is
    another run's (``-bytes 16384`` then ``-bytes 8192``); so is one after rows read without
    a header (``| tail -1``'s): openssl prints its header above its rows."""
    return bool(run.rows and (run.header_used or not (run.sizes or run.mr_sizes))) or \
        "harness" in run.dialects


def _command_line(p, run: _Run, ev: Event) -> bool:
    """A command line (``$ openssl speed -evp md5``) or a harness's header after anything of
    the run's: what follows is the output of that command."""
    return run.has_content()


def _loops_output(p, run: _Run, ev: Event) -> bool:
    """Output after a loop's command line, while the current run is none the loop printed
    (the run above the loop), or, each run's output cut to its last line (``| tail -1``), a
    row after the run's row: each iteration is a run of its own (the process is)."""
    loop = p.loop
    if loop is None:
        return False
    if not p.in_loop(run):
        return run.has_content()
    return loop["tail1"] and ev.kind == SYM_ROW and bool(run.rows)


def _forked_after_cells(p, run: _Run, ev: Event) -> bool:
    """``Forked child 0`` after the run's cells: a ``-multi`` run starts."""
    return run.has_cells()


def _child_after_its_parents_table(p, run: _Run, ev: Event) -> bool:
    """A ``-multi`` child's ``Got: ...`` line after the parent's table: the parent prints every
    child's lines before its header and table (both on stdout), so it is another run's."""
    return ev.child is not None and bool(run.rows or run.pk)


def _text_moved_on(p, run: _Run, ev: Event) -> bool:
    """Records or a table header after the run's cells, with a line of prose, a ``#`` marker or
    an exit status between: the text moved on (``with:`` table, ``without:`` table). A
    ``-multi`` child's records belong to its parent, whatever is between."""
    return ev.child is None and run.has_cells() and p.prose_after(run)


def _after_a_printed_table(p, run: _Run, ev: Event) -> bool:
    """A ``-mr`` record after the run's printed table (or a Python harness's rows): ``-mr``
    prints no tables, so it is the output of another run. Only a ``-multi`` parent's children
    send records that may come after its table (their stderr pasted below its stdout)."""
    return ev.child is None and ("text" in run.dialects or "harness" in run.dialects) \
        and not run.multi


def _record_of_a_table_above(p, run: _Run, ev: Event) -> bool:
    """A record, after the run's table, of a cell of a table above it that has no record yet:
    that run's (``cmd 2>err`` twice then ``cat err``, a notebook's stdout before its stderr:
    the records of both tables follow both); see :meth:`_RunBoundaries.table_above`."""
    return ev.child is None and run.has_cells() and p.table_above(ev) is not None


def _after_an_interrupt(p, run: _Run, ev: Event) -> bool:
    """Anything openssl prints after a ``^C`` stopped the run (``Doing ... blocks: ^C``, or a
    ``^C`` line): the run printed its last, so it is another run's (the command run again)."""
    return run.killed


def _record_repeats(p, run: _Run, ev: Event) -> bool:
    """A record (or a public-key row) of a cell the run measured already: one run measures
    each cell once, so it is the next run's (``openssl speed md5`` twice; also after a run
    that has records only, one stopped with ^C before its table, where the record is of a
    block size: a public-key record's key does not tell curves of one size apart)."""
    if ev.kind == PK_ROW:
        return any(k in run.pk_keys() for k in ev.key)
    return ev.child is None and ev.key in run.done and (run.has_cells() or ev.block is not None)


def _not_a_record_of_the_table(p, run: _Run, ev: Event) -> bool:
    """A record, after the run's table, that is not the record of one of its cells: no cell
    has its key, or its count and seconds do not give the cell's printed rate (see
    :func:`foreign`); ``-mr`` prompts are judged so only in ``-multi`` runs (by key)."""
    if ev.child is not None or not run.has_cells() or (ev.kind != PROGRESS and not run.multi):
        return False
    return foreign(run, _printed_rates(run), ev.key, ev.count, ev.block, ev.seconds)


def _cell_again(p, run: _Run, ev: Event) -> bool:
    """A list row (``- aes-128-gcm, 16 bytes: 712 MB/s``) of a cell the run has already: one
    run measures each cell once, so it is the next run's (a second machine's list)."""
    algorithm, op, size, switched = ev.key
    if switched != run.switched:
        return False  # (a cell in another state of a switched feature: its run's, switched_run)
    return any(r[ALG] == algorithm and r[OP] == op and size in r[SIZES] for r in run.rows)


def _row_again_after_prose(p, run: _Run, ev: Event) -> bool:
    """A table row of an algorithm the run's table has already, with prose between (``and
    with OPENSSL_ia32cap=...:`` then the row again, its header not repeated): the next run's,
    under the same header."""
    return bool(run.rows) and p.prose_after(run) and any(r[ALG] == ev.key for r in run.rows)


_RECORDS = frozenset({PROGRESS, MR_PROMPT, MR_PK_PROMPT})
#: Every rule of where a run ends, in the order they are asked (the first that holds wins).
BOUNDARIES: tuple[Boundary, ...] = (
    Boundary("first run", frozenset({PROGRESS, MR_PROMPT, MR_PK_PROMPT, MR_TABLE, VERSION,
                                     HEADER_LINE, SYM_HEADER, PK_HEADER, PK_ROW, PROMPT, FORKED,
                                     LIST_CELL}),
             _no_run, inferred=False),
    Boundary("a loop's output", frozenset({PROGRESS, MR_PROMPT, MR_PK_PROMPT, MR_TABLE, VERSION,
                                          HEADER_LINE, SYM_HEADER, PK_HEADER, PK_ROW, SYM_ROW,
                                          FORKED, LIST_CELL}), _loops_output, inferred=False),
    Boundary("after an interrupt", frozenset({PROGRESS, MR_PROMPT, MR_PK_PROMPT, MR_TABLE, VERSION,
                                              HEADER_LINE, SYM_HEADER, PK_HEADER, PK_ROW, SYM_ROW,
                                              FORKED, LIST_CELL}), _after_an_interrupt, inferred=False),
    Boundary("header block again", frozenset({VERSION}), _header_block_again,
             next=frozenset({VERSION}), inferred=False),
    Boundary("header line after a table", frozenset({HEADER_LINE}), _header_line_after_a_table,
             next=frozenset({HEADER_LINE}), inferred=False),
    Boundary("table header again", frozenset({SYM_HEADER}), _table_header_again, inferred=False),
    Boundary("command line", frozenset({PROMPT}), _command_line, inferred=False),
    Boundary("forked after cells", frozenset({FORKED}), _forked_after_cells, inferred=False),
    # (children send their results only, +H/+F: the rule is asked of those records alone)
    Boundary("child after its parent's table", frozenset({MR_TABLE}),
             _child_after_its_parents_table, inferred=False),
    Boundary("text moved on", _RECORDS | {PK_HEADER, LIST_CELL}, _text_moved_on),
    Boundary("after a printed table", frozenset({MR_PROMPT, MR_PK_PROMPT, MR_TABLE}),
             _after_a_printed_table),
    Boundary("record of a table above", frozenset({PROGRESS}), _record_of_a_table_above,
             inferred=False, joins=True),
    Boundary("record repeats", frozenset({PROGRESS, MR_PROMPT, PK_ROW}), _record_repeats,
             next=frozenset({PROGRESS, PK_ROW})),
    Boundary("not a record of the table", _RECORDS, _not_a_record_of_the_table,
             next=frozenset({PROGRESS})),
    Boundary("row again after prose", frozenset({SYM_ROW}), _row_again_after_prose),
    Boundary("cell again", frozenset({LIST_CELL}), _cell_again),
)
REPEATS = next(b for b in BOUNDARIES if b.name == "record repeats")
# The rules of each kind of event, in order (asked once per event).
_BY_EVENT: dict[str, tuple[Boundary, ...]] = {
    kind: tuple(b for b in BOUNDARIES if kind in b.events)
    for kind in frozenset().union(*(b.events for b in BOUNDARIES))}


class _RunBoundaries:
    """Which run a line joins, and when the text shows that the next one has begun: the run
    rules of :class:`~cipherlab.readers._openssl._Parser` (a mixin of it)."""

    # The runs above the current one that may still take records (see table_above):
    # [current run, index of the first, its printed rates, keys it took], or None.
    above: list | None = None

    def boundary(self, ev: Event) -> Boundary | None:
        """The first rule of :data:`BOUNDARIES` by which ``ev`` opens a new run, else None."""
        run = self.cur
        for b in _BY_EVENT[ev.kind]:
            if b.test(self, run, ev):
                return b
        return None

    def open(self, i: int, ev: Event) -> _Run:
        """The run that line ``i``'s event ``ev`` joins: a new run when a rule says so (the
        only place where runs are opened), else the current run. Its last line is not moved."""
        b = self.boundary(ev)
        if b is None:
            if ev.kind == PROGRESS:
                self.records_joined(self.cur)
            return self.cur
        if b.joins:  # (the current run's text goes on: records are no prose)
            self.cur.last = i
            if ev.kind == PROGRESS:
                self.records_joined(self.runs[self.above[1]])
            return self.runs[self.above[1]]
        return self.open_at(i, b, ev.kind)

    def records_joined(self, run: _Run) -> None:
        """Progress records of ``run``'s table joined it after an elapsed notice that waits
        for the next run (:meth:`bind`): its stderr pasted below its stdout, the notice first
        (ansible, ``cmd 2>&1 >out``), so the notice is this run's."""
        if "elapsed" in self.pending_context and run.has_cells():
            bind_context(run, {"elapsed": self.pending_context.pop("elapsed")})

    def table_above(self, ev: Event) -> _Run | None:
        """The run above the current one whose record ``ev`` is, or None.

        Tables printed before all their records (a notebook writes a cell's stdout before its
        stderr; ``cmd 2>err; ...; cat err`` too): the records follow the tables in the runs'
        order, so a record after the current run's table may be a record of a run above it
        that has no record yet (none since the last run that has records). It is that run's
        when the run has the cell, no record of it yet, and its count and seconds give the
        cell's printed rate (as :func:`foreign` judges records after a table); a record of
        none of them ends the search for the current run (the records are in order). The
        state advances with the records: it is asked once per record.
        """
        runs, cur = self.runs, self.cur
        if self.above is None or self.above[0] is not cur:
            j = len(runs) - 1  # (the current run is the last; one with records takes none)
            while j and not cur.has_progress() and runs[j - 1].has_cells() and \
                    not runs[j - 1].has_progress():
                j -= 1
            self.above = [cur, j, None, None]
        state = self.above
        _, j, rates, taken = state
        if ev.count is not None:  # (a record without its result cannot be checked)
            for m in range(j, len(runs) - 1):
                if m != j or rates is None:
                    rates, taken = _printed_rates(runs[m]), set()
                if ev.key in rates and ev.key not in taken and not runs[m].multi and \
                        not foreign(runs[m], rates, ev.key, ev.count, ev.block, ev.seconds):
                    taken.add(ev.key)  # (runs above m took no record: theirs were not pasted)
                    state[1:] = m, rates, taken
                    return runs[m]
        state[1:] = len(runs) - 1, None, None  # (a record of none: the search is over)
        return None

    def open_at(self, i: int, b: Boundary, kind: str) -> _Run:
        """The run that rule ``b`` opens at line ``i`` for an event of ``kind``."""
        return self.next_run(i, b) if kind in b.next else self.new_run(i, b)

    # --- runs ---------------------------------------------------------------------------
    def run(self, i: int) -> _Run:
        """The current run (the first is opened at line ``i``), its last line now ``i``."""
        if self.cur is None:
            self.new_run(i, BOUNDARIES[0])
        self.cur.last = i
        return self.cur

    def new_run(self, i: int, rule: Boundary | str) -> _Run:
        prev_end = self.cur.last if self.cur is not None else -1
        found = self.find_label(i, prev_end)
        conds = self.marker[1] if self.marker and self.marker[0] > prev_end else {}
        self.flush_pending()
        self.cur = run = _Run(i, found.text if found else None, dict(conds))
        run.label_rule = found.rule if found and found.text else None
        if found and found.text and found.rule not in HOST_RULES:  # (a host names no CPU)
            run.meta.update(prose_cpu(found.text))  # ("Xeon E5-2680 @ 2.70GHz": cpu, clock_hz)
            run.meta.update(label_conditions(found.text))  # ("Ohne AES-NI": aesni off)
        if isinstance(rule, str):
            run.boundary = rule
        elif rule.inferred:
            run.boundary = rule.name
        if self.pending_context:  # notices printed before this run's output
            bind_context(run, self.pending_context)
            self.pending_context = {}
        if run.prose_version is None and self.stated_version is not None:
            run.prose_version = self.standing_version(i)
        self.runs.append(run)
        if self.loop is not None:  # (a loop's output: its command's options, its prompt's host)
            self.loop_run(run)
        elif self.loop_machine is not None:  # (a command list's: the host of its prompt)
            self.name_machine(run, self.loop_machine)
        return run

    def state_version(self, i: int, version) -> None:
        """The prose on line ``i`` stated the tool ``version`` (False: two it cannot tell
        apart) of the run below it, and of the runs after that (:meth:`standing_version`)."""
        at, h = next(((j, h) for j, h in reversed(self.headings) if j < i), (None, None))
        level = None if h is None or h.text is None and TEMPLATE_SECTION.match(
            (heading(self.lines[at - 1]) or (0, ""))[1]) else h.level
        # (stated in a post's "## Test setup" section: for every run below, as the document
        # tables read it)
        self.stated_version = (i, version, level)

    def standing_version(self, i: int):
        """The version the prose stated above a run opened at line ``i`` and the runs before it
        ("Tested with OpenSSL 1.1.1w", then two runs: both ran it), as the document tables read
        it: above every heading, for every run below it; in a section, for the runs of that
        section. A heading of the section's level or above, or a byline (another post), ends
        it; a run's own version line wins (see ``_Assembly``)."""
        at, version, level = self.stated_version
        if any(at < b < i for b in self.bylines) or level is not None and any(
                at < j < i and h.level <= level for j, h in self.headings):
            return None
        return version or None

    def next_run(self, i: int, rule: Boundary) -> _Run:
        """A new run at line ``i`` that the text shows is the next one (a header block, or a
        record repeating one of the current run's): it takes the current run's trailing
        progress records that are not that run's (see :func:`trailing_progress`)."""
        cur = self.cur  # (a run without cells that a record repeats keeps its records: ^C
        moved = trailing_progress(cur) if cur is not None and (  # stopped it before its table)
            cur.has_cells() or rule is not REPEATS) else []
        run = self.new_run(i, rule)
        run.progress.extend(moved)
        return run

    def labelled_run(self, run: _Run, i: int, label: str) -> _Run:
        """The run of rows that name the machine ``label`` they ran on, from line ``i``: the
        current run when none of its rows named another, else a new run of the same table and
        header block (one machine per run)."""
        if run.row_label is None and not run.rows and not run.pk:
            _name_machine(run, label)
            return run
        new = self.sibling_run(run, i, "machine named by its rows")
        _name_machine(new, label)
        return new

    def switched_run(self, run: _Run, i: int, condition: tuple[str, str] | None, algorithm: str) -> _Run:
        """The run of rows that switch a CPU feature (``aes-128-gcm (AES-NI off)``: ``condition``
        ``("aesni", "off")``), from line ``i``: the run of the table's rows that switch it the
        same way while ``algorithm`` is new to it, else a new run of the same table, header
        block and machine. ``condition`` None: the run of its rows that switch nothing (a row
        without a tag under rows with one is in neither state). A mask the prose above stated
        was one of these runs': which one, their rows say."""
        if condition is not None and run.context_rule == MASK_RULE:
            run.meta.pop("isa_mask", None)
            run.context_rule = None
        if run.switched == condition:
            return run
        table = run.table or run
        if not run.rows and not run.pk and run.switched is None:
            new = run  # (no row yet: the table's first rows are in this state)
        else:
            known = self.switch_runs.get((table, condition))
            if known is not None and not any(r[ALG] == algorithm for r in known.rows):
                return known
            new = self.sibling_run(run, i, "CPU feature switched by its rows")
            for field in ("label", "cpu", "clock_hz"):
                if field in run.meta:
                    new.meta[field] = run.meta[field]
            new.label_rule, new.row_label, new.table = run.label_rule, run.row_label, table
        if condition is not None:
            new.meta[condition[0]] = condition[1]
        new.switched = condition
        self.switch_runs[table, condition] = new
        return new

    def sibling_run(self, run: _Run, i: int, rule: str) -> _Run:
        """A new run from line ``i`` of the table and header block of ``run``."""
        new = self.new_run(i, rule)
        for field in ("tool", "tool_version", "built_on", "options", "compiler", "cpuinfo"):
            if field in run.meta:
                new.meta[field] = run.meta[field]
        new.version, new.has_version, new.opts = run.version, run.has_version, dict(run.opts)
        new.sizes, new.header_used, new.pk_kind = run.sizes, True, run.pk_kind
        new.sizes_unknown = run.sizes_unknown
        return new

    def prose_after(self, run: _Run) -> bool:
        """A line of prose, a marker or an exit status since the run's last line: the text
        moved on."""
        last = run.last
        return self.label_after(last) is not None or (
            self.marker is not None and self.marker[0] > last) or self.ended > last


#: The rule (``rule`` column) of a run whose tool version the prose above it stated.
VERSION_RULE = "version in the prose above"
# (a full stop may end the sentence after it: "All runs below on OpenSSL 3.0.13.")
_SAME_VERSION = re.compile(r"\bsame\s+v?(\d+\.\d+\.\d+[a-z]{0,2})(?!\w|\.\w)")
_ANY_VERSION = re.compile(r"(?<![\w.])v?\d+\.\d+\.\d+[a-z]{0,2}(?!\w|\.\w)")


def prose_version(line: str) -> tuple[str, str] | None:
    """``(tool, version)`` a line of prose states (``with openssl 1.1.1k on the DS920+``), or
    None: none, or another version beside it (``upgraded from 1.0.2u to OpenSSL 1.1.1k``:
    which one ran below, the line cannot tell).

    >>> prose_version("I ran it with openssl 1.1.1k on the DS920+:"), prose_version("LibreSSL 3.8.2")
    (('openssl', '1.1.1k'), ('libressl', '3.8.2'))
    >>> prose_version("after the upgrade from 1.0.2u to OpenSSL 1.1.1k") is None
    True
    >>> prose_version("Ubuntu's OpenSSL 3.0.2-0ubuntu1.15, no AES-NI:")
    ('openssl', '3.0.2-0ubuntu1.15')
    >>> prose_version("the old box for comparison (same AMI, so same 3.0.8)")
    ('openssl', '3.0.8')
    """
    versions = {v.lstrip("v") for v in _ANY_VERSION.findall(line)}  # (most lines: none)
    if len(versions) != 1:
        return None
    found = {(m[1].lower(), m[2]) for m in _VERSION.finditer(line)}
    if not found and (same := _SAME_VERSION.search(line)):
        return "openssl", same[1]  # ("same AMI, so same 3.0.8": the version named above)
    # ("OpenSSL 3.0.2-0ubuntu1": the version is its release's)
    return found.pop() if len(found) == 1 and next(iter(found))[1].split("-")[0] in versions else None


def names_a_version(line: str) -> bool:
    """Whether a line names a version number (``1.1.1w``, ``3.0.13``), stated or not."""
    return _ANY_VERSION.search(line) is not None


def merged_fact(old, new):
    """What two statements of one fact for one run say: the one value, or False when they
    disagree (the text cannot tell; False stays)."""
    return new if old is None or old == new else False


def bind_context(run: _Run, context: dict) -> None:
    """Give ``run`` what notices above its output said: ``elapsed`` (``You have chosen to
    measure elapsed time``), ``engine`` (``engine "afalg" set.``), ``fips`` (``with FIPS mode
    enabled:``), ``isa_mask`` (``and with OPENSSL_ia32cap=~0x200000200000000:``),
    ``prose_version`` (``openssl 1.1.1k``), ``environment`` (a CI step's ``OPENSSL_CONF: ...``)."""
    if context.get("elapsed"):
        run.elapsed = run.stderr_seen = True
    if "engine" in context:
        run.meta["engine"] = context["engine"]
    if "fips" in context:  # ("with FIPS mode enabled:"; a command line's own setting wins)
        run.meta.setdefault("fips", context["fips"])
    for name, value in context.get("environment", {}).items():  # (a CI step's `env:` listing)
        run.meta.setdefault(name, value)
    if "isa_mask" in context:  # ("and with OPENSSL_ia32cap=...:", decoded by label_masks)
        run.meta["isa_mask"], run.context_rule = context["isa_mask"], MASK_RULE
    if "prose_version" in context:  # (its own header's version, where it prints one, wins)
        run.prose_version = merged_fact(run.prose_version, context["prose_version"])


def check_cpuinfo(run: _Run, cpuinfo: str) -> None:
    """A run's own ``CPUINFO:`` line shows the mask in effect and, since 3.0, ` env:` and the
    variable's value whenever it was set: a line without ` env:` says the run ran without one,
    so an ``isa_mask`` the prose above gave it (``with OPENSSL_armcap=0 it is much slower``
    over the native run) was about another run, and goes."""
    if run.context_rule == MASK_RULE and " env:" not in cpuinfo and "OPENSSL_" in cpuinfo:
        run.meta.pop("isa_mask", None)
        run.context_rule = None


def foreign(run: _Run, rates: dict, key: tuple, count: int | None, block: int | None,
            seconds: float | None) -> bool:
    """A progress record, arriving after the run's table, that is not the record of one of
    its cells: no cell has its key, or its count and seconds do not give the cell's rate
    (``rates``: :func:`_printed_rates` of the run).

    Records of the run itself follow its table when stderr is pasted below stdout. A
    ``-multi`` parent's totals are not its children's rates, so there only the key counts
    (not when the parent's row is named ``evp``: its children name the cipher); a record
    without its result counts as the run's.
    """
    if run.multi:
        return not run.evp and key not in rates
    if count is None:
        return False
    return not _gives_a_rate(count, block, seconds, rates.get(key))


def trailing_progress(run: _Run) -> list:
    """Progress records after the run's last table cell that are not its cells' records.

    On a terminal the next run's ``Doing`` lines precede its header block; they belong to
    the run that the header opens, not to the run before. Records of the run itself may
    follow its table too (stderr pasted below stdout): those match a cell of the run and
    give its rate (openssl prints the table from their count and seconds); a record whose
    rate is not its cell's measured another run.
    """
    if not run.has_progress():
        return []  # (a table without progress lines: nothing to move, no keys to make)
    last_cell = max([r[LINE] for r in run.rows] + [c[LINE] for c, _ in run.pk] + [0])
    rates = _printed_rates(run)
    kept, moved = [], []
    for p in run.progress:
        mine = p.lineno <= last_cell or _gives_a_rate(p.count, p.block, p.seconds,
                                                     rates.get(p.key()))
        (kept if mine else moved).append(p)
    if moved:
        run.progress = kept
    return moved


def _printed_rates(run: _Run) -> dict:
    """Each cell key of the run -> the rates its tables print for it (bytes/s, or ops/s)."""
    rates: dict = defaultdict(list)
    for r in run.rows:
        for size, value in zip(r[SIZES], r[VALUES]):
            rates[(r[ALG], size)].append(value)
    for c, k in run.pk:
        rates[k].append(c[OPS])
    return rates


def _gives_a_rate(count: int | None, block: int | None, seconds: float | None,
                  printed: list[float] | None) -> bool:
    """Whether a progress record's count and seconds give one of the rates printed for its key.

    Within 1 %: the progress line rounds seconds to 0.01 s, the table rounds its rate. A record
    without a result cannot be checked and counts as the cell's.
    """
    if not printed:
        return False
    if count is None or not seconds:
        return True
    rate = count * (block or 1) / seconds
    return any(abs(rate - v) <= 0.01 * max(abs(v), abs(rate)) for v in printed if v == v)


def _name_machine(run: _Run, label: str) -> None:
    """Label ``run`` with the machine its rows name; its CPU and clock are what that name
    says, not what the label found above it said (the row above, another machine's)."""
    run.row_label = run.meta["label"] = label
    run.label_rule = "machine named by its rows"
    run.forget_machine()
    run.meta.update(prose_cpu(label))


__all__ = ["BOUNDARIES", "HEADER_LINE", "REPEATS", "Boundary", "Event", "bind_context", "foreign",
           "trailing_progress"]
