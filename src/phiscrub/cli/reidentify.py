"""``phiscrub reidentify``: put the original strings back into a redaction run's output, with its vault and secret.

For authorised users only: it needs the vault written by ``phiscrub redact --vault`` and the secret
that encrypted it (``$PHISCRUB_KEY``, ``--key-file``, or ``--key``). Each restored note is checked
against the SHA-256 of its original text stored in the vault, so the output is the original text,
byte for byte, or the note is reported.

Exit status: 0 every note restored; 1 some notes could not be restored (they are written as found
in the redacted output, and their ids listed); 2 usage error, wrong secret, or a damaged vault.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import click

from phiscrub.cli._common import output_option
from phiscrub.cli._secrets import key_file_option, key_option, read_secret
from phiscrub.deid import KEY_ENV_VAR, resolve_key
from phiscrub.document import Document
from phiscrub.errors import PhiscrubError

__all__ = ["EXIT_NOT_RESTORED", "EXIT_USAGE", "reidentify"]

#: Some notes did not match the vault (written as found, ids listed).
EXIT_NOT_RESTORED = 1
#: Usage error, wrong secret, damaged vault: nothing written.
EXIT_USAGE = 2


class _Refused(click.ClickException):
    """The vault cannot be opened or the output cannot be read (exit :data:`EXIT_USAGE`)."""

    exit_code = EXIT_USAGE


@click.command("reidentify")
@click.argument("redacted", metavar="OUTDIR", type=click.Path(exists=True, path_type=Path))
@output_option(
    "out_dir", "Folder for the re-identified notes (the shape of the redacted output).", folder=True
)
@click.option(
    "--vault",
    "vault_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The vault written by `phiscrub redact --vault`.",
)
@key_option(f"The secret the vault was written with (or ${KEY_ENV_VAR}; --key-file is safer).")
@key_file_option()
def reidentify(
    redacted: Path, out_dir: Path, vault_path: Path, key: str | None, key_file: Path | None
) -> None:
    """Restore the original notes of a `phiscrub redact` run (OUTDIR, or its output file) into OUT.

    \b
    Exit status:
      0  every note restored
      1  some notes did not match the vault: written as found, ids listed
      2  usage error, wrong secret or damaged vault: nothing written
    """
    from phiscrub.io.shapes import open_source
    from phiscrub.transform.vault import VaultError, read_vault, restore

    secret = resolve_key(read_secret(key, key_file))
    if secret is None or not secret.strip():
        raise _Refused(f"reidentify needs the vault's secret: set ${KEY_ENV_VAR} or use --key-file")
    try:
        entries, info = read_vault(vault_path, secret)
    except VaultError as exc:
        raise _Refused(str(exc)) from None
    target = redacted / str(info.get("output", ".")) if redacted.is_dir() else redacted
    try:
        source = open_source(
            target,
            text_field=info.get("text_field", "text"),
            text_column=info.get("text_column", "text"),
            id_field=info.get("id_field"),
            patient_field=info.get("patient_field"),
            keep_columns=tuple(info.get("keep_columns", ())),
            encoding=info.get("encoding", "utf-8"),
        )
    except PhiscrubError as exc:
        raise _Refused(f"cannot read the redacted output: {exc}") from None
    failed: list[str] = []
    counts = {"documents": 0, "spans": 0}

    def restored() -> Iterator[Document]:
        for doc in source.documents():
            counts["documents"] += 1
            entry = entries.get(doc.id)
            text = doc.text
            if entry is not None:
                try:
                    text = restore(doc.text, entry)
                    counts["spans"] += len(entry.spans)
                except VaultError:
                    failed.append(doc.id)
            yield Document(doc.id, text, (), dict(doc.metadata))

    try:
        files = source.write(out_dir, restored())
    except PhiscrubError as exc:
        raise _Refused(str(exc)) from None
    click.echo(
        f"re-identified {counts['documents'] - len(failed)} documents ({counts['spans']} spans restored) "
        f"into {out_dir} ({len(files)} files)"
        + (
            f"; {len(failed)} did not match the vault (written as found): {', '.join(failed[:20])}"
            if failed
            else ""
        ),
        err=True,
    )
    if failed:
        sys.exit(EXIT_NOT_RESTORED)
