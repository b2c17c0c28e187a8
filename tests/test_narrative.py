"""cipherlab.narrative: the phrases the notebooks' computed conclusions are written with."""

import pandas as pd
import pytest

import cipherlab
from cipherlab import narrative


def test_pick_names_what_matched_none_or_several():
    t = pd.DataFrame({"host": ["a", "a"], "block_bytes": [16.0, 8192.0]})
    assert narrative.pick(t, host="a", block_bytes=16).block_bytes == 16.0  # numbers as numbers
    with pytest.raises(cipherlab.AnalysisError, match=r"0 rows have host='b'$"):
        narrative.pick(t, host="b")
    with pytest.raises(cipherlab.AnalysisError, match="2 rows have host='a'; name more columns"):
        narrative.pick(t, host="a")
    with pytest.raises(cipherlab.AnalysisError, match=r"no column \['isa'\]"):
        narrative.pick(t, isa="native")


def test_quotable_leaves_out_multi_and_what_lint_flags_on_the_bundled_tier_seed():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.CipherlabWarning)
        tiers = cipherlab.datasets.load("implementation-tiers-wiki.txt")
        findings = cipherlab.stats.lint(tiers)
        hostb = cipherlab.datasets.load()
    kept = narrative.quotable(tiers, findings)
    flagged = findings[findings.check.eq("physical-limit")]
    assert len(flagged) and len(kept) == len(tiers) - len(flagged)
    assert kept.bytes_per_s.max() < flagged.bytes_per_s.min()  # the impossible rates are gone
    multi = hostb[hostb.multi.notna()]
    assert len(multi) and narrative.quotable(hostb).multi.isna().all()
    assert narrative.quotable(tiers) is not tiers and len(narrative.quotable(tiers)) == len(tiers)


def test_verdict_follows_the_ratio_test_and_describes_unreplicated_rows():
    aws = cipherlab.datasets.load("aws-wiki-aesni-on-off.txt")
    rows = cipherlab.stats.ratio_test(aws, by="aesni", baseline="off", candidate="on",
                                      expected=2.0, margin=0.1)
    for _, row in rows.iterrows():
        said = narrative.verdict(row)
        if bool(row.equivalent):
            assert said.startswith("**equivalent to 2×**")
        elif bool(row.differs):
            assert said.startswith("**not 2×**") and f"{row.p_adjusted:.2g}" in said
    untested = rows.iloc[0].copy()
    untested[["equivalent", "differs", "p_adjusted"]] = None
    assert narrative.verdict(untested).startswith("not tested")


def test_crossover_text_reads_the_crossover_of_the_bundled_aws_seed():
    aws = cipherlab.datasets.load("aws-wiki-aesni-on-off.txt")
    pair = aws[aws.algorithm.isin(["aes-128-gcm", "aes-128-cbc"])]
    cross = cipherlab.stats.crossover(pair, groupby=["aesni", "algorithm", "operation"])
    on = narrative.pick(cross, aesni="on")
    assert on.regime == "a overtakes b"
    assert narrative.crossover_text(on).startswith(f"at **{cipherlab.plots.format_bytes(on.crossover_bytes)}**")
    assert narrative.crossover_text(narrative.pick(cross, aesni="off")).startswith("never")
