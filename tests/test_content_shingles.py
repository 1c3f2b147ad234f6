"""The array SimHash (robotkit.content.shingles): what its hashes promise, checked against a
plain one-word-at-a-time reference written here from the definition."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from robotkit.content.shingles import shingle_hashes, simhash, text_simhash, word_hashes

_WORDS = st.lists(st.text("abcdéü_0123456789", min_size=1, max_size=8), max_size=60)


def _reference_simhash(features: list[int]) -> int:
    """Charikar's definition, bit by bit."""
    result = 0
    for bit in range(64):
        ones = sum((feature >> bit) & 1 for feature in features)
        if 2 * ones > len(features):
            result |= 1 << bit
    return result


@given(st.lists(st.integers(0, 2**64 - 1), max_size=200))
def test_simhash_is_charikars_majority_vote_on_every_bit(features: list[int]) -> None:
    assert simhash(features) == _reference_simhash(features)


@given(_WORDS)
def test_a_word_hashes_the_same_wherever_it_stands(words: list[str]) -> None:
    hashes = word_hashes(" ".join(words))
    assert len(hashes) == len(words)
    first: dict[str, int] = {}
    for word, value in zip(words, hashes.tolist(), strict=True):
        assert first.setdefault(word, value) == value


def test_different_words_and_lengths_get_different_hashes() -> None:
    words = ["a", "b", "ab", "ba", "aa", "a0", "é", "e", "abc", "abd"]
    hashes = word_hashes(" ".join(words)).tolist()
    assert len(set(hashes)) == len(words)


@given(_WORDS, st.integers(1, 4))
def test_shingles_are_the_distinct_runs_of_words(words: list[str], size: int) -> None:
    hashes = shingle_hashes(word_hashes(" ".join(words)), size)
    if not words:
        assert len(hashes) == 0
        return
    runs = {tuple(words[i : i + size]) for i in range(max(1, len(words) - size + 1))}
    assert len(hashes) == len(runs)


def test_the_fingerprint_is_stable_across_processes() -> None:
    """No per-process seed: the value is a constant a saved crawl state relies on."""
    assert text_simhash("the quick brown fox jumps over the lazy dog", 3) == (
        text_simhash("the quick brown fox jumps over the lazy dog", 3)
    )
    assert word_hashes("robots").tolist() == [word_hashes("robots txt").tolist()[0]]
    assert word_hashes("robots").dtype == np.uint64


def test_near_texts_are_near_and_unrelated_texts_are_far() -> None:
    rnd = random.Random(7)
    vocabulary = [f"w{i}" for i in range(2000)]
    text = [rnd.choice(vocabulary) for _ in range(400)]
    edited = list(text)
    edited[200] = "changed"
    other = [rnd.choice(vocabulary) for _ in range(400)]
    base = text_simhash(" ".join(text), 3)
    assert (base ^ text_simhash(" ".join(edited), 3)).bit_count() <= 6
    assert (base ^ text_simhash(" ".join(other), 3)).bit_count() >= 16


def test_empty_and_short_texts() -> None:
    assert text_simhash("", 3) == 0
    assert text_simhash("one two", 3) != 0  # one shingle of both words
    assert text_simhash("one two", 3) != text_simhash("two one", 3)
