"""The cipherlab command: thin subcommands over the public functions.

    cipherlab ingest FILE...        read dumps, print a summary, optionally write the tidy table
    cipherlab capture ...           benchmark this machine with openssl speed (and cryptography)
    cipherlab capture-tls ...       TLS transfer throughput by cipher suite over loopback
    cipherlab capture-jca ...       the JDK's ciphers (SunJCE) under JVM and ISA presets
    cipherlab capture-gnutls ...    GnuTLS's own cipher benchmark under ISA presets
    cipherlab report [SOURCE...]    the whole analysis of dumps and captures, as files + report.html
    cipherlab host                  print this machine's facts as captures record them

Shell conventions: "-" reads standard input (a dump or a tidy CSV) wherever a source is
expected and writes standard output where an output is (ingest -o -, report -o -). Errors
are one line on standard error; the exit status is 2 for a usage error (a bad option or
value), 1 when the data or a run failed, 130 on Ctrl-C. Progress bars show only on a
terminal; -q also silences warnings and summaries.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import warnings
from typing import Iterator, Sequence

USAGE, FAILED = 2, 1  # exit statuses: a bad option or value; data or a run that failed
_SUMMARY_ROWS = 20  # more sources than this: the summary shows totals and the first rows


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


def _table_path(text: str) -> str:
    if text == "-":
        return text
    if not text.lower().endswith((".csv", ".parquet")):
        raise argparse.ArgumentTypeError(f"expected a .csv or .parquet path, or - for CSV on "
                                         f"standard output; not {text!r}")
    folder = os.path.dirname(text) or "."
    if not os.path.isdir(folder):
        raise argparse.ArgumentTypeError(f"folder {folder!r} of {text!r} does not exist")
    return text


def _sources(names: Sequence[str]) -> list:
    """The sources as ingest takes them: ``-`` becomes standard input (read once)."""
    if list(names).count("-") > 1:
        raise argparse.ArgumentTypeError("standard input (-) can be given once")
    return [sys.stdin.buffer if n == "-" else n for n in names]


def _summary(df) -> str:
    """The per-source summary the CLI prints (see :func:`cipherlab.model.summary`); for many
    sources, the totals and the first rows."""
    from cipherlab.model import summary
    if df.empty:
        return "(no rows)"
    table = summary(df)
    if len(table) <= _SUMMARY_ROWS:
        return table.to_string()
    head = table.head(_SUMMARY_ROWS // 2).to_string()
    return (f"{len(table):,} sources, {int(table['runs'].sum()):,} runs, {len(df):,} cells, "
            f"{df['algorithm'].nunique()} algorithms\n{head}\n"
            f"... and {len(table) - _SUMMARY_ROWS // 2:,} more sources "
            "(cipherlab.model.summary(df) lists them all)")


def _say(args, text: str, *, err: bool = False) -> None:
    """Print a summary or a note, unless -q."""
    if not getattr(args, "quiet", False):
        print(text, file=sys.stderr if err else sys.stdout)


@contextlib.contextmanager
def _warnings_as_lines(command: str, quiet: bool) -> Iterator[None]:
    """Warnings become one readable line each on stderr (none with -q), not Python's two-line
    form with a source location."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        finally:
            if not quiet:
                for text in dict.fromkeys(str(w.message) for w in caught):
                    for argument, flag in _FLAGS:  # (the library's advice, in this command's words)
                        text = text.replace(argument, flag)
                    print(f"cipherlab {command}: warning: {text}", file=sys.stderr)


# Arguments of the library that warnings name, and the flags that set them here.
_FLAGS = (("pass strict=True", "pass --strict"),)


def _cmd_ingest(args) -> int:
    import cipherlab
    from cipherlab.model import write_table
    conditions = dict(args.condition)
    if args.tool_version:
        conditions["tool_version"] = args.tool_version
    df = cipherlab.ingest(_sources(args.sources), label=args.label, strict=args.strict,
                          n_jobs=args.jobs, cache=args.cache, **conditions)
    _say(args, _summary(df), err=args.output == "-")
    if args.output == "-":
        df.to_csv(sys.stdout, index=False)
    elif args.output:
        path = write_table(df, args.output)
        _say(args, f"wrote {path}")
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
        if str(message).startswith(host):  # runners' warnings name their host themselves
            host = ""
        if not getattr(args, "quiet", False):
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
    sequential = {k: v for k, v in dict(precision=args.precision,
                                         max_time=args.max_time).items() if v is not None}
    if not args.python_only:
        frames.append(cipherlab.capture(args.algorithms, out=out, timing=args.timing,
                                        multi=args.multi, decrypt=args.decrypt, aead=args.aead,
                                        openssl=args.openssl, progress=_progress(args),
                                        **given, **sequential))
        if "stopping" in frames[-1].attrs:
            st = frames[-1].attrs["stopping"]
            _say(args, f"stopped by {st['stopped']} after {st['pairs']} repeat blocks "
                       f"({st['elapsed_s']:g} s); the rule is in {out}/stopping.json")
    failed = frames[0].attrs.get("failed_hosts", {}) if frames else {}
    if args.python or args.python_only:
        algs = args.python_algorithms or _python_algorithms(args)
        frames.append(cipherlab.capture_python(algs, out=out, timing=args.timing,
                                               progress=_progress(args), **given, **sequential))
    df = cipherlab.concat(frames)
    _say(args, _capture_summary(df))
    _say(args, f"capture folder: {out}  (read it back with cipherlab.ingest({out!r}))")
    if failed:  # each was warned about with its reason; the exit status says it too
        print(f"cipherlab capture: {len(failed)} host(s) failed: {', '.join(failed)}; continue "
              f"them with the same command and --resume", file=sys.stderr)
        return 1
    return 0


def _python_algorithms(args) -> list[str] | None:
    """What ``--python`` times without ``--python-algorithms``: the ``--algorithms`` that
    cryptography can time (the same ciphers on both sides, so the libraries compare), all of
    them with ``--python-only``; none given, or none it can time: its default, said."""
    from cipherlab.runners._pyworker import ALGORITHMS
    from cipherlab.runners._python import DEFAULT_ALGORITHMS

    if args.python_only or not args.algorithms:
        return args.algorithms
    common = [a for a in args.algorithms if a in ALGORITHMS]
    if not common:
        _say(args, f"cipherlab capture: note: cryptography times none of --algorithms "
                   f"({','.join(args.algorithms)}); --python times its default "
                   f"({','.join(DEFAULT_ALGORITHMS)}); choose with --python-algorithms", err=True)
    return common or None


def _progress(args) -> bool:
    """Progress bars only on a terminal, and not with -q."""
    return sys.stderr.isatty() and not getattr(args, "quiet", False)


def _capture_summary(df, by: str = "isa") -> str:
    """Median throughput (MB/s, or ops/s for public keys) per cell and condition ``by``, with n."""
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
    g = t.astype({k: "object" for k in keys + [by]}).groupby(keys + [by], dropna=False)
    med = g["value"].median().unstack(by)
    n = g["value"].size().unstack(by).min(axis=1)
    med["n"] = n
    return med.to_string(float_format=lambda v: f"{v:,.1f}")


def _cmd_capture_tls(args) -> int:
    from cipherlab.runners._openssl import default_folder
    from cipherlab.runners._tls import tls_suites
    if args.list_suites:
        if args.backend == "jsse":
            from cipherlab.runners._jsse import jsse_suites
            from cipherlab.runners._jvm import class_path, find_jdk
            jdk = find_jdk(args.java)
            class_path(jdk)
            print("\n".join(jsse_suites(jdk)))
        else:
            print("\n".join(tls_suites()))
        return 0
    args.out = args.out or str(default_folder("tls"))
    return _capturing(args, lambda: _capture_tls(args))


def _capture_tls(args) -> int:
    import cipherlab
    out = args.out
    given = {k: v for k, v in dict(megabytes=args.megabytes, repeats=args.repeats, isa=args.isa,
                                   write_size=args.write_size, seed=args.seed, jvm=args.jvm,
                                   java=args.java, timeout_s=args.timeout).items() if v is not None}
    df = cipherlab.capture_tls(args.suites, out=out, resume=args.resume, force=args.force,
                               backend=args.backend, progress=_progress(args), **given)
    by = "jvm" if args.backend == "jsse" else "isa"
    _say(args, _capture_summary(df, by=by))
    if args.predict:
        from cipherlab.stats import predict_tls
        pred = predict_tls(df, cipherlab.ingest(_sources([args.predict])[0]), on=by)
        keys = ["algorithm", by, "primitives", "bound"]
        table = (pred.astype({k: "object" for k in keys}).groupby(keys, dropna=False)
                 .agg(measured_MB_s=("bytes_per_s", "median"),
                      predicted_MB_s=("predicted_bytes_per_s", "median"),
                      measured_over_predicted=("measured_over_predicted", "median"),
                      n=("bytes_per_s", "size")))
        table[["measured_MB_s", "predicted_MB_s"]] /= 1e6
        print(table.to_string(float_format=lambda v: f"{v:,.2f}"))
    _say(args, f"capture folder: {out}  (read it back with cipherlab.ingest({out!r}))")
    return 0


def _cmd_capture_library(args) -> int:
    """capture-jca / capture-gnutls: one library's capture function, its summary by condition."""
    import cipherlab
    from cipherlab.runners._openssl import default_folder

    kind = args.command.removeprefix("capture-")
    args.out = args.out or str(default_folder(kind))

    def work() -> int:
        given = {k: v for k, v in vars(args).items() if k in _LIBRARY_OPTIONS and v is not None}
        run = cipherlab.capture_jca if kind == "jca" else cipherlab.capture_gnutls
        df = run(args.algorithms, out=args.out, progress=_progress(args), **given)
        _say(args, _capture_summary(df, by="jvm" if "jvm" in df.columns else "isa"))
        _say(args, f"capture folder: {args.out}  (read it back with cipherlab.ingest({args.out!r}))")
        return 0
    return _capturing(args, work)


# Options of capture-jca / capture-gnutls passed on by name to capture_jca / capture_gnutls.
_LIBRARY_OPTIONS = ("sizes", "seconds", "repeats", "isa", "jvm", "java", "warmup_s", "timing",
                    "gnutls_cli", "timeout_s", "seed", "resume", "force", "label")


def _cmd_report(args) -> int:
    import tempfile

    import cipherlab
    labels = _csv(args.label) if args.label else None
    if labels is not None and len(labels) == 1 and len(args.sources) <= 1:
        labels = labels[0]
    kwargs = dict(label=labels, baseline=args.baseline, progress=_progress(args))
    sources = _sources(args.sources) or None
    if args.out != "-":
        path = cipherlab.report(sources, out=args.out, **kwargs)
        _say(args, f"report: {path}")
        return 0
    with tempfile.TemporaryDirectory(prefix="cipherlab-report-") as tmp:
        # the page embeds its figures, so it stands alone on standard output
        sys.stdout.write(cipherlab.report(sources, out=tmp, **kwargs).read_text(encoding="utf-8"))
    return 0


def _cmd_host(args) -> int:
    import json

    import cipherlab
    print(json.dumps(cipherlab.host_info(), indent=2, default=str))
    return 0


def build_parser() -> argparse.ArgumentParser:
    from cipherlab import __version__

    # -q is accepted before and after the subcommand (cipherlab -q ingest ..., ingest -q ...)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                        help="no progress bars, warnings or summaries; errors still show")
    p = argparse.ArgumentParser(prog="cipherlab", description=__doc__.split("\n")[0],
                                epilog=__doc__.split("\n\n", 2)[2],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                parents=[common])
    p.add_argument("--version", action="version", version=f"cipherlab {__version__}",
                   help="print the version and exit")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, text: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=text, description=text, parents=[common])

    s = command("ingest", "read openssl speed dumps into the tidy table")
    s.add_argument("sources", nargs="+", help="files, folders, globs or capture folders; - reads "
                   "standard input")
    s.add_argument("-o", "--output", type=_table_path,
                   help="write the tidy table (.csv or .parquet, or - for CSV on standard output)")
    s.add_argument("--label", help="run label for every row")
    s.add_argument("--strict", action="store_true", help="fail on any line that cannot be placed")
    s.add_argument("-c", "--condition", type=_condition, action="append", default=[],
                   metavar="NAME=VALUE", help="add a condition column, e.g. -c aesni=off")
    s.add_argument("--tool-version", help="openssl release that wrote -mr output (e.g. 1.1.0): "
                   "decides what version-dependent records mean")
    s.add_argument("-j", "--jobs", type=_jobs, metavar="N", help="processes reading files side by "
                   "side (-1: every CPU; default: every CPU from 4 MB of files on)")
    s.add_argument("--cache", nargs="?", const=True, default=None, metavar="DIR",
                   help="keep each file's parsed runs in a cache keyed by its content, so an "
                   "unchanged file is not parsed again (in DIR, default the user cache folder; "
                   "without the flag CIPHERLAB_CACHE decides)")
    s.set_defaults(func=_cmd_ingest)

    s = command("capture", "benchmark this machine with openssl speed (and cryptography)")
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
                   help="presets or raw masks (default native,no-aesni: the AES instructions "
                        "off, on x86 and ARM); x86 presets (OPENSSL_ia32cap): native, no-aesni, "
                        "no-aesni-classic, no-vaes, no-simd; ARM (OPENSSL_armcap): native, "
                        "no-aesni, no-pmull, no-sha, no-simd; raw: ~0x200000000:~0, armcap=0x99")
    s.add_argument("--precision", default=None, metavar="P%",
                   help="keep adding interleaved repeat blocks until every ratio's 95%% interval "
                        "is within +-P (e.g. 2%%); --repeats is then the most (default 50)")
    s.add_argument("--max-time", type=_positive(float), default=None, metavar="SECONDS",
                   help="with --precision: stop after this many seconds")
    s.add_argument("--timing", choices=("cpu", "elapsed"), default="cpu",
                   help="divide by user CPU time (openssl's default) or by wall-clock time "
                        "(openssl speed -elapsed)")
    s.add_argument("--multi", type=_positive(int), default=None,
                   help="processes (openssl speed -multi)")
    s.add_argument("--decrypt", action="store_true",
                   help="time decryption instead of encryption (openssl speed -decrypt)")
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
                   help="ciphers for --python (default: those of --algorithms it can "
                        "time, else aes-128-gcm,aes-128-cbc)")
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

    s = command("capture-tls", "TLS transfer throughput by cipher suite over loopback")
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
                   help="an openssl speed capture (folder or dump, - for standard input) with "
                        "16384-byte rates of the suites' primitives (for jsse: a capture_jca folder "
                        "with the same --jvm presets): print measured/predicted per suite and preset")
    s.add_argument("--backend", choices=("python", "jsse"), default="python",
                   help="python: Python's ssl on the system OpenSSL; jsse: the JDK's TLS stack "
                        "(the OpenJDK seed's experiment; suites in JSSE's names)")
    s.add_argument("--jvm", type=_csv, default=None,
                   help="--backend jsse: JVM presets (default native), e.g. native,seed-era,"
                        "no-ghash-intrinsics,no-aes-intrinsics,no-crypto-intrinsics,avx2")
    s.add_argument("--java", default=None, help="--backend jsse: path of the java binary")
    s.add_argument("--list-suites", action="store_true", help="print the suites that can run here")
    s.add_argument("-o", "--out", default=None,
                   help="capture folder (default captures/tls-<host>-<UTC time>)")
    s.set_defaults(func=_cmd_capture_tls)

    for name, text in (("capture-jca", "the JDK's ciphers (SunJCE) under JVM and ISA presets"),
                       ("capture-gnutls", "GnuTLS's own cipher benchmark under ISA presets")):
        s = command(name, text)
        s.add_argument("--algorithms", type=_csv, default=None,
                       help="e.g. aes-128-gcm,aes-128-cbc,chacha20-poly1305 (default "
                            "aes-128-gcm,aes-128-cbc)")
        s.add_argument("--repeats", type=_positive(int), default=None,
                       help="separate processes per cell and condition (default 3)")
        s.add_argument("--isa", type=_csv, default=None,
                       help="ISA presets (default native,no-aesni), e.g. native,no-aesni,no-vaes")
        if name == "capture-jca":
            s.add_argument("--sizes", type=_sizes, default=None,
                           help="message sizes in bytes (default 16,256,1024,8192,16384)")
            s.add_argument("--seconds", type=_positive(float), default=None,
                           help="seconds timed per size (default 1)")
            s.add_argument("--warmup", dest="warmup_s", type=_positive(float), default=None,
                           metavar="SECONDS", help="JIT warm-up per size (default 0.5)")
            s.add_argument("--timing", choices=("cpu", "elapsed"), default=None,
                           help="thread CPU time (default) or wall-clock time")
            s.add_argument("--jvm", type=_csv, default=None,
                           help="JVM presets (default native), e.g. native,seed-era,"
                                "no-ghash-intrinsics")
            s.add_argument("--java", default=None, help="path of the java binary")
        else:
            s.add_argument("--gnutls-cli", dest="gnutls_cli", default=None, metavar="PATH",
                           help="the gnutls-cli binary (default: on PATH)")
            s.add_argument("--timeout", dest="timeout_s", type=_positive(float), default=None,
                           help="seconds allowed per run (default 600)")
        s.add_argument("--label", default=None, help="run label for every row")
        s.add_argument("--seed", type=int, default=None, help="seed of the interleaving order "
                       "(default 0)")
        s.add_argument("--resume", action="store_true",
                       help="continue an interrupted capture in --out")
        s.add_argument("--force", action="store_true",
                       help="with --resume: continue a folder captured on another machine")
        s.add_argument("-o", "--out", default=None,
                       help=f"capture folder (default captures/{name[8:]}-<host>-<UTC time>)")
        s.set_defaults(func=_cmd_capture_library)

    s = command("report", "the whole analysis as figures, tables and report.html")
    s.add_argument("sources", nargs="*", help="dumps, folders, capture folders, folders of "
                   "captures or tidy CSV/Parquet files; - reads standard input (default: the "
                   "bundled data)")
    s.add_argument("-o", "--out", default="report",
                   help="output folder (default report); - writes the self-contained page to "
                        "standard output")
    s.add_argument("--label", metavar="NAMES",
                   help="comma-separated machine names, one per source, e.g. alice,bob")
    s.add_argument("--baseline", metavar="NAME",
                   help="the reference machine (or implementation tier) of the comparisons "
                        "(default: the machine with the most cells, and no-asm)")
    s.set_defaults(func=_cmd_report)

    s = command("host", "print this machine's facts")
    s.set_defaults(func=_cmd_host)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status (0, 1 for failed data or runs, 2 for usage).

    Errors print one line, ``cipherlab COMMAND: error: ...``, and no traceback.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(argv)  # usage errors: argparse's message, exit 2
    args.argv = argv  # the command as typed: capture prints it back to resume
    quiet = getattr(args, "quiet", False)
    if quiet or not sys.stderr.isatty():
        os.environ["TQDM_DISABLE"] = "1"  # every tqdm bar below (ingest's file bar too)
    from cipherlab.errors import CipherlabError, UnsupportedAlgorithmError

    def fail(status: int, err: BaseException) -> int:
        text = err.strerror + f": {err.filename}" if isinstance(err, OSError) and \
            err.strerror and err.filename else str(err)
        print(f"cipherlab {args.command}: error: {text}", file=sys.stderr)
        return status

    try:
        with _warnings_as_lines(args.command, quiet):
            return args.func(args)
    except BrokenPipeError:  # `cipherlab ... | head`: the reader left; that is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (UnsupportedAlgorithmError, argparse.ArgumentTypeError) as err:
        return fail(USAGE, err)  # a name or value this machine or command does not take
    except (CipherlabError, OSError) as err:  # unreadable data, a failed run, a missing file
        return fail(FAILED, err)
    except (ValueError, TypeError) as err:  # a parameter the library refused
        return fail(USAGE, err)
    except KeyboardInterrupt:
        print(f"cipherlab {args.command}: interrupted", file=sys.stderr)
        return 130
