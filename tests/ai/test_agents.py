"""The agent interface: levels, fairness (only the view counts), legality, explanations."""

from __future__ import annotations

import random

import pytest

from parlor.ai.base import Agent, BaseAgent, Choice, RandomAgent
from parlor.ai.greedy import GreedyAgent, HeuristicAgent
from parlor.ai.levels import LEVEL_NAMES, level_name, make_agent
from parlor.ai.match import play_game
from parlor.ai.search import SearchAgent
from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import Phase, Settings, State
from parlor.rules.view import resample, view


def agents_under_test(seed: int) -> list[BaseAgent]:
    """One of each kind, with budgets small enough for tests; the search is capped by
    iterations (not time) so that it is reproducible."""
    return [
        RandomAgent(seed),
        HeuristicAgent(seed, epsilon=0.25),
        GreedyAgent(seed, samples=1, horizon=1, temperature=0.02),
        GreedyAgent(seed, samples=2, horizon=2),
        SearchAgent(seed, budget=60.0, max_iterations=25),
    ]


def positions(seed: int, every: int = 9, limit: int = 6) -> list[State]:
    """Mid-game states with a real choice, from a game between Heuristic agents."""
    s = new_game(seed)
    s.log = None
    players = [HeuristicAgent(seed), HeuristicAgent(seed + 1)]
    out: list[State] = []
    n = 0
    while not s.is_over and len(out) < limit:
        legal = legal_actions(s)
        n += 1
        if n % every == 0 and len(legal) >= 3:
            out.append(s.clone())
        apply(s, players[s.actor].act(view(s, s.actor), legal))
    return out


def hidden_differs(a: State, b: State, player: int) -> bool:
    o = 1 - player
    return (a.hand[o] != b.hand[o] or a.draw[o] != b.draw[o] or a.draw[player] != b.draw[player])


# -- levels --------------------------------------------------------------------------------------


def test_levels_by_number_and_name() -> None:
    for n, name in enumerate(LEVEL_NAMES, 1):
        assert level_name(n) == name
        assert level_name(str(n)) == name
        assert level_name(name.upper()) == name
        agent = make_agent(n, seed=3)
        assert isinstance(agent, Agent)
        assert agent.name == name
    assert isinstance(make_agent("random"), RandomAgent)
    assert make_agent("greedy").name == "greedy"
    with pytest.raises(ValueError):
        make_agent(6)
    with pytest.raises(ValueError):
        make_agent("grandmaster")


def test_search_levels_have_budgets() -> None:
    expert, strong = make_agent("expert"), make_agent("strong")
    assert isinstance(expert, SearchAgent) and isinstance(strong, SearchAgent)
    assert expert.max_iterations is not None and strong.max_iterations is not None
    assert expert.max_iterations > strong.max_iterations > 0
    assert expert.budget > strong.budget > 0  # the wall-clock caps
    assert expert.budget <= 2.0


# -- fairness: the agent's answer depends only on what it may see --------------------------------


@pytest.mark.parametrize("kind", range(5))
def test_same_view_same_action(kind: int) -> None:
    rng = random.Random(99)
    checked = 0
    for seed in (1, 2):
        for s in positions(seed):
            p = s.actor
            other = resample(view(s, p), rng)  # same view, other hidden cards
            assert view(other, p) == view(s, p)
            assert hidden_differs(s, other, p)
            legal_a, legal_b = legal_actions(s), legal_actions(other)
            assert legal_a == legal_b
            a = agents_under_test(7)[kind].act(view(s, p), legal_a)
            b = agents_under_test(7)[kind].act(view(other, p), legal_b)
            assert a == b, f"{a} != {b} at {s.phase.name}"
            checked += 1
    assert checked >= 4


def test_agents_see_no_log() -> None:
    """The view's log (the state's event texts) is not part of the agent's input."""
    s = positions(3, limit=1)[0]
    s.log = []
    p = s.actor
    plain = view(s, p)
    s.log = None
    bare = view(s, p)
    agent_a, agent_b = GreedyAgent(5), GreedyAgent(5)
    assert agent_a.act(plain, legal_actions(s)) == agent_b.act(bare, legal_actions(s))


# -- legality over whole (short) games -------------------------------------------------------


@pytest.mark.parametrize("level", [*LEVEL_NAMES, "random", "greedy"])
def test_levels_play_only_legal_actions(level: str) -> None:
    settings = Settings(max_turns=30)
    for game in range(2):
        agent = make_agent(level, seed=game)
        if isinstance(agent, SearchAgent):
            agent.budget = 0.005
        opponent = HeuristicAgent(game + 50, epsilon=0.3)
        seats: list[Agent] = [agent, opponent] if game % 2 == 0 else [opponent, agent]
        r = play_game(seats, seed=40 + game, settings=settings)  # raises on an illegal action
        assert r.decisions[game % 2] > 0


# -- explanations ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [2, 3, 4])
def test_explain_lists_alternatives_best_first(kind: int) -> None:
    s = positions(5, limit=1)[0]
    p = s.actor
    legal = legal_actions(s)
    agent = agents_under_test(11)[kind]
    choices = agent.explain(view(s, p), legal)
    assert choices and all(isinstance(c, Choice) for c in choices)
    assert {c.action for c in choices} <= set(legal)
    assert all(0.0 <= c.value <= 1.0 for c in choices)
    assert agent.act(view(s, p), legal) in legal
    line = choices[0].describe()
    assert line.startswith(str(choices[0].action))
    if choices[0].visits:
        assert line.endswith("% win estimate")


def test_describe() -> None:
    c = Choice(Action.parse("attack KS"), 0.714, 120)
    assert c.describe() == "attack KS: 71% win estimate"
    assert Choice(Action.parse("pass"), 0.5, 0).describe() == "pass"


def test_single_choice_takes_no_search() -> None:
    s = positions(4, limit=1)[0]
    agent = SearchAgent(1, budget=5.0)
    only = [legal_actions(s)[0]]
    assert agent.act(view(s, s.actor), only) == only[0]
    assert agent.last_iterations == 0


def test_random_agent_is_seeded() -> None:
    s = positions(6, limit=1)[0]
    legal = legal_actions(s)
    v = view(s, s.actor)
    assert [RandomAgent(3).act(v, legal) for _ in range(3)] == [
        RandomAgent(3).act(v, legal) for _ in range(3)]


def test_phases_reach_agents() -> None:
    """A short game between levels hands the agents decisions of many kinds."""
    r = play_game([make_agent("casual", 1), make_agent("novice", 2)], seed=8,
                  settings=Settings(max_turns=40))
    phases = set(r.think_phase[0]) | set(r.think_phase[1])
    assert {"keep", "window1", "attack"} <= phases
    assert Phase.OVER.name.lower() not in phases
