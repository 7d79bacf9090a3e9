"""Linux's Landlock LSM through its three system calls (ctypes; no root, no library needed).

`confine` restricts the calling process and every process it starts afterwards, for good: the
launcher (`arena.launch`) calls it just before it becomes the bot. This module imports nothing of
the project, so that starting a bot stays quick.

>>> landlock_abi() >= 0
True
"""
from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Iterable
from pathlib import Path


_SYSCALL_CREATE, _SYSCALL_ADD_RULE, _SYSCALL_RESTRICT = 444, 445, 446  # the same on every Linux architecture
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

# access rights (linux/landlock.h), by the ABI version that introduced them
_EXECUTE, _WRITE_FILE, _READ_FILE, _READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_FS_V1 = (1 << 13) - 1  # execute … make_sym
_REFER, _TRUNCATE, _IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_FILE_ONLY = _EXECUTE | _WRITE_FILE | _READ_FILE | _TRUNCATE | _IOCTL_DEV
"""The rights a rule on a file (not a folder) may grant."""
_NET_BIND_TCP, _NET_CONNECT_TCP = 1 << 0, 1 << 1
_SCOPE_ABSTRACT_UNIX_SOCKET, _SCOPE_SIGNAL = 1 << 0, 1 << 1

READ = _EXECUTE | _READ_FILE | _READ_DIR
"""What a confined process may do beneath the folders it may read."""


def _syscall() -> ctypes._CFuncPtr:  # type: ignore[name-defined]
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc.syscall


def landlock_abi() -> int:
    """The Landlock ABI version the kernel offers (0: none: not Linux, too old, or disabled)."""
    if not sys.platform.startswith("linux"):
        return 0
    version = _syscall()(_SYSCALL_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return max(0, int(version))


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def confine(read: Iterable[str | Path], write: Iterable[str | Path], listed: Iterable[str | Path] = (),
            devices: Iterable[str | Path] = ("/dev",)) -> int:
    """Restricts this process and its future children (Landlock): read and execute beneath `read`,
    everything beneath `write`, list the folders beneath `listed` (names only), read and write
    the files of `devices`; no TCP, no signal or abstract socket outside. Returns the ABI used;
    OSError if the kernel refuses (this module imports nothing of the project, so raises no
    error of its own)."""
    abi = landlock_abi()
    if abi < 1:
        raise OSError("this kernel offers no Landlock")
    fs = _FS_V1 | (_REFER if abi >= 2 else 0) | (_TRUNCATE if abi >= 3 else 0) | (_IOCTL_DEV if abi >= 5 else 0)
    attr = _RulesetAttr(fs, _NET_BIND_TCP | _NET_CONNECT_TCP if abi >= 4 else 0,
                        _SCOPE_ABSTRACT_UNIX_SOCKET | _SCOPE_SIGNAL if abi >= 6 else 0)
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    call = _syscall()
    ruleset = int(call(_SYSCALL_CREATE, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0)))
    if ruleset < 0:
        raise OSError(f"landlock: cannot create a ruleset ({os.strerror(ctypes.get_errno())})")
    try:
        device_rights = _READ_FILE | _WRITE_FILE | _READ_DIR | (_TRUNCATE | _IOCTL_DEV) & fs
        for paths, rights in ((read, READ), (write, fs), (listed, _READ_DIR), (devices, device_rights)):
            for path in paths:
                _add_rule(call, ruleset, str(path), rights)
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(f"landlock: no_new_privs refused ({os.strerror(ctypes.get_errno())})")
        if call(_SYSCALL_RESTRICT, ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
            raise OSError(f"landlock: cannot restrict the process ({os.strerror(ctypes.get_errno())})")
    finally:
        os.close(ruleset)
    return abi


def _add_rule(call: ctypes._CFuncPtr, ruleset: int, path: str, rights: int) -> None:  # type: ignore[name-defined]
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # a folder that does not exist here grants nothing
    try:
        if not os.path.isdir(path):
            rights &= _FILE_ONLY
        rule = _PathBeneathAttr(rights, fd)
        if call(_SYSCALL_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_RULE_PATH_BENEATH), ctypes.byref(rule),
                ctypes.c_uint32(0)) != 0:
            raise OSError(f"landlock: cannot grant {path} ({os.strerror(ctypes.get_errno())})")
    finally:
        os.close(fd)
