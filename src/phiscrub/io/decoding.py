"""What ``redact --encoding-errors`` does with a document whose bytes are not text in its encoding.

=============  ====================================================================================
policy         a document with undecodable bytes
=============  ====================================================================================
``fail``       fails alone (``read_error`` ``decode_error``): written empty, listed in errors.jsonl
``replace``    each undecodable byte becomes U+FFFD, the document is redacted, and it is flagged
               ``decode_replaced`` (``metadata["decode"]``; ``redact`` lists it in warnings.jsonl)
``latin-1``    the document's bytes are read as Latin-1 (every byte is a character), it is redacted
               and flagged ``decoded_latin1``
=============  ====================================================================================

A document that decodes cleanly is never touched, whatever the policy. Offsets in ``phi_spans.jsonl``
index the text as decoded (replacement characters or Latin-1 characters included).
"""

from __future__ import annotations

__all__ = ["DECODE_NOTES", "ENCODING_ERRORS", "check_policy", "decode_bytes", "recover_escaped"]

#: The policies of ``--encoding-errors``.
ENCODING_ERRORS: tuple[str, ...] = ("fail", "replace", "latin-1")
#: The flag a recovered document gets, by policy.
DECODE_NOTES: dict[str, str] = {"replace": "decode_replaced", "latin-1": "decoded_latin1"}


def check_policy(policy: str) -> str:
    """``policy`` if it is one of :data:`ENCODING_ERRORS`.

    Raises:
        ConfigError: it is not.
    """
    from phiscrub.errors import ConfigError

    if policy not in ENCODING_ERRORS:
        raise ConfigError(f"unknown --encoding-errors {policy!r}; use one of {', '.join(ENCODING_ERRORS)}")
    return policy


def decode_bytes(raw: bytes, policy: str, encoding: str = "utf-8") -> tuple[str | None, str | None]:
    """Decode ``raw`` under ``policy``.

    Returns:
        ``(text, None)`` when the bytes are clean, ``(text, note)`` when the policy recovered them
        (:data:`DECODE_NOTES`), ``(None, None)`` when they are not clean and the policy is ``fail``.
    """
    try:
        return raw.decode(encoding), None
    except UnicodeDecodeError:
        pass
    if policy == "replace":
        return raw.decode(encoding, errors="replace"), DECODE_NOTES[policy]
    if policy == "latin-1":
        return raw.decode("latin-1"), DECODE_NOTES[policy]
    return None, None


def recover_escaped(value: str, policy: str, encoding: str) -> str:
    """A string read with ``errors="surrogateescape"`` (its undecodable bytes as U+DC80-U+DCFF)
    decoded again under ``policy`` (``replace`` or ``latin-1``)."""
    raw = value.encode(encoding, errors="surrogateescape")
    text, _ = decode_bytes(raw, policy, encoding)
    return value if text is None else text
