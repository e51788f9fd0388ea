"""The interpreters behind the transforms: forward (``forward``), reverse (``reverse``),
batching (``batching``) and graph capture (``graph``), one module each."""
