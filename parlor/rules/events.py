"""Events: what happened in a game, as data. The engine records each change as an
:class:`Event` (its kind, the Rlr who acted, the cards and numbers involved, the section of
docs/rules.md it applies); the game log's sentences in notation (records, golden logs, the
web table's "notation" tooltip, the agents' observation strings) are rendered from those
fields here, and the sentences people read are rendered by the same templates in another
:class:`Voice` (:mod:`parlor.present.prose`: "you", "the computer", cards by name). Nothing
reads a sentence back. An event's data has a text form of its own that round-trips
(:meth:`Event.form`, :meth:`Event.parse`).

The fields each kind fills (``p`` the actor, cards by card id, ``owner = id // 52``):

============  ===========================================================================
kind          fields
============  ===========================================================================
setup         amounts (the Rlr who goes first,); no actor: the deal is nobody's act
turn          amounts (turn number,)
untax         amounts (cards untaxed,)
eliminate     p the owner; cards (Cre,)
burn          amounts (mnr burnt, life after)
draw          cards drawn (secret: only p reads them); none: no cards left
keep          cards (kept, *recycled) (secret); detail "single": the one card drawn
trim          cards (recycled,) (secret)
redraw        cards recycled (secret)
end           p does not attack
tax           cards (Lnd,); amounts (suit of the mnr,)
pay           cards (the card paid for,); amounts (mnr of each suit, C D H S)
play          detail "lnd", "summon" or "enh"; cards (card,) or (Enh, host) with host a card
              id, a Domain (200, 201) or the Trumps stack (300); entity the host with its
              Enhs (``10C/4D``)
expel         detail "stack": cards (top of the stack, expel), amounts (trump suit or -1);
              else detail the destination, cards (expel, target), entity the target as it
              stood, amounts (how: 2 outtrumps, 1 outranks, 0 outshows; suit; the target's
              count there; for a Cre the damage)
attack        cards (attacker,)
block         cards (attacker, blocker)
ability       detail the verb (volley, sally, harry, ally, carry); cards (user, target?);
              amounts: sally (Tgh lost,), carry (suit of the mnr,)
bonus         why: the comparison (its sides in notation); p the side that deals it
life          amounts (life lost or gained, life after); detail "gain" (from the Domain),
              or the cause of a loss: "attackers", "unblocked", "expel" (cards (expel,))
damage        cards (Cre,) or (Cre, Volley's user); amounts (damage, 1 if now terminal);
              detail "combat", "Domain bonus" or "Volley"
reshuffle     amounts (cards shuffled,)
win           detail "attack" (amounts (loser's life,)) or "resign"
draw_game     amounts (the turn limit,)
============  ===========================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from mypy_extensions import mypyc_attr

from parlor.rules.cards import CARDS, RANK, SUIT, Card
from parlor.rules.ranking import Comparison
from parlor.rules.values import Value

#: The suits' names by index (C, D, H, S), as the log writes a suit of mnr or of ranking.
SUIT_NAMES: Final = ("Clubs", "Diamonds", "Hearts", "Spades")
#: The card ids of the two Domains and of the Trumps stack (as in :mod:`parlor.rules.state`).
DOMAIN_IDS: Final = (200, 201)
STACK_ID: Final = 300
#: What the log says caused a Rlr's loss of life (``life`` events' ``detail``).
LIFE_CAUSES: Final = {"attackers": "the attackers outrank the Domain",
                      "unblocked": "unblocked attackers"}


@dataclass(frozen=True, slots=True)
class Event(Value):
    """One thing that happened (the table in the module's docstring says which fields each
    kind fills). ``text`` is its public sentence in notation; ``secret``, when set, replaces
    it for ``player`` alone (a draw names the cards only to the Rlr who drew them, R30)."""

    kind: str
    #: The Rlr who acted (the owner, for an elimination; None for the deal, damage and the
    #: game's end in a draw).
    player: int | None = None
    cards: tuple[int, ...] = ()
    amounts: tuple[int, ...] = ()
    #: The section of docs/rules.md the event applies.
    rule: str = ""
    detail: str = ""
    #: An entity as it stood, in notation (``10C/4D``): an Enh's host, an expel's target.
    entity: str = ""
    #: For a ranking decision (a combat or Domain bonus, an expel, the life an expel takes from
    #: a Domain): the comparison behind it, with both sides' counts.
    why: Comparison | None = field(default=None, compare=False)
    #: The event records a decision nobody made: the only legal choice, taken by the engine
    #: (``settings.auto``), e.g. "does not attack" for a Rlr with no Cre able to attack.
    automatic: bool = False

    @property
    def text(self) -> str:
        """The public sentence, in notation."""
        return sentence(self, NOTATION)

    @property
    def secret(self) -> str | None:
        """The sentence only ``player`` reads, in notation (None when everyone reads
        ``text``)."""
        return sentence(self, NOTATION, True) if self.has_secret else None

    @property
    def has_secret(self) -> bool:
        """The event names cards only ``player`` may read (R30)."""
        return self.kind in SECRET_KINDS and len(self.cards) > 0 and self.detail != "single"

    def text_for(self, viewer: int | None) -> str:
        """The sentence as ``viewer`` may read it (None: the public sentence)."""
        secret = viewer is not None and viewer == self.player and self.has_secret
        return sentence(self, NOTATION, secret)

    def __str__(self) -> str:
        return self.text

    def form(self) -> str:
        """The event's data as text, which :meth:`parse` reads back (all but the comparison,
        which equality ignores): ``keep by 2 cards 2:KS 2:4H rule 305``.

        >>> e = Event("expel", 0, (4, 94), (0, 0, 0), "1104", "Discard (eliminated)", "4S")
        >>> e.form()
        'expel by 1 cards 1:5C 2:4S amounts 0 0 0 rule 1104 entity 4S detail Discard (eliminated)'
        >>> Event.parse(e.form()) == e
        True
        """
        out = [self.kind]
        if self.player is not None:
            out += ["by", str(self.player + 1)]
        if self.cards:
            out += ["cards", *[ref_text(c) for c in self.cards]]
        if self.amounts:
            out += ["amounts", *[str(n) for n in self.amounts]]
        if self.rule:
            out += ["rule", self.rule]
        if self.automatic:
            out.append("automatic")
        if self.entity:
            out += ["entity", self.entity]
        if self.detail:
            out += ["detail", self.detail]  # last: it may hold spaces
        return " ".join(out)

    @staticmethod
    def parse(text: str) -> Event:
        """An event from its :meth:`form`; raise ValueError for anything else."""
        words = text.split(" ")
        kind, player, rule, detail, entity = words[0], None, "", "", ""
        cards: list[int] = []
        amounts: list[int] = []
        automatic = False
        into: list[int] | None = None
        i = 1
        while i < len(words):
            w = words[i]
            if w == "detail":
                detail = " ".join(words[i + 1:])
                break
            if w in ("by", "rule", "entity") and i + 1 < len(words):
                into, value = None, words[i + 1]
                if w == "by":
                    player = int(value) - 1
                elif w == "rule":
                    rule = value
                else:
                    entity = value
                i += 2
                continue
            if w == "automatic":
                automatic, into = True, None
            elif w == "cards":
                into = cards
            elif w == "amounts":
                into = amounts
            elif into is cards:
                cards.append(ref_id(w))
            elif into is amounts:
                amounts.append(int(w))
            else:
                raise ValueError(f"{text!r} is not an event's form: {w!r}")
            i += 1
        return Event(kind, player, tuple(cards), tuple(amounts), rule, detail, entity,
                     automatic=automatic)


def ref_id(ref: str) -> int:
    """``2:KS`` → card id; ``D1``/``D2`` → Domain id; ``T`` → Trumps stack id (:func:`ref_text`
    read back). The one reader of the notation: :func:`parlor.rules.actions.parse_ref` wraps
    it for actions, which cannot be imported here (actions imports state, which imports this)."""
    t = ref.strip().upper()
    if t == "T":
        return STACK_ID
    if t in ("D1", "D2"):
        return DOMAIN_IDS[int(t[1]) - 1]
    owner, sep, face = t.partition(":")
    if not sep or owner not in ("1", "2"):
        raise ValueError(f"{ref!r} is not a table reference: write 2:KS, D1 or T")
    return (int(owner) - 1) * 52 + Card.parse(face).index


#: The kinds whose cards only the actor may read (R30).
SECRET_KINDS: Final = frozenset({"draw", "keep", "trim", "redraw"})


def card_text(cid: int) -> str:
    """``KS`` for a card id (the face only)."""
    return str(CARDS[cid % 52])


def ref_text(cid: int) -> str:
    """An owner-qualified reference to a card on the table: ``2:KS`` (or ``D1``, ``T``)."""
    if cid == STACK_ID:
        return "T"
    if cid in DOMAIN_IDS:
        return f"D{cid - DOMAIN_IDS[0] + 1}"
    return f"{cid // 52 + 1}:{card_text(cid)}"


def rlr(p: int) -> str:
    return f"Rlr {p + 1}"


def count_cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


@mypyc_attr(allow_interpreted_subclasses=True)  # the words of parlor.present.prose
class Voice:
    """How a sentence names the Rlrs and the cards. This one speaks notation (``Rlr 1``,
    ``2:KS``, ``10C/4D``): the log of records and golden games. :mod:`parlor.present.prose`
    speaks to a person ("you", "the computer's King of Spades")."""

    def who(self, p: int) -> str:
        """``p`` as a subject or an object."""
        return rlr(p)

    def does(self, p: int, verb: str, verb_s: str) -> str:
        """``p`` with the verb agreeing with it (``verb`` for "you", ``verb_s`` for others)."""
        return f"{self.who(p)} {verb_s}"

    def whose(self, p: int) -> str:
        return f"{rlr(p)}'s"

    def card(self, cid: int) -> str:
        """A card named alone (in a Hand, in a pile, as a caster)."""
        return card_text(cid)

    def owned(self, cid: int) -> str:
        """A card on the table named with its owner (or a Domain, the Trumps stack)."""
        return ref_text(cid)

    def of(self, cid: int) -> str:
        """A Cre named with its owner, as the subject of what befalls it."""
        return f"{card_text(cid)} of {rlr(cid // 52)}"

    def entity(self, text: str) -> str:
        """An entity or a comparison's side, given in notation (``KD/5C+AD``, ``D:2D``)."""
        return text


NOTATION: Final = Voice()


def expel_how(e: Event) -> str:
    """How an expel beat its target (``outranks in Clubs 5 to 3``)."""
    how, suit, theirs = e.amounts[0], e.amounts[1], e.amounts[2]
    ex, target = e.cards[0] % 52, e.cards[1] % 52
    if how == 0:
        return (f"outshows it, {SUIT_NAMES[suit]} {RANK[ex]} over "
                f"{SUIT_NAMES[SUIT[target]]} {RANK[target]}")
    verb = "outtrumps" if how == 2 else "outranks"
    return f"{verb} in {SUIT_NAMES[suit]} {RANK[ex]} to {theirs}"


def _cards(v: Voice, cards: tuple[int, ...]) -> str:
    return ", ".join([v.card(c) for c in cards])


def _secret(e: Event, v: Voice) -> str:
    """The actor's own sentence, naming the cards only the actor reads (R30)."""
    c = e.cards
    if e.kind == "draw":
        return f"You draw {_cards(v, c)}"
    if e.kind == "keep":
        return f"You keep {v.card(c[0])}" + (f" and recycle {_cards(v, c[1:])}" if c[1:] else "")
    if e.kind == "trim":
        return f"You recycle {v.card(c[0])} to keep 7 in Hand"
    return f"You Redraw, recycling {_cards(v, c)}"


def _drawn(e: Event, v: Voice, p: int) -> str:
    k = e.kind
    if k == "draw":
        if not e.cards:
            return f"{v.does(p, 'have', 'has')} no cards left to draw"
        return f"{v.does(p, 'draw', 'draws')} {count_cards(len(e.cards))}"
    if k == "keep":
        if e.detail == "single":
            return f"{v.does(p, 'keep', 'keeps')} the single drawn card"
        return f"{v.does(p, 'keep', 'keeps')} a card and recycles the other"
    if k == "trim":
        return f"{v.does(p, 'recycle', 'recycles')} a card to keep 7 in Hand"
    return f"{v.does(p, 'Redraw', 'Redraws')}, recycling {count_cards(len(e.cards))}; the turn ends"


def _played(e: Event, v: Voice, p: int) -> str:
    c = e.cards
    if e.detail == "lnd":
        return f"{v.does(p, 'play', 'plays')} the Lnd {v.card(c[0])} to Home"
    if e.detail == "summon":
        return f"{v.does(p, 'summon', 'summons')} {v.card(c[0])} to the Field (inactive)"
    host = c[1]
    if host == STACK_ID:
        where = f"the Trumps stack: {SUIT_NAMES[SUIT[c[0] % 52]]} are trumps"
    elif host in DOMAIN_IDS:
        where = f"{v.whose(host - DOMAIN_IDS[0])} Domain"
    else:
        where = f"{v.owned(host)} ({v.entity(e.entity)})"
    return f"{v.does(p, 'play', 'plays')} {v.card(c[0])} on {where}"


def _expelled(e: Event, v: Voice, p: int) -> str:
    c, a = e.cards, e.amounts
    if e.detail == "stack":
        now = f"{SUIT_NAMES[a[0]]} are trumps" if a[0] >= 0 else "no trumps"
        return (f"{v.does(p, 'expel', 'expels')} {v.card(c[0])} from the Trumps stack with "
                f"{v.card(c[1])}: both to Discard, {now}")
    dmg = f", {a[3]} damage" if len(a) > 3 else ""
    return f"{v.card(c[0])} expels {v.entity(e.entity)}: {expel_how(e)}{dmg}, to {e.detail}"


def _ability(e: Event, v: Voice, p: int) -> str:
    c, verb = e.cards, e.detail
    name = v.card(c[0])
    if verb == "volley":
        return f"{name} Volleys {v.owned(c[1])}: 1 damage"
    if verb == "sally":
        return f"{name} Sallies: +1 Pwr" + (" and -1 Tgh" if e.amounts[0] else "")
    if verb == "harry":
        return f"{name} Harries: +1 Tgh"
    if verb == "ally":
        return f"{name} Allies with {v.owned(c[1])}: it is taxed"
    return f"{name} Carries {v.owned(c[1])}: +1 {SUIT_NAMES[e.amounts[0]]} mnr for {v.who(p)}"


def _bonus(e: Event, v: Voice, p: int) -> str:
    """A combat or Domain bonus: the comparison that decided it (as ``Comparison.explain``
    words a decided comparison: 903, 905)."""
    c = e.why
    if c is None or c.winner is None or c.suit is None:
        raise ValueError(f"a bonus event without a decided comparison: {e!r}")
    w, suit = c.winner, c.suit
    verb = "outtrumps" if c.kind == "trump" else "outranks"
    names = (v.entity(c.a), v.entity(c.b))
    return (f"{names[w]} {verb} {names[1 - w]} in {suit.title}, {c.counts[w][suit]} to "
            f"{c.counts[1 - w][suit]}: bonus {c.bonus}")


def _life(e: Event, v: Voice, p: int) -> str:
    a = e.amounts
    if e.detail == "gain":
        return f"{v.does(p, 'gain', 'gains')} {a[0]} life from the Domain: {a[1]}"
    if e.detail == "expel":
        cause = f"{v.card(e.cards[0])} beats the Domain"
    else:
        cause = LIFE_CAUSES[e.detail]
    return f"{v.does(p, 'lose', 'loses')} {a[0]} life ({cause}): {a[1]} left"


def _turn(e: Event, v: Voice, p: int) -> str:
    a, k = e.amounts, e.kind
    if k == "setup":
        goes = v.does(a[0], "go", "goes")
        return f"Each Rlr is dealt 7 cards from the Lnds and Enhs; {goes} first"
    if k == "turn":
        return f"Turn {a[0]}: {v.does(p, 'are', 'is')} the phasing Rlr"
    if k == "untax":
        return f"{v.does(p, 'untax', 'untaxes')} {count_cards(a[0])} taxed on their turn"
    if k == "burn":
        return f"{v.does(p, 'burn', 'burns')} {a[0]} mnr: {a[1]} life"
    if k == "reshuffle":
        return (f"{v.does(p, 'shuffle', 'shuffles')} the Recycle pile into the Draw pile "
                f"({a[0]} card{'' if a[0] == 1 else 's'})")
    if k == "end":
        return f"{v.does(p, 'do', 'does')} not attack: the turn ends"
    if k == "win":
        if e.detail == "resign":
            return f"{v.does(p, 'win', 'wins')}: {v.does(1 - p, 'resign', 'resigns')}"
        return (f"{v.does(p, 'win', 'wins')}: {v.does(1 - p, 'are', 'is')} at {a[0]} life "
                "after an attack")
    return f"Draw: the turn limit of {a[0]} turns is reached"


def _table(e: Event, v: Voice, p: int) -> str:
    c, a, k = e.cards, e.amounts, e.kind
    if k == "tax":
        trump = " (trump)" if a[0] != SUIT[c[0] % 52] else ""
        return f"{v.does(p, 'tax', 'taxes')} {v.card(c[0])}: +1 {SUIT_NAMES[a[0]]} mnr{trump}"
    if k == "pay":
        paid = ", ".join([f"{a[x]} {SUIT_NAMES[x]}" for x in range(4) if a[x]])
        return f"{v.does(p, 'pay', 'pays')} {paid} mnr for {v.card(c[0])}"
    if k == "attack":
        return f"{v.does(p, 'attack', 'attacks')} with {v.card(c[0])}"
    if k == "block":
        return f"{v.does(p, 'block', 'blocks')} {v.card(c[0])} with {v.card(c[1])}"
    if k == "eliminate":
        return f"{v.of(c[0])} is eliminated: to Discard"
    cause = f"Volley by {v.card(c[1])}" if e.detail == "Volley" else e.detail
    terminal = ", terminal" if a[1] else ""
    return f"{v.of(c[0])} takes {a[0]} damage ({cause}){terminal}"


def sentence(e: Event, v: Voice, secret: bool = False) -> str:
    """The event's sentence in voice ``v``: the public one, or the actor's own (``secret``,
    for an event that :attr:`~Event.has_secret`)."""
    if secret:
        return _secret(e, v)
    k = e.kind
    p = 0 if e.player is None else e.player
    if k in SECRET_KINDS:
        return _drawn(e, v, p)
    if k == "play":
        return _played(e, v, p)
    if k == "expel":
        return _expelled(e, v, p)
    if k == "ability":
        return _ability(e, v, p)
    if k == "bonus":
        return _bonus(e, v, p)
    if k == "life":
        return _life(e, v, p)
    if k in ("tax", "pay", "attack", "block", "eliminate", "damage"):
        return _table(e, v, p)
    return _turn(e, v, p)


__all__ = ["DOMAIN_IDS", "NOTATION", "SECRET_KINDS", "STACK_ID", "SUIT_NAMES", "Event",
           "Voice", "card_text", "count_cards", "expel_how", "ref_text", "rlr", "sentence"]
