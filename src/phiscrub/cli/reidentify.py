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
from pathlib import Path

import click

from phiscrub.cli._common import output_option
from phiscrub.cli._secrets import key_file_option, key_option, read_secret
from phiscrub.deid import KEY_ENV_VAR, resolve_key

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
    from phiscrub.runs.reidentify import ReidentifyError, reidentify_output

    secret = resolve_key(read_secret(key, key_file))
    if secret is None or not secret.strip():
        raise _Refused(f"reidentify needs the vault's secret: set ${KEY_ENV_VAR} or use --key-file")
    try:
        result = reidentify_output(redacted, out_dir, vault_path, secret)
    except ReidentifyError as exc:
        raise _Refused(str(exc)) from None
    click.echo(result.summary(out_dir), err=True)
    if result.failed:
        sys.exit(EXIT_NOT_RESTORED)
