"""Duplicate matches: pairs with the sides swapped, and rotations where every seat plays alone."""
import pytest

from arena.duplicate import make_bot, play_pair, run_duplicate
from arena.match import play_match
from arena.statistics import places


def test_a_pair_swaps_the_sides() -> None:
    pair = play_pair("classic", 5, "greedy", "random", {"rounds": 1})
    assert len(pair.returns) == len(pair.margins) == 2 and pair.ranks == ()
    assert all(m > 0 for m in pair.margins) and pair.returns == (1.0, 1.0)  # greedy beats random


def test_partners_puts_a_whole_team_on_each_side() -> None:
    pair = play_pair("partners", 2, "greedy", "random", {"rounds": 1})
    assert len(pair.returns) == 2 and pair.ranks == ()


@pytest.mark.parametrize("players", [3, 4])
def test_board_rotates_one_a_through_every_seat(players: int) -> None:
    stats = run_duplicate("board", 1, 9, "greedy", "random", {"rounds": 1}, players=players)
    pair = stats.pairs[0]
    assert stats.games == players == len(pair.ranks) == len(pair.other_ranks)
    for rank, others in zip(pair.ranks, pair.other_ranks):
        # The places of all seats add up to 1 + 2 + … + players, shared ties included.
        assert rank + others * (players - 1) == pytest.approx(players * (players + 1) / 2)
    assert stats.mean_rank < stats.other_mean_rank  # greedy beats random
    assert "mean place" in stats.summary()


def test_places_share_ties() -> None:
    assert places([7, 7], [0, 1]) == [1.5, 1.5]
    assert places([1, 2, 3], [0, 1, 2]) == [3.0, 2.0, 1.0]


def test_one_deal_prints_no_interval_rather_than_nan() -> None:
    one = run_duplicate("classic", 1, 5, "greedy", "random", {"rounds": 1})
    assert "nan" not in one.summary() and "±" not in one.summary()
    two = run_duplicate("classic", 2, 5, "greedy", "random", {"rounds": 1})
    assert two.summary().count("±") == 2  # the score's and the margin's intervals


def _count_decisions(game: int, a_seats: list[int]):
    """A `GameObserver` (module level: it goes to the workers): counts each seat's decisions."""
    record: dict = {"game": game, "a": a_seats, "decisions": {}}

    def observe(ply: int, seat: int, policy) -> None:
        record["decisions"][seat] = record["decisions"].get(seat, 0) + 1
    return record, observe


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_observer_records_every_game_and_progress_sees_the_records(jobs: int) -> None:
    seen = []
    stats = run_duplicate("classic", 2, 5, "greedy", "random", {"rounds": 1}, jobs=jobs,
                          progress=lambda pair, _: seen.append(pair), observe=_count_decisions)
    for pair in seen:
        assert [(r["game"], r["a"]) for r in pair.records] == [(0, [0]), (1, [1])]
        for record in pair.records:  # the game's moves added; every decision observed once
            assert sum(record["decisions"].values()) == len(record["moves"]) > 0
    assert sorted(p.seed for p in seen) == [5, 6]
    assert all(p.records == () for p in stats.pairs)  # let go once shown: they can be large


@pytest.mark.parametrize("edition, players, seats", [("classic", None, 2), ("partners", None, 4), ("expedition", None, 2),
                                                     ("board", 2, 2), ("board", 4, 4)])
def test_instant_bots_play_the_same_games_in_compiled_code(edition, players, seats) -> None:
    """The compiled path (each seat's decider on the full state) makes every decision the views
    would: an observer forces the views, game for game."""
    specs = ["greedy", "random", "greedy:Epsilon=30", "random:Seed=4"][:seats]
    for seed in range(3):
        fast = play_match(edition, seed, [make_bot(spec, seed) for spec in specs], {"rounds": 1}, players=players)
        seen: list[int] = []
        slow = play_match(edition, seed, [make_bot(spec, seed) for spec in specs], {"rounds": 1}, players=players,
                          observer=lambda ply, seat, policy: seen.append(ply))
        assert fast.moves == slow.moves and fast.final_position == slow.final_position
        assert len(seen) == slow.decisions > 0
