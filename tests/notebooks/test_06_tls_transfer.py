"""Notebook 06 runs top to bottom in its QUICK mode (real TLS transfers and openssl speed) and
answers the seed's question with numbers computed on this machine."""

import re

import pytest


@pytest.mark.notebook
@pytest.mark.openssl
@pytest.mark.slow
def test_06_tls_transfer_answers_the_seed(executed):
    nb = executed("06_tls_transfer")
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code[0].metadata.get("tags") == ["parameters"] and "QUICK = True" in code[0].source
    text = "\n".join(o.get("text", "") + str(o.get("data", {}).get("text/plain", ""))
                     for c in code for o in c.get("outputs", []))
    assert "Traceback" not in text
    # one verdict line per ISA preset, each with a ratio and its interval
    verdicts = re.findall(r"(native|no-aesni): GCM / CBC = [\d.]+ \[[\d.]+, [\d.]+\]", text)
    assert sorted(verdicts) == ["native", "no-aesni"]
    assert "measured_over_predicted" in text
    assert any(o.get("data", {}).get("image/png") for c in code for o in c.get("outputs", []))
