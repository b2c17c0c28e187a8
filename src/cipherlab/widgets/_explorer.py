"""``explorer(df)``: browse any tidy table by run, algorithm, operation, condition and block size."""

from __future__ import annotations

import re
import warnings

import ipywidgets as widgets
import pandas as pd
from matplotlib import ticker

from cipherlab.errors import AnalysisError, CipherlabWarning
from cipherlab.plots import format_bytes
from cipherlab.plots._axes import label_from_keys, rate_scale
from cipherlab.widgets._base import (Explorer, both_sides, check_columns, choices, machine_keys,
                                     named_keys, option_labels, option_values, preferred,
                                     process_control, process_mask, reselect)

__all__ = ["ThroughputExplorer", "explorer"]

#: Metric toggle label -> the column it shows (added by cipherlab.stats where needed).
METRICS = {
    "bytes/s": "bytes_per_s",
    "per GHz": "bytes_per_s_per_ghz",
    "cycles/byte": "cycles_per_byte",
    "ratio to baseline": "ratio",
}
_ALL = "(all)"
#: Columns that say what was measured: rows differing in one are never repeats of one another.
_MEASURED = ("tool", "aesni", "isa", "isa_off", "tier", "backend", "protocol", "cipher",
             "tool_version")
_PREFERRED_ALGORITHMS = ("aes-128-gcm", "aes-128-cbc", "aes-256-gcm", "chacha20-poly1305",
                         "aes-256-cbc", "sha256")


def run_names(df: pd.DataFrame) -> pd.Series:
    """What identifies a run to a reader: its ``host`` (machine), else ``label``, else ``source``."""
    name = pd.Series(None, index=df.index, dtype="object")
    for col in ("host", "label", "source"):
        if col in df.columns:
            name = name.where(name.notna(), df[col].astype("object"))
    return name.astype(str)


def condition_choices(df: pd.DataFrame) -> list[str]:
    """Columns worth comparing by: conditions with several values, then run identity columns."""
    from cipherlab.model import condition_columns

    known = ("isa_off", "aesni", "isa", "tier", "isa_mask", "host", "backend", "protocol")
    conds = [c for c in condition_columns(df)
             if c not in ("repeat", "child", "note") and df[c].nunique(dropna=True) > 1]
    out = [c for c in known if c in conds] + [c for c in conds if c not in known]
    out += [c for c in ("label", "tool_version", "tool", "source")
            if c in df.columns and df[c].nunique(dropna=True) > 1 and c not in out]
    return out


class ThroughputExplorer(Explorer):
    """Throughput against block size for a selection of a tidy table (see :func:`explorer`)."""

    def __init__(self, df: pd.DataFrame, *, metric: str = "bytes/s"):
        check_columns(df, ["source", "algorithm", "operation", "block_bytes", "bytes_per_s"],
                      what="explorer")
        if metric not in METRICS:
            raise AnalysisError(f"`metric` must be one of {list(METRICS)}; not {metric!r}")
        rated = df[df["block_bytes"].notna() & df["bytes_per_s"].notna()]
        if rated.empty:
            raise AnalysisError("explorer needs rows with a block size and a bytes_per_s rate "
                                "(symmetric ciphers or digests); the table has none")
        self._rated = rated
        self._runs = run_names(rated)
        algos = choices(rated["algorithm"])
        self.algorithm = widgets.Dropdown(options=algos,
                                          value=preferred(algos, _PREFERRED_ALGORITHMS),
                                          description="Algorithm")
        self.runs = widgets.SelectMultiple(description="Machines" if "host" in df.columns
                                           else "Runs", rows=4)
        self.operation = widgets.Dropdown(description="Operation")
        conds = condition_choices(rated)
        self.condition = widgets.Dropdown(options=[_ALL, *conds],
                                          value=preferred(conds, ("isa_off", "aesni", "isa", "tier")) or _ALL
                                          if conds else _ALL, description="Condition")
        self.levels = widgets.SelectMultiple(description="Values", rows=3)
        sizes = [int(s) for s in choices(rated["block_bytes"])]
        self.blocks = widgets.SelectionRangeSlider(options=[(format_bytes(s), s) for s in sizes],
                                                   index=(0, len(sizes) - 1),
                                                   description="Block size",
                                                   continuous_update=False,  # on release
                                                   layout=widgets.Layout(width="360px"))
        self.metric = widgets.ToggleButtons(options=list(METRICS), value=metric,
                                            description="Metric",
                                            style={"button_width": "auto"})
        self.baseline = widgets.Dropdown(description="Baseline")
        # ratios within one machine, tool, version and tier unless the user pools them
        self.pool = widgets.Checkbox(value=False, description="Pool machines and versions",
                                     indent=False)
        self.processes = process_control(rated)
        self._sync(None)
        controls = [self.algorithm, self.operation, self.runs, self.condition, self.levels,
                    self.baseline, self.blocks, self.metric, self.pool]
        super().__init__(df, controls + ([self.processes] if self.processes else []),
                         export_name="explorer")

    def _sync(self, change) -> None:
        """Offer only the runs, operations, values and baselines the current choice holds."""
        owner = None if change is None else change["owner"]
        d = self._rated
        if owner in (None, self.algorithm):
            has = d["algorithm"].astype("object").eq(self.algorithm.value).to_numpy()
            reselect(self.runs, choices(self._runs[has]))
            ops = choices(d.loc[has, "operation"])
            _set_options(self.operation, ops, preferred(ops, ("encrypt", "digest")))
        if owner in (None, self.algorithm, self.runs, self.condition):
            sel = d[self._runs.isin(self.runs.value).to_numpy()
                    & d["algorithm"].astype("object").eq(self.algorithm.value).to_numpy()]
            cond = self.condition.value
            values = [str(v) for v in choices(sel[cond])] if cond != _ALL and len(sel) else []
            reselect(self.levels, values)
            self.levels.disabled = not values
            _set_options(self.baseline, values, preferred(values, ("off", "no", "no-aesni", "asm")))

    def selection(self) -> pd.DataFrame:
        """The rows of the table that the controls select (a new frame)."""
        d = self._rated
        lo, hi = self.blocks.value
        keep = (self._runs.isin(self.runs.value).to_numpy() & process_mask(d, self.processes)
                & d["algorithm"].astype("object").eq(self.algorithm.value).to_numpy()
                & d["operation"].astype("object").eq(self.operation.value).to_numpy()
                & d["block_bytes"].between(lo, hi).to_numpy())
        cond = self.condition.value
        if cond != _ALL and self.levels.value and set(self.levels.value) != set(option_values(self.levels)):
            # only a strict choice of values filters: rows without the condition stay otherwise
            keep &= d[cond].astype(str).isin(self.levels.value).to_numpy()
        sel = d[keep]
        if sel.empty:
            raise AnalysisError("nothing selected: no rows for this algorithm, operation, runs, "
                                "values and block sizes")
        return sel.copy()

    def _signature(self):
        # the rows drawn, not the controls: deselecting a machine that has no row for this
        # algorithm, or widening the range past the sizes measured, draws the same picture
        return (tuple(self.selection().index), self.metric.value, self.condition.value,
                self.baseline.value, self.pool.value)

    def _draw(self, fig):
        from cipherlab import plots, stats

        sel = self.selection()
        ax = fig.add_subplot()
        metric = self.metric.value
        cond = self.condition.value
        if metric == "ratio to baseline":
            if cond == _ALL:
                raise AnalysisError("ratio to baseline needs a condition to compare by: pick one "
                                    "in 'Condition' (e.g. aesni, tier or label)")
            values = [str(v) for v in choices(sel[cond])]
            if self.baseline.value not in values or len(values) < 2:
                raise AnalysisError(f"ratio to baseline needs the baseline {self.baseline.value!r} "
                                    f"and another value of {cond!r} in the selection; it has "
                                    f"{values}")
            sel[cond] = sel[cond].astype(str)
            apart = [] if self.pool.value else machine_keys(sel, cond)
            sel = named_keys(sel, apart)
            keys = ["algorithm", "operation", "block_bytes", *apart]
            sel, lacking = both_sides(sel, cond, values, keys)
            if lacking:
                warnings.warn(f"{lacking} cell(s) without every value of {cond!r} on the same "
                              f"machine, tool, version and tier left out of the ratios",
                              CipherlabWarning, stacklevel=2)
            if sel.empty:
                raise AnalysisError(f"no machine, tool, version and tier measured every value of "
                                    f"{cond!r} here: tick 'Pool machines and versions' to pool them")
            result = stats.compare(sel, by=cond, baseline=self.baseline.value, groupby=keys,
                                   paired=False, check=False)
            # the baseline named as in the legends ("AES-NI off", "off: aesni+pclmulqdq +13
            # more"), the label wrapped to the axes by plots
            base = label_from_keys(sel[sel[cond] == self.baseline.value].head(1), [cond])[0]
            plots.speedup(result, expected=None, ax=ax, ylabel=f"Ratio to {base}")
            return result
        if metric == "per GHz":
            sel = stats.per_ghz(sel)
        elif metric == "cycles/byte":
            sel = stats.cycles_per_byte(sel)
        column = METRICS[metric]
        if sel[column].notna().sum() == 0:
            raise AnalysisError(f"{metric} needs the clock of the machine, which these runs do not "
                                f"give (no clock_hz, no clock in the label or cpu); build the "
                                f"explorer on df.assign(clock_hz=...) to supply it")
        # one colour per run when several are shown (markers and dashes then tell conditions apart)
        hue = next((c for c in ("host", "label") if c in sel.columns and sel[c].nunique() > 1),
                   "algorithm")
        split = self._series_columns(sel, hue)
        style = " · ".join(split) or None
        if len(split) > 1:  # one style column, its values named ("aesni=on · openssl")
            sel[style] = label_from_keys(sel[split], split)
        plots.throughput(sel, y=column, hue=hue, style=style, ax=ax)
        if metric == "per GHz":
            ax.set_ylabel("Throughput per GHz of clock")
        elif metric == "cycles/byte":
            ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _p: f"{v:g}"))
            ax.set_ylabel("Cycles per byte (lower is faster)")
        return self._summary(sel, column, hue)

    def _series_columns(self, sel: pd.DataFrame, hue: str) -> list[str]:
        """What tells the plotted lines of one colour apart: the chosen condition, then each of
        what was measured differently (ISA, tier, tool, version, ...) that still splits a line.

        The file or run a row came from is not among them unless it is the chosen condition:
        runs of one measurement are one line (their median, with their range as the band).
        """
        cond = [self.condition.value] if self.condition.value != _ALL else []
        chosen: list[str] = []
        for c in dict.fromkeys([*cond, *_MEASURED]):
            if c == hue or c not in sel.columns or sel[c].isna().all():
                continue
            groups = [sel[k].astype("object").fillna("n/a") for k in (hue, *chosen)]
            # two values in one line split it (a missing value does not); implied ones split none
            if sel[c].astype("object").groupby(groups, sort=False).nunique().max() > 1:
                chosen.append(c)
        return chosen

    def _summary(self, sel: pd.DataFrame, column: str, hue: str) -> pd.DataFrame:
        """The plotted numbers: one row per line of the plot (the same columns split them), the
        median of the repeats behind each point, one column per block size."""
        cond = [self.condition.value] if self.condition.value != _ALL else []
        keys = list(dict.fromkeys(["algorithm", "operation", hue, *cond,
                                   *self._series_columns(sel, hue)]))
        # missing values are a series of their own in the plot: "n/a" keeps them in the table
        named = sel.assign(**{k: sel[k].astype("object").where(sel[k].notna(), "n/a") for k in keys})
        table = named.pivot_table(index=keys, columns="block_bytes", values=column,
                                  aggfunc="median", observed=True)
        table.columns = [f"{int(c)} B" for c in table.columns]
        return table.reset_index()

    def _caption(self) -> str:
        return f"{self.metric.value}; {self.algorithm.value} ({self.operation.value})"

    def _describe(self) -> str:
        runs = ", ".join(map(str, self.runs.value))
        what = (f"ratio to {self.condition.value}={self.baseline.value}"
                if self.metric.value == "ratio to baseline" else
                {"bytes/s": "throughput", "per GHz": "throughput per GHz of clock",
                 "cycles/byte": "cycles per byte"}[self.metric.value])
        return (f"{what[0].upper()}{what[1:]} of {self.algorithm.value} ({self.operation.value}) "
                f"by block size; {self.runs.description.lower()}: {runs}.")

    def _printed(self, table: pd.DataFrame) -> tuple[pd.DataFrame, str]:
        """The plotted medians with the rates of every block size in one unit (MB/s, GB/s)."""
        sizes = [c for c in table.columns if re.fullmatch(r"\d+ B", str(c))]
        if not sizes or self.metric.value not in ("bytes/s", "per GHz"):
            return table, ""
        scale, unit = rate_scale(table[sizes].to_numpy(dtype=float))
        if self.metric.value == "per GHz":
            unit += " per GHz"
        return table.assign(**{c: table[c] / scale for c in sizes}), f"Rates in {unit}."

    def _intervals(self) -> str:
        if self.metric.value == "ratio to baseline":
            return super()._intervals()
        return "Lines: the median of each point's runs; bands: their full range."


def _set_options(dropdown: widgets.Dropdown, options: list, value) -> None:
    keep = dropdown.value if dropdown.value in options else value
    dropdown.options = option_labels(options)
    dropdown.value = keep if options else None
    dropdown.disabled = not options


def explorer(df: pd.DataFrame, *, metric: str = "bytes/s") -> ThroughputExplorer:
    """An interactive throughput plot of any tidy table, redrawn on every change.

    Controls: the algorithm, the operation, the runs (by ``label``), a condition column
    (``aesni``, ``tier``, ``isa``, ``label`` ...) and which of its values to show, a block-size
    range and the metric: bytes/s, per GHz of clock (:func:`cipherlab.stats.per_ghz`), cycles per
    byte (:func:`cipherlab.stats.cycles_per_byte`) or the ratio to a baseline value of the
    condition (:func:`cipherlab.stats.compare`). The figure is :func:`cipherlab.plots.throughput`
    (or :func:`cipherlab.plots.speedup` for ratios); the table under it holds the plotted numbers.
    *Export figure* saves the current view in the paper style with
    :func:`cipherlab.save_figure`.

    Parameters
    ----------
    df : pandas.DataFrame
        A tidy table from :func:`cipherlab.ingest` or :func:`cipherlab.capture`.
    metric : {"bytes/s", "per GHz", "cycles/byte", "ratio to baseline"}
        The metric shown first.

    Returns
    -------
    ThroughputExplorer
        An ``ipywidgets.VBox``: display it (last line of a cell). Its controls are attributes
        (``algorithm``, ``operation``, ``runs``, ``condition``, ``levels``, ``baseline``,
        ``blocks``, ``metric``) and so are the last ``figure``, ``png`` and ``table``.

    Examples
    --------
    >>> import cipherlab
    >>> df = cipherlab.ingest(cipherlab.datasets.path("aws-wiki-aesni-on-off.txt"))
    >>> w = cipherlab.widgets.explorer(df)
    >>> w.algorithm.value, w.condition.value
    ('aes-128-gcm', 'aesni')
    >>> before = w.png
    >>> w.metric.value = "ratio to baseline"    # what a click does: the figure is redrawn
    >>> w.png != before, w.baseline.value
    (True, 'off')
    """
    return ThroughputExplorer(df, metric=metric)
