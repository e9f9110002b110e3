"""Fixtures shared by every test folder.

Being the root conftest, this file also puts ``tests/`` on ``sys.path`` (pytest's default import
mode), so that test modules anywhere below can ``import corpora``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="module")
def one_torch_thread() -> Iterator[None]:
    """Torch on one thread for a whole module: small models run fastest so, and a shared machine stays
    responsive. Use it with ``pytestmark = pytest.mark.usefixtures("one_torch_thread")``."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
