"""Inference of trained PHI taggers: model kinds, loaders, encoding, windows and decoding.

Imported by both :mod:`phiscrub.detect` (the model detectors) and :mod:`phiscrub.train` (training);
it imports neither (issue 26: ``detect/`` never imports ``train/``). Two halves:

* torch-free, shared with the ONNX Runtime path (:mod:`phiscrub.detect.onnx_tagger`):
  :mod:`~phiscrub.tagger.encoding` (words, BIO tag sets, subword encoding, ``tags_to_spans``),
  :mod:`~phiscrub.tagger.windows` (the one window planning and owner windows, subword and word
  windows, training and inference), :mod:`~phiscrub.tagger.decode` (numpy Viterbi and marginals,
  ``owned_scores``, ``decode_in_groups``), :mod:`~phiscrub.tagger.features` (word shapes and lengths),
  :mod:`~phiscrub.tagger.config` (:class:`~phiscrub.tagger.config.TrainConfig`, the ``config.json``
  of every model folder) and :mod:`~phiscrub.tagger.ort` (the ONNX Runtime import);
* torch (the ``model`` extra): the model kinds, one module per kind that never imports another kind
  (:mod:`~phiscrub.tagger.base` ``TaggerBase`` and the model-folder files;
  :mod:`~phiscrub.tagger.model` transformer ``PhiTagger``; :mod:`~phiscrub.tagger.bilstm` BiLSTM-CRF
  with :mod:`~phiscrub.tagger.vocab` and :mod:`~phiscrub.tagger.lstm`; :mod:`~phiscrub.tagger.gemma`
  frozen GGUF features), :mod:`~phiscrub.tagger.crf`, :mod:`~phiscrub.tagger.onnx_weights` (torch
  weights rebuilt from a graph), :mod:`~phiscrub.tagger.loaders` (``LOADERS`` by backbone,
  ``load_tagger``, ``load_for_inference``) and :mod:`~phiscrub.tagger.inference` (``predict_words``).

This package file imports nothing, so importing the torch-free modules never imports torch.
"""
