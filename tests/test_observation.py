"""The observation tensors of every edition (engine/observation.pyx, each family's observation
module): a fixed layout, written from what the seat sees and nothing else."""
from __future__ import annotations

import math
import random
from array import array

import pytest

import engine
from engine.observation import Observation
from helpers import CARD_EDITIONS, random_state


def _observe(state: engine.State, seat: int) -> tuple[float, ...]:
    obs: Observation = engine.get_edition(state.edition).observation
    buffer = array("f", [math.nan] * (obs.size + 8))
    obs.observe(state, seat, memoryview(buffer)[:obs.size])
    assert all(math.isnan(x) for x in buffer[obs.size:]), "wrote past the tensor"
    assert not any(math.isnan(x) for x in buffer[:obs.size]), "left an entry unwritten"
    return tuple(buffer[:obs.size])


def test_the_fields_tile_the_tensor(edition):
    obs = engine.get_edition(edition).observation
    assert obs is not None and obs.name == edition
    offset = 0
    for field in obs.fields:
        assert field.offset == offset and field.size > 0 and field.doc
        offset += field.size
    assert offset == obs.size
    assert len({f.name for f in obs.fields}) == len(obs.fields)


def test_the_observation_survives_resampling_of_what_the_seat_cannot_see(edition):
    for seed in range(12):
        state = random_state(edition, seed, steps=seed * 13)
        for seat in range(state.num_seats):
            mine = _observe(state, seat)
            for sample in range(3):
                assert _observe(state.determinized(seat, seed * 100 + sample), seat) == mine


def test_the_observation_is_a_function_of_the_view(edition):
    """Read back from the view's text alone (hidden cards dealt in a fixed order), the state gives
    the seat the same tensor: nothing the view lacks reaches it."""
    for seed in range(12):
        state = random_state(edition, seed, steps=seed * 11 + 3)
        for seat in range(state.num_seats):
            view = engine.parse_view(state.view_text(seat))
            assert _observe(view.state, view.seat) == _observe(state, seat)


def test_different_views_give_different_observations(edition):
    """The tensor loses nothing of the view but its history: along random matches, two positions a
    seat sees differently (history aside) never share a tensor."""
    seen: dict[tuple[float, ...], str] = {}
    for seed in range(4):
        state = random_state(edition, seed, steps=0)
        step = 0
        while not state.is_terminal() and step < 400:
            for seat in range(state.num_seats):
                view = state.view_text(seat).rsplit(" history=", 1)[0]
                tensor = _observe(state, seat)
                assert seen.setdefault(tensor, view) == view, f"two views, one tensor:\n{seen[tensor]}\n{view}"
            state.apply(state.legal()[(seed * 7 + step * 13) % len(state.legal())])
            step += 1


def _follow_with_updates(edition: str, seeds: int, steps: int, viewer) -> tuple[engine.State, int, array]:
    """Random matches of the edition, the tensor brought along each by `Observation.update` from
    one state to the next with the viewer `viewer(rng, state, previous_viewer, step)` chooses, and
    compared with a fresh write at every step; returns the last match's state, viewer and tensor."""
    obs: Observation = engine.get_edition(edition).observation
    out = array("f", [math.nan] * obs.size)
    for seed in range(seeds):
        state = random_state(edition, seed, steps=0)
        prev, seat0 = state.copy(), 0
        obs.observe(prev, seat0, memoryview(out))
        rng = random.Random(seed)
        step = 0
        while not state.is_terminal() and step < steps:
            state.apply(rng.choice(state.legal()))
            seat = viewer(rng, state, seat0, step)
            obs.update(prev, seat0, state, seat, memoryview(out))
            assert tuple(out) == _observe(state, seat), f"seed {seed}, step {step}"
            prev, seat0 = state.copy(), seat
            step += 1
    return prev, seat0, out


def test_the_incremental_writer_gives_the_tensor_written_afresh(edition):
    """`Observation.update` brings a tensor from one state to the next, the viewer kept or changed,
    and across unrelated states (a new deal), exactly as a fresh write would; the batched
    environment relies on it at every step."""
    obs: Observation = engine.get_edition(edition).observation
    assert obs.incremental

    def mostly_the_seat_to_move(rng: random.Random, state: engine.State, previous: int, step: int) -> int:
        return state.to_move if state.to_move is not None and rng.random() < 0.8 else rng.randrange(state.num_seats)

    prev, seat0, out = _follow_with_updates(edition, 3, 300, mostly_the_seat_to_move)
    for deal in range(50, 53):      # from a match's state to unrelated ones
        other = random_state(edition, deal, steps=(deal * 17) % 60)
        obs.update(prev, seat0, other, deal % other.num_seats, memoryview(out))
        assert tuple(out) == _observe(other, deal % other.num_seats), f"deal {deal}"
        prev, seat0 = other, deal % other.num_seats


def test_the_incremental_writer_moves_the_seats_blocks_to_any_new_viewer(edition):
    """A change of viewer by every number of seats (the per-seat blocks rotated, the teams' rows
    swapped, before the seats are compared), at every step of random matches, gives the fresh tensor."""

    def every_shift(rng: random.Random, state: engine.State, previous: int, step: int) -> int:
        n = state.num_seats
        return (previous + 1 + step % n) % n     # every shift 1 .. n (n: the same viewer)

    _follow_with_updates(edition, 2, 200, every_shift)


@pytest.mark.parametrize("edition", CARD_EDITIONS)
def test_the_incremental_writer_shifts_a_pile_pushed_or_popped(edition):
    """The card editions' writer shifts the depths of a pile that gained or lost its top card
    instead of rewriting it: matches that mostly discard and draw from the piles, so that piles
    grow deep and copies of a type lie in one pile, give the fresh tensor at every step."""
    obs: Observation = engine.get_edition(edition).observation
    size = next(f for f in obs.fields if f.name == "pile_size")
    out = array("f", [math.nan] * obs.size)
    deepest = 0
    for seed in range(4):
        state = engine.new_game(edition, seed=seed)
        rng = random.Random(seed)
        prev, seat0 = state.copy(), 0
        obs.observe(prev, seat0, memoryview(out))
        while not state.is_terminal():
            legal = state.legal()
            piles = [d for d in legal if 64 <= d < 128 or 129 <= d < 134]   # discards, draws from a pile
            state.apply(rng.choice(piles if piles and rng.random() < 0.9 else legal))
            seat = state.to_move if state.to_move is not None else 0
            obs.update(prev, seat0, state, seat, memoryview(out))
            assert tuple(out) == _observe(state, seat)
            deepest = max(deepest, max(out[size.offset:size.offset + size.size]))
            prev, seat0 = state.copy(), seat
    assert deepest >= 5


def test_the_hand_field_counts_the_seats_hand(edition):
    state = random_state(edition, 5, steps=9)
    obs = engine.get_edition(edition).observation
    hand = obs.offsets()["hand"]
    for seat in range(state.num_seats):
        tensor = _observe(state, seat)
        total = sum(tensor[hand.offset:hand.offset + hand.size])
        assert total > 0 and total == int(total)


def test_docs_rl_describes_every_field():
    """docs/rl.md's tables list each edition's fields with their shapes and offsets, in order."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "docs" / "rl.md").read_text()
    for name, record in engine.EDITIONS.items():
        obs = record.observation
        section = text.split(f"### `{name}`: {obs.size} floats", 1)
        assert len(section) == 2, f"docs/rl.md has no table of {name} ({obs.size} floats)"
        rows = re.findall(r"^\| `(\w+)` \| ([\d×]+) \| (\d+) \|", section[1].split("\n### ", 1)[0], re.M)
        assert rows == [(f.name, "×".join(map(str, f.shape)), str(f.offset)) for f in obs.fields]
