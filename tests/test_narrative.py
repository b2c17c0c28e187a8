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
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.CipherlabWarning)
        df = cipherlab.datasets.load()
        aws = df[df.host.eq("AWS r3.xlarge")]  # one pasted run per side: described, not tested
        # four independent runs per side (the unit of replication): tested
        runs = pd.DataFrame({"source": "s", "run": range(8), "algorithm": "aes-128-gcm",
                             "operation": "encrypt", "block_bytes": 8192,
                             "aesni": ["on"] * 4 + ["off"] * 4,
                             "bytes_per_s": [4.0e9, 4.1e9, 3.9e9, 4.05e9, 1.0e9, 1.02e9, 0.98e9, 1.01e9]})
        rows = pd.concat([stats_test(aws), stats_test(runs)])
    said = [narrative.verdict(r) for _, r in rows.iterrows()]
    for (_, row), text in zip(rows.iterrows(), said):
        if pd.isna(row.equivalent) and pd.isna(row.differs):
            assert text.startswith("not tested")
        elif bool(row.equivalent):
            assert text.startswith("**equivalent to 2×**")
        elif bool(row.differs):
            assert text.startswith("**not 2×**") and f"{row.p_adjusted:.2g}" in text
        else:
            assert text.startswith("undecided")
    assert any(t.startswith("not tested") for t in said)
    assert any(not t.startswith("not tested") for t in said)


def stats_test(rows):
    return cipherlab.stats.ratio_test(rows, by="aesni", baseline="off", candidate="on",
                                      expected=2.0, margin=0.1)


def test_crossover_text_reads_the_crossover_of_the_bundled_aws_seed():
    aws = cipherlab.datasets.load("aws-wiki-aesni-on-off.txt")
    pair = aws[aws.algorithm.isin(["aes-128-gcm", "aes-128-cbc"])]
    cross = cipherlab.stats.crossover(pair, groupby=["aesni", "algorithm", "operation"])
    on = narrative.pick(cross, aesni="on")
    assert on.regime == "a overtakes b"
    at = cipherlab.plots.format_bytes(on.crossover_bytes)
    assert narrative.crossover_text(on).startswith(f"at **{at}**")
    assert narrative.crossover_text(narrative.pick(cross, aesni="off")).startswith("never")


def test_a_crossing_the_other_way_round_says_where_in_both_phrasings():
    """The zh blog's 3.x AEAD paste (tests/data/pastes/034): ChaCha20-Poly1305 against GCM is
    'b overtakes a' (GCM faster above ~721 B): both sentences carry the size, not only the regime."""
    import warnings
    from pathlib import Path

    paste = (Path(__file__).parent / "data" / "pastes"
             / "034_zh-blog-blockquote-aead-sizes-2-31-136-elided.txt")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.CipherlabWarning)
        df = cipherlab.ingest(paste)
        row = cipherlab.stats.crossover(df, "chacha20-poly1305", "aes-128-gcm").iloc[0]
    assert row.regime == "b overtakes a"
    at = cipherlab.plots.format_bytes(row.crossover_bytes)
    assert narrative.crossover_text(row).startswith(f"never (a is faster only below **{at}**")
    said = narrative.crossover_sentence(row)
    assert said.startswith(f"aes-128-gcm overtakes chacha20-poly1305 above {at}")
    assert said.endswith(": chacha20-poly1305 is faster only below it")
