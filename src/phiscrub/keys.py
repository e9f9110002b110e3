"""The surrogate secret: where it comes from, the checks it must pass, and how key files are read.

One place for the rules every entry point follows (the Python API, ``phiscrub redact`` and
``reidentify``, the service, Spark):

* :func:`resolve_key`: the key given, else ``$PHISCRUB_KEY``, else None;
* :func:`check_secret`: an empty or blank secret is refused (it would make every surrogate
  guessable), and surrogate mode needs one;
* :func:`read_key_file`: a key file holds the secret as written, less one trailing line break
  (``\\n`` or ``\\r\\n``); nothing else is stripped, so a secret may hold spaces or several lines.

Messages name the option or the file, never the secret.
"""

from __future__ import annotations

import os
from pathlib import Path

from phiscrub.errors import ConfigError

__all__ = ["KEY_ENV_VAR", "check_secret", "read_key_file", "read_secret_text", "resolve_key"]

#: Environment variable read for the surrogate secret when no key is passed.
KEY_ENV_VAR = "PHISCRUB_KEY"


def resolve_key(key: str | bytes | None) -> bytes | None:
    """Return the secret as bytes: the given key, else ``$PHISCRUB_KEY``, else None."""
    if key is None:
        key = os.environ.get(KEY_ENV_VAR) or None
    if key is None:
        return None
    return key.encode("utf-8") if isinstance(key, str) else key


def check_secret(secret: str | bytes | None, mode: str | None = None) -> None:
    """Refuse a secret that is empty or blank, and surrogate ``mode`` without a secret.

    Raises:
        ConfigError: the secret is empty or blank, or ``mode`` is ``surrogate`` and there is none.
    """
    if secret is not None and not secret.strip():
        raise ConfigError(
            "the surrogate key is empty or blank: give a non-empty secret "
            f"(key= / --key, --key-file or ${KEY_ENV_VAR})"
        )
    if mode == "surrogate" and secret is None:
        raise ConfigError(f"surrogate mode needs a secret: pass key= / --key, or set ${KEY_ENV_VAR}")


def read_secret_text(path: str | Path, option: str) -> str:
    """The whole text of a secret file (UTF-8).

    Raises:
        ConfigError: the file cannot be read or is not UTF-8 (the message names the path, not content).
    """
    try:
        return Path(path).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{option} {path} cannot be read: {type(exc).__name__}") from None


def read_key_file(path: str | Path, option: str = "--key-file") -> str:
    """The secret of a key file: its text less one trailing line break.

    Raises:
        ConfigError: the file cannot be read, or the secret in it is empty or blank.
    """
    text = read_secret_text(path, option)
    secret = text[:-2] if text.endswith("\r\n") else text.removesuffix("\n")
    if not secret.strip():
        raise ConfigError(f"{option} {path} is empty or blank")
    return secret
