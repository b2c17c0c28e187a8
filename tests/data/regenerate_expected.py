"""(Re)write the expected tidy table next to each dump under tests/data.

    python tests/data/regenerate_expected.py                 # dumps that have no expected table yet
    python tests/data/regenerate_expected.py FILE...         # these dumps (rewrite)
    python tests/data/regenerate_expected.py --all           # every dump (rewrite)

An expected table is ``<stem>.expected.csv`` beside the dump: ``cipherlab.ingest(dump)`` without
the ``source`` column (which depends on where the file is read from). Regenerating is a claim
that the new output is right: diff the CSVs and check the cells by hand against the dump before
committing (``tests/readers/test_corpus.py`` names the cells checked by hand).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
DUMP_SUFFIXES = {".txt", ".md", ".html"}


def expected_path(dump: Path) -> Path:
    return dump.with_name(f"{dump.stem}.expected.csv")


def dumps() -> list[Path]:
    # pastes/ holds real pastes with expectations written by hand (tests/readers/test_pastes.py);
    # a table written from the reader's own output must never stand beside them
    return sorted(p for p in HERE.rglob("*") if p.suffix in DUMP_SUFFIXES
                  and not p.name.startswith("README") and p.is_file()
                  and "pastes" not in p.relative_to(HERE).parts)


def write_expected(dump: Path) -> Path | None:
    import cipherlab
    from cipherlab.errors import IngestError
    from cipherlab.model import write_table

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            df = cipherlab.ingest(dump)
        except IngestError as err:
            print(f"skip {dump.relative_to(HERE)}: {err.msg}")
            return None
    return write_table(df.drop(columns=["source"]), expected_path(dump))


def main(argv: list[str]) -> int:
    if argv == ["--all"]:
        todo = dumps()
    elif argv:
        todo = [Path(a).resolve() for a in argv]
    else:
        todo = [d for d in dumps() if not expected_path(d).exists()]
    for dump in todo:
        out = write_expected(dump)
        if out is not None:
            print(f"wrote {out.relative_to(HERE)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
