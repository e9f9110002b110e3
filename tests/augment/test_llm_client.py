"""The LLM client and the llm-oneshot / llm-zeroshot pipeline against a REAL local LLM server.

A ``llama_cpp.server`` process serves the PyPI gemma3-270m GGUF on 127.0.0.1 (see llm_server.py);
the tiny base model writes poor notes, which exercises the parser and the filters.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from llm_server import free_port, llama_server

from phiscrub.augment.chat import ChatClient, LLMSettings
from phiscrub.augment.llm import LeakGuard, build_prompt, echoes_prompt
from phiscrub.augment.llm_client import LLMStats, llm_augment
from phiscrub.cli.app import cli
from phiscrub.document import Document, Span
from phiscrub.errors import ConfigError, LeakGuardError, LLMError
from phiscrub.io import read_corpus

pytestmark = pytest.mark.slow

_NOTE = (
    "Patient John Miller, MRN 4471-2290, was admitted to Riverside General Hospital on 03/14/2021 "
    "with chest pain. Seen by Dr. Alice Grant. Follow up with cardiology in two weeks."
)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with llama_server() as url:
        yield url


def _gold() -> Document:
    spans = []
    for surface, label in [
        ("John Miller", "PATIENT"),
        ("4471-2290", "MEDICALRECORD"),
        ("Riverside General Hospital", "HOSPITAL"),
        ("03/14/2021", "DATE"),
        ("Alice Grant", "DOCTOR"),
    ]:
        start = _NOTE.index(surface)
        spans.append(Span(start, start + len(surface), label))
    return Document("note-1", _NOTE, tuple(spans)).validate()


def _settings(url: str, **kw: object) -> LLMSettings:
    base: dict[str, object] = {"url": url, "model": "gemma3-270m", "max_tokens": 160, "concurrency": 1}
    base.update(kw)
    return LLMSettings(**base)  # type: ignore[arg-type]


def test_chat_returns_reply_usage_and_text_free_log(server: str, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    client = ChatClient(_settings(server, max_tokens=48), log_path=log)
    messages = [{"role": "user", "content": "Write one sentence about a [PATIENT] with fever."}]
    # A tiny base model may stop at once for some seeds: take the first seed that yields tokens.
    replies = []
    for seed in (7, 8, 9, 10):
        replies.append(client.chat("doc-a", messages, seed=seed))
        if replies[-1].completion_tokens > 0:
            break
    reply = replies[-1]
    assert isinstance(reply.text, str) and not reply.cached
    assert reply.prompt_tokens > 0 and reply.completion_tokens > 0
    assert client.requests == len(replies)
    assert client.prompt_tokens == sum(r.prompt_tokens for r in replies)
    assert client.completion_tokens == sum(r.completion_tokens for r in replies)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    # One "200" line per reply; on a loaded machine a timed-out try is logged too, then retried.
    assert [r["status"] for r in records if r["status"] == "200"] == ["200"] * len(replies)
    assert len(records) <= len(replies) * (1 + client.settings.max_retries)
    assert records[-1]["doc_id"] == "doc-a" and records[-1]["completion_tokens"] == reply.completion_tokens
    raw = log.read_text()
    assert "fever" not in raw and "PATIENT" not in raw and (not reply.text.strip() or reply.text not in raw)


def test_cache_serves_a_rerun_without_a_request(server: str, tmp_path: Path) -> None:
    messages = [{"role": "user", "content": "List three symptoms of [AGE] year old patients with flu."}]
    first = ChatClient(_settings(server, max_tokens=32), cache_dir=tmp_path / "cache")
    a = first.chat("doc-b", messages, seed=3)
    second = ChatClient(_settings(server, max_tokens=32), cache_dir=tmp_path / "cache")
    b = second.chat("doc-b", messages, seed=3)
    assert b.cached and b.text == a.text and second.requests == 0 and second.cache_hits == 1
    other_seed = second.chat("doc-b", messages, seed=4)
    assert not other_seed.cached and second.requests == 1


def test_same_seed_same_reply_from_the_server(server: str) -> None:
    client = ChatClient(_settings(server, max_tokens=24))
    messages = [{"role": "user", "content": "Describe a rash on the [DATE] visit."}]
    assert client.chat("d", messages, seed=11).text == client.chat("d", messages, seed=11).text


def test_leak_guard_refuses_before_anything_is_sent(server: str, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    client = ChatClient(_settings(server), log_path=log, cache_dir=tmp_path / "cache")
    messages = [{"role": "user", "content": _NOTE}]
    with pytest.raises(LeakGuardError) as err:
        client.chat("note-1", messages)
    message = str(err.value)
    assert "note-1" in message and "John" not in message and "4471" not in message
    assert {"DATE"} <= set(err.value.labels)
    assert client.requests == 0 and not log.exists() and not any((tmp_path / "cache").iterdir())


def test_refused_connection_is_retried_with_backoff_then_fails() -> None:
    delays: list[float] = []
    url = f"http://127.0.0.1:{free_port()}/v1"
    client = ChatClient(_settings(url, max_retries=2, backoff_s=0.5, timeout_s=5), sleep=delays.append)
    with pytest.raises(LLMError) as err:
        client.chat("doc-c", [{"role": "user", "content": "Say [DATE]."}])
    assert "doc-c" in str(err.value) and "3 attempts" in str(err.value)
    assert len(delays) == 2 and 0.5 <= delays[0] <= 0.625 and 1.0 <= delays[1] <= 1.25
    assert client.retries == 2


def test_http_404_is_not_retried(server: str) -> None:
    delays: list[float] = []
    bad = _settings(server.replace("/v1", "/nowhere") + "/chat/completions", max_retries=3)
    client = ChatClient(bad, sleep=delays.append)
    with pytest.raises(LLMError, match="HTTP 404"):
        client.chat("doc-d", [{"role": "user", "content": "Say [DATE]."}])
    assert delays == []


def test_settings_validate() -> None:
    with pytest.raises(ConfigError):
        LLMSettings(url="127.0.0.1:8080")
    with pytest.raises(ConfigError):
        LLMSettings(url="http://127.0.0.1:1/v1", concurrency=0)
    assert LLMSettings(url="http://h/v1/").endpoint == "http://h/v1/chat/completions"


def test_guard_scrub_replaces_what_the_detectors_still_find() -> None:
    guard = LeakGuard()
    text = "Seen on [DATE]; follow-up call 617-555-0199 and MRN 0048-2231."
    clean, labels = guard.scrub(text, "d")
    assert "617-555-0199" not in clean and "0048-2231" not in clean
    assert labels and guard.find(clean) == []


def test_one_shot_pipeline_keeps_ratio_and_counts(server: str, tmp_path: Path) -> None:
    client = ChatClient(_settings(server, max_tokens=200, concurrency=2), cache_dir=tmp_path / "cache")
    stats = LLMStats()
    docs = [_gold(), Document("note-2", _gold().text, _gold().spans)]
    out = list(llm_augment(docs, "one-shot", client, seed=1, max_attempts=2, stats=stats))
    assert stats.sources == 2
    assert stats.generated + stats.missing == 2  # 1:1 target, each source accounted for
    assert stats.requests == stats.generated + sum(stats.replies_dropped.values())
    assert len(out) == stats.generated == stats.documents_out
    for doc in out:
        assert doc.id.split("#llm")[0] in {"note-1", "note-2"}
        doc.validate()
        assert doc.spans and all(doc.surface(s).strip() for s in doc.spans)
        assert "[" + doc.spans[0].label + "]" not in doc.text[doc.spans[0].start : doc.spans[0].end]
    # a rerun is served from the cache: same output, no new request
    again = ChatClient(_settings(server, max_tokens=200, concurrency=2), cache_dir=tmp_path / "cache")
    rerun = list(llm_augment(docs, "one-shot", again, seed=1, max_attempts=2))
    assert [(d.id, d.text, d.spans) for d in rerun] == [(d.id, d.text, d.spans) for d in out]
    assert again.requests == 0


def test_prompts_sent_by_the_pipeline_pass_the_guard() -> None:
    # The zero-shot prompt itself (guidelines + task) must never trip the guard.
    LeakGuard().check("zero-shot", build_prompt("zero-shot"))


def test_zero_shot_cli_end_to_end_writes_a_corpus_train_accepts(server: str, tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for i in range(4):
        (src / f"n{i}.txt").write_text(
            f"Patient [PATIENT] ({i}) was seen on [DATE] by Dr. [DOCTOR] at [HOSPITAL] for cough.\n",
            encoding="utf-8",
        )
    out = tmp_path / "llm.jsonl"
    result = CliRunner().invoke(
        cli,
        [
            "augment", str(src), "--format", "placeholder", "-o", str(out), "--method", "llm-zeroshot",
            "--llm-url", server, "--llm-model", "gemma3-270m", "--llm-max-tokens", "320",
            "--llm-attempts", "4", "--llm-concurrency", "1", "--seed", "5", "--include-original", "--lang", "en",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "source notes" in result.output and "blocked by the leak guard" in result.output
    log = Path(f"{out}.llm-log.jsonl").read_text()
    assert '"status": "200"' in log
    docs, problems = read_corpus(out)
    assert problems == []
    generated = [d for d in docs if "#llm" in d.id]
    originals = [d for d in docs if "#llm" not in d.id]
    # The tiny base model often copies the prompt; such replies are dropped and retried, so the
    # generated count varies, but every source note is accounted for: generated + missing == 4.
    import re

    m = re.search(r"(\d+) notes generated \((\d+) missing\)", result.output)
    assert m is not None and int(m.group(1)) + int(m.group(2)) == 4
    assert len(originals) == 4 and len(generated) == int(m.group(1))
    for doc in docs:
        doc.validate()
    # the labelled corpus is accepted by `phiscrub train` (tiny encoder: seconds)
    from phiscrub.train.tiny import make_tiny_encoder

    encoder = make_tiny_encoder(tmp_path / "enc")
    model_dir = tmp_path / "model"
    trained = CliRunner().invoke(
        cli,
        [
            "train", "--train", str(out), "--dev", str(out), "-o", str(model_dir), "--encoder", str(encoder),
            "--epochs", "1", "--labels", "coarse",
        ],
    )  # fmt: skip
    assert trained.exit_code == 0, trained.output
    assert (model_dir / "config.json").exists()


def test_a_reply_that_copies_the_prompt_is_recognised() -> None:
    messages = build_prompt("zero-shot")
    copied = messages[1]["content"][:900]
    assert echoes_prompt(copied, messages)
    fresh = (
        "[PATIENT] is a [AGE]-year-old woman admitted to [HOSPITAL] on [DATE] with fever, productive "
        "cough and pleuritic chest pain. Chest radiograph showed a right lower lobe consolidation; she "
        "was started on ceftriaxone and azithromycin and improved over three days."
    )
    assert not echoes_prompt(fresh, messages)
