"""ONNX Runtime, imported only through this module, with its telemetry off.

ONNX Runtime's Python wheels start a native 1DS telemetry client when the library loads: it keeps
an event queue in ``~/.cache/Microsoft/DeveloperTools/.onnxruntime/`` and tries to reach
``mobile.events.data.microsoft.com`` (issue 28, item 1). ``onnxruntime.disable_telemetry_events()``
does not stop it; the environment variable ``ORT_DISABLE_TELEMETRY=1``, set before the import, does.

Importing this module sets that variable (``phiscrub/__init__.py`` imports it first, so every path
that imports phiscrub -- CLI, API, service workers, Spark executors, ``--workers`` processes, which
start by importing phiscrub -- has it before any ``onnxruntime`` import), and
:func:`import_onnxruntime` sets it again right before the import for code that reaches ONNX Runtime
some other way. The value is forced to ``1``: phiscrub promises that nothing leaves the machine, and
has no setting that sends usage data.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

TELEMETRY_ENV = "ORT_DISABLE_TELEMETRY"


def disable_telemetry() -> None:
    """Turn ONNX Runtime's telemetry off for this process and the processes it starts."""
    os.environ[TELEMETRY_ENV] = "1"


def import_onnxruntime() -> ModuleType:
    """``import onnxruntime`` with telemetry off (raises ImportError when it is not installed)."""
    disable_telemetry()
    return importlib.import_module("onnxruntime")


def import_quantization() -> ModuleType:
    """``import onnxruntime.quantization`` with telemetry off (ImportError when not installed)."""
    disable_telemetry()
    return importlib.import_module("onnxruntime.quantization")


disable_telemetry()
