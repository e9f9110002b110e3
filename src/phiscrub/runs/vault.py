"""An encrypted mapping vault: what each replaced span of a redaction run held, for authorised re-identification.

``phiscrub redact --vault PATH`` writes one, and only when asked; ``phiscrub reidentify`` reads it
back with the same secret and puts the original strings back into the redacted output.

What it holds, per document id: the SHA-256 of the original text (so a restored note is checked to
be byte-identical), and per replaced span its offsets in the original and in the output, its label
and the original string. It is encrypted whole:

* key: scrypt (``n=2**15, r=8, p=1``, a random 16-byte salt per file) of the user's secret, 32 bytes;
* cipher: AES-256-GCM (:mod:`cryptography`), a random 96-bit nonce; the header line (format, KDF
  parameters, salt, nonce) is authenticated as associated data, so neither it nor the ciphertext can
  be altered unnoticed.

No home-made cryptography: both primitives come from the ``cryptography`` package. A wrong secret
and a damaged file fail the same way (:class:`VaultError`), without saying more.

File layout: ``phiscrub-vault 1\\n`` + one JSON header line + the ciphertext (zlib-compressed JSON
inside).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from phiscrub.document import Document
from phiscrub.errors import PhiscrubError

__all__ = ["MAGIC", "VaultDocument", "VaultError", "VaultSpan", "read_vault", "restore", "write_vault"]

#: First line of every vault file.
MAGIC = b"phiscrub-vault 1\n"
_SCRYPT = {"n": 2**15, "r": 8, "p": 1}


class VaultError(PhiscrubError):
    """A vault cannot be opened (wrong secret, damaged or not a vault) or does not fit the output."""


@dataclass(frozen=True)
class VaultSpan:
    """One replaced span: offsets in the original and in the output, label, original string."""

    start: int
    end: int
    out_start: int
    out_end: int
    label: str
    original: str


@dataclass
class VaultDocument:
    """The replaced spans of one document and the SHA-256 (hex) of its original text."""

    doc_id: str
    sha256: str
    spans: list[VaultSpan] = field(default_factory=list)


def _derive(secret: bytes, salt: bytes, params: Mapping[str, int]) -> bytes:
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    return Scrypt(salt=salt, length=32, n=params["n"], r=params["r"], p=params["p"]).derive(secret)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def document_entry(original: Document, rows: Iterable[Mapping[str, Any]]) -> VaultDocument:
    """The vault entry of ``original`` from its rows of ``phi_spans.jsonl`` (offsets, out offsets, label)."""
    entry = VaultDocument(original.id, hashlib.sha256(original.text.encode("utf-8")).hexdigest())
    for row in rows:
        start, end = int(row["start"]), int(row["end"])
        entry.spans.append(
            VaultSpan(
                start,
                end,
                int(row["out_start"]),
                int(row["out_end"]),
                str(row["label"]),
                original.text[start:end],
            )
        )
    return entry


def write_vault(
    path: str | Path, documents: Iterable[VaultDocument], secret: bytes, info: Mapping[str, Any] | None = None
) -> int:
    """Encrypt ``documents`` (and ``info``: how to find the output again) into ``path``, atomically.

    The file is written to a temporary name beside ``path``, synced and renamed, with mode 0600.

    Returns:
        The number of documents stored.

    Raises:
        VaultError: an empty secret.
    """
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    if not secret:
        raise VaultError("the vault needs a non-empty secret")
    docs = {
        d.doc_id: {
            "sha256": d.sha256,
            "spans": [[s.start, s.end, s.out_start, s.out_end, s.label, s.original] for s in d.spans],
        }
        for d in documents
    }
    payload = zlib.compress(json.dumps({"info": dict(info or {}), "documents": docs}).encode("utf-8"))
    salt, nonce = os.urandom(16), os.urandom(12)
    header = json.dumps(
        {"kdf": "scrypt", **_SCRYPT, "salt": _b64(salt), "cipher": "AES-256-GCM", "nonce": _b64(nonce)},
        sort_keys=True,
    ).encode("ascii")
    sealed = AESGCM(_derive(secret, salt, _SCRYPT)).encrypt(nonce, payload, MAGIC + header)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(MAGIC + header + b"\n" + sealed)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return len(docs)


def read_vault(path: str | Path, secret: bytes) -> tuple[dict[str, VaultDocument], dict[str, Any]]:
    """Decrypt a vault: its documents by id and its ``info``.

    Raises:
        VaultError: not a vault, a damaged one, or the wrong secret (the message does not tell
            which of the last two, by design).
    """
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise VaultError(f"cannot read the vault {p} ({type(exc).__name__})") from None
    if not raw.startswith(MAGIC) or b"\n" not in raw[len(MAGIC) :]:
        raise VaultError(f"{p} is not a phiscrub vault")
    header_bytes, sealed = raw[len(MAGIC) :].split(b"\n", 1)
    try:
        header = json.loads(header_bytes)
        params = {k: int(header[k]) for k in ("n", "r", "p")}
        salt, nonce = base64.b64decode(header["salt"]), base64.b64decode(header["nonce"])
        if header.get("kdf") != "scrypt" or header.get("cipher") != "AES-256-GCM":
            raise ValueError("unknown algorithm")
    except (ValueError, KeyError, TypeError):
        raise VaultError(f"{p}: the vault header is damaged") from None
    if params != _SCRYPT:
        # Only the parameters phiscrub writes: an edited n = 2**30 would ask scrypt for 1 TiB
        # (a traceback, or minutes of work) before the tag check could refuse the file.
        raise VaultError(
            f"{p}: the vault's key-derivation parameters are not the ones phiscrub writes "
            "(scrypt n=2**15, r=8, p=1); the file was altered"
        )
    try:
        payload = AESGCM(_derive(secret, salt, params)).decrypt(nonce, sealed, MAGIC + header_bytes)
    except (InvalidTag, ValueError):
        raise VaultError(f"cannot open the vault {p}: wrong key, or the file was altered") from None
    data = json.loads(zlib.decompress(payload))
    docs = {
        doc_id: VaultDocument(doc_id, entry["sha256"], [VaultSpan(*row) for row in entry["spans"]])
        for doc_id, entry in data["documents"].items()
    }
    return docs, data.get("info", {})


def restore(text: str, entry: VaultDocument) -> str:
    """The original text of a redacted ``text``: each span's output range replaced by its original.

    Raises:
        VaultError: the output ranges do not fit ``text``, or the result is not the original text
            (the redacted output was changed after the run). The message names the document only.
    """
    pieces: list[str] = []
    pos = 0
    for span in sorted(entry.spans, key=lambda s: s.out_start):
        if span.out_start < pos or span.out_end > len(text):
            raise VaultError(f"[doc {entry.doc_id}] the vault does not fit the redacted text")
        pieces += [text[pos : span.out_start], span.original]
        pos = span.out_end
    pieces.append(text[pos:])
    restored = "".join(pieces)
    if hashlib.sha256(restored.encode("utf-8")).hexdigest() != entry.sha256:
        raise VaultError(
            f"[doc {entry.doc_id}] the restored text differs from the original (output changed?)"
        )
    return restored
