"""The game engine: setup, the turn sequence, the Turn Cycle, and the public API.

    >>> state = new_game(seed=7)
    >>> actions = legal_actions(state)
    >>> apply(state, actions[0]) is state
    True

* :func:`new_game` deals from one seed (R31) and picks the first Rlr at random (rule 106):
  a practice number, dealt as every older record was, or a 128-bit deal key dealt through a
  keyed hash (:mod:`parlor.rules.seeds`, docs/notation.md "The seed line").
* :func:`legal_actions` lists exactly the decisions open now (automatic payment; explicit
  payment is accepted as another form of the same decision, R3). Resigning is always
  possible and never listed.
* :func:`apply` raises :class:`IllegalActionError` naming the rule, leaving the state as it
  was; otherwise it plays the action and then, when ``settings.auto`` is on, every forced
  step and single legal choice after it.
"""

from __future__ import annotations

import random
from typing import Final

from parlor.rules.actions import (
    BARE_VERBS,
    REF_VERBS,
    Action,
    GameOverError,
    IllegalActionError,
    WrongTurnError,
    action_of,
)
from parlor.rules.combat import (
    ABILITY_OF_VERB,
    ability_actions,
    assign_point,
    attack_actions,
    block_actions,
    bonus_actions,
    bonus_point,
    declare_attacker,
    declare_blocker,
    split_actions,
    start_resolution,
    use_ability,
    verify_ability,
    verify_assign,
    verify_attack,
    verify_block,
    verify_bonus,
    verify_close_attack,
)
from parlor.rules.events import Event, card_text, rlr
from parlor.rules.plays import check_payment, play_card, verify_play, window_actions
from parlor.rules.seeds import DealKey, Seed, deal_stream, derive
from parlor.rules.state import (
    ABILITY_O,
    ABILITY_P,
    ATTACK,
    BLOCK,
    BONUS,
    C_KIND,
    CRE,
    DOMAIN_BONUS,
    FACE,
    HAND_LIMIT,
    KEEP,
    NONE,
    OVER,
    SPLIT,
    TRIM,
    WINDOW1,
    WINDOW2,
    Settings,
    State,
    begin_combat,
    end_combat,
)
from parlor.rules.table import (
    CHANGED,
    clear_combat_status,
    draw_one,
    emit,
    end_game,
    leave_play,
    points,
    untax_all,
)
from parlor.rules.trail import NO_MNR, own_trail, record

# -- setup (rule 100) -------------------------------------------------------------------------


def new_game(seed: Seed | None = None, settings: Settings | None = None,
             rng: random.Random | None = None) -> State:
    """A new game dealt from ``seed`` (or an injected ``rng``): the stratified deal (R31).

    ``seed`` is a practice number or a :class:`~parlor.rules.seeds.DealKey` (at least 128
    bits, drawn by the caller: the engine draws no randomness of its own). A number deals
    exactly as every older record did; a key deals from a keyed hash and derives the
    reshuffle seed (307) from a second keyed hash, so seen cards do not reveal it."""
    if rng is None:
        rng = random.Random(None) if seed is None else deal_stream(seed)
    s = State(settings)
    s.seed = seed
    s.trail = []
    s.marked = [[], [], []]  # nothing is on the table yet
    for p in (0, 1):
        cres = [p * 52 + f for f in range(52) if C_KIND[f] is CRE]
        rest = [p * 52 + f for f in range(52) if C_KIND[f] is not CRE]
        rng.shuffle(rest)
        s.hand[p] = rest[:HAND_LIMIT]
        library = rest[HAND_LIMIT:] + cres
        rng.shuffle(library)
        s.draw[p] = library
    first = rng.randrange(2)
    s.shuffle_seed = rng.getrandbits(64)
    if isinstance(seed, DealKey):
        s.shuffle_seed = derive(seed, "reshuffle", 128)
    emit(s, "setup", amounts=(first,), rule="105")
    _start_turn(s, first, first_turn=True)
    _advance(s)
    return s


#: The verbs that may carry an explicit payment (R3, 405): playing a card and expelling.
PAYING_VERBS: Final = ("play", "expel")


# -- the public API ---------------------------------------------------------------------------


def legal_actions(s: State) -> list[Action]:
    """Exactly the decisions open to ``s.actor`` now (empty when the game is over).

    A fresh list: callers may shuffle or sort it without touching the engine's cache."""
    return _legal(s)[:]


def _legal(s: State) -> list[Action]:
    """The cached list of legal actions (shared with clones: never mutate it)."""
    cached = s._legal
    if cached is not None:
        return cached  # type: ignore[return-value]
    ph = s.phase
    if ph is WINDOW1 or ph is WINDOW2:
        out = window_actions(s, s.actor)
    elif ph is ATTACK:
        out = attack_actions(s)
    elif ph is BLOCK:
        out = block_actions(s)
    elif ph is ABILITY_P or ph is ABILITY_O:
        out = ability_actions(s, s.actor)
    elif ph is KEEP:
        out = _keep_actions(s)
    elif ph is TRIM:
        out = _trim_actions(s)
    elif ph is SPLIT:
        out = split_actions(s)
    elif ph is BONUS or ph is DOMAIN_BONUS:
        out = bonus_actions(s)
    else:
        out = []
    s._legal = out  # type: ignore[assignment]
    return out


def apply(s: State, action: Action | str, player: int | None = None) -> State:
    """Play ``action`` for ``player`` (default: the Rlr to decide). Returns ``s``."""
    if isinstance(action, str):
        action = Action.parse(action)
    if s.phase is OVER:
        raise GameOverError(f"R16: the game is over ({s.result})")
    who = s.actor if player is None else player
    if action.verb == "resign":
        who = who if action.target == NONE else action.target
        if s.trail is not None:
            own_trail(s).append((who, s.turn, s.phase, s.lnd_played, NO_MNR,
                                 Action("resign", NONE, who)))
        _resign(s, who)
        s.add_history(Action("resign", NONE, who))
        return s
    if who != s.actor:
        raise WrongTurnError(f"R7: it is {rlr(s.actor)}'s decision, not {rlr(who)}'s")
    check(s, action)
    if s.trail is not None:
        record(s, action)
    s.add_history(action)
    _dispatch(s, action)
    _advance(s)
    return s


def check(s: State, action: Action) -> None:
    """Raise IllegalActionError (citing the rule) unless ``action`` is legal now."""
    legal = _legal(s)
    if action.tax is None and action.spend is None:  # automatic payment: the common case
        if not _listed(legal, action):
            raise IllegalActionError(diagnose(s, action))
        return
    base = action.base
    if base is not action and action.verb not in PAYING_VERBS:
        # a payment the action cannot carry would be written into the record, which would
        # then no longer replay (its text cannot hold it)
        raise IllegalActionError(f"405: only a play or an expel is paid for; '{action.verb}' "
                                 "takes no payment")
    if not _listed(legal, base):
        raise IllegalActionError(diagnose(s, action))
    if base is not action:
        why = check_payment(s, s.actor, action.card, action.tax, action.spend)
        if why:
            raise IllegalActionError(why)


def _listed(legal: list[Action], action: Action) -> bool:
    """``action in legal``, by identity first: the listings hand out shared actions
    (:func:`~parlor.rules.actions.action_of`), so a listed one chosen from them is found
    without comparing fields with each action before it (a late play window lists dozens)."""
    for x in legal:
        if x is action:
            return True
    return action in legal


def step(s: State) -> bool:
    """Apply the single legal action when there is exactly one (for step-by-step callers)."""
    legal = _legal(s)
    if len(legal) != 1:
        return False
    if s.trail is not None:
        record(s, legal[0])
    _dispatch(s, legal[0])
    s.add_history(legal[0])
    return True


def returns(s: State) -> tuple[float, float]:
    """+1 for the winner, -1 for the loser, 0 each for a draw or an unfinished game."""
    if s.winner is None:
        return 0.0, 0.0
    return (1.0, -1.0) if s.winner == 0 else (-1.0, 1.0)


# -- applying ---------------------------------------------------------------------------------


def _advance(s: State) -> None:
    """Run single legal choices automatically (when the settings ask for it)."""
    if not s.settings.auto:
        return
    while s.phase is not OVER:
        legal = _legal(s)
        if len(legal) != 1:
            return
        if s.trail is not None:
            record(s, legal[0])  # a forced pass says the Hand held nothing payable
        start = len(s.log) if s.log is not None else 0
        _dispatch(s, legal[0])
        if s.log is not None:
            _mark_automatic(s.log, start, legal[0].verb)


#: The event kind that records each decision, where one does ("pass" and "done" record none).
_DECISION_KIND: Final = {"end": "end", "keep": "keep", "trim": "trim", "attack": "attack",
                  "block": "block", "play": "play", "expel": "expel", "redraw": "redraw"}


def _mark_automatic(log: list[Event], start: int, verb: str) -> None:
    """Mark the event of a forced decision as automatic, so that the log does not read as if
    the Rlr chose it (its consequences are not marked: nobody chooses those either way)."""
    kind = _DECISION_KIND.get(verb)
    for i in range(start, len(log)):
        e = log[i]
        if e.kind == kind:
            log[i] = Event(e.kind, e.player, e.cards, e.amounts, e.rule, e.detail, e.entity,
                           e.why, automatic=True)
            return


def _dispatch(s: State, a: Action) -> None:
    s._legal = None
    ph = s.phase
    p = s.actor
    if ph is WINDOW1 or ph is WINDOW2:
        if a.verb == "pass":
            _close_window(s)
        else:
            play_card(s, p, a)
            s.actor = 1 - p
    elif ph is ATTACK:
        if a.verb == "attack":
            declare_attacker(s, p * 52 + a.card)
        elif a.verb == "done":
            s.phase, s.actor = BLOCK, s.opponent
        else:
            if s.log is not None:
                emit(s, "end", p, rule="406.2")
            _end_turn(s)
    elif ph is BLOCK:
        if a.verb == "block":
            declare_blocker(s, p * 52 + a.card, a.target)
        else:
            s.phase, s.actor = ABILITY_P, s.phasing
    elif ph is ABILITY_P or ph is ABILITY_O:
        if a.verb == "done":
            if ph is ABILITY_P:
                s.phase, s.actor = ABILITY_O, s.opponent
            else:
                s.phase, s.actor = WINDOW2, s.opponent
        else:
            use_ability(s, p, a)
    elif ph is KEEP:
        _keep_or_redraw(s, a)
    elif ph is TRIM:
        cid = p * 52 + a.card
        s.hand[p].remove(cid)
        s.recycle[p].append(cid)
        if s.log is not None:
            emit(s, "trim", p, (cid,), rule="304.3")
        _begin_draw(s)
    elif ph is SPLIT:
        _after_combat_step(s, assign_point(s, a.target))
    elif ph is BONUS or ph is DOMAIN_BONUS:
        _after_combat_step(s, bonus_point(s, a.target))


def _close_window(s: State) -> None:
    if s.phase is WINDOW1:
        begin_combat(s)
        s.phase, s.actor = ATTACK, s.phasing
    else:
        s.phase = SPLIT  # resolution decides the next decision
        _after_combat_step(s, start_resolution(s))


def _after_combat_step(s: State, finished: bool) -> None:
    if finished and s.phase is not OVER:
        _start_cycle(s)


def _resign(s: State, who: int) -> None:
    s.winner = 1 - who
    s.phase = OVER
    s._legal = None
    end_game(s, Event("win", 1 - who, rule="1204", detail="resign"))


# -- the turn sequence (rule 300) -------------------------------------------------------------


def _start_turn(s: State, p: int, first_turn: bool = False) -> None:
    """Untax, end inactivity and damage, burn, then trim or draw (rules 304, R1, R4, R5, R12)."""
    end_combat(s)
    if not first_turn:
        if s.turn >= s.settings.max_turns:
            s.phase = OVER
            end_game(s, Event("draw_game", amounts=(s.settings.max_turns,), rule="1203"))
            return
        s.turn += 1
    s.phasing = s.actor = p
    s.lnd_played = s.redrawn = False
    if s.log is not None:
        emit(s, "turn", p, amounts=(s.turn,), rule="301")
    # Only Lnds in a Home and Cres on a Field ever have a status (R4, R5, R12), and leaving
    # play clears it. The cards whose status was set are marked as it happens (table.mark),
    # so only those need a look; a state that marked none looks at every card in play.
    taxed, inactive = s.taxed, s.inactive
    marked = s.marked
    if marked is None:
        in_play = s.home[0] + s.home[1] + s.field[0] + s.field[1]
        marked = [[c for c in in_play if taxed[c] == 0], [c for c in in_play if taxed[c] == 1],
                  in_play]
    untaxed = untax_all(s, p, marked[p])
    dying = False
    for cid in marked[CHANGED]:
        inactive[cid] = 0
        if C_KIND[cid] is CRE:
            if s.terminal[cid]:
                dying = True
            elif s.damage[cid] or s.pwr_mod[cid] or s.tgh_mod[cid]:  # most were only summoned
                clear_combat_status(s, cid)  # (a clone's first write copies the lists)
    marked[p] = []
    marked[CHANGED] = []
    s.marked = marked
    if untaxed and s.log is not None:
        emit(s, "untax", p, amounts=(untaxed,), rule="304.1")
    if dying:
        for q in (0, 1):
            for cre in list(s.field[q]):
                if s.terminal[cre]:
                    leave_play(s, cre, discard=True)
                    if s.log is not None:
                        emit(s, "eliminate", q, (cre,), rule="1007")
    _burn(s, p)
    _begin_draw(s)


def _burn(s: State, p: int) -> None:
    """Mnr burn: the phasing Rlr loses life for mnr left in the pool (R1)."""
    left = points(s.pool[p])
    if left:
        s.pool[p] = [0, 0, 0, 0]
        s.life[p] -= left
        if s.log is not None:
            emit(s, "burn", p, amounts=(left, s.life[p]), rule="503")


def _begin_draw(s: State) -> None:
    p = s.phasing
    if len(s.hand[p]) > HAND_LIMIT:
        s.phase, s.actor = TRIM, p
        return
    _draw(s, p)


def _draw(s: State, p: int) -> None:
    n = 1 if s.settings.single_draw[p] else 2
    for _ in range(n):
        cid = draw_one(s, p)
        if cid is None:
            break
        s.drawn.append(cid)
    if not s.drawn:
        emit(s, "draw", p, rule="308")
        _after_draw(s)
        return
    if s.log is not None:
        emit(s, "draw", p, tuple(s.drawn), rule="305")
    if n == 1:
        s.hand[p].append(s.drawn.pop())
        if s.log is not None:
            emit(s, "keep", p, rule="1304", detail="single")
        _after_draw(s)
        return
    s.phase, s.actor = KEEP, p


#: The shared actions naming one of the actor's cards, by card id (either owner).
_KEEP: Final = tuple(action_of("keep", FACE[c]) for c in range(104))
_REDRAW: Final = tuple(action_of("redraw", FACE[c]) for c in range(104))
_TRIM: Final = tuple(action_of("trim", FACE[c]) for c in range(104))
_REDRAW_ALONE: Final = action_of("redraw")

# -- the draw's decisions: one verify per verb (304.3, 305, 309) --------------------------------
# As for the declarations and abilities (parlor.rules.combat): each verify answers None when
# P may, else the refusal naming the section; the listing asks the part of it that its
# candidates do not settle by being candidates (a card in the Hand is in the Hand), apply's
# refusal and "why not" render the whole.
_TRIM_NOT_IN_HAND: Final = "304.3: {card} is not in your Hand: trim a card that is in your Hand"
_KEEP_NOT_DRAWN: Final = "305: {card} was not just drawn: keep one of the drawn cards"
_REDRAW_AGAIN: Final = "309.2: only one Redraw is allowed per turn, and this turn's is made"
_REDRAW_NOT_IN_HAND: Final = ("309.1: {card} is not in your Hand: a Redraw recycles the drawn "
                              "cards with one Hand card that was not just drawn")
_REDRAW_NAMES_ONE: Final = "309.1: a Redraw names one card from your Hand"
_REDRAW_NAMES_NONE: Final = ("309.1: your Hand is empty: a Redraw names no card "
                             "(say 'redraw' alone)")


def verify_trim(s: State, c: int) -> str | None:
    """Why P may not trim the card ``c`` (a card id) now (304.3); None when P may: any card
    of P's Hand, so the listing is the Hand."""
    if c in s.hand[s.phasing]:
        return None
    return _TRIM_NOT_IN_HAND.format(card=card_text(c))


def verify_keep(s: State, c: int) -> str | None:
    """Why P may not keep the card ``c`` (a card id) now (305); None when P may: any card
    just drawn, so the listing is the drawn cards."""
    if c in s.drawn:
        return None
    return _KEEP_NOT_DRAWN.format(card=card_text(c))


def _redraw_refusal(s: State) -> str | None:
    """309.2: the part of a Redraw's verify that no card settles: one per turn."""
    return _REDRAW_AGAIN if s.redrawn else None


def verify_redraw(s: State, c: int) -> str | None:
    """Why P may not Redraw naming the card ``c`` (a card id, or NONE for none) now (309);
    None when P may: once a turn (309.2), naming a card of the Hand, or none when the Hand
    is empty (309.1)."""
    why = _redraw_refusal(s)
    if why is not None:
        return why
    hand = s.hand[s.phasing]
    if c == NONE:
        return None if not hand else _REDRAW_NAMES_ONE
    if not hand:
        return _REDRAW_NAMES_NONE
    return None if c in hand else _REDRAW_NOT_IN_HAND.format(card=card_text(c))


def _trim_actions(s: State) -> list[Action]:
    """Every card of P's Hand (:func:`verify_trim`)."""
    return [_TRIM[c] for c in s.hand[s.phasing]]


def _keep_actions(s: State) -> list[Action]:
    """Every drawn card (:func:`verify_keep`), then the Redraws :func:`verify_redraw`
    accepts: one per Hand card, or one naming none when the Hand is empty."""
    out = [_KEEP[c] for c in s.drawn]
    if _redraw_refusal(s) is None:
        hand = s.hand[s.phasing]
        if hand:
            out += [_REDRAW[c] for c in hand]
        else:
            out.append(_REDRAW_ALONE)
    return out


def _keep_or_redraw(s: State, a: Action) -> None:
    p = s.phasing
    if a.verb == "keep":
        cid = p * 52 + a.card
        s.drawn.remove(cid)
        s.hand[p].append(cid)
        s.recycle[p].extend(s.drawn)
        if s.log is not None:
            emit(s, "keep", p, (cid, *s.drawn), rule="305")
        s.drawn.clear()
        _after_draw(s)
        return
    recycled = list(s.drawn)
    if a.card != NONE:
        cid = p * 52 + a.card
        s.hand[p].remove(cid)
        recycled.append(cid)
    s.recycle[p].extend(recycled)
    s.drawn.clear()
    s.redrawn = True
    if s.log is not None:
        emit(s, "redraw", p, tuple(recycled), rule="309")
    _draw(s, p)


def _after_draw(s: State) -> None:
    if s.redrawn:
        _end_turn(s)
    else:
        _start_cycle(s)


def _start_cycle(s: State) -> None:
    """A new Turn Cycle: burn, then the first window with P to act (rule 400, R1)."""
    _burn(s, s.phasing)
    end_combat(s)
    s.phase, s.actor = WINDOW1, s.phasing


def _end_turn(s: State) -> None:
    _start_turn(s, 1 - s.phasing)


# -- diagnosis of illegal actions ---------------------------------------------------------------


#: The verbs open in each phase (rule 300/400), in the order the R7 refusal names them.
_EXPECTED: Final = {
    TRIM: ("trim",),
    KEEP: ("keep", "redraw"),
    WINDOW1: ("play", "expel", "pass"),
    WINDOW2: ("play", "expel", "pass"),
    ATTACK: ("attack", "done", "end"),
    BLOCK: ("block", "done"),
    ABILITY_P: ("volley", "sally", "harry", "ally", "carry", "done"),
    ABILITY_O: ("volley", "sally", "harry", "ally", "carry", "done"),
    SPLIT: ("assign",),
    BONUS: ("bonus",),
    DOMAIN_BONUS: ("bonus",),
}


def diagnose(s: State, a: Action) -> str:
    """Which rule forbids ``a`` now (called only when it is not among the legal actions):
    the phase's verbs (R7), the verb's form, then the verb's own verify, which the listing
    asks too (so an unlisted action that verifies is an engine fault)."""
    if a.verb not in _EXPECTED[s.phase]:
        return (f"R7: {rlr(s.actor)} must now {_phase_task(s)}; "
                f"'{a.verb}' is not possible ({', '.join(_EXPECTED[s.phase])})")
    why = _form_refusal(a) or verify(s, a)
    assert why is not None, f"{a} verifies but is not listed"
    return why


def verify(s: State, a: Action) -> str | None:
    """The verify of ``a``'s verb, for the Rlr to decide, in a phase that has the verb;
    None when the verb's rules allow it (a play or an expel paid automatically).
    ``pass`` (403.1) and ``done`` in the block and ability steps (407.3, 408) are always
    open in their phases."""
    p, verb, card = s.actor, a.verb, a.card
    cid = p * 52 + card
    if verb in PAYING_VERBS:
        return verify_play(s, p, a.base)
    if verb == "trim":
        return verify_trim(s, cid)
    if verb == "keep":
        return verify_keep(s, cid)
    if verb == "redraw":
        return verify_redraw(s, NONE if card == NONE else cid)
    if verb == "attack":
        return verify_attack(s, cid)
    if s.phase is ATTACK:  # done or end
        return verify_close_attack(s, verb)
    if verb == "block":
        return verify_block(s, cid, a.target)
    if verb == "assign":
        return verify_assign(s, a.target)
    if verb == "bonus":
        return verify_bonus(s, a.target)
    if verb in ABILITY_OF_VERB:
        return verify_ability(s, p, a)
    return None


def _phase_task(s: State) -> str:
    return {
        TRIM: "recycle cards down to 7 in Hand",
        KEEP: "keep a drawn card or Redraw",
        WINDOW1: "play a card or pass",
        WINDOW2: "play a card or pass",
        ATTACK: "declare attackers, or end the turn",
        BLOCK: "declare blockers",
        ABILITY_P: "use abilities or be done",
        ABILITY_O: "use abilities or be done",
        SPLIT: "assign an attacker's damage among its blockers",
        BONUS: "distribute the bonus points",
        DOMAIN_BONUS: "distribute the Domain's bonus points",
    }.get(s.phase, "wait")


#: The form of a built action that its verb does not take (the parser refuses such text;
#: docs/notation.md): each verb's words, as parlor.rules.actions parses them.
_SAID_ALONE: Final = "R7: '{verb}' is said alone, with no card or target"
_ONE_CARD: Final = "R7: '{verb}' names one card of yours and no target"
_CARD_AND_TARGET: Final = "R7: '{verb}' names one card of yours and the attacker it blocks"
_TARGET_ONLY: Final = "R7: '{verb}' names one Cre on the table and no card of yours"
_HAND_CARD: Final = "R7: '{verb}' names one card of your Hand"
_REDRAW_FORM: Final = "R7: 'redraw' names one card of your Hand, or none, and no target"


def _form_refusal(a: Action) -> str | None:
    """Whether ``a`` has its verb's form: which of a card and a target it names. An ability's
    form is its verify's business (it names the ability that needs the card or target)."""
    verb, has_card, has_target = a.verb, a.card != NONE, a.target != NONE
    if verb in BARE_VERBS:
        return _SAID_ALONE.format(verb=verb) if has_card or has_target else None
    if verb == "redraw":
        return _REDRAW_FORM if has_target else None
    if verb in PAYING_VERBS:
        return None if has_card else _HAND_CARD.format(verb=verb)
    if verb in ("trim", "keep", "attack"):
        return None if has_card and not has_target else _ONE_CARD.format(verb=verb)
    if verb == "block":
        ok = has_card and 0 <= a.target < 104
        return None if ok else _CARD_AND_TARGET.format(verb=verb)
    if verb in REF_VERBS:
        return None if has_target and not has_card else _TARGET_ONLY.format(verb=verb)
    return None


__all__ = [
    "apply",
    "check",
    "diagnose",
    "legal_actions",
    "new_game",
    "returns",
    "step",
    "verify",
    "verify_keep",
    "verify_redraw",
    "verify_trim",
]
