"""Put the original strings back into a redaction run's output, with its vault and secret.

The library behind ``phiscrub reidentify``: the vault written by ``redact --vault``
(:mod:`phiscrub.runs.vault`) names the output and how it was read; each restored note is
checked against the SHA-256 of its original text stored in the vault, so the output is the
original text, byte for byte, or the note is reported (written as found in the redacted output).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from phiscrub.document import Document
from phiscrub.errors import PhiscrubError
from phiscrub.io.private import make_private_dir, private_umask
from phiscrub.io.shapes import InputOptions

__all__ = ["ReidentifyError", "Restored", "reidentify_output"]


class ReidentifyError(PhiscrubError):
    """The vault cannot be opened (wrong secret, damaged) or the output cannot be read: nothing written."""


@dataclass
class Restored:
    """What a re-identification did: notes seen, spans restored, notes that did not match, files."""

    documents: int = 0
    spans: int = 0
    failed: list[str] = field(default_factory=list)
    files: int = 0

    def summary(self, out_dir: Path) -> str:
        """The line ``reidentify`` prints: counts and the ids (never text) of the first notes not restored."""
        return (
            f"re-identified {self.documents - len(self.failed)} documents ({self.spans} spans restored) "
            f"into {out_dir} ({self.files} files)"
            + (
                f"; {len(self.failed)} did not match the vault (written as found): {', '.join(self.failed[:20])}"
                if self.failed
                else ""
            )
        )


def reidentify_output(redacted: Path, out_dir: Path, vault_path: Path, secret: bytes) -> Restored:
    """Restore the notes of ``redacted`` (a ``redact`` OUTDIR, or its output file) into ``out_dir``.

    Raises:
        ReidentifyError: the vault cannot be opened with ``secret``, or the output cannot be read
            or written back.
    """
    from phiscrub.runs.vault import VaultError, read_vault, restore

    try:
        entries, info = read_vault(vault_path, secret)
    except VaultError as exc:
        raise ReidentifyError(str(exc)) from None
    target = redacted / str(info.get("output", ".")) if redacted.is_dir() else redacted
    # The output is read strictly: a byte that does not decode is damage, not a note to recover.
    opts = InputOptions.from_mapping({k: v for k, v in info.items() if k != "encoding_errors"})
    try:
        source = opts.open(target)
    except PhiscrubError as exc:
        raise ReidentifyError(f"cannot read the redacted output: {exc}") from None
    result = Restored()

    def restored() -> Iterator[Document]:
        for doc in source.documents():
            result.documents += 1
            entry = entries.get(doc.id)
            text = doc.text
            if entry is not None:
                try:
                    text = restore(doc.text, entry)
                    result.spans += len(entry.spans)
                except VaultError:
                    result.failed.append(doc.id)
            yield Document(doc.id, text, (), dict(doc.metadata))

    try:
        # The restored notes are PHI in clear: 0600 files in a 0700 folder (issue 28, item 7).
        make_private_dir(out_dir)
        with private_umask():
            result.files = len(source.write(out_dir, restored()))
    except OSError as exc:
        raise ReidentifyError(f"cannot write into {out_dir} ({type(exc).__name__})") from None
    except PhiscrubError as exc:
        raise ReidentifyError(str(exc)) from None
    return result
