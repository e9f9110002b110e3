"""Small helpers for loading local Hugging Face model folders, shared by training, synthesis and metrics.

Nothing here downloads: folders are local, and the loaders that use these helpers pass
``local_files_only=True``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from phiscrub.errors import ModelError

__all__ = ["check_model_dir", "quiet_transformers"]


@contextlib.contextmanager
def quiet_transformers() -> Iterator[None]:
    """Silence the weight-loading progress bar and info logs of transformers while loading."""
    from transformers.utils import logging as hf_logging

    bar = hf_logging.is_progress_bar_enabled()
    level = hf_logging.get_verbosity()
    hf_logging.disable_progress_bar()
    hf_logging.set_verbosity_error()
    try:
        yield
    finally:
        hf_logging.set_verbosity(level)
        if bar:
            hf_logging.enable_progress_bar()


def check_model_dir(path: str | Path) -> Path:
    """``path`` as a Path when it is a folder with a ``config.json``.

    Raises:
        ModelError: no such folder, or no config.json in it.
    """
    folder = Path(path)
    if not folder.is_dir() or not (folder / "config.json").is_file():
        raise ModelError(f"encoder folder {folder} does not exist or has no config.json")
    return folder
