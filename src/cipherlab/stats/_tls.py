"""What the TLS record layer could reach per suite, from ``openssl speed`` rates at 16 KiB.

Why this module exists: ``openssl speed`` says what a primitive can do; users choosing a cipher
suite want to know what it means for a real transfer (the OpenJDK seed: 5.2 MiB/s with
AES-128-GCM against 100 MiB/s with AES-128-CBC-SHA256). :func:`record_layer_rates` turns a speed
capture into the rate each suite's record layer could reach; :func:`predict_tls` puts that beside
every measured transfer (:func:`cipherlab.capture_tls`), so ``measured_over_predicted`` says how
much of the gap is the implementation rather than the cipher.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd

from cipherlab.algorithms import TLS_RECORD_BYTES, suite_primitives
from cipherlab.errors import AnalysisError, UnsupportedAlgorithmError

__all__ = ["predict_tls", "record_layer_rates"]


def _primitive_rates(speed: pd.DataFrame, record_bytes: int, keys: list[str]) -> pd.DataFrame:
    needed = {"algorithm", "operation", "block_bytes", "bytes_per_s", *keys}
    missing = sorted(needed - set(speed.columns))
    if missing:
        hint = (f" (add it, e.g. speed.assign({missing[0]}='native'), to say which preset the "
                f"speed capture ran under)" if set(missing) <= set(keys) else "")
        raise AnalysisError(f"the openssl speed table lacks column(s) {missing}{hint}")
    ok = speed["block_bytes"].eq(record_bytes).fillna(False) & speed["bytes_per_s"].notna()
    if "flag" in speed.columns:
        ok &= speed["flag"].isna()
    rows = speed.loc[ok, [*keys, "algorithm", "operation", "bytes_per_s"]]
    if rows.empty:
        sizes = sorted(pd.unique(speed["block_bytes"].dropna()).tolist())
        raise AnalysisError(f"the openssl speed table has no rates at block_bytes={record_bytes} "
                            f"(the TLS record size); its block sizes are {sizes}")
    # The median over repeats: one slow outlier run should not move the prediction.
    return (rows.astype({c: "object" for c in [*keys, "algorithm", "operation"]})
            .groupby([*keys, "algorithm", "operation"], dropna=False)["bytes_per_s"]
            .median().reset_index())


def record_layer_rates(speed: pd.DataFrame, suites: Iterable[str], *,
                       record_bytes: int = TLS_RECORD_BYTES, on: str | Sequence[str] = "isa"
                       ) -> pd.DataFrame:
    """What the TLS record layer could reach per suite, from ``openssl speed`` rates at 16 KiB.

    Per full record the sender seals and the receiver opens 16 KiB:

    * AEAD suites (GCM, CCM, ChaCha20-Poly1305): one AEAD pass per record, so a side's rate is
      the AEAD's rate at 16 KiB (``encrypt`` for the sender, ``decrypt`` for the receiver).
    * CBC-HMAC suites (``...-AES128-SHA256``): one HMAC over the record and one CBC pass, one
      after the other on the same bytes, so their *times* add and the rates combine harmonically:
      ``1 / (1/cbc + 1/hmac)``. (OpenSSL negotiates encrypt-then-MAC by default, which rules out
      its stitched AES-CBC-HMAC code; the two passes really are separate.)

    Sender and receiver are separate processes on separate cores, so they work as a pipeline and
    the slower side bounds the transfer: ``predicted_bytes_per_s = min(send, receive)``. Without
    ``decrypt`` rows the ``encrypt`` rate stands in for the receiver too, and ``basis`` says so.
    Without ``hmac(sha256)`` rows the ``sha256`` digest rate stands in (HMAC over 16 KiB costs two
    extra compression blocks, ~0.2 %). Kernel copies, syscalls and record framing are not in the
    model: they are what ``measured_over_predicted`` < 1 measures.

    Parameters
    ----------
    speed : DataFrame
        Tidy table of an ``openssl speed`` capture (``cipherlab.capture`` or ``ingest``) with
        rates at ``record_bytes`` for the primitives of :func:`suite_primitives`.
    suites : list of str
        Negotiated suite names (the ``algorithm`` column of :func:`capture_tls`).
    record_bytes : int
        Plaintext bytes per record; 16384 for bulk transfers.
    on : str or list of str
        Condition column(s) that tie a speed rate to a TLS run, normally the ISA preset ``isa``.

    Returns
    -------
    DataFrame
        One row per suite and ``on`` value: ``algorithm``, the ``on`` columns, ``primitives``,
        ``predicted_send_bytes_per_s``, ``predicted_receive_bytes_per_s``,
        ``predicted_bytes_per_s``, ``bound`` (``send``/``receive``) and ``basis``.

    Examples
    --------
    >>> import pandas as pd
    >>> speed = pd.DataFrame({"isa": "native", "block_bytes": 16384,
    ...     "algorithm": ["aes-128-cbc", "aes-128-cbc", "hmac(sha256)"],
    ...     "operation": ["encrypt", "decrypt", "digest"], "bytes_per_s": [1.2e9, 6e9, 2e9]})
    >>> r = record_layer_rates(speed, ["ECDHE-ECDSA-AES128-SHA256"])
    >>> round(r["predicted_bytes_per_s"].iloc[0] / 1e6), r["bound"].iloc[0]
    (750, 'send')
    """
    keys = [on] if isinstance(on, str) else list(on)
    rates = _primitive_rates(speed, record_bytes, keys)
    lookup = {tuple(row[:-1]): row[-1] for row in rates.itertuples(index=False, name=None)}
    groups = rates[keys].drop_duplicates().itertuples(index=False, name=None)
    out = []
    for group in list(groups):
        for suite in dict.fromkeys(suites):
            out.append({"algorithm": suite, **dict(zip(keys, group)),
                        **_predict_one(suite, lambda a, op, g=group: lookup.get((*g, a, op)))})
    cols = ["algorithm", *keys, "primitives", "predicted_send_bytes_per_s",
            "predicted_receive_bytes_per_s", "predicted_bytes_per_s", "bound", "basis"]
    return pd.DataFrame(out, columns=cols)


def _predict_one(suite: str, rate) -> dict[str, Any]:
    try:
        prim = suite_primitives(suite)
    except UnsupportedAlgorithmError as err:
        return {"primitives": None, "predicted_send_bytes_per_s": np.nan,
                "predicted_receive_bytes_per_s": np.nan, "predicted_bytes_per_s": np.nan,
                "bound": None, "basis": str(err)}
    cipher, mac = prim["cipher"], prim["mac"]
    notes = []
    enc, dec = rate(cipher, "encrypt"), rate(cipher, "decrypt")
    if enc is None:
        notes.append(f"no {cipher} encrypt rate")
    if dec is None and enc is not None:
        dec = enc
        notes.append(f"{cipher} encrypt stands in for decrypt")
    names = [cipher]
    mac_rate = None
    if mac is not None:
        names.append(mac)
        mac_rate = rate(mac, "digest")
        if mac_rate is None:
            plain = mac[len("hmac("):-1]
            mac_rate = rate(plain, "digest")
            notes.append(f"{plain} digest stands in for {mac}" if mac_rate is not None
                         else f"no {mac} (or {plain}) digest rate")

    def side(r):
        if r is None or (mac is not None and mac_rate is None):
            return np.nan
        return r if mac is None else 1.0 / (1.0 / r + 1.0 / mac_rate)

    send, recv = side(enc), side(dec)
    predicted = np.nanmin([send, recv]) if np.isfinite([send, recv]).any() else np.nan
    bound = None if np.isnan(predicted) else ("send" if send <= recv else "receive")
    how = "harmonic(cbc, hmac)" if mac else "aead"
    return {"primitives": " + ".join(names), "predicted_send_bytes_per_s": send,
            "predicted_receive_bytes_per_s": recv, "predicted_bytes_per_s": predicted,
            "bound": bound, "basis": "; ".join([how, *notes])}


#: ``tool`` of TLS transfer rows: Python's ``ssl`` (OpenSSL) and the JDK's JSSE.
TLS_TOOLS = ("tls", "jsse")


def predict_tls(tls: pd.DataFrame, speed: pd.DataFrame, *, record_bytes: int = TLS_RECORD_BYTES,
                on: str | Sequence[str] = "isa") -> pd.DataFrame:
    """Put the record-layer prediction beside every TLS measurement.

    Parameters
    ----------
    tls : DataFrame
        Rows of :func:`capture_tls` (``tool`` ``'tls'`` or ``'jsse'``; other rows are left out).
    speed : DataFrame
        The primitives' rates at ``record_bytes`` under the same ``on`` conditions: for Python's
        ``ssl``, an ``openssl speed`` capture with ISA presets (``on='isa'``); for JSSE, a
        :func:`cipherlab.capture_jca` capture of the suite's cipher and HMAC with the same JVM
        presets (``on='jvm'``). See :func:`record_layer_rates` for the model.
    record_bytes, on
        As in :func:`record_layer_rates`.

    Returns
    -------
    DataFrame
        A new frame: the TLS rows plus ``primitives``, ``predicted_send_bytes_per_s``,
        ``predicted_receive_bytes_per_s``, ``predicted_bytes_per_s``, ``bound``, ``basis`` and
        ``measured_over_predicted`` (= ``bytes_per_s / predicted_bytes_per_s``).

    Examples
    --------
    >>> import pandas as pd
    >>> speed = pd.DataFrame({"isa": ["native"], "block_bytes": [16384],
    ...     "algorithm": ["aes-128-gcm"], "operation": ["encrypt"], "bytes_per_s": [4e9]})
    >>> tls = pd.DataFrame({"tool": ["tls"], "isa": ["native"], "bytes_per_s": [1e9],
    ...     "algorithm": ["ECDHE-ECDSA-AES128-GCM-SHA256"]})
    >>> predict_tls(tls, speed)["measured_over_predicted"].tolist()
    [0.25]
    """
    keys = [on] if isinstance(on, str) else list(on)
    missing = sorted({"algorithm", "bytes_per_s", *keys} - set(tls.columns))
    if missing:
        raise AnalysisError(f"the TLS table lacks column(s) {missing}")
    rows = tls[tls["tool"].astype("object").isin(TLS_TOOLS)] if "tool" in tls.columns else tls
    if rows.empty:
        raise AnalysisError(f"the TLS table has no rows with tool in {TLS_TOOLS}")
    suites = rows["algorithm"].astype("object").dropna().unique().tolist()
    pred = record_layer_rates(speed, suites, record_bytes=record_bytes, on=keys)
    if pred["predicted_bytes_per_s"].isna().all():
        raise AnalysisError(
            "no suite could be predicted from the speed table: " + "; ".join(
                f"{a}: {b}" for a, b in pred[["algorithm", "basis"]].drop_duplicates()
                .itertuples(index=False)))
    merge_keys = ["algorithm", *keys]
    left = rows.reset_index(drop=True).astype({c: "object" for c in merge_keys})
    out = left.merge(pred.astype({c: "object" for c in merge_keys}), on=merge_keys, how="left")
    out["measured_over_predicted"] = out["bytes_per_s"] / out["predicted_bytes_per_s"]
    for c in merge_keys:
        if isinstance(rows[c].dtype, pd.CategoricalDtype):
            out[c] = out[c].astype("category")
    return out
