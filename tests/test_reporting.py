"""cipherlab.report(): the whole analysis of the bundled data, its files, and the page in Chromium.

The bundled report is built once per test session (tests/conftest.py: it is the slow part, ~10-30 s
on 2 cores) and shared by the file checks, the layout test and the browser test. Expected numbers
are recomputed here through the public API (stats on the bundled data) or from the seed text by
hand, with the arithmetic in a comment.
"""

import io
import re
import warnings
from pathlib import Path

import pytest

import cipherlab
from cipherlab import stats

FIGURE_FORMATS = (".pdf", ".svg", ".png")
TABLE_FORMATS = (".csv", ".tex", ".md")


@pytest.fixture(scope="module")
def built(bundled_report):
    page, html, _ = bundled_report
    return page, html


def _text(html: str) -> str:
    """The page as a reader sees it: tags dropped, entities decoded, whitespace collapsed."""
    import html as h
    return re.sub(r"\s+", " ", h.unescape(re.sub(r"<[^>]+>", "", html)))


def test_report_writes_every_figure_in_three_formats_and_every_table_in_three(built):
    page, _ = built
    out = page.parent
    assert page.name == "report.html" and (out / "data.csv").is_file()
    figures = sorted((out / "figures").iterdir())
    stems = {p.stem for p in figures}
    assert len(stems) >= 8, stems
    for stem in stems:
        for suffix in FIGURE_FORMATS:
            f = out / "figures" / f"{stem}{suffix}"
            assert f.is_file() and f.stat().st_size > 1000, f
    tables = {p.stem for p in (out / "tables").iterdir()}
    assert {"aesni-speedup", "aesni-2x-test", "cost-model", "crossover", "small-block-overhead",
            "machines", "tiers", "plausibility"} <= tables
    for stem in tables:
        for suffix in TABLE_FORMATS:
            assert (out / "tables" / f"{stem}{suffix}").is_file()
    assert "\\toprule" in (out / "tables" / "aesni-2x-test.tex").read_text()


@pytest.mark.openssl
def test_a_captures_tables_name_what_every_row_shares_once_in_the_caption(captured_report):
    """One machine, one tool, one timing base: the real capture's tables show the fits and
    ratios, not six columns of the same words; the caption says what they share, and the CSV
    keeps every column."""
    import pandas as pd

    from cipherlab.reporting._tables import _header, _is_text

    out = captured_report[0].parent / "tables"
    folded = 0
    for csv in sorted(out.glob("*.csv")):
        full = pd.read_csv(csv)
        caption, _, table = (out / f"{csv.stem}.md").read_text().partition("\n\n")
        header = [h.strip() for h in table.splitlines()[0].strip("|").split("|")]
        same = [c for c in full.columns if _is_text(full[c])
                and full[c].nunique(dropna=False) == 1] if len(full) > 1 else []
        for column in same:
            assert _header(column) not in header, (csv.name, column, header)
        if same and len(same) < len(full.columns):
            assert "Same in every row: " in caption, (csv.name, caption)
            folded += 1
    assert folded >= 3  # the cost model, the crossover, the overhead: one machine's
    fits = (out / "cost-model.md").read_text()
    assert "t0 (ns)" in fits and "Machine " in fits.split("\n\n")[0]


def test_every_figure_is_embedded_so_the_page_opens_offline(built):
    page, html = built
    srcs = re.findall(r"<img[^>]*\ssrc='([^']*)'", html)
    assert len(srcs) == len(list((page.parent / "figures").glob("*.png")))
    assert all(s.startswith("data:image/png;base64,") for s in srcs)
    # nothing fetched from elsewhere: no external scripts, styles or images
    assert not re.search(r"(src|href)=['\"]https?://", html)
    assert "<script" not in html


def test_pdfs_use_embedded_truetype_fonts(built):
    page, _ = built
    for pdf in (page.parent / "figures").glob("*.pdf"):
        data = pdf.read_bytes()
        assert b"/Subtype /Type3" not in data and b"/FontFile2" in data, pdf.name


def test_aesni_section_describes_the_aws_seed_without_testing_it(built):
    _, html = built
    text = _text(html)
    aws = cipherlab.datasets.load("aws-wiki-aesni-on-off.txt")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rt = stats.ratio_test(aws, by="aesni", baseline="off", candidate="on", expected=2.0,
                              margin=0.1)
    # one run per side: a description per block size, no p-value and no verdict
    assert set(rt["test"]) == {"no replication"} and rt["equivalent"].isna().all()
    cbc = rt[(rt.algorithm == "aes-128-cbc") & (rt.block_bytes == 16)].iloc[0]
    gcm = rt[(rt.algorithm == "aes-128-gcm") & (rt.block_bytes == 16)].iloc[0]
    assert (f"aes-128-cbc at 16 bytes: {cbc.ratio:.3g}×, within 2× ±10% (a description: one run "
            "per side, nothing to test)") in text
    assert f"aes-128-gcm at 16 bytes: {gcm.ratio:.3g}×, outside 2× ±10%" in text
    assert "within 2× ±10% at every size; one run per side: described, not tested" in text
    # per-cell ratio straight from the seed text: 282247.11k / 72770.61k = 3.878
    assert "3.88× at 16 bytes" in text


def test_isa_section_calls_an_effect_aes_ni_only_for_aes_under_an_aes_only_mask(built):
    import pandas as pd

    page, html = built
    text = _text(html)
    hostb = cipherlab.datasets.load("captures/host-b-openssl-3.0.22/evp.txt")
    classic = hostb["isa_off"].dropna().astype(str).map(len).idxmax()
    classic = hostb.at[classic, "isa_off"]
    assert {"aesni", "avx2", "avx512f", "shani"} <= set(classic.split("+"))
    # host-b's AWS-wiki mask zeroed the second word: ChaCha20's 3.97x is "ISA off (...)"
    assert f"Speed-up, effect: ISA off ({classic})" in text
    assert f"chacha20-poly1305 0.837×–3.97× (ISA off ({classic}))" in text
    assert f"Not AES-NI alone: the effect measured is ISA off ({classic})" in text
    table = pd.read_csv(page.parent / "tables" / "aesni-speedup.csv")
    chacha = table[(table.algorithm == "chacha20-poly1305")
                   & table.machine.str.startswith("host-b, openssl")]
    assert len(chacha) == 6 and (chacha["effect"] == f"ISA off ({classic})").all()
    assert set(table.loc[table.machine.str.startswith("AWS"), "effect"]) == {"AES-NI"}
    # the 2x claim: AES algorithms only; where more than AES-NI went, the effect says what
    claim = pd.read_csv(page.parent / "tables" / "aesni-2x-test.csv")
    assert claim["algorithm"].str.startswith("aes-").all()
    assert (claim.loc[claim.machine.str.startswith("host-b, openssl"), "effect"]
            == f"ISA off ({classic})").all()
    assert "isa=no-aesni-classic (what it switched off was not recorded)" in text  # pyca.txt
    # never "AES-NI" beside ChaCha20 in any table
    assert not (table.loc[table.algorithm == "chacha20-poly1305", "effect"] == "AES-NI").any()


def test_small_block_section_quotes_the_crossover_and_host_b_numbers(built):
    _, html = built
    text = _text(html)
    assert "Small blocks: the per-call cost of GCM against CBC" in text
    assert re.search(r"aes-128-gcm overtakes aes-128-cbc above [\d.]+ (B|KiB)", text)
    # host-b evp.txt, AES-NI on, 16 bytes: GCM 20304.67k / CBC (from the same file)
    assert "host-b" in text
    # one run per side has no interval: none is printed (it once read "interval nan to unbounded")
    assert not re.findall(r".{0,80}\bnan\b.{0,20}", text)


def test_warnings_and_plausibility_are_on_the_page(built):
    _, html = built
    text = _text(html)
    assert "Plausibility: numbers that cannot be right" in text
    # the tier seed's kernel (AF_ALG) rows: 37,086,822.40k = 37.1 GB/s AES-256-CBC on a Ryzen 5
    assert "37.1 GB/s" in text
    assert "Warnings raised by this analysis" in text


def test_report_of_given_sources_via_the_cli_is_byte_identical_to_the_api(tmp_path, capsys):
    from cipherlab.cli import main

    seed = cipherlab.datasets.path("aws-wiki-aesni-on-off.txt")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main(["report", str(seed), "-o", str(tmp_path / "cli")]) == 0
        api = cipherlab.report(seed, out=tmp_path / "api").parent
    printed = capsys.readouterr().out
    assert printed.strip() == f"report: {tmp_path / 'cli' / 'report.html'}"
    text = _text((tmp_path / "cli" / "report.html").read_text())
    assert "aws-wiki-aesni-on-off" in text and "ISA features on and off" in text
    assert "AES-NI on against AES-NI off" in text and "Speed-up, effect: AES-NI" in text
    # one machine and no tiers in this source: the sections say so instead of failing
    assert "No two machines were measured with the same tool and timing base" in text
    assert "openssl, wall-clock time: AWS r3.xlarge" in text
    assert "no implementation tiers" in text
    # the same data gives the same bytes: page, every figure (PDF, SVG, PNG) and table
    cli = tmp_path / "cli"
    files = sorted(p.relative_to(cli) for p in cli.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(api) for p in api.rglob("*") if p.is_file())
    assert len(files) > 20
    assert [f for f in files if (cli / f).read_bytes() != (api / f).read_bytes()] == []


def test_report_of_a_dump_without_throughputs_explains_instead_of_failing(tmp_path):
    # rsa.txt holds only sign/verify rates: no block sizes, no AES-NI pairs, no GCM/CBC
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        page = cipherlab.report(cipherlab.datasets.path("rsa.txt"), out=tmp_path)
    text = _text(page.read_text())
    assert "no ISA on/off pairs" in text
    assert "per-call cost comparison is not possible" in text
    assert list((tmp_path / "figures").iterdir()) == []
    assert (tmp_path / "tables" / "inputs.csv").is_file()


def test_report_of_cryptsetup_benchmarks_draws_one_operation_per_heatmap_cell(tmp_path):
    # three machines' `cryptsetup benchmark` (each cipher encrypting and decrypting on one line)
    user = Path(__file__).parent / "data" / "user" / "terminal"
    (tmp_path / "tables").mkdir()  # an earlier report's finding, and a file of the user's
    (tmp_path / "tables" / "plausibility.csv").write_text("check,machine\nphysical-limit,old\n")
    (tmp_path / "tables" / "notes.txt").write_text("mine")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        page = cipherlab.report(sorted(user.glob("09[01]_*.txt")), out=tmp_path)
    text = _text(page.read_text())
    assert "Encrypting, where a cipher was timed both ways." in text
    # the Celeron J4125 has AES-NI: its 2 GB/s of AES-CBC decryption are no implausible cell,
    # and the earlier report's table of them is gone (the user's own file stays)
    assert not (tmp_path / "tables" / "plausibility.csv").exists()
    assert (tmp_path / "tables" / "notes.txt").read_text() == "mine"
    assert any(p.name.startswith("machines-heatmap-cryptsetup") for p in (tmp_path / "figures").iterdir())


def test_report_rejects_an_empty_source_list(tmp_path):
    with pytest.raises(ValueError, match="`sources` must name at least one"):
        cipherlab.report([], out=tmp_path)


@pytest.mark.browser
def test_report_opens_in_chromium_with_every_figure_loaded(built, page):
    from matplotlib.image import imread

    path, html = built
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(path.as_uri())
    page.wait_for_load_state("load")
    images = page.locator("img")
    n = images.count()
    assert n == len(re.findall(r"<img", html)) and n >= 8
    sizes = page.evaluate(
        "() => Array.from(document.images).map(i => [i.complete, i.naturalWidth, i.naturalHeight])")
    assert all(done and w > 0 and h > 0 for done, w, h in sizes), sizes
    body = page.locator("body").inner_text()
    for needle in ("Key findings", "within 2× ±10%", "described, not tested", "3.88× at 16 bytes",
                   "37.1 GB/s"):
        assert needle in body, needle
    # the images as the browser drew them have real content, not a blank canvas
    for i in range(n):
        img = images.nth(i)
        img.scroll_into_view_if_needed()
        pixels = imread(io.BytesIO(img.screenshot()), format="png")[..., :3]
        assert pixels.std() > 0.05, f"image {i} looks blank"
        assert (pixels.mean(axis=2) < 0.5).mean() > 0.002, f"image {i} has almost no ink"
    assert not errors, errors
