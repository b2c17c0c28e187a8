"""Runners: benchmark this machine and store everything a later analysis needs.

``capture`` runs the real ``openssl speed`` (``-mr``) and parses it with cipherlab's own ingest
code; ``capture_python`` times the ``cryptography`` package in worker processes; ``capture_jca``
the JDK's JCA provider (under :data:`JVM_PRESETS` too), ``capture_gnutls`` GnuTLS's own
benchmark, ``capture_tls`` whole TLS transfers (Python's ``ssl`` or the JDK's JSSE); all accept ISA
conditions (:data:`ISA_PRESETS`, raw ``OPENSSL_ia32cap`` masks; :data:`ARM_PRESETS`,
``armcap=`` values on ARM), interleave them in a seeded random
order, and write every finished run into a capture folder (``_folder.CaptureFolder``) with the
host facts of :func:`host_info`. ``capture(..., hosts=...)`` does the same on many machines at
once over SSH (``_fleet``; hosts as names, :class:`SshHost` or inventories read by
:func:`read_hosts`).
"""

from cipherlab.runners._gnutls import capture_gnutls
from cipherlab.runners._host import host_frame, host_info
from cipherlab.runners._inventory import read_hosts
from cipherlab.runners._isa import (
                                    ARM_PRESETS,
                                    ISA_PRESETS,
                                    IsaCondition,
                                    IsaContrast,
                                    all_on,
                                    effect_label,
                                    effective_mask,
                                    isa_column,
                                    isa_contrast,
                                    isa_env,
                                    isa_off,
                                    isa_sides,
                                    resolve_isa,
)
from cipherlab.runners._jca import capture_jca
from cipherlab.runners._jvm import JVM_PRESETS
from cipherlab.runners._openssl import capture
from cipherlab.runners._python import capture_python
from cipherlab.runners._remote import SshHost
from cipherlab.runners._tls import capture_tls

__all__ = ["ARM_PRESETS", "ISA_PRESETS", "IsaCondition", "IsaContrast", "JVM_PRESETS", "SshHost", "all_on",
           "capture", "capture_gnutls", "capture_jca", "capture_python", "capture_tls",
           "effect_label", "effective_mask", "host_frame", "host_info", "isa_column",
           "isa_contrast", "isa_env", "isa_off", "isa_sides", "read_hosts", "resolve_isa"]
