"""Section 6's hard case for the syntax head: the relative clause needs an entry no fixed slot keeps.

The claim spoken over it: "chased" looks back at "dogs", the latest noun; "slept" looks past it to
"cat", so a summary keeping only the latest noun misses what "slept" needs. Checked against the
clause's own annotation and a plain scan for the latest noun, not against the scene's code.
"""

from __future__ import annotations

import numpy as np

from attnmath import stylized_heads
from lecture.sections.s6_kv_cache import RELATIVE_CLAUSE


def latest_noun_before(words: list[tuple[str, str]], stop: int) -> int:
    found = -1
    for i in range(stop):
        if words[i][1] == "NOUN":
            found = i
    return found


def test_each_verb_of_the_clause_looks_at_its_annotated_subject():
    weights = stylized_heads(RELATIVE_CLAUSE, causal=True).weights[1]  # the syntax head
    verbs = [(i, t.subject) for i, t in enumerate(RELATIVE_CLAUSE.tokens) if t.pos == "VERB"]
    assert [RELATIVE_CLAUSE.tokens[i].text for i, _ in verbs] == ["chased", "slept"]
    for i, subject in verbs:
        assert int(np.argmax(weights[i])) == subject
        assert weights[i, subject] > 0.8 and np.allclose(weights[i, i + 1 :], 0.0)


def test_the_second_verb_needs_a_noun_that_is_not_the_latest():
    words = [(t.text, t.pos) for t in RELATIVE_CLAUSE.tokens]
    weights = stylized_heads(RELATIVE_CLAUSE, causal=True).weights[1]
    chased, slept = 5, 6
    assert words[latest_noun_before(words, chased)][0] == "dogs" == words[int(np.argmax(weights[chased]))][0]
    latest = latest_noun_before(words, slept)
    assert words[latest][0] == "dogs" and words[int(np.argmax(weights[slept]))][0] == "cat"
    assert weights[slept, latest] < 0.1  # a latest-noun slot would hold under a tenth of what it reads
