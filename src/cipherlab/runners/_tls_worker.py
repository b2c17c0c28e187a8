"""The two child processes of :func:`cipherlab.capture_tls`: a TLS server that receives and times,
and a TLS client that sends.

Why a separate module, and why stdlib only: the server and the client must be separate processes
(as the OpenJDK seed's ``Server.java`` / ``Client.java`` were), each loading libssl with the ISA
mask of the condition under test in its environment (``OPENSSL_ia32cap`` is read once, when
libcrypto initialises). The parent runs this file by path (``python _tls_worker.py server ...``),
so a child imports neither pandas nor the rest of cipherlab: it starts in ~50 ms and nothing but
``ssl``/``socket`` work competes with the transfer. ``python -m cipherlab.runners._tls_worker``
works too.

Protocol with the parent: one JSON object per line on stdout. The server prints
``{"event": "listening", "port": P}`` as soon as it is bound (port 0: the OS chooses a free one,
on 127.0.0.1 only), then ``{"event": "result", ...}`` when it has received every byte. The
client prints ``{"event": "result", ...}`` after the server acknowledged the last byte. Any
failure prints ``{"event": "error", "message": ...}`` and exits with status 1.

Bounds: each side stops after exactly ``--bytes`` bytes, every socket operation has a timeout,
a wall-clock deadline is checked between reads/writes, and ``signal.alarm`` ends the process
even if it is stuck somewhere else or its parent died (a little after the deadline, so the
parent's own timeout normally fires first and reports it).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import socket
import ssl
import sys
import time

LOOPBACK = "127.0.0.1"
SERVER_NAME = "localhost"  # in the throw-away certificate's subjectAltName


def _emit(**obj) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _context(args, *, server: bool) -> ssl.SSLContext:
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER if server else ssl.PROTOCOL_TLS_CLIENT)
    version = ssl.TLSVersion.TLSv1_3 if args.tls == "1.3" else ssl.TLSVersion.TLSv1_2
    ctx.minimum_version = ctx.maximum_version = version
    if args.tls == "1.2":
        # TLS 1.3 suites cannot be set here: the parent restricts them through OPENSSL_CONF.
        ctx.set_ciphers(args.suite)
    if server:
        ctx.load_cert_chain(args.cert, args.key)
    else:
        ctx.load_verify_locations(args.cert)  # verify the throw-away certificate, as real clients do
    return ctx


def _cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system


def _session(tls: ssl.SSLSocket) -> dict:
    name, _, bits = tls.cipher()
    return {"protocol": tls.version(), "cipher": name, "cipher_bits": bits,
            "openssl": ssl.OPENSSL_VERSION, "ia32cap": os.environ.get("OPENSSL_ia32cap")}


def serve(args) -> None:
    """Accept one connection, receive exactly ``args.bytes`` bytes, time first to last byte."""
    ctx = _context(args, server=True)
    deadline = time.monotonic() + args.timeout
    with socket.create_server((LOOPBACK, 0), backlog=1) as lsock:
        lsock.settimeout(args.timeout)
        _emit(event="listening", port=lsock.getsockname()[1], pid=os.getpid())
        conn, _ = lsock.accept()
    conn.settimeout(args.timeout)
    with ctx.wrap_socket(conn, server_side=True) as tls:  # the handshake happens here
        buf = bytearray(args.read_size)
        view = memoryview(buf)
        remaining = args.bytes
        reads = 0
        first_bytes = 0
        t_first = t_last = None
        cpu0 = _cpu_seconds()
        while remaining > 0:
            n = tls.recv_into(view, min(args.read_size, remaining))
            now = time.perf_counter()
            if n == 0:
                raise ConnectionError(f"the client closed the connection with {remaining} of "
                                      f"{args.bytes} bytes still to come")
            if t_first is None:
                # The clock starts when the first bytes are in hand; those bytes arrived before
                # it started, so they are left out of the timed count (the fence post).
                t_first, first_bytes = now, n
            t_last = now
            remaining -= n
            reads += 1
            if reads % 64 == 0 and time.monotonic() > deadline:
                raise TimeoutError(f"receiving {args.bytes} bytes took longer than the "
                                   f"{args.timeout:g} s limit ({args.bytes - remaining} received)")
        cpu = _cpu_seconds() - cpu0
        tls.sendall(b"k")  # tells the client every byte arrived, so it can close cleanly
        _emit(event="result", role="server", bytes=args.bytes, first_read_bytes=first_bytes,
              timed_bytes=args.bytes - first_bytes, seconds=t_last - t_first, reads=reads,
              cpu_seconds=cpu, **_session(tls))


def send(args) -> None:
    """Connect, send exactly ``args.bytes`` bytes in writes of ``args.write_size``, await the ack."""
    ctx = _context(args, server=False)
    deadline = time.monotonic() + args.timeout
    payload = memoryview(b"\x01" * args.write_size)  # the seed's Arrays.fill(buf, (byte) 1)
    conn = socket.create_connection((LOOPBACK, args.port), timeout=args.timeout)
    with ctx.wrap_socket(conn, server_hostname=SERVER_NAME) as tls:
        sent = writes = 0
        cpu0 = _cpu_seconds()
        t0 = time.perf_counter()
        while sent < args.bytes:
            k = min(args.write_size, args.bytes - sent)
            tls.sendall(payload[:k])
            sent += k
            writes += 1
            if writes % 64 == 0 and time.monotonic() > deadline:
                raise TimeoutError(f"sending {args.bytes} bytes took longer than the "
                                   f"{args.timeout:g} s limit ({sent} sent)")
        t1 = time.perf_counter()
        cpu = _cpu_seconds() - cpu0
        ack = tls.recv(1)
        if ack != b"k":
            raise ConnectionError(f"expected the server's acknowledgement b'k'; got {ack!r}")
        _emit(event="result", role="client", bytes=sent, writes=writes, write_size=args.write_size,
              seconds=t1 - t0, cpu_seconds=cpu, **_session(tls))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="_tls_worker", description=__doc__.split("\n")[0])
    p.add_argument("role", choices=("server", "client"))
    p.add_argument("--cert", required=True, help="PEM certificate (server: chain; client: trust)")
    p.add_argument("--key", help="PEM private key (server only)")
    p.add_argument("--tls", choices=("1.2", "1.3"), required=True)
    p.add_argument("--suite", default="DEFAULT", help="OpenSSL cipher string (TLS 1.2 only)")
    p.add_argument("--bytes", type=int, required=True, help="bytes to transfer")
    p.add_argument("--timeout", type=float, required=True, help="seconds; bounds the whole run")
    p.add_argument("--port", type=int, help="server port (client only)")
    p.add_argument("--write-size", type=int, default=16384, help="bytes per write (client)")
    p.add_argument("--read-size", type=int, default=65536, help="bytes per read (server)")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    # Last-resort bound: the default SIGALRM action ends the process even if it is blocked in C
    # code or its parent is gone. A little later than --timeout, so that the clean timeout (and
    # the parent's) report first.
    signal.alarm(max(1, math.ceil(args.timeout * 1.2 + 2)))
    try:
        if args.bytes <= 0:
            raise ValueError(f"--bytes must be a positive whole number; not {args.bytes}")
        if args.role == "server":
            serve(args)
        else:
            if args.port is None:
                raise ValueError("the client needs --port")
            send(args)
    except Exception as err:  # noqa: BLE001 - reported to the parent, which raises CaptureError
        message = str(err) or repr(err)
        if isinstance(err, TimeoutError) and "limit" not in message:  # a socket timeout
            message += f" (a socket operation exceeded the run's {args.timeout:g} s limit)"
        _emit(event="error", role=args.role, type=type(err).__name__, message=message)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
