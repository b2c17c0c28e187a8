"""``overhead_explorer(df)``: why one algorithm loses at small blocks and wins at large ones."""

from __future__ import annotations

import ipywidgets as widgets
import pandas as pd

from cipherlab.errors import AnalysisError
from cipherlab.model import condition_columns
from cipherlab.widgets._base import (TITLE, Explorer, check_columns, preferred, process_control,
                                     process_mask, reselect)
from cipherlab.widgets._explorer import run_names

__all__ = ["OverheadExplorer", "overhead_explorer"]

#: Below this figure width the two panels are stacked: each needs ~4 in for the legend under it.
_SIDE_BY_SIDE_INCHES = 8.0
_COST_COLUMNS = ["t0_ns", "t0_ci_low", "t0_ci_high", "c_ns_per_byte", "n_half_bytes",
                 "cycles_per_byte", "r_squared", "n_sizes"]


class OverheadExplorer(Explorer):
    """Time per call, fitted cost lines, crossover and overhead (see :func:`overhead_explorer`)."""

    figsize = (8.4, 3.4)

    def __init__(self, df: pd.DataFrame, *, a: str = "aes-128-gcm", b: str = "aes-128-cbc"):
        check_columns(df, ["source", "algorithm", "operation", "block_bytes", "bytes_per_s"],
                      what="overhead_explorer")
        rated = df[df["block_bytes"].notna() & df["bytes_per_s"].notna()]
        # a fit needs a line: only algorithms measured at two block sizes or more are offered
        sized = rated.groupby(rated["algorithm"].astype(str), observed=True)["block_bytes"].nunique()
        algos = sorted(sized[sized >= 2].index)
        if len(algos) < 2:
            raise AnalysisError("overhead_explorer needs two algorithms measured at two block "
                                f"sizes or more; this table has {algos or 'none'}")
        self._rated = rated
        self._runs = run_names(rated)
        self._ops = {alg: set(rated.loc[rated["algorithm"].astype(str).eq(alg).to_numpy(),
                                        "operation"].astype(str)) for alg in algos}
        self.a = widgets.Dropdown(options=algos, value=preferred(algos, (a, "aes-128-gcm")),
                                  description="Algorithm a")
        # b: one measured in an operation a has (a digest's line never crosses a cipher's)
        alike = [x for x in algos if x != self.a.value and self._ops[x] & self._ops[self.a.value]]
        self.b = widgets.Dropdown(options=algos, value=preferred(
            alike or [x for x in algos if x != self.a.value], (b, "aes-128-cbc")),
            description="vs b")
        self.runs = widgets.SelectMultiple(description="Machines" if "host" in df.columns
                                           else "Runs", rows=4)
        self.operation = widgets.Dropdown(description="Operation")
        self.processes = process_control(rated)  # -multi sums and children kept apart
        self._sync(None)
        super().__init__(df, [self.a, self.b, self.operation, self.runs]
                         + ([self.processes] if self.processes else []), export_name="overhead")

    def _sync(self, change) -> None:
        owner = None if change is None else change["owner"]
        if owner in (None, self.a, self.b):
            d = self._rated
            has = {alg: set(self._runs[d["algorithm"].astype(str).eq(alg).to_numpy()])
                   for alg in (self.a.value, self.b.value)}
            runs = sorted(has[self.a.value] & has[self.b.value])
            reselect(self.runs, runs, default=runs[:1])
            ops = sorted(self._ops[self.a.value] & self._ops[self.b.value])
            op = self.operation.value if self.operation.value in ops else (
                preferred(ops, ("encrypt", "digest")) if ops else None)
            self.operation.options, self.operation.value = ops, op

    def selection(self) -> pd.DataFrame:
        """The rows of both algorithms in the chosen runs and operation (a new frame)."""
        if self.a.value == self.b.value:
            raise AnalysisError(f"a and b are both {self.a.value!r}: pick two algorithms")
        if self.operation.value is None:
            raise AnalysisError(
                f"{self.a.value} ({', '.join(sorted(self._ops[self.a.value]))}) and {self.b.value} "
                f"({', '.join(sorted(self._ops[self.b.value]))}) share no operation: pick another "
                f"pair")
        if not self.runs.value:
            raise AnalysisError(f"no run holds both {self.a.value} and {self.b.value}: pick "
                                f"another pair")
        d = self._rated
        sel = d[self._runs.isin(self.runs.value).to_numpy() & process_mask(d, self.processes)
                & d["algorithm"].isin([self.a.value, self.b.value]).to_numpy()
                & (d["operation"].astype("object") == self.operation.value).to_numpy()]
        if sel.empty:
            raise AnalysisError("nothing selected for these runs and this operation")
        return sel.copy()

    def _signature(self):
        return (tuple(self.selection().index), self.a.value, self.b.value)  # the rows drawn

    def groupby(self, sel: pd.DataFrame) -> list[str]:
        """One fit per algorithm, operation, machine and varying condition.

        Not per ``source``/``run``: a capture measures each algorithm in runs of its own, and the
        two lines must come from the same machine and conditions to cross meaningfully.
        """
        machine = next(c for c in ("host", "label", "source")
                       if c in sel.columns and sel[c].notna().all())
        conds = [c for c in condition_columns(sel)
                 if c not in ("repeat", "child", "note", machine) and sel[c].nunique() > 1]
        return ["algorithm", "operation", machine, *conds]

    def _describe(self) -> str:
        a, b = self.a.value, self.b.value
        return (f"Time per call of {a} and {b} ({self.operation.value}) with the fitted "
                f"t0 + c·n lines, and the throughput ratio {a} / {b}, by block size; "
                f"{self.runs.description.lower()}: {', '.join(map(str, self.runs.value))}.")

    def _intervals(self) -> str:
        # the figure draws no error bars; the crossover's interval (where runs allow) is tabled
        has = self.crossover["ci_low"].notna().any()
        return "The crossover's interval is in its table." if has else \
            "No interval for the crossover (one run per cell)."

    def _draw(self, fig):
        from cipherlab import plots, stats

        sel = self.selection()
        a, b = self.a.value, self.b.value
        keys = self.groupby(sel)
        fit = stats.cost_model(sel, groupby=keys)
        cross = stats.crossover(sel, a=a, b=b, groupby=keys)
        share = stats.small_block_overhead(sel, a=a, b=b, groupby=keys)
        width, height = fig.get_size_inches()
        if width < _SIDE_BY_SIDE_INCHES:  # a paper column or page: one panel above the other
            fig.set_size_inches(width, 2 * min(height, 3.0))
            left, right = fig.subplots(2, 1)
        else:
            left, right = fig.subplots(1, 2)
        plots.cost_model(fit, sel, crossover=cross, ax=left)
        left.set_title("time per call, fitted t0 + c·n", **TITLE)
        plots.overhead(share, a=a, b=b, ax=right)
        right.set_title(f"{a} / {b}", **TITLE)
        right.set_ylabel("throughput ratio a / b")  # the names are in the title: the label fits
        keys = [c for c in fit.columns if c not in _COST_COLUMNS and c not in (
            "t0_ci_low", "t0_ci_high", "c_ci_low", "c_ci_high", "asymptotic_bytes_per_s",
            "clock_hz", "n_points")]
        keys = [k for k in keys if fit[k].nunique(dropna=False) > 1 or k == "algorithm"]
        self.fit, self.crossover, self.share = fit, cross, share
        cost = fit[keys + [c for c in _COST_COLUMNS if c in fit.columns]]
        return {"Crossover": cross, "Per-call cost t(n) = t0 + c·n": cost}

    def _caption(self) -> str:
        from cipherlab.plots import format_bytes

        cross = getattr(self, "crossover", None)
        if cross is None or cross.empty:
            return ""
        keys = [k for k in cross.columns[:list(cross.columns).index("a")]
                if cross[k].nunique(dropna=False) > 1]
        parts = []
        for _, row in cross.iterrows():
            at = format_bytes(row["crossover_bytes"]) if pd.notna(row["crossover_bytes"]) else ""
            where = {"a overtakes b": f"at {at}",
                     "b overtakes a": f"never (it is faster only below {at}; {self.b.value} above)",
                     "a always faster": "at every size"}.get(row["regime"], str(row["regime"]))
            who = ", ".join(f"{k}={row[k]}" for k in keys)
            parts.append(f"{who}: {where}" if who else where)
        return f"{self.a.value} overtakes {self.b.value}: " + "; ".join(parts)


def overhead_explorer(df: pd.DataFrame, *, a: str = "aes-128-gcm",
                      b: str = "aes-128-cbc") -> OverheadExplorer:
    """Per-call cost of two algorithms: where one overtakes the other, and why.

    Choose two algorithms (default AES-128-GCM against AES-128-CBC), the runs and the operation.
    The left plot is the measured time per call against block size with the fitted
    ``t(n) = t0 + c·n`` lines (:func:`cipherlab.stats.cost_model`) and the crossover
    (:func:`cipherlab.stats.crossover`); the right one the throughput ratio a/b by block size
    (:func:`cipherlab.stats.small_block_overhead`). The tables give the crossover with its
    interval and each fit's per-call overhead ``t0_ns`` and per-byte cost.

    Parameters
    ----------
    df : pandas.DataFrame
        A tidy table from :func:`cipherlab.ingest` or :func:`cipherlab.capture` with both
        algorithms at two block sizes or more.
    a, b : str
        The algorithms first shown (``a`` overtakes ``b`` at the crossover).

    Returns
    -------
    OverheadExplorer
        An ``ipywidgets.VBox``; its controls (``a``, ``b``, ``runs``, ``operation``) are
        attributes, and so are ``fit``, ``crossover``, ``share``, ``table``, ``figure``, ``png``.

    Examples
    --------
    >>> import cipherlab
    >>> df = cipherlab.ingest(cipherlab.datasets.path("aws-wiki-aesni-on-off.txt"))
    >>> w = cipherlab.widgets.overhead_explorer(df)
    >>> w.a.value, w.b.value
    ('aes-128-gcm', 'aes-128-cbc')
    >>> w.crossover[["aesni", "crossover_bytes", "regime"]]
      aesni crossover_bytes         regime
    0   off               ∞          never
    1    on           45.44  a overtakes b
    """
    return OverheadExplorer(df, a=a, b=b)
