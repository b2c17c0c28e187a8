"""The ``cipherlab`` command: thin subcommands over the public functions.

    cipherlab ingest FILE...        read dumps, print a summary, optionally write the tidy table
    cipherlab capture ...           benchmark this machine with openssl speed (and cryptography)
    cipherlab capture-tls ...       TLS transfer throughput by cipher suite over loopback
    cipherlab report [SOURCE...]    the whole analysis of dumps and captures, as files + report.html
    cipherlab host                  print this machine's facts as captures record them
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence


def _csv(text: str) -> list[str]:
    return [t.strip() for t in text.split(",") if t.strip()]


def _ints(text: str) -> list[int]:
    try:
        return [int(t) for t in _csv(text)]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated whole numbers; not {text!r}") from None


def _condition(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE; not {text!r}")
    return key, value


def _summary(df) -> str:
    """A short per-source summary: runs, rows, algorithms, block sizes."""
    if df.empty:
        return "(no rows)"
    g = df.groupby("source", observed=True)
    out = g.agg(runs=("run", "nunique"), rows=("run", "size"),
                algorithms=("algorithm", "nunique"),
                tool=("tool_version", lambda s: ", ".join(sorted(map(str, s.dropna().unique())))))
    return out.to_string()


def _cmd_ingest(args) -> int:
    import cipherlab
    from cipherlab.model import write_table
    df = cipherlab.ingest(args.sources, label=args.label, strict=args.strict, **dict(args.condition))
    print(_summary(df))
    if args.output == "-":
        df.to_csv(sys.stdout, index=False)
    elif args.output:
        print(f"wrote {write_table(df, args.output)}")
    return 0


def _cmd_capture(args) -> int:
    import cipherlab
    kwargs = dict(algorithms=args.algorithms, sizes=args.sizes, seconds=args.seconds,
                  repeats=args.repeats, isa=args.isa, out=args.out, timing=args.timing,
                  multi=args.multi, decrypt=args.decrypt, aead=args.aead, seed=args.seed,
                  resume=args.resume, openssl=args.openssl)
    df = cipherlab.capture(**kwargs)
    if args.python:
        py = cipherlab.capture_python(sizes=args.sizes, repeats=args.repeats, isa=args.isa,
                                      out=args.out, seed=args.seed)
        df = cipherlab.concat([df, py])
    print(_summary(df))
    print(f"capture folder: {args.out}")
    return 0


def _cmd_capture_tls(args) -> int:
    import cipherlab
    df = cipherlab.capture_tls(suites=args.suites, megabytes=args.megabytes, repeats=args.repeats,
                               isa=args.isa, write_size=args.write_size, out=args.out, seed=args.seed)
    print(_summary(df))
    print(f"capture folder: {args.out}")
    return 0


def _cmd_report(args) -> int:
    import cipherlab
    path = cipherlab.report(args.sources or None, out=args.out)
    print(f"report: {path}")
    return 0


def _cmd_host(args) -> int:
    import json

    import cipherlab
    print(json.dumps(cipherlab.host_info(), indent=2, default=str))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cipherlab", description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("ingest", help="read openssl speed dumps into the tidy table")
    s.add_argument("sources", nargs="+", help="files, folders or globs")
    s.add_argument("-o", "--output", help="write the tidy table (.csv/.parquet, or - for CSV on stdout)")
    s.add_argument("--label", help="run label for every row")
    s.add_argument("--strict", action="store_true", help="fail on any line that cannot be placed")
    s.add_argument("-c", "--condition", type=_condition, action="append", default=[],
                   metavar="NAME=VALUE", help="add a condition column, e.g. -c aesni=off")
    s.set_defaults(func=_cmd_ingest)

    s = sub.add_parser("capture", help="benchmark this machine with openssl speed")
    s.add_argument("--algorithms", type=_csv, default=None, help="e.g. aes-128-gcm,aes-128-cbc")
    s.add_argument("--sizes", type=_ints, default=None, help="block sizes in bytes, e.g. 16,1024,16384")
    s.add_argument("--seconds", type=float, default=None, help="seconds per measurement")
    s.add_argument("--repeats", type=int, default=None, help="separate openssl processes per cell")
    s.add_argument("--isa", type=_csv, default=None, help="presets or raw masks, e.g. native,no-aesni")
    s.add_argument("--timing", choices=("cpu", "elapsed"), default="cpu")
    s.add_argument("--multi", type=int, default=None, help="processes (openssl speed -multi)")
    s.add_argument("--decrypt", action="store_true")
    s.add_argument("--aead", action="store_true", help="TLS-like AEAD mode (openssl speed -aead)")
    s.add_argument("--seed", type=int, default=0, help="seed of the interleaving order")
    s.add_argument("--resume", action="store_true", help="continue an interrupted capture in --out")
    s.add_argument("--openssl", default=None, help="path of the openssl binary")
    s.add_argument("--python", action="store_true", help="also time the Python cryptography package")
    s.add_argument("-o", "--out", default="captures/latest", help="capture folder")
    s.set_defaults(func=_cmd_capture)

    s = sub.add_parser("capture-tls", help="TLS transfer throughput by cipher suite over loopback")
    s.add_argument("--suites", type=_csv, default=None)
    s.add_argument("--megabytes", type=float, default=100.0)
    s.add_argument("--repeats", type=int, default=3)
    s.add_argument("--isa", type=_csv, default=None)
    s.add_argument("--write-size", type=int, default=16384)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("-o", "--out", default="captures/tls")
    s.set_defaults(func=_cmd_capture_tls)

    s = sub.add_parser("report", help="the whole analysis as figures, tables and report.html")
    s.add_argument("sources", nargs="*", help="dumps and capture folders (default: the bundled data)")
    s.add_argument("-o", "--out", default="report", help="output folder")
    s.set_defaults(func=_cmd_report)

    s = sub.add_parser("host", help="print this machine's facts")
    s.set_defaults(func=_cmd_host)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = build_parser().parse_args(argv)
    from cipherlab.errors import CipherlabError
    try:
        return args.func(args)
    except CipherlabError as err:  # expected failures: one clear line, no traceback
        print(f"cipherlab {args.command}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"cipherlab {args.command}: interrupted", file=sys.stderr)
        return 130
