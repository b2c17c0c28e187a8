"""Multiple-comparison adjustment across a whole grid of tests.

Why this module exists: a comparison of algorithm x operation x block size x machine runs dozens
of tests at once; at alpha = 0.05 a few of them come out "significant" by chance. ``compare``
adjusts every p-value of its result together (Holm by default, Benjamini-Hochberg optional).
NaN p-values (cells that could not be tested) are left NaN and do not count in the family.
"""

from __future__ import annotations

import numpy as np
from scipy import stats as _st

from cipherlab.stats._common import check_one_of

__all__ = ["adjust_p"]


def _holm(p: np.ndarray) -> np.ndarray:
    # Holm (1979): sort ascending, multiply the i-th smallest (0-based) by (m - i), carry the
    # running maximum so adjusted values keep the order of the raw ones, cap at 1.
    m = p.size
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate((m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.minimum(stepped, 1.0)
    return out


def adjust_p(p_values, method: str = "holm") -> np.ndarray:
    """Adjust p-values for multiple comparisons across one family.

    Parameters
    ----------
    p_values : array-like of float
        Raw p-values; NaN entries are ignored (and stay NaN).
    method : {"holm", "bh"}
        ``"holm"``: Holm's step-down method, which controls the family-wise error rate
        (Holm 1979, *Scand. J. Statist.* 6:65-70). ``"bh"``: Benjamini-Hochberg, which controls
        the false discovery rate (Benjamini & Hochberg 1995, *JRSS B* 57:289-300), computed by
        :func:`scipy.stats.false_discovery_control`.

    Returns
    -------
    numpy.ndarray
        Adjusted p-values, same shape and order as the input.

    Examples
    --------
    Holm on four p-values (worked by hand: sorted 0.01, 0.02, 0.03, 0.04 times 4, 3, 2, 1):

    >>> adjust_p([0.01, 0.04, 0.03, 0.02], "holm")
    array([0.04, 0.06, 0.06, 0.06])
    >>> adjust_p([0.01, 0.04, 0.03, 0.02], "bh")
    array([0.04, 0.04, 0.04, 0.04])
    >>> adjust_p([0.01, float("nan")], "holm")
    array([0.01,  nan])
    """
    check_one_of("adjust", method, ("holm", "bh"))
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        flat = p[ok]
        out[ok] = _holm(flat) if method == "holm" else _st.false_discovery_control(flat, method="bh")
    return out
