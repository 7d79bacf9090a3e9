"""The edition records and their registry: every family's records are found, carry what the upper
layers use, and an edition defined elsewhere joins by `register`."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

import engine
from engine._core import Rules
from engine.edition import Edition, Ref
from engine.editions import EDITIONS, default_edition, get_edition, register, unregister
from helpers import new_game


@pytest.fixture
def registry() -> Iterator[dict[str, Edition]]:
    """The registry, restored after the test."""
    saved = dict(EDITIONS)
    yield EDITIONS
    EDITIONS.clear()
    EDITIONS.update(saved)


def test_the_registry_lists_every_family_in_order() -> None:
    orders = [ed.order for ed in EDITIONS.values()]
    assert orders == sorted(orders) and len(set(orders)) == len(orders)
    assert default_edition() is next(iter(EDITIONS.values()))
    assert {ed.state_type.__module__.rsplit(".", 1)[0] for ed in EDITIONS.values()} == {"engine.cards", "engine.board", "engine.eldorado"}


def test_an_edition_from_elsewhere_registers(registry: dict[str, Edition]) -> None:
    first = default_edition()
    extra = dataclasses.replace(first, name="variant", order=first.order + 100)
    assert register(extra) is extra and get_edition("variant") is extra
    assert list(registry)[-1] == "variant"
    with pytest.raises(ValueError, match="registered already"):
        register(dataclasses.replace(first, order=0))
    unregister(extra)
    assert "variant" not in registry and list(registry)[0] == first.name
    with pytest.raises(ValueError, match="not registered"):
        unregister(extra)
    with pytest.raises(ValueError, match="not registered"):
        unregister(dataclasses.replace(first))  # another record of the same name


def test_records_carry_what_the_upper_layers_use(edition: str) -> None:
    ed = get_edition(edition)
    state = new_game(edition, 5, **ed.quick_options)
    assert isinstance(ed.rules, Rules) and ed.rules.name == ed.name == state.edition
    assert ed.rules.state_size >= 64 and ed.rules.num_decision_ids > max(state.legal())
    assert type(state) is ed.state_type
    assert ed.from_text(state.to_text()) == state
    parsed, seat, _ = ed.parse_view(state.view_text(1))
    assert seat == 1 and parsed.view_text(1).rsplit(" ", 1)[0] == state.view_text(1).rsplit(" ", 1)[0]
    assert ed.turn.begins(state) == (state.phase == "play")
    assert [spec.name for spec in ed.options] == list(state.options)
    for ref in (ed.auditor, ed.reference):  # the engine's own references; the bots' live above it
        assert isinstance(ref, Ref) and ref.value is ref.value


def test_a_record_reads_only_its_own_positions() -> None:
    editions = [ed for ed in EDITIONS.values() if ed.state_type is get_edition("classic").state_type]
    text = engine.new_game(editions[1].name, seed=1).to_text()
    with pytest.raises(engine.NotationError, match=f"not a {editions[0].name} position"):
        editions[0].from_text(text)


def test_rules_are_made_by_the_rules_modules() -> None:
    with pytest.raises(TypeError):
        Rules()
