"""NCCL's configuration files, read the way NCCL reads them.

NCCL (src/misc/param.cc, ``initEnv``) reads, once per process:

1. ``$NCCL_CONF_FILE`` if set and non-empty (NCCL >= 2.23; older releases ignore it),
   otherwise ``~/.nccl.conf`` (the home directory of the user, from the password
   database, not ``$HOME``);
2. then ``/etc/nccl.conf``.

Each line ``NAME=VALUE`` is applied with ``setenv(NAME, VALUE, 0)``: a variable already in
the environment wins, and the first file wins over the second. Lines starting with ``#``
and lines without ``=`` are skipped. Nothing is trimmed or unquoted: ``NCCL_DEBUG = INFO``
defines a variable named ``"NCCL_DEBUG "`` and ``NCCL_DEBUG="INFO"`` sets the value
``"INFO"`` with its quotes; ``export NCCL_DEBUG=INFO`` defines ``"export NCCL_DEBUG"``.
``read_conf_files`` records every line so the linter can point at such lines.

``effective_env(env, files)`` returns the settings NCCL would end up with and, for each,
where it came from ("environment" or the file path).
"""

from __future__ import annotations

import os
import pwd
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

ETC_CONF = "/etc/nccl.conf"


@dataclass
class ConfLine:
    path: str
    lineno: int
    text: str
    name: str
    value: str


@dataclass
class ConfFile:
    path: str
    exists: bool
    lines: list[ConfLine] = field(default_factory=list)
    error: str | None = None

    def to_dict(self) -> dict:
        return {
            "path": self.path,
            "exists": self.exists,
            "error": self.error,
            "settings": {ln.name: ln.value for ln in self.lines},
        }


def conf_paths(env: Mapping[str, str], home: str | None = None, etc: str = ETC_CONF) -> list[str]:
    """The files NCCL would read, in the order it reads them."""
    user = env.get("NCCL_CONF_FILE") or ""
    if not user:
        home = home if home is not None else _user_home()
        user = str(Path(home) / ".nccl.conf")
    return [user, etc]


def _user_home() -> str:
    # NCCL's userHomeDir(): getpwuid(getuid())->pw_dir, so $HOME does not matter.
    try:
        return pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:  # a uid without a passwd entry (some containers): NCCL reads no user file
        return "/nonexistent"


def parse_conf(path: str) -> ConfFile:
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return ConfFile(path, exists=False)
    except OSError as exc:
        return ConfFile(path, exists=True, error=exc.strerror or str(exc))
    out = ConfFile(path, exists=True)
    for i, raw in enumerate(text.split("\n"), 1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if not line or line.startswith("#") or "=" not in line:
            continue
        name, value = line.split("=", 1)
        # NCCL copies at most 1023 bytes of each; nobody writes names that long.
        out.lines.append(ConfLine(path, i, line, name[:1023], value[:1023]))
    return out


def read_conf_files(env: Mapping[str, str], home: str | None = None, etc: str = ETC_CONF) -> list[ConfFile]:
    return [parse_conf(p) for p in conf_paths(env, home, etc)]


def effective_env(env: Mapping[str, str], files: list[ConfFile]) -> tuple[dict[str, str], dict[str, str]]:
    """(settings, source of each setting): the environment first, then each file in order."""
    merged = dict(env)
    source = {k: "environment" for k in env}
    for f in files:
        for ln in f.lines:
            if ln.name not in merged:
                merged[ln.name] = ln.value
                source[ln.name] = f"{f.path}:{ln.lineno}"
    return merged, source
