"""Render measurements as ``openssl speed`` would print them, from the printf formats of speed.c.

Used by the property test (render random records, parse them back) and by
``tests/data/synthetic/make_synthetic.py`` (the committed dumps of releases we have no binary
for). Every format string is copied from ``openssl-speed-formats.md`` (itself copied from
``apps/speed.c`` of each release line); the comments name the section.
"""

from __future__ import annotations

import textwrap

SIZES_5 = [16, 64, 256, 1024, 8192]
SIZES_6 = [16, 64, 256, 1024, 8192, 16384]


# §3.1 header blocks --------------------------------------------------------------------------
def header_098(version="0.9.8o", date="01 Jun 2010", timing_fn="times") -> str:
    return (f"OpenSSL {version} {date}\n"
            "built on: Thu Feb 10 20:02:37 UTC 2011\n"
            "options:bn(64,32) md2(int) rc4(idx,int) des(ptr,risc1,16,long) aes(partial) blowfish(idx) \n"
            "compiler: gcc -fPIC -DOPENSSL_PIC -DZLIB -DOPENSSL_THREADS -D_REENTRANT -O3 -Wall\n"
            "available timing options: TIMES TIMEB HZ=100 [sysconf value]\n"
            f"timing function used: {timing_fn}\n")


def header_1x(version="1.1.1w", date="11 Sep 2023", lib="OpenSSL") -> str:
    return (f"{lib} {version}  {date}\n"
            "built on: Fri Nov 12 17:53:47 2021 UTC\n"
            "options:bn(64,64) rc4(16x,int) des(int) aes(partial) idea(int) blowfish(ptr) \n"
            "compiler: gcc -fPIC -pthread -m64 -Wa,--noexecstack -Wall -O3 -DL_ENDIAN\n")


def header_3x(version="3.5.6", cpuinfo="OPENSSL_ia32cap=0x7ffef3ffffebffff:0xfb417ffef3bfb7ef:"
              "0x00001c30ffdd4432:0x0000000000040000:0x0000000000000000") -> str:
    return (f"version: {version}\n"
            "built on: Tue Mar  3 10:00:00 2026 UTC\n"
            "options: bn(64,64)\n"
            "compiler: gcc -fPIC -pthread -m64 -Wa,--noexecstack -Wall -O3 -DL_ENDIAN\n"
            f"CPUINFO: {cpuinfo}\n")


# §4 the throughput table ---------------------------------------------------------------------
def cell(bytes_per_s: float) -> str:
    """``" %11.2fk"`` of results/1e3 above 10000 bytes/s, else ``" %11.2f "`` of the raw value."""
    if bytes_per_s > 10000:
        return " %11.2fk" % (bytes_per_s / 1e3)
    return " %11.2f " % bytes_per_s


def parsed_cell(bytes_per_s: float) -> float:
    """What a reader gets back from :func:`cell`: the printed text, in bytes/s."""
    text = cell(bytes_per_s).strip()
    return float(text[:-1]) * 1000 if text.endswith("k") else float(text)


def sym_table(rows: list[tuple[str, list[float]]], sizes: list[int], *, mb=False,
              header=True) -> str:
    out = []
    if header:
        out.append("The 'numbers' are in 1000s of bytes per second processed.\n")
        out.append(("type                    " if mb else "type        ")
                   + "".join("%7d bytes" % s for s in sizes) + "\n")
    for name, values in rows:
        out.append(("%-24s" if mb else "%-13s") % name + "".join(cell(v) for v in values) + "\n")
    return "".join(out)


# §6 progress lines ---------------------------------------------------------------------------
def doing_sym(name: str, secs: int, block: int, count: int, seconds: float, *, ops=False) -> str:
    if ops:  # 3.2+
        return "Doing %s ops for %ds on %d size blocks: %d %s ops in %.2fs\n" % (
            name, secs, block, count, name, seconds)
    return "Doing %s for %ds on %d size blocks: %d %s's in %.2fs\n" % (
        name, secs, block, count, name, seconds)


def doing_rsa(bits: int, op: str, count: int, seconds: float, *, bits_word="bits", secs=10) -> str:
    """1.1.1-3.1 (``bits``) or <= 1.1.0 (``bit``) RSA prompt + result; op private/public."""
    return "Doing %d %s %s rsa's for %ds: %d %d %s %s RSA's in %.2fs\n" % (
        bits, bits_word, op, secs, count, bits, bits_word, op, seconds)


# §5 public-key tables ------------------------------------------------------------------------
def rsa_table(rows: list[tuple[int, float, float]], *, time_fmt="%8.6fs") -> str:
    out = ["%18ssign    verify    sign/s verify/s\n" % ""]
    for bits, sign, verify in rows:
        out.append(("rsa %4u bits " + time_fmt + " " + time_fmt + " %8.1f %8.1f\n")
                   % (bits, 1 / sign, 1 / verify, sign, verify))
    return "".join(out)


def rsa4_table(rows: list[tuple[int, float, float, float, float]]) -> str:
    out = ["%19ssign    verify    encrypt   decrypt   sign/s verify/s  encr./s  decr./s\n" % ""]
    for bits, s, v, e, d in rows:
        out.append("rsa %5u bits %8.6fs %8.6fs %8.6fs %8.6fs %8.1f %8.1f %8.1f %8.1f\n"
                   % (bits, 1 / s, 1 / v, 1 / e, 1 / d, s, v, e, d))
    return "".join(out)


def dsa_table(rows: list[tuple[int, float, float]]) -> str:
    out = ["%18ssign    verify    sign/s verify/s\n" % ""]
    for bits, sign, verify in rows:
        out.append("dsa %4u bits %8.6fs %8.6fs %8.1f %8.1f\n" % (bits, 1 / sign, 1 / verify, sign, verify))
    return "".join(out)


def ec_sign_table(kind: str, rows: list[tuple[int, str, float, float]], *, bits_word="bits") -> str:
    out = ["%30ssign    verify    sign/s verify/s\n" % ""]
    for bits, curve, sign, verify in rows:
        out.append(("%4u " + bits_word + " %s (%s) %8.4fs %8.4fs %8.1f %8.1f\n")
                   % (bits, kind, curve, 1 / sign, 1 / verify, sign, verify))
    return "".join(out)


def ecdh_table(rows: list[tuple[int, str, float]], *, bits_word="bits") -> str:
    out = ["%30sop      op/s\n" % ""]
    for bits, curve, rate in rows:
        out.append(("%4u " + bits_word + " ecdh (%s) %8.4fs %8.1f\n") % (bits, curve, 1 / rate, rate))
    return "".join(out)


def ffdh_table(rows: list[tuple[int, float]]) -> str:
    out = ["%23sop     op/s\n" % ""]
    for bits, rate in rows:
        out.append("%4u bits ffdh %8.4fs %8.1f\n" % (bits, 1 / rate, rate))
    return "".join(out)


def kem_sig_table(kind: str, rows: list[tuple[str, float, float, float]]) -> str:
    head = ("%31skeygen    encaps    decaps keygens/s  encaps/s  decaps/s\n" if kind == "kem"
            else "%31skeygen     signs    verify keygens/s    sign/s  verify/s\n")
    out = [head % ""]
    for name, a, b, c in rows:
        out.append("%27s %8.6fs %8.6fs %8.6fs %9.1f %9.1f %9.1f\n" % (name, 1 / a, 1 / b, 1 / c, a, b, c))
    return "".join(out)


# §7 -mr records --------------------------------------------------------------------------------
def mr_sym(name: str, idx: int, sizes: list[int], counts: list[int], seconds: list[float],
           secs=3) -> str:
    out = []
    for size, count, t in zip(sizes, counts, seconds):
        out.append("+DT:%s:%d:%d\n" % (name, secs, size))
        out.append("+R:%d:%s:%f\n" % (count, name, t))
    out.append("+H" + "".join(":%d" % s for s in sizes) + "\n")
    out.append("+F:%d:%s" % (idx, name) + "".join(":%.2f" % (c * s / t) for c, s, t in
                                                  zip(counts, sizes, seconds)) + "\n")
    return "".join(out)


# mail damage (§9 pitfalls 12-13) ---------------------------------------------------------------
def mail_wrap(text: str, width: int = 72, quote: str = "") -> str:
    """Wrap every line longer than ``width`` at the last blank before it, as mail clients do."""
    out = []
    for line in text.split("\n"):
        pieces = textwrap.wrap(line, width=width, break_long_words=False, break_on_hyphens=False,
                               drop_whitespace=True) if len(line) > width else [line]
        out.extend(quote + p for p in (pieces or [""]))
    return "\n".join(out)


# paste damage of the normalise layer (issue 12, layer 1) ------------------------------------
def prefixed(text: str, prefix: str) -> str:
    """Every line of ``text`` behind the same ``prefix`` (``%% ``, ``> > ``, ``// ``, ...)."""
    return "".join(prefix + line for line in text.splitlines(keepends=True))


def gutter(text: str, fmt: str = "{:>4} | ", first: int = 1) -> str:
    """``text`` with a line-number gutter (``fmt`` of the line number) before every line."""
    return "".join(fmt.format(n) + line
                   for n, line in enumerate(text.splitlines(keepends=True), start=first))


def inline_code(text: str, bullet: str = "* ") -> str:
    """Each line of ``text`` as a Markdown bullet holding it as inline code."""
    return "".join(f"{bullet}`{line}`\n" if line.strip() else "\n" for line in text.split("\n")[:-1])


def html_escaped(text: str) -> str:
    """``text`` as an HTML page shows its source: entities for markup and runs of blanks."""
    import html
    return html.escape(text).replace("  ", "&nbsp; ")


# document grids in any orientation (issue 12, layer 3) ---------------------------------------
def markdown_grid(header: list[str], rows: list[list[str]], *, spanning: list[str] | None = None,
                  outer_pipes: bool = True) -> list[str]:
    """A Markdown table: an optional spanning header row (a title over the columns it spans,
    blank in the others, as people type colspan), the header, the separator and ``rows``."""
    def line(cells: list[str]) -> str:
        body = " | ".join(cells)
        return f"| {body} |" if outer_pipes else body
    out = [line(spanning)] if spanning else []
    return out + [line(header), line(["---"] * len(header))] + [line(r) for r in rows]


def doc_value(value: float, thousands: bool) -> str:
    """A throughput as people retype openssl's: ``%.2fk`` above 10000 bytes/s, plain below."""
    if value > 10000:
        return f"{value / 1000:,.2f}k" if thousands else f"{value / 1000:.2f}k"
    return f"{value:,.2f}" if thousands else f"{value:.2f}"
