"""``phiscrub export-onnx``: convert a trained tagger folder for the lean ONNX Runtime path."""

from __future__ import annotations

from pathlib import Path

import click

from phiscrub.cli._common import choice_option, output_option

__all__ = ["export_onnx_cmd"]


@click.command("export-onnx")
@click.argument("model_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@output_option(
    "out_dir",
    "Output folder (default: MODEL_DIR itself, next to the torch weights).",
    required=False,
    long="--out",
)
@choice_option(
    "--quantize",
    choices=["int8", "none"],
    default="int8",
    help="int8: dynamic int8 weights (smaller, faster); none: float32.",
)
@click.option(
    "--onnx-only",
    is_flag=True,
    help="Replace OUT by a folder without torch weights (no tagger.safetensors, no encoder/): the "
    "folder the package ships. OUT must differ from MODEL_DIR.",
)
def export_onnx_cmd(model_dir: Path, out_dir: Path | None, quantize: str, onnx_only: bool) -> None:
    """Export the trained tagger in MODEL_DIR to ONNX (tagger.onnx, tokenizer.json, onnx.json).

    redact, predict and Deidentifier then run that folder on ONNX Runtime, without torch
    (docs/model.md, "ONNX inference path"). Needs the train extra.
    """
    from phiscrub.errors import ConfigError
    from phiscrub.train.onnx_export import export_onnx, install_onnx

    if onnx_only:
        if out_dir is None or out_dir.resolve() == model_dir.resolve():
            raise ConfigError("--onnx-only needs an -o folder other than MODEL_DIR")
        out = install_onnx(model_dir, out_dir, quantize=quantize)
    else:
        out = export_onnx(model_dir, out_dir, quantize=quantize)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    click.echo(f"exported {model_dir} -> {out} ({quantize}; folder {size / 1e6:.1f} MB)", err=True)
