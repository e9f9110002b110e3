"""Batch runs of the de-identifier over files: the library behind ``phiscrub redact``.

A run holds one engine config (:class:`~phiscrub.engine_config.DeidConfig`) plus its own fields
(:class:`~phiscrub.runs.redact.RedactJob`); its manifest fingerprint is derived from that config.

- :mod:`phiscrub.runs.batches`: redact a batch (retried one note at a time on failure), the run-log
  lines (``phi_spans.jsonl``, ``errors.jsonl``, ``warnings.jsonl``) and counts of a batch;
- :mod:`phiscrub.runs.parallel`: batches in worker processes, results in input order;
- :mod:`phiscrub.runs.redact`: a whole run (:func:`~phiscrub.runs.redact.run_redact`): start-up
  checks, manifest and ``resume``, atomic output, vault;
- :mod:`phiscrub.runs.manifest`: the run's work folder, manifest, batch parts and lock (in ``io/``
  before issue 26); :mod:`phiscrub.runs.vault`: the encrypted re-identification vault (in
  ``transform/`` before issue 26).
"""
