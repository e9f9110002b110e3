"""The service configuration: what reaches worker processes, and where the secrets come from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phiscrub.engine_config import DeidConfig
from phiscrub.errors import ConfigError
from phiscrub.service.config import CONFIG_ENV_VAR, TOKEN_ENV_VAR, ServiceConfig


def test_json_for_workers_round_trips_and_holds_no_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("  s3cret-token \n", encoding="utf-8")
    key_file = tmp_path / "key"
    key_file.write_text("s3cret-key\n", encoding="utf-8")
    config = ServiceConfig(
        engine=DeidConfig(model=None, policy="i2b2"), token_file=str(token_file), key_file=str(key_file)
    )
    text = config.to_json()
    assert "s3cret" not in text
    monkeypatch.setenv(CONFIG_ENV_VAR, text)
    again = ServiceConfig.from_env()
    assert again == config
    assert (again.token(), again.key()) == ("s3cret-token", "s3cret-key")
    assert again.engine.policy == "i2b2"


def test_token_from_the_environment_or_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TOKEN_ENV_VAR, raising=False)
    with pytest.raises(ConfigError, match="--insecure-no-auth"):
        ServiceConfig().token()
    monkeypatch.setenv(TOKEN_ENV_VAR, "   ")
    with pytest.raises(ConfigError):
        ServiceConfig().token()
    monkeypatch.setenv(TOKEN_ENV_VAR, "env-token")
    assert ServiceConfig().token() == "env-token"
    assert ServiceConfig(auth=False).token() is None


def test_bad_inputs_are_config_errors_without_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "empty"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="is empty"):
        ServiceConfig(token_file=str(empty)).token()
    with pytest.raises(ConfigError, match="cannot be read"):
        ServiceConfig(key_file=str(tmp_path / "missing")).key()
    monkeypatch.setenv(CONFIG_ENV_VAR, json.dumps({"model": None, "surprise": 1}))
    with pytest.raises(ConfigError, match="surprise"):
        ServiceConfig.from_env()
    monkeypatch.setenv(CONFIG_ENV_VAR, "{not json")
    with pytest.raises(ConfigError, match="not valid JSON"):
        ServiceConfig.from_env()
    with pytest.raises(ConfigError):
        ServiceConfig(max_body_bytes=0)


def test_several_tokens_and_the_new_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    token_file = tmp_path / "tokens"
    token_file.write_text("# clients\ntok-a\n\n tok-b , tok-c\ntok-a\n", encoding="utf-8")
    assert ServiceConfig(token_file=str(token_file)).tokens() == ("tok-a", "tok-b", "tok-c")
    monkeypatch.setenv(TOKEN_ENV_VAR, "env-1,env-2")
    assert ServiceConfig().tokens() == ("env-1", "env-2")
    assert ServiceConfig(auth=False).tokens() == ()
    comments = tmp_path / "comments"
    comments.write_text("# no token here\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="no bearer token"):
        ServiceConfig(token_file=str(comments)).tokens()
    for bad in ({"rate_limit": -1}, {"deadline_s": 0.0}, {"long_note_chars": 0}):
        with pytest.raises(ConfigError):
            ServiceConfig(**bad)  # type: ignore[arg-type]
    config = ServiceConfig(rate_limit=5, deadline_s=2.5, long_note_chars=300)
    assert ServiceConfig.from_json(config.to_json()) == config
