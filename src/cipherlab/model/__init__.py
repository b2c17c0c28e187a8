"""The tidy table: the one place that knows cipherlab's columns and their dtypes.

Every producer (``ingest``, ``capture``, ``capture_python``, ``capture_tls``) hands its results to
:func:`to_frame`, and every consumer (``stats``, ``plots``, ``widgets``, ``report``) relies on the
columns defined here. One row is one measured cell: one algorithm, one operation, one block size,
in one run. See ``DESIGN.md`` §2 and the README for the meaning of each column.
"""

from cipherlab.model._schema import (
    CELL_FIELDS,
    COLUMNS,
    Columns,
    FLAG_CHILD,
    FLAG_NOT_MEASURED,
    PROVENANCE,
    RUN_FIELDS,
    Run,
    coerce,
    columns,
    concat,
    condition_columns,
    flag_cells,
    summary,
    to_frame,
)
from cipherlab.model._io import read_table, write_table

__all__ = [
    "CELL_FIELDS",
    "COLUMNS",
    "Columns",
    "FLAG_CHILD",
    "FLAG_NOT_MEASURED",
    "PROVENANCE",
    "RUN_FIELDS",
    "Run",
    "coerce",
    "columns",
    "concat",
    "condition_columns",
    "flag_cells",
    "read_table",
    "summary",
    "to_frame",
    "write_table",
]
