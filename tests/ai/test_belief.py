"""A read of the hidden hand (parlor.ai.belief, issue 17): the opponent's decisions weigh the
determinizations, and nothing hidden goes into them (R30)."""

from __future__ import annotations

import random

import pytest

from parlor.ai.belief import PASS_CRE, PASS_LND, Belief, BeliefDeterminizer, Clue, clues
from parlor.ai.levels import make_agent
from parlor.ai.match import play_game
from parlor.rules.actions import Action
from parlor.rules.cards import Card
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import Settings, State
from parlor.rules.trail import HIDDEN_VERBS
from parlor.rules.view import view


def face(text: str) -> int:
    return Card.parse(text).index


def greedy_game(seed: int, until: int) -> list[State]:
    """The states of a Greedy self-play game at each decision, up to turn ``until``."""
    s = new_game(seed)
    s.log = None
    agents = [make_agent("greedy", 1), make_agent("greedy", 2)]
    states = []
    while not s.is_over and s.turn < until:
        states.append(s.clone())
        legal = legal_actions(s)
        apply(s, agents[s.actor].act(view(s, s.actor, log=False), legal))
    return states


def test_r30_the_trail_in_a_view_names_no_card_hidden_from_the_viewer() -> None:
    s = greedy_game(770001, 40)[-1]
    assert s.trail
    for viewer in (0, 1):
        seen = view(s, viewer, log=False).trail
        assert len(seen) == len(s.trail)
        for (rlr, turn, phase, _, _, action), public in zip(s.trail, seen, strict=True):
            assert (public.rlr, public.turn, public.phase) == (rlr, turn, phase)
            if rlr != viewer and action.verb in HIDDEN_VERBS:
                assert public.action == action.verb  # keep, trim, redraw: no card
            else:
                assert public.action == str(action)


def hidden_swap(s: State, player: int) -> State:
    """The same game as far as ``player`` can tell, with another opponent's Hand: one card of
    the opponent's Hand traded with one of its Draw pile, the trail rewritten to match (a
    ``keep`` of the one card becomes a ``keep`` of the other)."""
    o = 1 - player
    t = s.clone()
    x, y = t.hand[o][0], t.draw[o][0]
    t.hand[o][0], t.draw[o][0] = y, x
    assert t.trail is not None
    t.trail = [(*st[:5], Action("keep", y % 52))
               if st[0] == o and st[5] == Action("keep", x % 52) else st
               for st in t.trail]
    return t


@pytest.mark.slow
def test_r30_two_games_that_differ_only_in_hidden_cards_give_identical_beliefs() -> None:
    """The same game with two different hidden Hands consistent with one view: the views are
    equal, trail included, and so are the belief's weights and samples for the same seed."""
    checked = 0
    for s in greedy_game(770002, 60):
        if s.actor != 0 or not clues(view(s, 0, log=False)):
            continue
        t = hidden_swap(s, 0)
        assert sorted(s.hand[1]) != sorted(t.hand[1])
        v, w = view(s, 0, log=False), view(t, 0, log=False)
        assert v == w and v.trail == w.trail
        for seed in (0, 1):
            dets = [BeliefDeterminizer(x, random.Random(seed)) for x in (v, w)]
            for _ in range(3):
                a, b = (d.deal() for d in dets)
                assert a.hand == b.hand and a.draw == b.draw and a.recycle == b.recycle
                assert dets[0].weights == dets[1].weights
        checked += 1
    assert checked >= 5


def test_206_a_pass_while_holding_a_castable_cre_makes_such_hands_less_likely() -> None:
    # one Club and one Diamond within reach: AC (1 Club + 1) is castable, KS is not
    clue = Clue(False, (1, 1, 0, 0), frozenset())
    assert clue.likelihood({face("AC"), face("2H")}) == PASS_CRE
    assert clue.likelihood({face("KS"), face("2H")}) == 1.0
    # a Cre it played after the pass was in its Hand at the pass
    assert Clue(False, (1, 1, 0, 0), frozenset({face("AC")})).likelihood({face("KS")}) \
        == PASS_CRE


def test_603_a_pass_as_p_with_the_lnd_drop_unused_makes_hands_with_a_lnd_less_likely() -> None:
    clue = Clue(True, (0, 0, 0, 0), frozenset())
    assert clue.likelihood({face("7C"), face("2H")}) == PASS_LND
    assert clue.likelihood({face("2H")}) == 1.0
    assert Clue(False, (0, 0, 0, 0), frozenset()).likelihood({face("7C")}) == 1.0


def test_only_the_decisions_since_the_opponents_last_keep_are_read() -> None:
    """A card enters a Hand only by a draw (305): passes before the opponent's last keep say
    nothing about the Hand it holds now."""
    s = greedy_game(770003, 30)[-1]
    v = view(s, 0, log=False)
    last_keep = max(i for i, st in enumerate(v.trail) if st.rlr == 1 and st.action == "keep")
    passes = [st for st in v.trail[last_keep + 1:] if st.rlr == 1 and st.action == "pass"
              and st.phase in (2, 7)]
    assert len(clues(v)) == len(passes)
    assert Belief(v).likelihood(s.hand[1]) == Belief(v).likelihood(list(s.hand[1]))


def test_the_true_hand_is_more_likely_than_a_random_one_against_greedy() -> None:
    """The belief reads Greedy's passes: the Hand it really holds is more likely than the
    average uniform deal (summed over a game's decisions)."""
    true_w = dealt_w = 0.0
    for s in greedy_game(770001, 80):
        v = view(s, 0, log=False)
        if s.actor != 0 or not clues(v):
            continue
        det = BeliefDeterminizer(v, random.Random(0))
        det.deal()
        true_w += Belief(v).likelihood(s.hand[1])
        dealt_w += sum(det.weights) / len(det.weights)
    assert true_w > 1.2 * dealt_w


def test_the_trail_is_not_recorded_in_determinizations() -> None:
    s = greedy_game(770001, 6)[-1]
    det = BeliefDeterminizer(view(s, s.actor, log=False), random.Random(0))
    assert det.deal().trail is None


def test_a_belief_sampling_expert_plays_a_legal_game() -> None:
    agents = [make_agent("expert@iters=16@sampler=belief", 1), make_agent("greedy", 2)]
    r = play_game(agents, seed=770004, settings=Settings(max_turns=24))
    assert r.decisions[0] > 0



def test_107_1_match_play_keeps_no_record_of_the_decisions() -> None:
    s = new_game(770005, Settings(match_play=True))
    while s.turn < 6:
        apply(s, legal_actions(s)[0])
    assert s.trail and view(s, 0, log=False).trail == ()
