"""The child process of :func:`cipherlab.capture_python`: times ``cryptography`` calls.

Why a separate process, and why stdlib + cryptography only: each repeat must be its own process
(repeats inside one process understate the variance), and ``OPENSSL_ia32cap`` is read once, when
the OpenSSL bundled in cryptography's wheel initialises, so every ISA condition needs a fresh
process with the variable in its environment. The parent runs this file by path
(``python _pyworker.py '<json>'``): it imports neither pandas nor the rest of cipherlab, so it
starts fast and nothing else competes with the timed calls.

What is timed is what a Python program pays per message: one ``AESGCM.encrypt(nonce, data, None)``
(or ``decrypt``) call, one ``ChaCha20Poly1305`` call, or for CBC/CTR one
``cipher.encryptor()`` + ``update(data)`` + ``finalize()`` (a fresh context per message, as a
program encrypting independent messages does; the ``Cipher`` object is built once). Keys, nonces
and IVs are fixed: this is a speed test, never use it as an encryption pattern.

Like ``openssl speed``, a measurement runs for ``seconds`` of wall clock and divides by user CPU
time (``timing='cpu'``, from ``getrusage``) or by wall time (``timing='elapsed'``), after a warm-up
of ``warmup_s`` seconds on the same size. Output: one JSON object per line on stdout; first a
``{"event": "start", ...}`` line with the versions, then one ``{"event": "result", ...}`` per size.
"""

from __future__ import annotations

import json
import os
import sys
import time

ALGORITHMS = ("aes-128-gcm", "aes-256-gcm", "chacha20-poly1305", "aes-128-cbc", "aes-256-cbc",
              "aes-128-ctr", "aes-256-ctr")


def _user_time() -> float:
    try:
        import resource
    except ImportError:  # Windows: user + system, the closest available
        return time.process_time()
    return resource.getrusage(resource.RUSAGE_SELF).ru_utime


def make_call(algorithm: str, operation: str, size: int):
    """A zero-argument function doing one message of ``size`` bytes, as a program would."""
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305

    family, _, mode = algorithm.rpartition("-")
    data = os.urandom(size)
    if algorithm == "chacha20-poly1305" or mode == "gcm":
        if algorithm == "chacha20-poly1305":
            aead = ChaCha20Poly1305(os.urandom(32))
        else:
            aead = AESGCM(os.urandom(int(family.split("-")[1]) // 8))
        nonce = os.urandom(12)
        if operation == "encrypt":
            return lambda: aead.encrypt(nonce, data, None)
        sealed = aead.encrypt(nonce, data, None)
        return lambda: aead.decrypt(nonce, sealed, None)
    if mode in ("cbc", "ctr"):
        if mode == "cbc" and size % 16:
            raise ValueError(f"{algorithm} needs whole 16-byte blocks; {size} bytes is not one")
        key = os.urandom(int(family.split("-")[1]) // 8)
        cipher = Cipher(algorithms.AES(key), modes.CBC(os.urandom(16)) if mode == "cbc"
                        else modes.CTR(os.urandom(16)))
        if operation == "encrypt":
            def call():
                ctx = cipher.encryptor()
                return ctx.update(data) + ctx.finalize()
            return call
        sealed = cipher.encryptor().update(data)

        def call():
            ctx = cipher.decryptor()
            return ctx.update(sealed) + ctx.finalize()
        return call
    raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}; not {algorithm!r}")


def measure(call, seconds: float, timing: str, warmup_s: float) -> tuple[int, float]:
    """Run ``call`` for ``seconds`` of wall clock; return (calls, divisor seconds)."""
    deadline = time.perf_counter() + warmup_s
    while time.perf_counter() < deadline:
        call()
    # Batches of ~5 ms keep the clock reads out of the timed cost.
    batch = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(batch):
            call()
        if time.perf_counter() - t0 >= 0.005 or batch >= 1 << 20:
            break
        batch *= 2
    clock = _user_time if timing == "cpu" else time.perf_counter
    count = 0
    wall_end = time.perf_counter() + seconds
    c0 = clock()
    while time.perf_counter() < wall_end:
        for _ in range(batch):
            call()
        count += batch
    return count, clock() - c0


def _elf_symbol(path: str, name: bytes) -> int | None:
    """``st_value`` of a (local) symbol in an ELF64 little-endian file's ``.symtab``, or None."""
    import struct
    with open(path, "rb") as fh:
        data = fh.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
                for i in range(shnum)]
    for sh in sections:
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sh[6]]
        strings = data[strtab[4]:strtab[4] + strtab[5]]
        at = strings.find(b"\0" + name + b"\0")
        if at < 0:
            return None
        for st_name, _info, _other, _shndx, value, _size in struct.iter_unpack(
                "<IBBHQQ", data[sh[4]:sh[4] + sh[5]]):
            if st_name == at + 1:
                return value
    return None


def bundled_mask() -> str | None:
    """The capability mask in effect inside the OpenSSL that cryptography's wheel links in.

    That library cannot be asked with ``openssl version -a``, and its copy of
    ``OPENSSL_ia32cap_P`` is a local symbol; on Linux x86-64 it is read here from this process's
    memory (symbol offset from the ELF ``.symtab`` + the load address from ``/proc/self/maps``),
    formatted as OpenSSL 3.0-3.4 print it (``word0:word1``). None where that is not possible.
    """
    try:
        import ctypes

        from cryptography.hazmat.bindings import _rust
        path = os.path.realpath(_rust.__file__)
        offset = _elf_symbol(path, b"OPENSSL_ia32cap_P")
        if offset is None:
            return None
        base = None
        with open("/proc/self/maps", encoding="utf-8") as fh:
            for line in fh:
                fields = line.split()
                if len(fields) >= 6 and os.path.realpath(fields[5]) == path and int(fields[2], 16) == 0:
                    base = int(fields[0].split("-")[0], 16)
                    break
        if base is None:
            return None
        p = (ctypes.c_uint32 * 4).from_address(base + offset)
        return f"0x{p[1] << 32 | p[0]:x}:0x{p[3] << 32 | p[2]:x}"
    except Exception:  # any platform where this does not hold: no mask rather than a wrong one
        return None


def main(argv: list[str]) -> int:
    spec = json.loads(argv[1])
    import cryptography
    from cryptography.hazmat.backends.openssl import backend
    out = sys.stdout
    out.write(json.dumps({"event": "start", "cryptography": cryptography.__version__,
                          "backend": backend.openssl_version_text(),
                          "ia32cap": os.environ.get("OPENSSL_ia32cap")}) + "\n")
    for size in spec["sizes"]:
        call = make_call(spec["algorithm"], spec["operation"], int(size))
        count, secs = measure(call, float(spec["seconds"]), spec["timing"],
                              float(spec["warmup_s"]))
        out.write(json.dumps({"event": "result", "algorithm": spec["algorithm"],
                              "operation": spec["operation"], "block_bytes": int(size),
                              "count": count, "seconds": secs}) + "\n")
        out.flush()
    out.write(json.dumps({"event": "end", "ia32cap_in_effect": bundled_mask()}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
