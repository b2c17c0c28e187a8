"""Readers: ``openssl speed`` text of any version and shape -> records -> the tidy table.

:func:`ingest` is the one public entry point (``cipherlab.ingest``). One private module per
dialect turns lines into :class:`cipherlab.model.Run` records without pandas; only
:func:`cipherlab.model.to_frame` builds frames.
"""

from cipherlab.readers._api import ingest

__all__ = ["ingest"]
