"""Attacks, blocks, the five abilities and combat resolution (rules 406-409, 700, 1000).

Resolution follows R13: (1) blocked combat damage with the group bonus, (2) unblocked
attackers against O's Domain, (3) unblocked Pwr to O, (4) the win check. Choices inside it
(splitting an attacker's Pwr among its blockers, distributing bonus points) are atomic
decisions, one point at a time, and only when there is a real choice (R11, R14).
"""

from __future__ import annotations

from typing import Final

from parlor.rules.actions import DONE, END, Action, action_of, target_row
from parlor.rules.cards import ABILITIES, IS_RED, Ability
from parlor.rules.events import Event, card_text, ref_text
from parlor.rules.ranking import (
    TRUMP,
    Comparison,
    Counts,
    bonus,
    compare_counts,
    count_in,
    raised,
    rank_counts,
)
from parlor.rules.state import (
    BONUS,
    C_KIND,
    C_RANK,
    C_SUIT,
    COMBAT_STATUS,
    DOMAIN,
    DOMAIN_BONUS,
    FACE,
    LND,
    MAX_ATTACKERS,
    MAX_BLOCKERS,
    NONE,
    OVER,
    OWNER,
    SPLIT,
    STACK,
    Combat,
    Phase,
    State,
    end_combat,
)
from parlor.rules.table import (
    BASE_COUNTS,
    bump,
    counts,
    damage_rlr,
    deal_damage,
    domain_counts,
    emit,
    end_game,
    entity_text,
    group_counts,
    group_text,
    kept_counts,
    lnd_yield,
    mark,
    pwr,
    tax,
    tgh,
    untaxed_lnds,
)

CARRY_BOOST: Final = 4
#: Each face's abilities in a fixed order. Iterating the frozensets of ABILITIES follows string
#: hashing, which changes from process to process, and the order of legal actions must not
#: (seeded games must replay). Carry before Ally keeps the golden game logs as recorded.
_ORDER: Final = (Ability.VOLLEY, Ability.SALLY, Ability.HARRY, Ability.CARRY, Ability.ALLY)
ABILITY_ORDER: Final[tuple[tuple[Ability, ...], ...]] = tuple(
    tuple(a for a in _ORDER if a in ABILITIES[f]) for f in range(52))
# The five abilities (rule 700) by name, as the rules below write them. Module constants
# rather than ``Ability.VOLLEY``: the ability listing compares each of a Cre's abilities with
# them, and an enum member's lookup is slow on Python 3.11.
VOLLEY: Final = Ability.VOLLEY
SALLY: Final = Ability.SALLY
HARRY: Final = Ability.HARRY
ALLY: Final = Ability.ALLY
CARRY: Final = Ability.CARRY


# The shared actions of the combat listings (actions.action_of), in tables by card id: a
# listing builds several per step late in a game, and action_of builds a key tuple and
# looks it up in a dict for each.
_ATTACK: Final = tuple(action_of("attack", FACE[c]) for c in range(104))
_SALLY: Final = tuple(action_of("sally", FACE[c]) for c in range(104))
_HARRY: Final = tuple(action_of("harry", FACE[c]) for c in range(104))
_ASSIGN: Final = tuple(action_of("assign", NONE, c) for c in range(104))
_BONUS: Final = tuple(action_of("bonus", NONE, c) for c in range(104))
#: ``verb FACE REF`` actions by target card id, one row per face, filled on first use.
_BLOCK: Final[list[list[Action] | None]] = [None] * 52
_VOLLEY: Final[list[list[Action] | None]] = [None] * 52
_ALLY: Final[list[list[Action] | None]] = [None] * 52
_CARRY: Final[list[list[Action] | None]] = [None] * 52


def _targets(rows: list[list[Action] | None], verb: str, face: int) -> list[Action]:
    """:func:`~parlor.rules.actions.target_row` of ``verb`` and ``face`` (indexed by target
    card id), kept in ``rows`` by face: no dict key to build per listed action."""
    row = rows[face]
    if row is None:
        row = rows[face] = target_row(verb, face)
    return row


# -- declaring attackers and blockers (R8-R10) -----------------------------------------------


# One verify per verb, as for the abilities below: the listing asks it of every candidate,
# apply's refusal and "why not" render its answer (a template naming the section that forbids
# the declaration).
_ATTACKER_NOT_YOURS: Final = "406.1: {cre} is not a Cre on your Field"
_ATTACKER_INACTIVE: Final = ("703: {cre} is inactive (it arrived this turn) and cannot attack "
                             "until your next turn")
_ATTACKER_TAXED: Final = ("704: {cre} is taxed and cannot attack; it untaxes when the next turn "
                          "of the Rlr who taxed it starts (302)")
_ATTACKER_AGAIN: Final = "406.1: {cre} is already attacking"
_ATTACKERS_FULL: Final = "406.1: at most 6 Cres attack at once"
_BLOCKER_NOT_YOURS: Final = "407.1: {cre} is not a Cre on your Field"
_BLOCKER_TAXED: Final = ("704: {cre} is taxed and cannot block (a Cre that attacked on your turn "
                         "stays taxed until your next turn starts, 302.1)")
_BLOCKER_AGAIN: Final = "407.2: {cre} already blocks"
_BLOCKED_NOT_ATTACKER: Final = "407.2: {target} does not attack: block one of the attacking Cres"
_BLOCKERS_FULL: Final = "407.2: {target} has 3 blockers, the most an attacker can have"


def _attacker_refusal(s: State, c: int) -> str | None:
    """406.1: an attacker is an untaxed (704), active (703) Cre of P's Field, declared once,
    at most 6 in all (``c`` is on P's Field)."""
    cb = s.combat
    assert cb is not None
    if s.inactive[c]:
        return _ATTACKER_INACTIVE
    if s.taxed[c] != NONE:
        return _ATTACKER_TAXED
    if c in cb.attackers:
        return _ATTACKER_AGAIN
    if len(cb.attackers) >= MAX_ATTACKERS:
        return _ATTACKERS_FULL
    return None


def verify_attack(s: State, c: int) -> str | None:
    """Why P may not declare the Cre ``c`` (a card id) an attacker now; None when P may."""
    why = _ATTACKER_NOT_YOURS if c not in s.field[s.phasing] else _attacker_refusal(s, c)
    return None if why is None else why.format(cre=card_text(c))


_DONE_NO_ATTACKER: Final = "406.2: declare at least one attacker, or end the turn"
_END_DECLARED: Final = "406.3: attackers are declared: say done"


def verify_close_attack(s: State, verb: str) -> str | None:
    """Why P may not close the attack step with ``verb`` now (406.3); None when P may:
    ``done`` once an attacker is declared, ``end`` (declining the attack, 406.2) before."""
    cb = s.combat
    assert cb is not None
    if verb == "done":
        return None if cb.attackers else _DONE_NO_ATTACKER
    return _END_DECLARED if cb.attackers else None


def attack_actions(s: State) -> list[Action]:
    """Each Cre :func:`verify_attack` accepts, then done or end (:func:`verify_close_attack`)."""
    cb = s.combat
    assert cb is not None
    out: list[Action] = []
    if len(cb.attackers) < MAX_ATTACKERS:  # none could pass the verify
        for c in s.field[s.phasing]:
            if _attacker_refusal(s, c) is None:
                out.append(_ATTACK[c])
    out.append(DONE if verify_close_attack(s, "end") is not None else END)
    return out


def _blocker_refusal(s: State, b: int) -> str | None:
    """407: a blocker is an untaxed Cre of O's Field (inactive ones too, 407.1) that blocks
    no other attacker (407.2) (``b`` is on O's Field)."""
    cb = s.combat
    assert cb is not None
    if s.taxed[b] != NONE:
        return _BLOCKER_TAXED
    if b in cb.blocking:
        return _BLOCKER_AGAIN
    return None


def _blocked_refusal(s: State, a: int) -> str | None:
    """407.2: what is blocked is an attacker, which has at most 3 blockers."""
    cb = s.combat
    assert cb is not None
    if a not in cb.attackers:
        return _BLOCKED_NOT_ATTACKER
    on = cb.blockers.get(a)  # typed, where a default () would make len() generic
    if on is not None and len(on) >= MAX_BLOCKERS:
        return _BLOCKERS_FULL
    return None


def verify_block(s: State, b: int, a: int) -> str | None:
    """Why O may not block the attacker ``a`` with the Cre ``b`` (card ids) now; None when O
    may: the blocker's verify, then the attacker's."""
    if b not in s.field[s.opponent]:
        why: str | None = _BLOCKER_NOT_YOURS
    else:
        why = _blocker_refusal(s, b) or _blocked_refusal(s, a)
    if why is None:
        return None
    return why.format(cre=card_text(b), target=ref_text(a) if 0 <= a < 104 else "that")


def block_actions(s: State) -> list[Action]:
    """Each pair of a blocker and an attacker that their verifies accept, blocker by blocker,
    plus done (407)."""
    cb = s.combat
    assert cb is not None
    out: list[Action] = []
    open_attackers = [a for a in cb.attackers if _blocked_refusal(s, a) is None]
    for b in s.field[s.opponent]:
        if _blocker_refusal(s, b) is None:
            row = _targets(_BLOCK, "block", FACE[b])
            for a in open_attackers:
                out.append(row[a])
    out.append(DONE)
    return out


def declare_attacker(s: State, cid: int) -> None:
    assert s.combat is not None
    s.combat.attackers.append(cid)
    if s.log is not None:
        emit(s, "attack", s.phasing, (cid,), rule="406")


def declare_blocker(s: State, b: int, a: int) -> None:
    cb = s.combat
    assert cb is not None
    cb.blocking[b] = a
    cb.blockers.setdefault(a, []).append(b)
    cb.blocked.add(a)
    if s.log is not None:
        emit(s, "block", OWNER[b], (a, b), rule="407")


# -- abilities (R27, R28) ---------------------------------------------------------------------


def fight(cb: Combat, cid: int) -> int:
    """The attacker whose fight ``cid`` is in (itself if attacking), or NONE."""
    if cid in cb.blocking:
        return cb.blocking[cid]
    return cid if cid in cb.attackers else NONE


def side_counts(s: State, cid: int) -> Counts:
    """``cid``'s side in an ability check, user or target alike (706.1, R27): a blocker's
    side is the group of all blockers on its attacker; an attacker, or a card outside the
    combat, is its own side."""
    return side_with(s, cid, counts(s, cid))


def side_with(s: State, cid: int, mine: Counts) -> Counts:
    """:func:`side_counts` with ``mine`` standing for ``cid``'s own counts (a Queen's Carry
    booster, 706.3): the side as it would count with that Cre boosted. (Two functions
    rather than an optional argument, for speed.)"""
    cb = s.combat
    assert cb is not None
    if not cb.blocking:
        return mine
    a = cb.blocking.get(cid, NONE)
    if a == NONE:
        return mine
    rest = group_counts(s, [b for b in cb.blockers[a] if b != cid])
    return (max(rest[0], mine[0]), max(rest[1], mine[1]), max(rest[2], mine[2]),
            max(rest[3], mine[3]))


def carry_counts(s: State, queen: int) -> Counts:
    """A Queen's counts for Carry: her own-suit Enhs count +4 (R27). Her kept counts with her
    own suit raised: an Enh of her suit (2-6) is above her own spot (1) there, so her count
    in it is 1 without one and the highest such Enh with them."""
    c = counts(s, queen)
    suit = C_SUIT[queen]
    own = count_in(c, suit)
    return raised(c, suit, own + CARRY_BOOST) if own > 1 else c


#: Each face's abilities as bits, in the order of :data:`ABILITY_ORDER`, so that a listing
#: passes over a Cre with none (Aces; most Cres of a Field) at one look.
_VOLLEY_BIT: Final = 1
_SALLY_BIT: Final = 2
_HARRY_BIT: Final = 4
_ALLY_BIT: Final = 8
_CARRY_BIT: Final = 16
_BIT_OF: Final = {VOLLEY: _VOLLEY_BIT, SALLY: _SALLY_BIT, HARRY: _HARRY_BIT, ALLY: _ALLY_BIT,
                  CARRY: _CARRY_BIT}
ABILITY_BITS: Final[tuple[int, ...]] = tuple(
    sum(_BIT_OF[a] for a in ABILITY_ORDER[f]) for f in range(52))
#: The ability of each verb, and the section of docs/rules.md that states it.
ABILITY_OF_VERB: Final = {a.value.lower(): a for a in _ORDER}
SECTION: Final = {VOLLEY: "707", SALLY: "708", HARRY: "709", ALLY: "710", CARRY: "711"}

# The Cres whose abilities carry a rule of their own, by card id of either owner.
#: 707: the javelin-bearing JC may not Volley an unblocked attacker.
VOLLEYS_ONLY_BLOCKED: Final[tuple[bool, ...]] = tuple(
    C_RANK[c] == 11 and C_SUIT[c] == 0 for c in range(104))
#: 708: the awkward KH pays 1 Tgh for its Sally.
SALLY_COSTS_TGH: Final[tuple[bool, ...]] = tuple(
    C_RANK[c] == 13 and C_SUIT[c] == 2 for c in range(104))
#: 709: the feather-bearing JH taxes itself to Harry (so it Harries only untaxed).
HARRY_TAXES: Final[tuple[bool, ...]] = tuple(
    C_RANK[c] == 11 and C_SUIT[c] == 2 for c in range(104))
#: 705.2: the abilities that tax their user, whoever uses them (Harry taxes only JH).
_TAXING_BITS: Final = _VOLLEY_BIT | _ALLY_BIT | _CARRY_BIT
#: What each ability does (707-709): Volley's damage, Sally's Pwr, Harry's Tgh, KH's Tgh cost.
VOLLEY_DAMAGE: Final = 1
SALLY_PWR: Final = 1
HARRY_TGH: Final = 1
SALLY_TGH_COST: Final = 1


# -- the ability rules: one verify per ability (705-711, R27, R28) ----------------------------
# Each verify answers None when the use is legal, else the refusal: a template that names the
# section forbidding it, filled in by :func:`verify_ability` only when a sentence is wanted
# (the listing asks the same verifies and builds no text). A verify of a target takes the
# user's side ``mine`` (706.1), which a listing works out once for all the targets.

_NOT_YOURS: Final = "705.2: {user} is not a Cre on your Field"
_NO_SUCH: Final = "{section}: {user} has no {ability}"
_INACTIVE: Final = "703: {user} is inactive (summoned this turn) and uses no ability"
_TERMINAL: Final = "1007.3: {user} is terminal and uses no ability"
_USED: Final = "705.3: {user} has used an ability this combat"
_TAXED: Final = "705.2: {user} is taxed, and its {ability} would tax it"
_NO_TARGET: Final = "{section}: a {ability} names its target"
_NO_TARGET_NEEDED: Final = "{section}: a {ability} names no target"
_BEATEN: Final = ("706: the side of {target} outranks or outtrumps {user}'s side: the {ability} "
                  "fails the ability check")
_TARGET_TAXED: Final = "{section}: {target} is already taxed"
_VOLLEY_NOT_FIGHTING: Final = ("707: a Volley hits an opposing Cre that attacks or blocks; "
                               "{target} does neither")
_VOLLEY_UNBLOCKED: Final = "707: JC may not Volley an unblocked attacker ({target})"
_SALLY_NOT_ATTACKING: Final = "708: only an attacker Sallies; {user} does not attack"
_SALLY_UNBLOCKED: Final = "708: no Cre blocks {user}, and a Sally needs a blocker of its colour"
_SALLY_NO_COLOUR: Final = "708: no Cre of {user}'s colour blocks it"
_SALLY_BEATEN: Final = ("706.2: the blockers on {user} outrank or outtrump it: the Sally fails "
                        "the ability check")
_HARRY_NOT_BLOCKING: Final = "709: only a blocker Harries; {user} blocks no attacker"
_HARRY_SAME_COLOUR: Final = ("709: {user} blocks an attacker of its own colour; a Harry needs "
                             "the opposite colour")
_HARRY_BEATEN: Final = ("706.2: the attacker {user} blocks outranks or outtrumps it: the Harry "
                        "fails the ability check")
_ALLY_NOT_CRE: Final = "710: an Ally taxes a Cre on the other Rlr's Field; {target} is not one"
_ALLY_SUIT: Final = "710: {target} is not of {user}'s suit"
_CARRY_NOT_LND: Final = "711: a Carry taxes a Lnd in the other Rlr's Home; {target} is not one"
_CARRY_COLOUR: Final = "711: {target} is not of {user}'s colour"


def _user_refusal(s: State, u: int, bit: int) -> str | None:
    """705: whether ``u``, a Cre on its controller's Field, may use the ability ``bit`` at all
    now, whatever its target: it has it, it is active (703) and not terminal (1007.3), it has
    used no ability this combat (705.3), and it is untaxed if the ability taxes it (705.2)."""
    if not ABILITY_BITS[FACE[u]] & bit:
        return _NO_SUCH
    if s.inactive[u]:
        return _INACTIVE
    if s.terminal[u]:
        return _TERMINAL
    cb = s.combat
    assert cb is not None
    if len(cb.used) > 0 and u in cb.used:  # one ability per Cre per combat (R28)
        return _USED
    if s.taxed[u] != NONE and (bit & _TAXING_BITS or (bit == _HARRY_BIT and HARRY_TAXES[u])):
        return _TAXED
    return None


def _volley_refusal(s: State, u: int, t: int, mine: Counts) -> str | None:
    """707: a Volley hits an opposing attacker or blocker (for JC a blocked one) whose side
    does not beat the user's (706)."""
    cb = s.combat
    assert cb is not None
    if OWNER[t] == OWNER[u] or (t not in cb.attackers and t not in cb.blocking):
        return _VOLLEY_NOT_FIGHTING
    if VOLLEYS_ONLY_BLOCKED[u] and t not in cb.blocked and t in cb.attackers:
        return _VOLLEY_UNBLOCKED
    if side_beats(side_counts(s, t), mine, s.trump):
        return _BEATEN
    return None


def _sally_refusal(s: State, u: int) -> str | None:
    """708: a Sally is an attacker's, blocked by a Cre of its colour, and its blockers' side
    (706.2) does not beat it."""
    cb = s.combat
    assert cb is not None
    blockers = cb.blockers.get(u)  # looked up first: most Cres have none
    if not blockers:
        return _SALLY_UNBLOCKED if u in cb.attackers else _SALLY_NOT_ATTACKING
    red = IS_RED[FACE[u]]
    if not any(IS_RED[FACE[b]] == red for b in blockers):
        return _SALLY_NO_COLOUR
    if side_beats(side_counts(s, blockers[0]), side_counts(s, u), s.trump):
        return _SALLY_BEATEN
    return None


def _harry_refusal(s: State, u: int) -> str | None:
    """709: a Harry is a blocker's, on an attacker of the opposite colour whose side (706.2)
    does not beat it."""
    cb = s.combat
    assert cb is not None
    a = cb.blocking.get(u, NONE)
    if a == NONE:
        return _HARRY_NOT_BLOCKING
    if IS_RED[FACE[a]] == IS_RED[FACE[u]]:
        return _HARRY_SAME_COLOUR
    if side_beats(side_counts(s, a), side_counts(s, u), s.trump):
        return _HARRY_BEATEN
    return None


def _ally_refusal(s: State, u: int, t: int, mine: Counts) -> str | None:
    """710: an Ally taxes an untaxed opposing Cre of the user's base suit whose side does not
    beat the user's (706)."""
    if t not in s.field[1 - OWNER[u]]:
        return _ALLY_NOT_CRE
    if C_SUIT[t] != C_SUIT[u]:
        return _ALLY_SUIT
    if s.taxed[t] != NONE:
        return _TARGET_TAXED
    if side_beats(side_counts(s, t), mine, s.trump):
        return _BEATEN
    return None


def _carry_refusal(s: State, u: int, lnd: int, mine: Counts) -> str | None:
    """711: a Carry taxes an untaxed Lnd of the Queen's colour in the other Rlr's Home that
    does not beat her side, formed with her Carry counts (706.3). A Lnd is never in a combat:
    its side is its own counts (706.1), kept per entity as Enhs come and go."""
    if lnd not in s.home[1 - OWNER[u]]:
        return _CARRY_NOT_LND
    if IS_RED[FACE[lnd]] != IS_RED[FACE[u]]:
        return _CARRY_COLOUR
    if s.taxed[lnd] != NONE:
        return _TARGET_TAXED
    ct = kept_counts(s)[lnd]
    if ct is None:  # a bare Lnd: which bare Lnds beat this side is kept in a table
        beaten = (_bare_lnds_beating(mine, s.trump) >> FACE[lnd]) & 1 == 1
    else:
        beaten = side_beats(ct, mine, s.trump)
    return _BEATEN if beaten else None


def verify_ability(s: State, p: int, a: Action) -> str | None:
    """Why ``p`` may not use the ability action ``a`` now, naming the ability and the section
    that forbids it; None when the use is legal. The listing (:func:`ability_actions`) asks
    the same verifies, so an action is listed exactly when this answers None."""
    ability = ABILITY_OF_VERB[a.verb]
    if a.card == NONE:
        return f"{SECTION[ability]}: a {ability.value} names the Cre that uses it"
    u = p * 52 + a.card
    t = a.target
    if u not in s.field[p]:
        why: str | None = _NOT_YOURS
    else:
        why = _user_refusal(s, u, _BIT_OF[ability])
        if why is None:
            why = _target_refusal(s, u, ability, t)
    if why is None:
        return None
    target = ref_text(t) if 0 <= t < 104 else ""
    return why.format(user=card_text(u), ability=ability.value, section=SECTION[ability],
                      target=target)


def _target_refusal(s: State, u: int, ability: Ability, t: int) -> str | None:
    """The part of an ability's verify that depends on its target (or on its fight, for the
    two abilities that have none)."""
    if ability is SALLY or ability is HARRY:
        if t != NONE:
            return _NO_TARGET_NEEDED
        return _sally_refusal(s, u) if ability is SALLY else _harry_refusal(s, u)
    if not 0 <= t < 104:
        return _NO_TARGET
    if ability is VOLLEY:
        return _volley_refusal(s, u, t, side_counts(s, u))
    if ability is ALLY:
        return _ally_refusal(s, u, t, side_counts(s, u))
    # a blocking Queen's side is her group (706.1), with her Carry counts (706.3)
    return _carry_refusal(s, u, t, side_with(s, u, carry_counts(s, u)))


def why_no_ability(s: State, p: int, u: int) -> list[str]:
    """Why each ability of ``p``'s Cre ``u`` is not open now, one sentence per refusal (for a
    Cre with no ability action listed: "why not", parlor.present.whynot)."""
    face = FACE[u]
    if not ABILITY_BITS[face]:
        return [f"{card_text(u)} has no ability (707-711)"]
    out: list[str] = []
    for ability in ABILITY_ORDER[face]:
        verb = ability.value.lower()
        if ability is SALLY or ability is HARRY:
            targets = [NONE]
        else:
            targets = _possible_targets(s, 1 - p, ability)
            if not targets:
                out.append(f"{SECTION[ability]}: no card could be the target of "
                           f"{card_text(u)}'s {ability.value}")
                continue
        for t in targets:
            why = verify_ability(s, p, action_of(verb, face, t))
            if why is not None and why not in out:
                out.append(why)
    return out


def _possible_targets(s: State, q: int, ability: Ability) -> list[int]:
    """The cards of ``q`` that an ability could name at all: the fighting Cres for Volley,
    the Field for Ally, the Home for Carry."""
    if ability is VOLLEY:
        cb = s.combat
        assert cb is not None
        return [c for c in cb.attackers if OWNER[c] == q] + [
            c for c in cb.blocking if OWNER[c] == q]
    return list(s.field[q] if ability is ALLY else s.home[q])


def ability_actions(s: State, p: int) -> list[Action]:
    """Every ability ``p`` may activate in its ability step, plus done (R28): each Cre's
    abilities in :data:`ABILITY_ORDER`, each with the targets its verify accepts."""
    out: list[Action] = []
    q = 1 - p
    for u in s.field[p]:
        bits = ABILITY_BITS[FACE[u]]
        if not bits:
            continue
        if bits & _VOLLEY_BIT and _user_refusal(s, u, _VOLLEY_BIT) is None:
            _list_volley(s, u, q, out)
        if bits & _SALLY_BIT and _user_refusal(s, u, _SALLY_BIT) is None and (
                _sally_refusal(s, u) is None):
            out.append(_SALLY[u])
        if bits & _HARRY_BIT and _user_refusal(s, u, _HARRY_BIT) is None and (
                _harry_refusal(s, u) is None):
            out.append(_HARRY[u])
        if bits & _CARRY_BIT and _user_refusal(s, u, _CARRY_BIT) is None and (
                _carry_candidates(s, q, IS_RED[FACE[u]])):
            _list_carry(s, u, q, out)
        if bits & _ALLY_BIT and _user_refusal(s, u, _ALLY_BIT) is None:
            _list_ally(s, u, q, out)
    out.append(DONE)
    return out


def _list_volley(s: State, u: int, q: int, out: list[Action]) -> None:
    """``u``'s Volleys: at ``q``'s attackers, then at ``q``'s blockers."""
    cb = s.combat
    assert cb is not None
    mine = side_counts(s, u)
    row = _targets(_VOLLEY, "volley", FACE[u])
    for t in cb.attackers:
        if OWNER[t] == q and _volley_refusal(s, u, t, mine) is None:
            out.append(row[t])
    for t in cb.blocking:
        if OWNER[t] == q and _volley_refusal(s, u, t, mine) is None:
            out.append(row[t])


def _list_carry(s: State, u: int, q: int, out: list[Action]) -> None:
    """The Queen ``u``'s Carries, at the Lnds of ``q``'s Home in order."""
    mine = side_with(s, u, carry_counts(s, u))
    row = _targets(_CARRY, "carry", FACE[u])
    for lnd in s.home[q]:
        if _carry_refusal(s, u, lnd, mine) is None:
            out.append(row[lnd])


def _list_ally(s: State, u: int, q: int, out: list[Action]) -> None:
    """``u``'s Allies, at the Cres of ``q``'s Field in order."""
    mine = side_counts(s, u)
    row = _targets(_ALLY, "ally", FACE[u])
    for t in s.field[q]:
        if _ally_refusal(s, u, t, mine) is None:
            out.append(row[t])


def _carry_candidates(s: State, q: int, red: bool) -> bool:
    """Whether ``q``'s Home holds an untaxed Lnd of the colour ``red``: what a Queen of that
    colour could Carry at all (711), read from the kept figures of untaxed Lnds by the suit
    they yield. A Lnd that yields the trump suit is counted there, not under its own, so
    only the figures of the colour's suits and no trump say there is none."""
    t = untaxed_lnds(s)
    b = q * 4
    trump = s.trump
    if t[b] + t[b + 1] + t[b + 2] + t[b + 3] == 0:
        return False
    if trump is not None and t[b + trump] > 0:
        return True  # a Lnd of either colour may yield the trump suit
    # suits 0-3 are Clubs, Diamonds, Hearts, Spades: red are 1 and 2
    return t[b + 1] + t[b + 2] > 0 if red else t[b] + t[b + 3] > 0


#: Which Lnd faces, bare (no Enh on them), beat a side (R26), as a bit mask over faces, by
#: the side's counts and the trump suit in one dense table (-1: not worked out yet), for the
#: Carry listing (711): a Queen's side has at most 10 in a suit (an Enh of 6 and her
#: booster), so the counts index it in base 11.
_LNDS_BEATING: Final[list[int]] = [-1] * (11 * 11 * 11 * 11 * 5)
_LND_FACES: Final = tuple(f for f in range(52) if C_KIND[f] is LND)


def _bare_lnds_beating(side: Counts, trump: int | None) -> int:
    """The bit mask of :data:`_LNDS_BEATING` for ``side`` (worked out once, then read)."""
    c0, c1, c2, c3 = side
    key = -1
    if c0 <= 10 and c1 <= 10 and c2 <= 10 and c3 <= 10:
        key = (((c0 * 11 + c1) * 11 + c2) * 11 + c3) * 5 + (4 if trump is None else trump)
        mask = _LNDS_BEATING[key]
        if mask >= 0:
            return mask
    mask = 0
    for f in _LND_FACES:
        if side_beats(BASE_COUNTS[f], side, trump):
            mask |= 1 << f
    if key >= 0:
        _LNDS_BEATING[key] = mask
    return mask


def side_beats(a: Counts, b: Counts, trump: int | None) -> bool:
    """Side ``a`` outranks or outtrumps side ``b`` (903, R26): the ability check of 706."""
    return rank_counts(a, b, trump)[0] == 0


def use_ability(s: State, p: int, a: Action) -> None:
    cb = s.combat
    assert cb is not None
    u = p * 52 + a.card
    cb.used.add(u)
    t = a.target
    log = s.log is not None  # playouts switch the log off
    if a.verb == "volley":
        tax(s, u)
        if log:
            emit(s, "ability", p, (u, t), rule="707", detail="volley")
        deal_damage(s, t, VOLLEY_DAMAGE, "Volley", u)
    elif a.verb == "sally":
        s.own(COMBAT_STATUS)
        s.pwr_mod[u] = s.pwr_mod[u] + SALLY_PWR
        mark(s, u)
        lost = 0
        if SALLY_COSTS_TGH[u]:  # the awkward KH pays Tgh for it
            s.tgh_mod[u] = s.tgh_mod[u] - SALLY_TGH_COST
            lost = SALLY_TGH_COST
            if s.damage[u] >= tgh(s, u):
                s.terminal[u] = 1
        if log:
            emit(s, "ability", p, (u,), (lost,), rule="708", detail="sally")
    elif a.verb == "harry":
        s.own(COMBAT_STATUS)
        s.tgh_mod[u] = s.tgh_mod[u] + HARRY_TGH
        mark(s, u)
        if HARRY_TAXES[u]:
            tax(s, u)
        if log:
            emit(s, "ability", p, (u,), rule="709", detail="harry")
    elif a.verb == "ally":
        tax(s, u)
        tax(s, t)
        if log:
            emit(s, "ability", p, (u, t), rule="710", detail="ally")
    else:  # carry
        tax(s, u)
        suit = lnd_yield(s, t)
        tax(s, t)
        bump(s.pool[p], suit, 1)
        if log:
            emit(s, "ability", p, (u, t), (suit,), rule="711", detail="carry")


# -- resolution (R11-R16) ---------------------------------------------------------------------


def start_resolution(s: State) -> bool:
    """Begin resolving; True when the combat is over (False: a decision is pending)."""
    cb = s.combat
    assert cb is not None
    for b, a in cb.blocking.items():
        if a != NONE:
            cb.pending[a] = cb.pending.get(a, 0) + pwr(s, b)
    for a in cb.attackers:
        blockers = cb.blockers.get(a)
        if not blockers:
            continue
        dealt = pwr(s, a)
        if not dealt:
            continue
        if len(blockers) == 1:
            cb.pending[blockers[0]] = cb.pending.get(blockers[0], 0) + dealt
        else:
            cb.split_queue.append(a)
    return _next_split(s)


def _next_split(s: State) -> bool:
    cb = s.combat
    assert cb is not None
    if cb.split_queue:
        cb.split_left = pwr(s, cb.split_queue[0])
        s.phase, s.actor = SPLIT, s.phasing
        return False
    return _group_bonus(s)


# -- the resolution's decisions: one verify per verb (1003.2, 1003.3, 1004.1) -----------------
# As for the declarations: None when the point may go there, else the refusal naming the
# section; the listing is exactly the targets the verify accepts (its candidates).
_ASSIGN_NOT_BLOCKER: Final = ("1003.2: {target} does not block {attacker}: its Pwr is split "
                              "among its blockers ({names})")
_BONUS_NOT_LOSER: Final = ("1003.3: {target} is not an opposing Cre in the comparison: the bonus "
                           "goes to {names}")
_DOMAIN_BONUS_NOT_UNBLOCKED: Final = ("1004.1: {target} is not an unblocked attacker: the "
                                      "Domain's bonus goes to {names}")


def _target_text(t: int) -> str:
    """A target as the refusals name it: ``2:KS``, ``D1``, ``T``, or "that" for a number
    that names nothing on the table (a built action's)."""
    return ref_text(t) if 0 <= t < 104 or t in DOMAIN or t == STACK else "that"


def _names(cids: list[int]) -> str:
    return ", ".join(ref_text(c) for c in cids)


def verify_assign(s: State, t: int) -> str | None:
    """Why P may not assign the next point of the split attacker's Pwr to ``t`` (a card id)
    now (1003.2); None when P may: a blocker of the first attacker in the split queue."""
    cb = s.combat
    assert cb is not None
    a = cb.split_queue[0]
    blockers = cb.blockers[a]
    if t in blockers:
        return None
    return _ASSIGN_NOT_BLOCKER.format(target=_target_text(t), attacker=ref_text(a),
                                      names=_names(blockers))


def verify_bonus(s: State, t: int) -> str | None:
    """Why the deciding Rlr may not give the next bonus point to ``t`` (a card id) now; None
    when it may: an opposing Cre of the group comparison (1003.3), or in the Domain's bonus
    an unblocked attacker (1004.1). The combat keeps them as ``bonus_to``."""
    cb = s.combat
    assert cb is not None
    if t in cb.bonus_to:
        return None
    why = _BONUS_NOT_LOSER if s.phase is BONUS else _DOMAIN_BONUS_NOT_UNBLOCKED
    return why.format(target=_target_text(t), names=_names(cb.bonus_to))


def split_actions(s: State) -> list[Action]:
    """An assign to each blocker of the attacker being split (:func:`verify_assign`)."""
    cb = s.combat
    assert cb is not None
    return [_ASSIGN[b] for b in cb.blockers[cb.split_queue[0]]]


def assign_point(s: State, target: int) -> bool:
    cb = s.combat
    assert cb is not None
    cb.pending[target] = cb.pending.get(target, 0) + 1
    cb.split_left -= 1
    if cb.split_left > 0:
        return False
    cb.split_queue.pop(0)
    return _next_split(s)


def _group_bonus(s: State) -> bool:
    """All attackers against all blockers; the winner's bonus is distributed (R13.1, R14)."""
    cb = s.combat
    assert cb is not None
    if cb.blocking and cb.attackers:
        # a comprehension walks the dict in place (list() of a dict makes an iterator)
        blockers = [b for b in cb.blocking]
        ca, cd = group_counts(s, cb.attackers), group_counts(s, blockers)
        winner, _how, diff, _suit = rank_counts(ca, cd, s.trump)
        if winner >= 0:
            b = bonus(diff)
            side = (s.phasing, s.opponent)[winner]
            losers = blockers if winner == 0 else cb.attackers[:]
            if s.log is not None:
                why = compare_counts(group_text(s, cb.attackers), group_text(s, blockers),
                                     ca, cd, s.trump)
                emit(s, "bonus", side, rule="1003", why=why)
            return _distribute(s, side, b, losers, BONUS)
    return _after_blocked(s)


def fight_comparisons(s: State) -> tuple[Comparison | None, Comparison | None]:
    """The two comparisons the resolution makes, as the table stands now: all attackers
    against all blockers (1003.3) and the unblocked attackers against O's Domain (1004);
    None where the combat has no such comparison (no blocker; no unblocked attacker). The
    fight's forecast reads them (:mod:`parlor.rules.forecast`), outshown or level ones too."""
    cb = s.combat
    assert cb is not None
    group = domain = None
    if cb.blocking and cb.attackers:
        blockers = list(cb.blocking)
        group = compare_counts(group_text(s, cb.attackers), group_text(s, blockers),
                               group_counts(s, cb.attackers), group_counts(s, blockers),
                               s.trump)
    unblocked = [a for a in cb.attackers if a not in cb.blocked]
    if unblocked:
        o = s.opponent
        domain = compare_counts(group_text(s, unblocked), entity_text(s, DOMAIN[o]),
                                group_counts(s, unblocked), domain_counts(s, o), s.trump)
    return group, domain


def _distribute(s: State, side: int, points: int, to: list[int], phase: Phase) -> bool:
    cb = s.combat
    assert cb is not None
    if len(to) == 1:
        cb.pending[to[0]] = cb.pending.get(to[0], 0) + points
        return _after_bonus(s, phase)
    cb.bonus_left, cb.bonus_to = points, to
    s.phase, s.actor = phase, side
    return False


def bonus_actions(s: State) -> list[Action]:
    """A bonus point to each Cre that may take one (:func:`verify_bonus`)."""
    cb = s.combat
    assert cb is not None
    return [_BONUS[c] for c in cb.bonus_to]


def bonus_point(s: State, target: int) -> bool:
    cb = s.combat
    assert cb is not None
    cb.pending[target] = cb.pending.get(target, 0) + 1
    cb.bonus_left -= 1
    if cb.bonus_left > 0:
        return False
    cb.bonus_to = []
    return _after_bonus(s, s.phase)


def _after_bonus(s: State, phase: Phase) -> bool:
    if phase is BONUS:
        return _after_blocked(s)
    _deal_pending(s, "Domain bonus")
    return _unblocked_damage(s)


def _deal_pending(s: State, why: str) -> None:
    cb = s.combat
    assert cb is not None
    for cid, amount in cb.pending.items():
        deal_damage(s, cid, amount, why)
    cb.pending.clear()


def _after_blocked(s: State) -> bool:
    """Step 2: unblocked attackers against O's Domain (R13)."""
    _deal_pending(s, "combat")
    cb = s.combat
    assert cb is not None
    o = s.opponent
    unblocked = [a for a in cb.attackers if a not in cb.blocked]
    if not unblocked:
        return _unblocked_damage(s)
    ca, cd = group_counts(s, unblocked), domain_counts(s, o)
    winner, how, diff, _suit = rank_counts(ca, cd, s.trump)
    if winner < 0:
        return _unblocked_damage(s)
    b = bonus(diff)
    if s.log is not None:
        domain = entity_text(s, DOMAIN[o])
        why = compare_counts(group_text(s, unblocked), domain, ca, cd, s.trump)
        emit(s, "bonus", (s.phasing, o)[winner], rule="1004", why=why)
    if winner == 0:
        cb.o_dealt = True
        damage_rlr(s, o, b, "attackers", "1004.2")
        return _unblocked_damage(s)
    gain = 2 if how == TRUMP else 1
    s.life[o] += gain
    if s.log is not None:
        emit(s, "life", o, amounts=(gain, s.life[o]), rule="1004.1", detail="gain")
    return _distribute(s, o, b, unblocked, DOMAIN_BONUS)


def _unblocked_damage(s: State) -> bool:
    """Steps 3 and 4: unblocked Pwr to O, then the win check (R13, R16)."""
    cb = s.combat
    assert cb is not None
    o = s.opponent
    total = sum(pwr(s, a) for a in cb.attackers if a not in cb.blocked)
    if total:
        cb.o_dealt = True
        damage_rlr(s, o, total, "unblocked", "1005")
    taxed = s.taxed
    for c in cb.attackers:  # taxing moves no card: the combat's tables are walked in place
        if taxed[c] == NONE:
            tax(s, c)
    for c in cb.blocking:
        if taxed[c] == NONE:
            tax(s, c)
    if cb.o_dealt and s.life[o] <= 0:
        s.winner = s.phasing
        s.phase = OVER
        end_game(s, Event("win", s.phasing, amounts=(s.life[o],), rule="1201", detail="attack"))
    end_combat(s)
    return True
