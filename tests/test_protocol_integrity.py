"""Information integrity, tested rather than assumed.

1. A seat's view is a function of what the seat knows: resampling everything it cannot see
   (other hands, the draw pile's order, the future deals) leaves the view unchanged — with the
   engine's own `determinized` and with the independent reference model's `resample`.
2. Over whole games played through the protocol, no line sent to a seat names a card that seat
   has not seen (audited by the edition's seat auditor against the reference model).

The first runs for every edition and number of players; the reference-model checks and the
audit of 2. run for the editions that have a reference model (all of them: the card editions;
`board` and `eldorado`, whose auditors read their own notions of what a seat sees:
`BoardSeatAudit`, `EldoradoSeatAudit`).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from protocol.limits import Limits
from engine import reference
from engine.audit import InformationLeak
from engine.board import reference as board_reference
from engine.board.audit import BoardSeatAudit
from protocol.client import Engine
from protocol.integrity import seat_audit
from protocol.local import builtin_bot, child_env
from helpers import guide_bot, played_in_rounds, short_options

EDITIONS = list(engine.EDITIONS)
CASES = [(e, n) for e in EDITIONS for n in engine.get_edition(e).seats]
"""Every edition with every number of players it is played with."""
REFERENCE = [e for e in EDITIONS if e in reference.models()]
"""Editions with an independent reference model (the card editions, `board`, `eldorado`)."""
AUDITED = [(e, n) for e, n in CASES if e in REFERENCE]
"""Editions and numbers of players the auditor follows: it follows the game in the reference
model (engine/cards/audit.py: `SeatAudit` for the card editions, engine/board/audit.py: `BoardSeatAudit`
for `board`, engine/eldorado/audit.py: `EldoradoSeatAudit` for `eldorado`)."""


def without_history(view: str) -> str:
    """The view minus its history (a resampled state has none; the rest must be identical)."""
    head, sep, _ = view.rpartition(" history=")
    assert sep, view
    return head


def game_options(edition: str, rounds: int, rng: random.Random) -> dict[str, int]:
    """`rounds` rounds of an edition played in rounds, else one long round at its defaults; every
    option of a few values (a map, a variant: `board`'s updown, `eldorado`'s route and caves, whose
    cave piles hide their tokens) drawn from `rng`."""
    options = {spec.name: rng.randint(spec.low, spec.high)
               for spec in engine.get_edition(edition).options if spec.high - spec.low < 4}
    if played_in_rounds(edition):
        options["rounds"] = rounds
    return options


def placed(text: str) -> str:
    """A full position without its generator (every resample draws a new one): where the cards are."""
    return " ".join(token for token in text.split() if not token.startswith("rng="))


def random_state(edition: str, seed: int, steps: int, rounds: int, players: int | None = None) -> engine.State:
    rng = random.Random(seed)
    state = engine.new_game(edition, seed=seed, players=players, **game_options(edition, rounds, rng))
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal()))
    return state


positions = st.tuples(st.integers(0, 2**32), st.integers(0, 400), st.integers(1, 3))


@pytest.mark.parametrize("edition, players", CASES)
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions, st.integers(0, 2**63), st.data())
def test_view_is_unchanged_by_engine_resampling(edition, players, position, resample_seed, data) -> None:
    state = random_state(edition, *position, players=players)
    seat = data.draw(st.integers(0, state.num_seats - 1))
    view = without_history(state.view_text(seat))
    other = state.determinized(seat, resample_seed)
    assert without_history(other.view_text(seat)) == view
    for s in range(state.num_seats):  # a parsed view holds the same information again
        assert without_history(engine.parse_view(state.view_text(s)).state.view_text(s)) == \
            without_history(state.view_text(s))


@pytest.mark.parametrize("edition", REFERENCE)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions, st.integers(0, 2**63), st.data())
def test_view_is_unchanged_by_reference_resampling(edition, position, resample_seed, data) -> None:
    state = random_state(edition, *position)
    seat = data.draw(st.integers(0, state.num_seats - 1))
    view = without_history(state.view_text(seat))
    model = reference.from_text(state.to_text())
    assert without_history(model.view_text(seat)) == view  # two independent view writers agree
    resampled = model.resample(seat, random.Random(resample_seed))
    again = engine.parse_position(resampled.to_text())
    assert without_history(again.view_text(seat)) == view


@pytest.mark.parametrize("edition, players", CASES)
def test_resampling_really_moves_hidden_cards(edition: str, players: int) -> None:
    """The two properties above would hold trivially if resampling changed nothing."""
    state = random_state(edition, 5, 30, 1, players)
    seat = state.to_move
    assert len({placed(state.determinized(seat, k).to_text()) for k in range(20)}) > 15
    if edition in REFERENCE:
        model = reference.from_text(state.to_text())
        assert len({placed(model.resample(seat, random.Random(k)).to_text()) for k in range(20)}) > 15


def hidden_hand_view(state: engine.State, seat: int) -> str:
    """The seat's view with the next seat's real hand written in: a leak the auditor must catch."""
    victim = (seat + 1) % state.num_seats
    full_hands = dict(tok.split("=", 1) for tok in state.to_text().split()[1:] if "=" in tok)["hands"].split("/")
    fields = state.view_text(seat).split()
    for i, tok in enumerate(fields):
        if tok.startswith("hands="):
            hands = tok[6:].split("/")
            hands[victim] = full_hands[victim]
            fields[i] = "hands=" + "/".join(hands)
    return " ".join(fields)


def with_field(view: str, name: str, value: str) -> str:
    """The view with field `name` set to `value`."""
    return " ".join(name + "=" + value if tok.startswith(name + "=") else tok for tok in view.split())


def cards(text: str) -> list[str]:
    """The cards of a `board` field entry (`-` for none)."""
    text = "" if text == "-" else text
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def board_leaks(state: engine.State, model: board_reference.Game, audit: BoardSeatAudit,
                hidden: str) -> dict[str, str]:
    """Leaks only a `board` view can have: lines for the audited seat, each with the reason the
    auditor must give; `hidden` is a card the seat has not seen."""
    seat = audit.seat
    view = state.view_text(seat)
    fields = dict(tok.split("=", 1) for tok in view.split()[1:])
    full = dict(tok.split("=", 1) for tok in state.to_text().split()[1:] if "=" in tok)
    victim = (seat + 1) % state.num_seats
    leaks = {}
    cols = fields["cols"].split("/")
    cols[victim] = hidden + cols[victim].strip("-")
    leaks[with_field(view, "cols", "/".join(cols))] = "cols shows 1 x " + hidden
    known = fields["known"].split("/")
    unknown = next(c for c in cards(full["hands"].split("/")[victim]) if c not in cards(known[victim]))
    known[victim] = unknown + known[victim].strip("-")
    leaks[with_field(view, "known", "/".join(known))] = f"known shows seat {victim} holding"
    other_deal = engine.new_game("board", seed=12345, players=state.num_seats).to_text()
    leaks[with_field(view, "tiles", other_deal.split("tiles=")[1].split()[0])] = "not the board's tiles"
    # another seat's draw from the draw pile, as the referee's record has it
    masked, record = fields["history"].split(","), model.history_text().split(",")
    i = next(i for i, entry in enumerate(masked) if entry == "D")
    masked[i] = record[i]
    leaks[with_field(view, "history", ",".join(masked))] = "draw from the draw pile"
    if full["box"] != "-":  # 2 players: the cards removed unseen
        unseen = next(c for c in cards(full["box"]) if audit.bound[c] == 0)
        leaks[with_field(view, "box", full["box"])] = "box's cards are hidden"
        leaks[view.replace(" history=", f" history=+{unseen}R,", 1)] = "has not seen"
    return {"position " + line: reason for line, reason in leaks.items()}


def eldorado_leaks(state: engine.State, model, view: str) -> dict[str, str]:
    """Leaks only an `eldorado` view can have (every draw pile's order, another seat's hand apart
    from its draw pile, the cave piles' tokens, the box, the generator, another seat's draws in
    the history): lines for the seat of `view`, each with the reason the auditor must give."""
    seat = int(dict(tok.split("=", 1) for tok in view.split()[1:])["seat"])
    full = dict(tok.split("=", 1) for tok in state.to_text().split()[1:] if "=" in tok)
    victim = (seat + 1) % state.num_seats
    unseen = view.split(" unseen=")[1].split()[0].split("/")
    unseen[victim] = full["hands"].split("/")[victim]  # its hand alone, not with its draw pile
    leaks = {
        view.replace(" history=", f" rng={full['rng']} history="): "rng",
        with_field(view, "draws", full["draws"]): "draws",
        with_field(view, "unseen", "/".join(unseen)): "unseen",
        with_field(view, "cavepiles", full["cavepiles"]): "cavepiles",
        view.replace(" flags=", f" box={full['box']} flags="): "box",
        with_field(view, "history", model.history_text()): "draw",  # the referee's record: every seat's draws
    }
    return {"position " + line: reason for line, reason in leaks.items() if line != view}


@pytest.mark.parametrize("edition, players", AUDITED)
def test_the_auditor_catches_leaks(edition: str, players: int) -> None:
    rng = random.Random(9)
    state = engine.new_game(edition, seed=9, players=players, **short_options(edition, rounds=2))
    model = reference.from_text(state.to_text())
    audits = [seat_audit(model, s) for s in range(state.num_seats)]  # from the deal on
    for _ in range(25):
        decision = rng.choice(state.legal_text())
        state.apply(decision)
        model.apply(decision)
        for a in audits:
            a.observe(model)
    seat = state.to_move
    audit = audits[seat]
    audit.check("position " + state.view_text(seat))
    view = state.view_text(seat)
    # a card the seat cannot see: the first of the next seat's hand
    secret = state.to_text().split(" hands=")[1].split()[0].split("/")[(seat + 1) % state.num_seats][:2]
    leaks = {  # every auditor: the reason names what is wrong (the offending field)
        "position full " + state.to_text(): "full position",
        "position " + state.view_text((seat + 1) % state.num_seats): "a view for seat",
        "position " + hidden_hand_view(state, seat): "hands",
        "position " + view + " secret=1": "secret",
        "go movetime 5 " + secret: "a card in",
        "go movetime 5 legal " + " ".join(state.legal_text()[1:]): "not its legal decisions",
        # a second copy of a field, holding the secret, before the honest one
        "position " + view.replace(" hands=", " " + hidden_hand_view(state, seat).split(" hands=")[1].split()[0]
                                   .join(["hands=", " hands="]), 1): "given twice",
    }
    if " deck=" in view:  # a draw pile written as its size (the card editions, board): its cards, a card never seen
        full = board_reference.FULL if edition == "board" else audit.ed.full
        hidden = next(c for c in sorted(full) if audit.bound.get(c, 0) == 0)
        leaks.update({
            "position " + view.replace(" deck=", " deck=" + state.to_text().split("deck=")[1][:2], 1): "deck=",
            "position " + view + " secret=1": "unexpected view field",
            "go movetime 5 " + state.to_text().split("deck=")[1][:2]: "a card in",
            "position " + view.replace(" history=", f" history=-{hidden},", 1): "has not seen",
        })
    if edition == "board":
        leaks.update(board_leaks(state, model, audit, hidden))
    if edition == "eldorado":
        leaks.update(eldorado_leaks(state, model, view))
    for line, reason in leaks.items():
        with pytest.raises(InformationLeak, match=reason):
            audit.check(line)
    assert audit.checked == 1 + len(leaks)
    with pytest.raises(InformationLeak, match="not to move"):  # the legal decisions of the seat to move, to another
        audits[(seat + 1) % state.num_seats].check("go movetime 5 legal " + " ".join(state.legal_text()))


@pytest.mark.parametrize("players", engine.get_edition("board").seats)
def test_board_audit_started_mid_expedition_accepts_honest_views(players: int) -> None:
    """Cards another hand is known to hold were seen on a pile before the audit started: the
    auditor counts them as seen, and honest views (their history reaching back before the
    audit) pass."""
    rng = random.Random(players)
    state = engine.new_game("board", seed=31, players=players, rounds=1)
    for _ in range(80):
        state.apply(rng.choice(state.legal_text()))
    model = reference.from_text(state.to_text())
    assert any(model.known)
    audits = [seat_audit(model, s) for s in range(players)]
    for _ in range(60):
        for s, audit in enumerate(audits):
            audit.check("position " + state.view_text(s))
        decision = rng.choice(state.legal_text())
        state.apply(decision)
        model.apply(decision)
        for audit in audits:
            audit.observe(model)


@pytest.mark.parametrize("edition, players", AUDITED)
def test_whole_game_protocol_logs_reveal_only_seen_cards(edition: str, players: int, tmp_path: Path) -> None:
    """Two rounds (a race: its quick match) through the protocol, one bot per seat: the random bot
    at even seats, at odd ones the guide's minimal bot, which asks for its legal decisions with
    each `go`. Every line each bot was sent is audited against what its seat had seen at the
    time, the legal lists against the seat's legal decisions."""
    options = engine.get_edition(edition).resolve_options(short_options(edition, rounds=2))
    state = engine.new_game(edition, seed=77, players=players, **options)
    model = reference.from_text(state.to_text())
    logs: list[list[tuple[str, str]]] = [[] for _ in range(state.num_seats)]
    bots = [Engine.start(builtin_bot("random", seed=s) if s % 2 == 0 else guide_bot(tmp_path), env=child_env(),
                         transcript=logs[s]) for s in range(state.num_seats)]
    audits = [seat_audit(model, s) for s in range(state.num_seats)]
    audited = [0] * state.num_seats

    def audit_new_lines() -> None:
        for s, log in enumerate(logs):
            for direction, line in log[audited[s]:]:
                if direction == ">":
                    audits[s].check(line)
            audited[s] = len(log)

    try:
        for s, bot in enumerate(bots):
            bot.new_game(edition, options, state.num_seats, s)
        audit_new_lines()
        rounds_seen = set()
        while not state.is_terminal():
            seat = state.to_move
            result = bots[seat].play(state.view_text(seat), Limits(movetime_ms=10), timeout=5)
            audit_new_lines()  # sent before the decision is applied: judged on the knowledge then
            state.apply(result.decision)
            model.apply(result.decision)
            assert model.to_text() == state.to_text()  # the auditor follows the very same game
            for audit in audits:
                audit.observe(model)
            rounds_seen.add(state.round_index)
        for bot in bots:
            bot.game_over(state.scores(), state.returns(), "normal")
            bot.ping()
        audit_new_lines()
    finally:
        for bot in bots:
            bot.quit()
    if played_in_rounds(edition):  # the audit went on across a new deal (a race has one long round, no new deal)
        assert len(rounds_seen) == 2
    assert all(audit.checked > 50 for audit in audits)
    lists = [sum(" legal " in line for direction, line in log if direction == ">") for log in logs]
    assert all((n > 20) == (s % 2 == 1) for s, n in enumerate(lists)), lists  # only the bots that asked
