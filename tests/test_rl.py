"""The reinforcement-learning environments (rl/, docs/rl.md) on every edition, checked by the
frameworks' own tests: OpenSpiel's random simulations and serialization, PettingZoo's API and seed
tests, Gymnasium's environment checker; and the batched environment against the engine."""
from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra is not installed (pip install '.[rl]')")
pytest.importorskip("gymnasium", reason="the rl extra is not installed (pip install '.[rl]')")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed (pip install '.[rl]')")
pyspiel = pytest.importorskip("pyspiel", reason="the rl extra is not installed (pip install '.[rl]')")

import engine  # noqa: E402
from engine.errors import IllegalDecisionError  # noqa: E402
from helpers import searched_options, short_options  # noqa: E402
from rl.batched import BatchedEnv  # noqa: E402
from rl.spaces import Spaces, rewards as rl_rewards  # noqa: E402


def _players(edition) -> int | None:
    return getattr(edition, "players", None)


# ----- the batched environment ----------------------------------------------------------------------

def test_the_batched_environment_writes_each_movers_observation_and_mask(edition):
    env = BatchedEnv(edition, 6, seed=3, players=_players(edition), **short_options(edition))
    spaces = Spaces(engine.get_edition(edition))
    for _ in range(40):
        for i in range(env.num_envs):
            state = env.state(i)
            assert env.to_move[i] == state.to_move
            assert np.array_equal(env.observations[i], spaces.observe(state, state.to_move))
            assert np.flatnonzero(env.masks[i]).tolist() == sorted(state.legal())
        env.step(env.sample_actions())


def test_the_batched_environment_resets_finished_matches_and_pays_their_rewards(edition):
    env = BatchedEnv(edition, 4, seed=5, players=_players(edition), **short_options(edition))
    finished = 0
    for _ in range(20_000):
        before = [env.state(i) for i in range(env.num_envs)] if finished < 3 else None
        actions = env.sample_actions().copy()
        _, _, rewards, dones = env.step(actions)
        for i in np.flatnonzero(dones):
            finished += 1
            if before is not None:
                state = before[i]
                state.apply(int(actions[i]))
                assert state.is_terminal()
                assert rewards[i].tolist() == pytest.approx(rl_rewards(state), abs=1e-6)
                assert env.scores[i].tolist() == state.scores()
            assert abs(float(rewards[i].sum())) < 1e-6
            assert not env.state(int(i)).is_terminal()
        assert not rewards[dones == 0].any()
        if finished >= 6:
            break
    assert finished >= 6 and env.games == finished


def test_the_batched_environment_is_reproducible_and_checks_decisions():
    one, two = BatchedEnv("classic", 8, seed=11), BatchedEnv("classic", 8, seed=11)
    for _ in range(300):
        one.step_random(1)
        two.step_random(1)
    assert np.array_equal(one.observations, two.observations) and one.games == two.games
    before = one.observations.copy()
    bad = one.sample_actions().copy()
    bad[3] = int(np.flatnonzero(one.masks[3] == 0)[0])
    with pytest.raises(IllegalDecisionError):
        one.step(bad)
    assert np.array_equal(one.observations, before)


def test_views_write_the_tensor_of_any_state_asked_for(edition):
    """`rl.views` keeps each seat's last tensor and brings it up to date: whatever states it is asked
    about in turn (other matches, other seats, other numbers of players), the tensor is the one
    written afresh."""
    from rl.views import Views

    record = engine.get_edition(edition)
    views = Views(record)
    rng = random.Random(3)
    players = [_players(edition)] + [p for p in record.seats if p != _players(edition)][:1]
    states = [engine.new_game(edition, seed=k, players=players[k % len(players)], **short_options(edition))
              for k in range(3)]
    for step in range(300):
        state = rng.choice(states)
        if not state.is_terminal() and rng.random() < 0.8:
            state.apply(rng.choice(state.legal()))
        seat = rng.randrange(state.num_seats)
        expected = np.zeros(record.observation.size, dtype=np.float32)
        record.observation.observe(state, seat, expected)
        assert np.array_equal(views.observation(state, seat), expected), f"step {step}"


# ----- PettingZoo -----------------------------------------------------------------------------------

def test_pettingzoo_api_and_seed_tests(edition):
    from pettingzoo.test import api_test, seed_test

    from rl.pettingzoo import env

    options = short_options(edition)
    api_test(env(edition, _players(edition), **options), num_cycles=300, verbose_progress=False)
    seed_test(lambda: env(edition, _players(edition), **options), num_cycles=300)


def test_pettingzoo_deals_each_match_as_the_engine_deals_it(edition):
    """`reset` deals the environment's template again in place (GameOps.reset): the position is the
    one `Edition.new_game` deals from the same seed."""
    from rl.pettingzoo import env

    aec = env(edition, _players(edition), **short_options(edition))
    record = engine.get_edition(edition)
    for deal in (0, 1, 77, 2**63 + 5):
        game = aec.dealer.deal(deal)
        fresh = record.new_game(deal, _players(edition), **short_options(edition))
        assert game == fresh and game.to_text() == fresh.to_text()
        game.apply(game.legal()[0])
        fresh.apply(fresh.legal()[0])
        assert game.view_text(0) == fresh.view_text(0)


def test_pettingzoo_observations_kept_are_never_overwritten():
    """The environment reuses an observation's arrays only once nothing else refers to them: those a
    learner keeps (the dict, or an array alone) stay as they were, the rest are recycled."""
    from rl.pettingzoo import env

    aec = env("classic", rounds=1)
    aec.reset(seed=2)
    kept, copies, arrays = [], [], []
    for step, agent in enumerate(aec.agent_iter()):
        obs, _, terminated, truncated, _ = aec.last()
        if step % 3 == 0:
            kept.append(obs)
            copies.append((obs["observation"].copy(), obs["action_mask"].copy()))
        elif step % 3 == 1:
            arrays.append((obs["observation"], obs["observation"].copy()))
        aec.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    for obs, (tensor, mask) in zip(kept, copies):
        assert np.array_equal(obs["observation"], tensor) and np.array_equal(obs["action_mask"], mask)
    assert all(np.array_equal(a, b) for a, b in arrays)
    assert len({id(obs["observation"]) for obs in kept}) == len(kept)


# ----- Gymnasium ------------------------------------------------------------------------------------

def test_gymnasium_environment_checker(edition):
    from gymnasium.utils.env_checker import check_env

    from rl.gymnasium import ExpeditionsEnv

    environment = ExpeditionsEnv(edition, "random", players=_players(edition), **short_options(edition))
    check_env(environment, skip_render_check=True)
    obs, info = environment.reset(seed=4)
    total = 0.0
    while True:
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = environment.step(int(legal[0]))
        total += reward
        assert "illegal" not in info
        if terminated:
            break
    assert total == pytest.approx(rl_rewards(environment.state)[0])


def test_gymnasium_against_a_protocol_bot_process():
    from protocol.local import expeditions_argv
    from rl.gymnasium import ExpeditionsEnv

    environment = ExpeditionsEnv("classic", [expeditions_argv("bot", "greedy")], seat=1, rounds=1)
    try:
        obs, info = environment.reset(seed=2)
        terminated = False
        while not terminated:
            legal = np.flatnonzero(info["action_mask"])
            obs, reward, terminated, _, info = environment.step(int(legal[-1]))
        assert environment.state.is_terminal() and reward in (-1.0, 0.0, 1.0)
    finally:
        environment.close()


# ----- OpenSpiel ------------------------------------------------------------------------------------

def _game(edition):
    from rl.openspiel import short_name
    params = dict(searched_options(edition))
    if _players(edition) is not None:
        params["players"] = _players(edition)
    return pyspiel.load_game(short_name(engine.get_edition(edition)), params)


def test_openspiel_random_simulations_and_serialization(edition):
    game = _game(edition)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal() and len(state.history()) < 60:
        state.apply_action(rng.choice(state.legal_actions()))
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()
    for player in range(game.num_players()):
        assert again.information_state_string(player) == state.information_state_string(player)


def test_openspiel_resampling_keeps_the_information_state(edition):
    game = _game(edition)
    state = game.new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal() and len(state.history()) < 30:
        state.apply_action(rng.choice(state.legal_actions()))
    if state.is_terminal():
        pytest.skip("the match ended early")
    player = state.current_player()
    for _ in range(5):
        sample = state.resample_from_infostate(player, rng.random)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions() == state.legal_actions()


def test_openspiels_ismcts_bot_plays_a_match_to_the_end(edition):
    from open_spiel.python.algorithms import ismcts, mcts

    game = _game(edition)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=np.random.RandomState(2))
    state = game.new_initial_state()
    state.apply_action(1)
    rng = np.random.RandomState(3)
    while not state.is_terminal():
        if state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == pytest.approx(0.0)


# ----- the learned agent ----------------------------------------------------------------------------

def test_rl_train_writes_a_policy_file(tmp_path, capsys):
    from expeditions.cli import main
    from rl.agent import LinearPolicy

    out = tmp_path / "p.npz"
    assert main(["rl-train", "--seconds", "0.5", "--envs", "8", "--seed", "2", "--out", str(out)]) == 0
    assert '"matches"' in capsys.readouterr().out
    assert LinearPolicy.load(out).edition == engine.default_edition().name


def test_training_by_steps_is_reproducible(tmp_path, capsys):
    from expeditions.cli import main
    from rl.agent import LinearPolicy, train

    first, report = train("classic", steps=300, envs=16, seed=4, batch=512)
    again, _ = train("classic", steps=300, envs=16, seed=4, batch=512)
    assert report["steps"] == 300 and report["matches"] > 0 and report["updates"] > 0
    assert np.abs(first.weights).sum() > 0 and np.array_equal(first.weights, again.weights)
    out = tmp_path / "p.npz"
    assert main(["rl-train", "--steps", "50", "--envs", "4", "--out", str(out)]) == 0
    assert '"steps": 50' in capsys.readouterr().out and LinearPolicy.load(out).edition
    assert main(["rl-train", "--steps", "0", "--out", str(out)]) != 0
    assert "--steps at least 1" in capsys.readouterr().err


def test_a_trained_agent_is_saved_loaded_and_served_as_a_protocol_bot(tmp_path):
    from protocol.client import Engine
    from protocol.limits import Limits
    from protocol.local import child_env, expeditions_argv
    from rl.agent import LinearPolicy, train

    policy, report = train("classic", steps=400, envs=16, seed=3)
    path = tmp_path / "agent.npz"
    policy.save(path)
    loaded = LinearPolicy.load(path)
    assert loaded.edition == "classic" and np.array_equal(loaded.weights, policy.weights)
    state = engine.new_game("classic", seed=8, rounds=1)
    with Engine.start(expeditions_argv("rl-bot", str(path)), env=child_env()) as bot:
        bot.new_game("classic", {"rounds": 1}, 2, 0)
        while not state.is_terminal():
            if state.to_move == 0:
                answer = bot.play(state.view_text(0), Limits(movetime_ms=1000)).decision
                expected = loaded.decide(Spaces(engine.get_edition("classic")).observe(state, 0), state.legal())
                assert state.parse_decision(answer) == expected
                state.apply(answer)
            else:
                state.apply(state.legal()[0])


# ----- the examples of the docstrings -----------------------------------------------------------------

@pytest.mark.parametrize("name", ["rl.spaces", "rl.views", "rl.dealer", "rl.aec", "rl.batched", "rl.opponents", "rl.pettingzoo",
                                  "rl.gymnasium", "rl.openspiel", "rl.benchmark", "rl.agent"])
def test_module_examples(name):
    import doctest
    import importlib

    failures, _ = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failures == 0
