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


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n == 0 or n < -1:
        raise argparse.ArgumentTypeError(f"expected a number of processes or -1; not {text!r}")
    return n


def _summary(df) -> str:
    """The per-source summary the CLI prints (see :func:`cipherlab.model.summary`)."""
    from cipherlab.model import summary
    return "(no rows)" if df.empty else summary(df).to_string()


def _cmd_ingest(args) -> int:
    import warnings

    import cipherlab
    from cipherlab.model import write_table
    conditions = dict(args.condition)
    if args.tool_version:
        conditions["tool_version"] = args.tool_version
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            df = cipherlab.ingest(args.sources, label=args.label, strict=args.strict,
                                  n_jobs=args.jobs, **conditions)
        except OSError as err:  # a missing file or glob: one clear line, like CipherlabError
            print(f"cipherlab ingest: error: {err}", file=sys.stderr)
            return 2
    for w in caught:  # one readable line each, not a Python warning with a source location
        print(f"cipherlab ingest: warning: {w.message}", file=sys.stderr)
    print(_summary(df), file=sys.stderr if args.output == "-" else sys.stdout)
    if args.output == "-":
        df.to_csv(sys.stdout, index=False)
    elif args.output:
        print(f"wrote {write_table(df, args.output)}")
    return 0


def _positive(kind):
    """An argparse type: a number > 0 of ``kind`` (int or float), else one line naming it."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not value > 0 or value != value or value == float("inf"):
            what = "a whole number >= 1" if kind is int else "a positive number"
            raise argparse.ArgumentTypeError(f"expected {what}; not {text!r}")
        return value
    parse.__name__ = kind.__name__
    return parse


def _sizes(text: str) -> list[int]:
    sizes = _ints(text)
    if not sizes or any(s < 1 for s in sizes):
        raise argparse.ArgumentTypeError(f"expected block sizes in bytes >= 1, e.g. 16,1024; "
                                         f"not {text!r}")
    return sizes


def _capturing(args, work) -> int:
    """Run a capture command: warnings as one line each while it runs; a bad argument is one
    line and status 2, a failed run (or environment: no openssl, full disk) one line and
    status 1; Ctrl-C, SIGTERM or SIGHUP print the exact command that resumes it (status 130)."""
    import shlex
    import warnings

    from cipherlab.errors import CipherlabError
    name = f"cipherlab {args.command}"

    from cipherlab.runners._system import LOCAL, current

    def show(message, category, *rest, **kw):  # called in the warning's thread: a fleet host's
        host = "" if current() is LOCAL else f"{current().name}: "
        print(f"{name}: warning: {host}{message}", file=sys.stderr)
    with warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = show
        try:
            return work()
        except KeyboardInterrupt as err:
            folder = getattr(err, "capture_folder", None)
            print(f"{name}: interrupted", file=sys.stderr, end="")
            if folder is not None:
                argv = [a for a in args.argv if a != "--resume"]
                if "-o" not in argv and "--out" not in argv:
                    argv += ["-o", str(args.out)]
                print(f"; the finished runs are kept in {folder}. Continue with:\n  cipherlab "
                      f"{shlex.join(argv + ['--resume'])}", file=sys.stderr)
            else:
                print(file=sys.stderr)
            return 130
        except ValueError as err:  # a bad argument (UnsupportedAlgorithmError included)
            print(f"{name}: error: {err}", file=sys.stderr)
            return 2
        except CipherlabError as err:  # the environment or a run failed
            print(f"{name}: error: {err}", file=sys.stderr)
            return 1


def _cmd_capture(args) -> int:
    from cipherlab.runners._openssl import default_folder
    args.out = args.out or str(default_folder("fleet" if args.hosts else "capture"))
    return _capturing(args, lambda: _capture(args))


def _capture(args) -> int:
    import cipherlab
    out = args.out
    given = {k: v for k, v in dict(sizes=args.sizes, seconds=args.seconds, repeats=args.repeats,
                                   isa=args.isa, seed=args.seed, resume=args.resume,
                                   force=args.force).items() if v is not None}
    if args.hosts:
        if args.python or args.python_only:
            raise ValueError("--python times the cryptography package of this machine; it cannot "
                             "go with --hosts (the hosts need only openssl and a shell)")
        given.update(hosts=args.hosts, ssh_config=args.ssh_config, accept_new=args.accept_new,
                     parallel=args.parallel)
    frames = []
    if not args.python_only:
        sequential = {k: v for k, v in dict(precision=args.precision,
                                             max_time=args.max_time).items() if v is not None}
        frames.append(cipherlab.capture(args.algorithms, out=out, timing=args.timing,
                                        multi=args.multi, decrypt=args.decrypt, aead=args.aead,
                                        openssl=args.openssl, **given, **sequential))
        if "stopping" in frames[-1].attrs:
            st = frames[-1].attrs["stopping"]
            print(f"stopped by {st['stopped']} after {st['pairs']} repeat blocks "
                  f"({st['elapsed_s']:g} s); the rule is in {out}/stopping.json")
    failed = frames[0].attrs.get("failed_hosts", {}) if frames else {}
    if args.python or args.python_only:
        algs = args.python_algorithms or (args.algorithms if args.python_only else None)
        frames.append(cipherlab.capture_python(algs, out=out, timing=args.timing, **given))
    df = cipherlab.concat(frames)
    print(_capture_summary(df))
    print(f"capture folder: {out}  (read it back with cipherlab.ingest({out!r}))")
    if failed:  # each was warned about with its reason; the exit status says it too
        print(f"cipherlab capture: {len(failed)} host(s) failed: {', '.join(failed)}; continue "
              f"them with the same command and --resume", file=sys.stderr)
        return 1
    return 0


def _capture_summary(df) -> str:
    """Median throughput (MB/s, or ops/s for public keys) per cell and ISA condition, with n."""
    df = df[df["flag"].isna()]  # -multi children and flagged cells are not the run's figure
    if df.empty:
        return "(no rows)"
    rate = df["bytes_per_s"].where(df["bytes_per_s"].notna(), df["ops_per_s"])
    unit = df["bytes_per_s"].notna().map({True: "MB/s", False: "ops/s"})
    scaled = rate.where(unit == "ops/s", rate / 1e6)
    t = df.assign(value=scaled, unit=unit, block_bytes=df["block_bytes"].astype("object").fillna("-"))
    keys = ["tool", "algorithm", "operation", "block_bytes", "unit"]
    if "host" in t.columns and t["host"].nunique() > 1:  # a fleet: one line per host
        keys.insert(0, "host")
    g = t.astype({k: "object" for k in keys + ["isa"]}).groupby(keys + ["isa"], dropna=False)
    med = g["value"].median().unstack("isa")
    n = g["value"].size().unstack("isa").min(axis=1)
    med["n"] = n
    return med.to_string(float_format=lambda v: f"{v:,.1f}")


def _cmd_capture_tls(args) -> int:
    from cipherlab.runners._openssl import default_folder
    from cipherlab.runners._tls import tls_suites
    if args.list_suites:
        print("\n".join(tls_suites()))
        return 0
    args.out = args.out or str(default_folder("tls"))
    return _capturing(args, lambda: _capture_tls(args))


def _capture_tls(args) -> int:
    import cipherlab
    out = args.out
    given = {k: v for k, v in dict(megabytes=args.megabytes, repeats=args.repeats, isa=args.isa,
                                   write_size=args.write_size, seed=args.seed,
                                   timeout_s=args.timeout).items() if v is not None}
    df = cipherlab.capture_tls(args.suites, out=out, resume=args.resume, force=args.force,
                               **given)
    print(_capture_summary(df))
    if args.predict:
        from cipherlab.stats import predict_tls
        pred = predict_tls(df, cipherlab.ingest(args.predict))
        keys = ["algorithm", "isa", "primitives", "bound"]
        table = (pred.astype({k: "object" for k in keys}).groupby(keys, dropna=False)
                 .agg(measured_MB_s=("bytes_per_s", "median"),
                      predicted_MB_s=("predicted_bytes_per_s", "median"),
                      measured_over_predicted=("measured_over_predicted", "median"),
                      n=("bytes_per_s", "size")))
        table[["measured_MB_s", "predicted_MB_s"]] /= 1e6
        print(table.to_string(float_format=lambda v: f"{v:,.2f}"))
    print(f"capture folder: {out}  (read it back with cipherlab.ingest({out!r}))")
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
    s.add_argument("--tool-version", help="openssl release that wrote -mr output (e.g. 1.1.0): "
                   "decides what version-dependent records mean")
    s.add_argument("-j", "--jobs", type=_jobs, metavar="N", help="processes reading files side by "
                   "side (-1: every CPU; default: every CPU from 4 MB of files on)")
    s.set_defaults(func=_cmd_ingest)

    s = sub.add_parser("capture", help="benchmark this machine with openssl speed (and cryptography)")
    s.add_argument("--algorithms", type=_csv, default=None,
                   help="e.g. aes-128-gcm,aes-128-cbc,sha256,rsa2048 (default aes-128-gcm,aes-128-cbc)")
    s.add_argument("--sizes", type=_sizes, default=None,
                   help="block sizes in bytes, one openssl process each, e.g. 16,1024,16384 "
                        "(default: openssl's six sizes in one process)")
    s.add_argument("--seconds", type=_positive(float), default=None,
                   help="seconds per measurement (openssl default 3, whole numbers; python 1)")
    s.add_argument("--repeats", type=_positive(int), default=None,
                   help="separate processes per cell and condition (default 6)")
    s.add_argument("--isa", type=_csv, default=None,
                   help="presets or raw OPENSSL_ia32cap masks (default native,no-aesni); presets: "
                        "native, no-aesni, no-aesni-classic, no-vaes, no-simd")
    s.add_argument("--precision", default=None, metavar="P%",
                   help="keep adding interleaved repeat blocks until every ratio's 95%% interval "
                        "is within +-P (e.g. 2%%); --repeats is then the most (default 50)")
    s.add_argument("--max-time", type=_positive(float), default=None, metavar="SECONDS",
                   help="with --precision: stop after this many seconds")
    s.add_argument("--timing", choices=("cpu", "elapsed"), default="cpu")
    s.add_argument("--multi", type=_positive(int), default=None,
                   help="processes (openssl speed -multi)")
    s.add_argument("--decrypt", action="store_true")
    s.add_argument("--aead", action="store_true", help="TLS-like AEAD mode (openssl speed -aead)")
    s.add_argument("--seed", type=int, default=None, help="seed of the interleaving order (default 0)")
    s.add_argument("--resume", action="store_true", help="continue an interrupted capture in --out")
    s.add_argument("--force", action="store_true",
                   help="with --resume: continue a folder captured on another machine")
    s.add_argument("--openssl", default=None, metavar="[NAME=]PATH[@LIBDIR],...",
                   help="the openssl binary, or several builds to compare, interleaved as the "
                        "condition 'build' (LIBDIR: its LD_LIBRARY_PATH), e.g. "
                        "old=/opt/ossl111/bin/openssl,/usr/bin/openssl")
    s.add_argument("--python", action="store_true", help="also time the Python cryptography package")
    s.add_argument("--python-only", action="store_true",
                   help="time only the cryptography package (--algorithms then names its ciphers)")
    s.add_argument("--python-algorithms", type=_csv, default=None,
                   help="ciphers for --python (default aes-128-gcm,aes-128-cbc)")
    s.add_argument("--hosts", default=None, metavar="HOSTS",
                   help="benchmark these machines over SSH (at the same time, each one run "
                        "after another) instead of this one: names or ~/.ssh/config aliases "
                        "([user@]host[:port], comma-separated) and @FILE Ansible inventories "
                        "(INI or YAML)")
    s.add_argument("--ssh-config", default=None, metavar="FILE",
                   help="with --hosts: an OpenSSH client config (ssh -F)")
    s.add_argument("--accept-new", action="store_true",
                   help="with --hosts: learn the host keys of hosts not yet in known_hosts "
                        "(StrictHostKeyChecking=accept-new; a changed key still fails)")
    s.add_argument("--parallel", choices=("machine", "host"), default="machine",
                   help="with --hosts: one thread per machine (hosts found to be one machine run "
                        "one after another; default) or per host")
    s.add_argument("-o", "--out", default=None,
                   help="capture folder (default captures/capture-<host>-<UTC time>; with "
                        "--hosts captures/fleet-<host>-<UTC time>, one folder per host inside)")
    s.set_defaults(func=_cmd_capture)

    s = sub.add_parser("capture-tls", help="TLS transfer throughput by cipher suite over loopback")
    s.add_argument("--suites", type=_csv, default=None,
                   help="OpenSSL names of TLS 1.2 ECDHE-ECDSA suites and/or TLSv1.3 (default "
                        "ECDHE-ECDSA-AES128-GCM-SHA256,ECDHE-ECDSA-AES128-SHA256,"
                        "ECDHE-ECDSA-CHACHA20-POLY1305,TLSv1.3); see --list-suites")
    s.add_argument("--megabytes", type=_positive(float), default=None,
                   help="MB per transfer (default 100)")
    s.add_argument("--repeats", type=_positive(int), default=None,
                   help="transfers per suite and condition, each with fresh processes (default 3)")
    s.add_argument("--isa", type=_csv, default=None,
                   help="presets or raw OPENSSL_ia32cap masks, applied to server and client "
                        "(default native), e.g. native,no-aesni")
    s.add_argument("--write-size", type=_positive(int), default=None,
                   help="bytes per write on the sending side (default 16384)")
    s.add_argument("--timeout", type=_positive(float), default=None,
                   help="seconds allowed per transfer (default 30 + 1 per 5 MB)")
    s.add_argument("--seed", type=int, default=None, help="seed of the interleaving order (default 0)")
    s.add_argument("--resume", action="store_true", help="continue an interrupted capture in --out")
    s.add_argument("--force", action="store_true",
                   help="with --resume: continue a folder captured on another machine")
    s.add_argument("--predict", metavar="SPEED", default=None,
                   help="an openssl speed capture (folder or dump) with 16384-byte rates of the "
                        "suites' primitives: print measured/predicted per suite and preset")
    s.add_argument("--list-suites", action="store_true", help="print the suites that can run here")
    s.add_argument("-o", "--out", default=None,
                   help="capture folder (default captures/tls-<host>-<UTC time>)")
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
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)
    args.argv = argv  # the command as typed: capture prints it back to resume
    from cipherlab.errors import CipherlabError
    try:
        return args.func(args)
    except CipherlabError as err:  # expected failures: one clear line, no traceback
        print(f"cipherlab {args.command}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"cipherlab {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `cipherlab ... | head`: the reader left; that is not an error
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
