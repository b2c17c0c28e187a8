"""``speedup_explorer(df)``: is one side "about N times" faster than the other?"""

from __future__ import annotations

import ipywidgets as widgets
import pandas as pd

from cipherlab.errors import AnalysisError
from cipherlab.widgets._base import (TITLE, Explorer, check_columns, choices, machine_keys,
                                     named_keys, option_labels, preferred, process_control,
                                     process_mask, reselect)
from cipherlab.widgets._explorer import condition_choices

__all__ = ["SpeedupExplorer", "speedup_explorer"]

# Names that usually mean "the feature is off" / "on" in conditions (aesni, isa, tier, AWS's Yes/no).
_BASELINES = ("off", "no", "No", "no-aesni", "asm", "no-asm", "native")
_CANDIDATES = ("none", "on", "yes", "Yes", "native", "aes-ni", "kernel", "padlock")
# isa_off first: the ISA condition named by what the mask switched off ("none": nothing)
_BY = ("isa_off", "aesni", "isa", "tier", "host", "label")
_KEEP = 16  # comparisons (result + PNG, ~50 kB each) kept for going back to a selection
#: Columns of a compare() result that plots.speedup does not draw (it draws the ratio, its
#: interval and the significance flag).
_NOT_DRAWN = frozenset({"p_value", "p_adjusted", "statistic", "adjust"})
#: Why Test and Adjust p change nothing when no cell has repeated runs on both sides.
_UNTESTED = ("every cell has a single run on a side and the unit of replication is the run "
             "(block sizes are not repeats): Test and Adjust p have nothing to test or adjust")


class SpeedupExplorer(Explorer):
    """Ratios candidate/baseline with intervals and a ratio test (see :func:`speedup_explorer`)."""

    figsize = (4.8, 3.2)  # as wide as the side figure: the same legend font in both

    def __init__(self, df: pd.DataFrame, *, by: str | None = None, expected: float = 2.0,
                 margin: float = 0.1):
        check_columns(df, ["algorithm", "operation", "block_bytes", "bytes_per_s"],
                      what="speedup_explorer")
        rated = df[df["block_bytes"].notna() & df["bytes_per_s"].notna()]
        sides = condition_choices(rated)
        if not sides:
            raise AnalysisError("speedup_explorer needs a column with two sides to compare "
                                "(a condition such as aesni, isa or tier, or several labels); "
                                "this table has none with more than one value")
        if by is not None and by not in sides:
            raise AnalysisError(f"`by` must be one of {sides}; not {by!r}")
        self._rated = rated
        self._side_key = None
        self._sides: dict[tuple, list] = {}  # selection -> [comparison, its PNG, its table HTML]
        self._pictures: dict[tuple, bytes] = {}  # what the side figure shows -> its PNG
        self.comparison = self.comparison_png = None
        self.by = widgets.Dropdown(options=sides, value=by or preferred(sides, _BY),
                                   description="Compare by")
        self.candidate = widgets.Dropdown(description="Candidate")
        self.baseline = widgets.Dropdown(description="Baseline")
        self.algorithms = widgets.SelectMultiple(description="Algorithms", rows=5)
        self.operation = widgets.Dropdown(description="Operation")
        wide = {"description_width": "initial"}
        # Ratios live on a log scale (0.5x .. 50x): equal slider travel = equal factor.
        self.expected = widgets.FloatLogSlider(value=expected, base=10, min=-0.3, max=1.7,
                                               step=0.01, description="Claimed ratio",
                                               readout_format=".2f", continuous_update=False,
                                               style=wide)
        self.margin = widgets.FloatSlider(value=margin, min=0.01, max=0.5, step=0.01,
                                          description="Margin ±", readout_format=".0%",
                                          continuous_update=False, style=wide)
        self.test = widgets.Dropdown(options=["welch", "mannwhitney"], value="welch",
                                     description="Test")
        self.adjust = widgets.Dropdown(options=["holm", "bh"], value="holm",
                                       description="Adjust p")
        self.processes = process_control(rated)  # -multi sums and children kept apart
        self._sync(None)
        controls = [self.by, self.candidate, self.baseline, self.algorithms, self.operation,
                    self.test, self.expected, self.margin, self.adjust]
        super().__init__(df, controls + ([self.processes] if self.processes else []),
                         export_name="speedup")

    def _sync(self, change) -> None:
        owner = None if change is None else change["owner"]
        d = self._rated
        if owner in (None, self.by):
            values = [str(v) for v in choices(d[self.by.value])]
            # a known "off" name, else a value that is not a known "on" one (an isa_off list)
            base = preferred(values, (*_BASELINES, *[v for v in values if v not in _CANDIDATES]))
            cand = preferred([v for v in values if v != base], _CANDIDATES)
            self.baseline.options, self.baseline.value = option_labels(values), base
            self.candidate.options, self.candidate.value = option_labels(values), cand
        if owner in (None, self.by, self.candidate, self.baseline):
            side = d[self.by.value].astype(str)
            both = (set(d.loc[side.eq(self.candidate.value).to_numpy(), "algorithm"].astype(str))
                    & set(d.loc[side.eq(self.baseline.value).to_numpy(), "algorithm"].astype(str)))
            reselect(self.algorithms, sorted(both))
        if owner in (None, self.by, self.candidate, self.baseline, self.algorithms):
            ops = choices(d.loc[d["algorithm"].isin(self.algorithms.value).to_numpy(), "operation"])
            op = self.operation.value if self.operation.value in ops else preferred(
                ops, ("encrypt", "digest"))
            self.operation.options, self.operation.value = ops, op

    def selection(self) -> tuple[pd.DataFrame, list[str]]:
        """The rows of both sides and the cell keys to compare them in."""
        d = self._rated
        by, cand, base = self.by.value, self.candidate.value, self.baseline.value
        if cand == base:
            raise AnalysisError(f"candidate and baseline are both {by}={cand!r}: pick two values")
        side = d[by].astype(str)
        sel = d[side.isin([cand, base]).to_numpy() & process_mask(d, self.processes)
                & d["algorithm"].isin(self.algorithms.value).to_numpy()
                & (d["operation"].astype("object") == self.operation.value).to_numpy()].copy()
        if sel.empty:
            raise AnalysisError("nothing selected: choose algorithms present on both sides")
        sel[by] = sel[by].astype(str)
        keys = machine_keys(sel, by)
        return named_keys(sel, keys), ["algorithm", "operation", "block_bytes", *keys]

    def _draw(self, fig):
        from cipherlab import plots, stats

        by, cand, base = self.by.value, self.candidate.value, self.baseline.value
        key = (by, cand, base, self.algorithms.value, self.operation.value, self.test.value,
               self.adjust.value, self.processes.value if self.processes else None)
        if key != self._side_key:  # (a selection that fails leaves no earlier one on show)
            self.comparison = self.comparison_png = self._side_key = None
            self.side_plot.outputs = ()
        sel, keys = self.selection()
        if key != self._side_key:
            # The per-cell comparison does not depend on the claim or the margin: it is computed
            # and drawn (left) only when the sides change, so the slider redraws the test alone.
            # Comparisons already drawn are kept by selection: going back (Holm -> BH -> Holm,
            # on/off and back) shows them again without recomputing or redrawing.
            if key not in self._sides:
                comparison = stats.compare(sel, by=by, baseline=base, candidate=cand,
                                           groupby=keys, test=self.test.value,
                                           adjust=self.adjust.value)

                title = f"{by}={cand} / {by}={base}, per cell"

                def left(side_fig):
                    ax = side_fig.add_subplot()
                    plots.speedup(comparison, expected=None, ax=ax)
                    ax.set_title(title, **TITLE)

                # A picture already drawn is not drawn again: Holm and BH often mark the same
                # cells significant, and the figure never shows the p-values themselves.
                picture = (title, *pd.util.hash_pandas_object(
                    comparison.drop(columns=list(_NOT_DRAWN), errors="ignore"), index=False))
                png = self._pictures.get(picture)
                if png is None:
                    png = self._pictures[picture] = self._render(left, figsize=self.figsize)
                for cache in (self._sides, self._pictures):
                    if len(cache) > _KEEP:
                        del cache[next(iter(cache))]
                self._sides[key] = [comparison, png, None]  # the HTML once the picture is out
            self.comparison, self.comparison_png = self._sides[key][:2]
            self._show_side(self.comparison_png)
            self._side_key = key
            tested = bool(self.comparison["p_value"].notna().any())
            for control in (self.test, self.adjust):  # (setting these redraws nothing)
                control.disabled, control.tooltip = not tested, None if tested else _UNTESTED
        tested = stats.ratio_test(sel, by=by, baseline=base, candidate=cand, groupby=keys,
                                  expected=self.expected.value, margin=self.margin.value,
                                  adjust=self.adjust.value, check=False)
        ax = fig.add_subplot()
        plots.speedup(tested, expected=self.expected.value, ax=ax)
        ax.set_title(f"ratio test: = {self.expected.value:.3g}× ± {self.margin.value:.0%}?",
                     **TITLE)
        return {"Ratio test against the claim": tested, "Tests per cell (compare)": self.comparison}

    def _table_html(self, table: pd.DataFrame | None) -> str:
        # the comparison's table is formatted once per selection (66 rows: ~10 ms)
        side = self._sides.get(self._side_key)
        if table is None or side is None or table is not side[0]:
            return super()._table_html(table)
        if side[2] is None:
            side[2] = super()._table_html(table)
        return side[2]

    def _describe(self) -> str:
        by = self.by.value
        return (f"Throughput ratio {by}={self.candidate.value} / {by}={self.baseline.value} of "
                f"{', '.join(self.algorithms.value)} ({self.operation.value}) by block size, "
                f"tested against a claimed {self.expected.value:.3g}× ± {self.margin.value:.0%} "
                f"(shaded).")

    def _caption(self) -> str:
        t = self.table
        if t is None or t.empty:
            return ""
        claim = f"claimed {self.expected.value:.3g}× ± {self.margin.value:.0%}: "
        tested = int(t["equivalent"].notna().sum())
        if not tested:  # one run per side: nothing to test (Test and Adjust p are disabled)
            return claim + (f"{len(t)} ratio{'s' * (len(t) != 1)} described, not tested: "
                            f"{_UNTESTED}")
        eq, dif = int(t["equivalent"].sum()), int(t["differs"].sum())
        return claim + f"{eq} of {tested} tested equivalent, {dif} differ"


def speedup_explorer(df: pd.DataFrame, *, by: str | None = None, expected: float = 2.0,
                     margin: float = 0.1) -> SpeedupExplorer:
    """Compare two sides of a table: ratios with intervals, and a test of a claimed ratio.

    Choose what tells the sides apart (``aesni`` on/off, tier against tier, machine against
    machine by ``label`` or ``host``), the candidate and the baseline, the algorithms and the
    operation. The left plot shows :func:`cipherlab.stats.compare` ratios with their intervals by
    block size; the right one :func:`cipherlab.stats.ratio_test` against the claimed ratio set
    with the slider (default 2.0) with its equivalence margin shaded (only this one is redrawn
    when the claim moves). The tables list the tests
    with their Holm (or Benjamini-Hochberg) adjusted p-values.

    Parameters
    ----------
    df : pandas.DataFrame
        A tidy table from :func:`cipherlab.ingest` or :func:`cipherlab.capture`.
    by : str, optional
        The column that defines the sides (default: ``aesni``, ``isa``, ``tier``, ``host`` or
        ``label``, the first present with several values).
    expected, margin : float
        The claimed ratio and the relative equivalence margin first shown.

    Returns
    -------
    SpeedupExplorer
        An ``ipywidgets.VBox``; its controls (``by``, ``candidate``, ``baseline``, ``algorithms``,
        ``operation``, ``expected``, ``margin``, ``test``, ``adjust``) are attributes, and so are
        ``table`` (the ratio test), ``comparison`` (the compare result), ``figure`` and ``png``.

    Examples
    --------
    >>> import cipherlab
    >>> df = cipherlab.ingest(cipherlab.datasets.path("aws-wiki-aesni-on-off.txt"))
    >>> w = cipherlab.widgets.speedup_explorer(df)
    >>> w.by.value, w.candidate.value, w.baseline.value
    ('aesni', 'on', 'off')
    >>> w.table[["algorithm", "block_bytes", "ratio", "equivalent", "test"]].head(2)  # one run/side
         algorithm block_bytes  ratio equivalent            test
    0  aes-128-cbc          16  2.079          –  no replication
    1  aes-128-cbc          64  1.976          –  no replication
    >>> w.expected.value = 5.0    # the slider: the claim is re-tested (here: described)
    >>> float(w.table["expected"].iloc[0])
    5.0
    """
    return SpeedupExplorer(df, by=by, expected=expected, margin=margin)
