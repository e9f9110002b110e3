"""The tagger on ONNX Runtime: the lean inference path (no torch, no transformers).

A folder written by ``phiscrub export-onnx`` (:func:`phiscrub.train.onnx_export.export_onnx`) holds
``tagger.onnx`` (encoder + features + head, int8 weights), ``tokenizer.json`` (Rust ``tokenizers``)
and ``onnx.json`` (tags, window settings, CRF scores). :class:`OnnxTaggerDetector` runs it exactly
like the torch path (:class:`phiscrub.detect.tagger.TaggerDetector`; both inherit their document
handling from :class:`phiscrub.detect.tagger_base.BaseTaggerDetector`): the same words, subword
windows, owner windows, BIO-constrained Viterbi and CRF marginals (:mod:`phiscrub.tagger.encoding`,
:mod:`phiscrub.tagger.decode`), only the forward pass runs in ONNX Runtime. ``phiscrub redact``, ``predict`` and :class:`~phiscrub.Deidentifier` use it
automatically when a model folder holds these files and onnxruntime is installed
(:func:`phiscrub.detect.tagger.load_model_detector`).

Throughput: windows are sorted by length and batched under a token budget, so a batch is padded
only to its own longest window; ONNX Runtime uses one intra-op thread per physical core (or
``num_threads``, or ``$PHISCRUB_THREADS``), whose idle threads sleep rather than spin.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from phiscrub.detect.tagger_base import SEGMENT_CHARS, BaseTaggerDetector
from phiscrub.document import Document
from phiscrub.errors import ConfigError, ModelError
from phiscrub.labels import labels_of
from phiscrub.tagger.ort import import_onnxruntime

__all__ = [
    "ONNX_CONFIG",
    "ONNX_FILE",
    "THREADS_ENV_VAR",
    "OnnxTaggerDetector",
    "RustTokenizer",
    "has_onnx_files",
    "onnx_available",
    "physical_cores",
]

ONNX_FILE = "tagger.onnx"
ONNX_CONFIG = "onnx.json"
#: Environment variable that sets ONNX Runtime's intra-op threads (default: physical cores).
THREADS_ENV_VAR = "PHISCRUB_THREADS"
# Subword tokens per forward pass (batch rows x padded length): bounds activation memory.
_TOKEN_BUDGET = 8 * 192


def has_onnx_files(model_dir: str | Path) -> bool:
    """True when ``model_dir`` holds an exported ONNX tagger (``onnx.json`` and ``tagger.onnx``)."""
    folder = Path(model_dir)
    return (folder / ONNX_CONFIG).is_file() and (folder / ONNX_FILE).is_file()


def onnx_available() -> bool:
    """True when onnxruntime and tokenizers can be imported."""
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "tokenizers"))


def physical_cores() -> int:
    """Physical CPU cores this process may use (hyper-threads not counted; at least 1)."""
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count() or 1
    cores: set[tuple[str, str]] = set()
    try:
        phys = core = ""
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as fh:
            for line in fh:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "physical id":
                    phys = value.strip()
                elif key == "core id":
                    core = value.strip()
                    cores.add((phys, core))
    except OSError:
        pass
    physical = len(cores) or usable
    return max(1, min(usable, physical))


class _Encoding:
    """The part of a Hugging Face ``BatchEncoding`` that :mod:`phiscrub.tagger.encoding` reads."""

    def __init__(self, encodings: list[Any], single: bool) -> None:
        self._encodings = encodings
        self._single = single

    def __getitem__(self, key: str) -> Any:
        if key != "input_ids":
            raise KeyError(key)
        ids = [e.ids for e in self._encodings]
        return ids[0] if self._single else ids

    def word_ids(self, index: int = 0) -> list[int | None]:
        return list(self._encodings[index].word_ids)


class RustTokenizer:
    """A ``tokenizer.json`` (Rust ``tokenizers``) with the call signature the window code uses.

    Only pre-split words are supported (``is_split_into_words=True``), as in
    :func:`phiscrub.tagger.encoding.encode_documents`; ids equal those of the Hugging Face fast
    tokenizer the file was saved from.

    Args:
        path: the ``tokenizer.json`` file.
        unk_token: the unknown token (stands in for words that yield no subword).
        pad_id: the padding id.
    """

    is_fast = True

    def __init__(self, path: str | Path, unk_token: str | None, pad_id: int) -> None:
        from tokenizers import Tokenizer

        self._tok = Tokenizer.from_file(str(path))
        self._tok.no_truncation()
        self._tok.no_padding()
        self.unk_token = unk_token
        self.pad_token_id = pad_id

    def __call__(
        self,
        words: Sequence[str] | Sequence[Sequence[str]],
        is_split_into_words: bool = True,
        add_special_tokens: bool = True,
        **_: Any,
    ) -> _Encoding:
        if not is_split_into_words:
            raise ConfigError("RustTokenizer only takes pre-split words")
        single = bool(words) and isinstance(words[0], str)
        batch = [list(words)] if single else [list(w) for w in words]
        encodings = self._tok.encode_batch(batch, is_pretokenized=True, add_special_tokens=add_special_tokens)
        return _Encoding(encodings, single)


def _session(path: Path, num_threads: int) -> Any:
    ort = import_onnxruntime()

    options = ort.SessionOptions()
    options.intra_op_num_threads = num_threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    # Idle pool threads sleep instead of spin-waiting: spinning burns a core between runs (while the
    # rules, decoding and other workers need it) and, on a loaded machine, took 21 CPU s instead of
    # 14 for the same 200 notes (docs/benchmarks.md).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])


class OnnxModel:
    """An exported tagger: ONNX session, tokenizer and decoding settings (duck-types what
    :class:`~phiscrub.detect.tagger.TaggerDetector` reads of a torch tagger: ``labels``)."""

    def __init__(self, model_dir: str | Path, num_threads: int | None = None) -> None:
        from phiscrub.tagger.decode import bio_constraints, constraint_scores

        folder = Path(model_dir)
        try:
            info = json.loads((folder / ONNX_CONFIG).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ModelError(f"{folder / ONNX_CONFIG} cannot be read ({type(exc).__name__})") from None
        if not isinstance(info, dict) or "tags" not in info:
            raise ModelError(f"{folder / ONNX_CONFIG} is not an ONNX tagger description")
        labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
        self.granularity = labels["granularity"]
        self.tags: tuple[str, ...] = tuple(info["tags"])
        if list(self.tags) != labels.get("tags"):
            raise ModelError(f"{folder / ONNX_CONFIG} and labels.json list different tags")
        self.max_length = int(info["max_length"])
        self.overlap = int(info["overlap"])
        self.sentence_aware = bool(info["sentence_aware"])
        self.subword_strategy = str(info["subword_strategy"])
        self.affixes = (list(info["prefix_ids"]), list(info["suffix_ids"]))
        self.pad_id = int(info["pad_id"])
        crf = info.get("crf")
        self.use_crf = crf is not None
        if crf is not None:
            allowed, allowed_start = bio_constraints(self.tags)
            trans = np.where(allowed, np.asarray(crf["transitions"], dtype=np.float64), -np.inf)
            start = np.where(allowed_start, np.asarray(crf["start"], dtype=np.float64), -np.inf)
            self.transitions = (trans, start, np.asarray(crf["end"], dtype=np.float64))
        else:
            self.transitions = constraint_scores(self.tags)
        threads = num_threads or int(os.environ.get(THREADS_ENV_VAR) or 0) or physical_cores()
        self.num_threads = threads
        tokenizer_file = folder / info.get("tokenizer", "tokenizer.json")
        if not tokenizer_file.is_file():
            raise ModelError(f"model folder {folder} has no {info.get('tokenizer', 'tokenizer.json')}")
        self.tokenizer = RustTokenizer(tokenizer_file, info.get("unk_token"), self.pad_id)
        self._path = folder / info.get("onnx", ONNX_FILE)
        self.session = _session(self._path, threads)
        # What :meth:`prefetch` started (its thread pool and session are made on its first call).
        self._worker: Any = None
        self._ahead_session: Any = None
        self._ahead: dict[bytes, Any] = {}
        self._windowed: dict[tuple[str, ...], Any] = {}
        self._generations: list[tuple[list[bytes], list[tuple[str, ...]]]] = []

    @property
    def labels(self) -> tuple[str, ...]:
        """The PHI labels the tagger predicts."""
        return labels_of(self.granularity)

    def run(self, chunk: Sequence[Any]) -> np.ndarray:
        """Scores ``(len(chunk), slots, T)`` of a batch of windows, padded to the batch's longest (the
        result of a :meth:`prefetch` of the same windows when one was started)."""
        feeds = self._feeds(chunk)
        future = self._ahead.pop(_feeds_key(feeds), None) if self._ahead else None
        if future is not None:
            return np.asarray(future.result()[0], dtype=np.float64)
        return np.asarray(self.session.run(["scores"], feeds)[0], dtype=np.float64)

    def prefetch(self, docs: Sequence[Document], batch_size: int) -> None:
        """Start the forward passes of ``docs`` (the batches :func:`predict_words_onnx` will run)
        in a thread of their own, so they run while this thread finishes the previous batch.

        :meth:`run` then takes each result instead of running the windows again: the same windows
        give the same batches and the same scores. Results nobody took are dropped at the prefetch
        after next, so at most two batches of documents are held.
        """
        from concurrent.futures import ThreadPoolExecutor

        from phiscrub.tagger.decode import DOC_GROUP, chunk_order

        if self._worker is None:
            # One single-threaded session run per core, side by side: the batches of a note group
            # need no thread synchronisation inside a forward pass (7% less wall time on the long
            # notes of benchmarks/vs_presidio.py than one two-threaded run at a time; same scores).
            self._ahead_session = _session(self._path, 1) if self.num_threads > 1 else self.session
            self._worker = ThreadPoolExecutor(self.num_threads, thread_name_prefix="phiscrub-ahead")
        keys: list[bytes] = []
        parts: list[tuple[str, ...]] = []
        for s in range(0, len(docs), DOC_GROUP):
            part = docs[s : s + DOC_GROUP]
            windows = _windows(self, part)
            parts.append(_part_key(part))
            self._windowed[parts[-1]] = windows  # the call for this batch reads them, not again
            for rows in chunk_order(windows[0], _input_length, batch_size, _TOKEN_BUDGET):
                feeds = self._feeds([windows[0][i] for i in rows])
                key = _feeds_key(feeds)
                self._ahead[key] = self._worker.submit(self._ahead_session.run, ["scores"], feeds)
                keys.append(key)
        self._generations.append((keys, parts))
        while len(self._generations) > 2:  # a batch that was never run (it failed, or was skipped)
            old_keys, old_parts = self._generations.pop(0)
            for key in old_keys:
                stale = self._ahead.pop(key, None)
                if stale is not None:
                    stale.cancel()
            for part_key in old_parts:
                self._windowed.pop(part_key, None)

    def _feeds(self, chunk: Sequence[Any]) -> dict[str, np.ndarray]:
        """The session inputs of a batch of windows, padded to its longest."""
        n_in = max(len(e.input_ids) for e in chunk)
        n_w = max(len(e.words) for e in chunk)
        b = len(chunk)
        input_ids = np.full((b, n_in), self.pad_id, dtype=np.int64)
        mask = np.zeros((b, n_in), dtype=np.int64)
        sub_slot = np.full((b, n_in), -1, dtype=np.int64)
        shape_ids = np.zeros((b, n_w), dtype=np.int64)
        length_ids = np.zeros((b, n_w), dtype=np.int64)
        for r, e in enumerate(chunk):
            k, w = len(e.input_ids), len(e.words)
            input_ids[r, :k] = e.input_ids
            mask[r, :k] = 1
            sub_slot[r, :k] = e.sub_slot
            shape_ids[r, :w] = e.shape_ids
            length_ids[r, :w] = e.length_ids
        return {
            "input_ids": input_ids,
            "attention_mask": mask,
            "sub_slot": sub_slot,
            "shape_ids": shape_ids,
            "length_ids": length_ids,
        }


def _feeds_key(feeds: dict[str, np.ndarray]) -> bytes:
    """A digest of a batch's inputs: equal inputs, equal key."""
    import hashlib

    h = hashlib.blake2b(digest_size=16)
    for name in sorted(feeds):
        arr = feeds[name]
        h.update(name.encode())
        h.update(repr(arr.shape).encode())
        h.update(arr.tobytes())
    return h.digest()


def _part_key(part: Sequence[Document]) -> tuple[str, ...]:
    return tuple(d.text for d in part)


def _windows(model: OnnxModel, part: Sequence[Document]) -> tuple[list[Any], list[Any], list[Any]]:
    """The encoder windows of ``part``, their owner tables and the encoded documents (those a
    :meth:`OnnxModel.prefetch` of the same documents made, when it did)."""
    from phiscrub.tagger.encoding import encode_documents
    from phiscrub.tagger.windows import encoder_windows

    found = model._windowed.pop(_part_key(part), None) if model._windowed else None
    if found is not None:
        return found  # type: ignore[no-any-return]

    encoded = encode_documents(part, model.tokenizer)
    args = (model.max_length, model.overlap, model.sentence_aware, model.subword_strategy)
    examples, owners = encoder_windows(encoded, model.affixes, *args)
    return examples, owners, encoded


def predict_words_onnx(model: OnnxModel, docs: Sequence[Document], batch_size: int = 16) -> list[Any]:
    """Tag every word of every document with an exported tagger (windows as in the torch path).

    Args:
        model: the loaded ONNX tagger.
        docs: the documents.
        batch_size: at most this many windows per forward pass (fewer when they are long).

    Returns:
        One :class:`~phiscrub.tagger.decode.WordPrediction` per document, in order.
    """
    from phiscrub.progress import wants_progress
    from phiscrub.tagger.decode import decode_in_groups, owned_scores

    def score(part: Sequence[Document]) -> list[tuple[list[Any], np.ndarray]]:
        examples, owners, encoded = _windows(model, part)
        loud = wants_progress(max((len(d.text) for d in part), default=0))
        n_words = [len(enc.tokens) for enc in encoded]
        scores = owned_scores(
            examples,
            owners,
            n_words,
            len(model.tags),
            model.run,
            _input_length,
            batch_size,
            token_budget=_TOKEN_BUDGET,
            progress=loud,
        )
        return [(enc.tokens, doc_scores) for enc, doc_scores in zip(encoded, scores)]

    return decode_in_groups(docs, score, model.tags, model.transitions, model.use_crf)


def _input_length(example: Any) -> int:
    return len(example.input_ids)


class OnnxTaggerDetector(BaseTaggerDetector):
    """Detect PHI with an exported tagger on ONNX Runtime (same spans as the torch path, see module doc).

    Args:
        model: the loaded :class:`OnnxModel` (see :meth:`load`).
        batch_size: at most this many windows per forward pass.
        calibration: maps raw span scores to calibrated ones (None: raw scores).
    """

    def __init__(self, model: Any, batch_size: int = 16, calibration: Any = None) -> None:
        super().__init__(model, batch_size=batch_size, calibration=calibration)

    @classmethod
    def load(
        cls, model_dir: str | Path, batch_size: int = 16, num_threads: int | None = None
    ) -> OnnxTaggerDetector:
        """Load an exported folder (``phiscrub export-onnx``).

        Args:
            model_dir: the folder.
            batch_size: at most this many windows per forward pass.
            num_threads: ONNX Runtime intra-op threads (default: ``$PHISCRUB_THREADS``, else the
                physical cores).

        Raises:
            ModelError: files missing or unreadable, or onnxruntime/tokenizers not installed.
        """
        from phiscrub.detect.calibration import load_calibration

        folder = Path(model_dir)
        if not has_onnx_files(folder):
            raise ModelError(f"model folder {folder} has no {ONNX_CONFIG} and {ONNX_FILE}")
        if not onnx_available():
            raise ModelError("the ONNX tagger needs onnxruntime and tokenizers: pip install phiscrub")
        if not (folder / "labels.json").is_file():
            raise ModelError(f"model folder {folder} has no labels.json")
        try:
            model = OnnxModel(folder, num_threads=num_threads)
        except ModelError:
            raise
        except Exception as exc:  # noqa: BLE001 - a third-party loader failed: folder and error type only
            raise ModelError(f"model folder {folder} cannot be loaded ({type(exc).__name__})") from None
        return cls(model, batch_size=batch_size, calibration=load_calibration(folder))

    def predict(self, docs: Sequence[Document], batch_size: int | None = None) -> list[Any]:
        """Word-level predictions (tokens, BIO tags, probabilities) of many documents."""
        model: OnnxModel = self.model  # type: ignore[assignment]
        return predict_words_onnx(model, list(docs), batch_size=batch_size or self.batch_size)

    def prefetch(self, docs: Sequence[Document]) -> None:
        """Start the forward passes of a batch that :meth:`detect_many` will be asked for next
        (:meth:`OnnxModel.prefetch`); notes long enough to be cut into segments are left out."""
        if docs and all(len(d.text) <= SEGMENT_CHARS for d in docs):
            model: OnnxModel = self.model  # type: ignore[assignment]
            model.prefetch(list(docs), self.batch_size)
