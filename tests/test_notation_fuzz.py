"""Positions and views with characters changed, dropped or added: the parser either reads a
position (which then writes itself back the same way) or raises the engine's own error, naming
what was wrong — never another exception."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.errors import ExpeditionsError
from test_protocol_fuzz import mutated, position


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_texts_parse_or_fail_with_the_engines_error(data) -> None:
    edition = data.draw(st.sampled_from(sorted(engine.EDITIONS)))
    state = position(edition, data.draw(st.integers(0, 60)), data.draw(st.integers(0, 60)))
    full = data.draw(st.booleans()) or state.is_terminal()  # a finished game has no view to move
    bad = data.draw(mutated(state.to_text() if full else state.view_text(state.to_move)))
    try:
        parsed = engine.parse_position(bad) if full else engine.parse_view(bad)
    except ExpeditionsError as err:
        message = str(err)
        assert message and "\n" not in message and len(message) < 600, message
        return
    if isinstance(parsed, engine.View):
        assert engine.parse_view(parsed.text).text == parsed.text
    else:
        assert engine.parse_position(parsed.to_text()) == parsed


def test_random_bytes_are_refused_cleanly() -> None:
    rng = random.Random(3)
    for _ in range(300):
        junk = "".join(chr(rng.randrange(1, 0x250)) for _ in range(rng.randrange(0, 80)))
        for parse in (engine.parse_position, engine.parse_view):
            try:
                parse(junk)
            except ExpeditionsError:
                pass
