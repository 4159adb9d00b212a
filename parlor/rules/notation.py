"""Positions and game records in text (see docs/notation.md).

A **position** is ``key: value`` lines; it can express any state, and a test or puzzle may
give only the lines it cares about (every card not placed goes to the bottom of its owner's
Draw pile, in card order)::

    >>> from parlor.rules.engine import legal_actions
    >>> s = parse_position('''
    ... phasing: 1
    ... phase: window1
    ... 1.hand: 4C
    ... 1.home: 7C 8C 9C 10C
    ... 2.field: JH/3C
    ... ''')
    >>> [str(a) for a in legal_actions(s) if a.verb == "expel"]
    ['expel 4C at 2:JH', 'expel 4C at 2:3C']

A **game record** is the settings, the seed and one action per line; it replays exactly::

    >>> s = new_game(seed=3)
    >>> replay(record(s)).turn == s.turn
    True
"""

from __future__ import annotations

from collections.abc import Callable

from parlor.rules.actions import Action, ActionParseError, parse_ref
from parlor.rules.cards import Card, Suit
from parlor.rules.engine import apply, new_game
from parlor.rules.seeds import Seed, SeedError, parse_seed
from parlor.rules.state import (
    ABILITY_O,
    ABILITY_P,
    ATTACK,
    BLOCK,
    BONUS,
    DOMAIN,
    DOMAIN_BONUS,
    NONE,
    OVER,
    OWNER,
    RESHUFFLE_SEED_LIMIT,
    SPLIT,
    STACK,
    Combat,
    Phase,
    Settings,
    State,
    card_text,
    ref_text,
)

ZONES = ("hand", "draw", "recycle", "discard", "home", "field", "domain")
KEYS = frozenset(
    {"settings", "turn", "phasing", "phase", "actor", "shuffle", "lnd_played", "redrawn",
     "trumps", "drawn", "combat", "winner", "result"}
    | {f"{n}.{k}" for n in (1, 2) for k in (*ZONES, "life", "pool")}
)


class PositionError(ValueError):
    """Text that does not describe a valid position."""


# -- writing ------------------------------------------------------------------------------------


def _card_in(s: State, cid: int, zone_owner: int) -> str:
    """A card as written in a zone: bare when it belongs to the zone's owner."""
    return card_text(cid) if OWNER[cid] == zone_owner else ref_text(cid)


def _table_card(s: State, cid: int) -> str:
    owner = OWNER[cid]
    text = "/".join([card_text(cid), *(_card_in(s, e, owner) for e in s.enhs.get(cid, ()))])
    flags = []
    if s.taxed[cid] != NONE:
        flags.append(f"t{s.taxed[cid] + 1}")
    if s.inactive[cid]:
        flags.append("i")
    if s.damage[cid]:
        flags.append(f"d{s.damage[cid]}")
    if s.terminal[cid]:
        flags.append("x")
    if s.pwr_mod[cid]:
        flags.append(f"p{s.pwr_mod[cid]:+d}")
    if s.tgh_mod[cid]:
        flags.append(f"g{s.tgh_mod[cid]:+d}")
    return text + ("{" + ",".join(flags) + "}" if flags else "")


def position(s: State) -> str:
    """The full position as text; ``parse_position(position(s))`` gives an equal state."""
    lines = [
        f"settings: {s.settings}",
        f"turn: {s.turn}",
        f"phasing: {s.phasing + 1}",
        f"phase: {s.phase.name.lower()}",
        f"actor: {s.actor + 1}",
        f"shuffle: {s.shuffle_seed} {s.shuffles}",
        f"lnd_played: {'yes' if s.lnd_played else 'no'}",
        f"redrawn: {'yes' if s.redrawn else 'no'}",
        f"trumps: {' '.join(ref_text(c) for c in s.stack)}",
        f"drawn: {' '.join(card_text(c) for c in s.drawn)}",
    ]
    for p in (0, 1):
        n = p + 1
        lines.append(f"{n}.life: {s.life[p]}")
        pool = " ".join(f"{Suit(x).letter}{s.pool[p][x]}" for x in range(4) if s.pool[p][x])
        lines.append(f"{n}.pool: {pool}")
        lines.append(f"{n}.hand: {' '.join(card_text(c) for c in s.hand[p])}")
        lines.append(f"{n}.draw: {' '.join(card_text(c) for c in reversed(s.draw[p]))}")
        rec = (("^" if c in s.public_recycle[p] else "") + card_text(c)
               for c in reversed(s.recycle[p]))
        lines.append(f"{n}.recycle: {' '.join(rec)}")
        lines.append(f"{n}.discard: {' '.join(card_text(c) for c in reversed(s.discard[p]))}")
        lines.append(f"{n}.home: {' '.join(_table_card(s, c) for c in s.home[p])}")
        lines.append(f"{n}.field: {' '.join(_table_card(s, c) for c in s.field[p])}")
        lines.append(f"{n}.domain: {' '.join(_card_in(s, e, p) for e in s.domain[p])}")
    if s.combat is not None:
        lines.append(f"combat: {_combat_text(s.combat)}")
    if s.phase is OVER:
        lines.append(f"winner: {'-' if s.winner is None else s.winner + 1}")
        lines.append(f"result: {s.result}")
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _refs(cids: list[int]) -> str:
    return ",".join(ref_text(c) for c in cids) or "-"


def _combat_text(cb: Combat) -> str:
    blocks = ",".join(f"{ref_text(b)}>{'-' if a == NONE else ref_text(a)}"
                      for b, a in cb.blocking.items()) or "-"
    pending = ",".join(f"{ref_text(c)}*{n}" for c, n in cb.pending.items()) or "-"
    return (f"attackers={_refs(cb.attackers)} blocks={blocks} blocked={_refs(sorted(cb.blocked))}"
            f" used={_refs(sorted(cb.used))} pending={pending} split={_refs(cb.split_queue)}"
            f" split_left={cb.split_left} bonus_left={cb.bonus_left}"
            f" bonus_to={_refs(cb.bonus_to)} dealt={'yes' if cb.o_dealt else 'no'}")


# -- reading ------------------------------------------------------------------------------------


def parse_position(text: str) -> State:
    """A state from position text. Raises PositionError naming the line at fault."""
    s = State()
    s.log = []
    fields: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        if not sep:
            raise PositionError(f"{raw!r}: write 'key: value'")
        key = key.strip().lower()
        if key not in KEYS:
            raise PositionError(f"{raw.strip()!r}: unknown key {key!r} (see docs/notation.md)")
        fields[key] = value.strip()
    placed: set[int] = set()

    def place(cid: int) -> int:
        if cid in placed:
            raise PositionError(f"{ref_text(cid)} is placed twice")
        placed.add(cid)
        return cid

    try:
        _read_header(s, fields)
        for p in (0, 1):
            _read_side(s, p, fields, place)
        for ref in fields.get("trumps", "").split():
            cid = place(parse_ref(ref))
            s.stack.append(cid)
            s.host[cid] = STACK
        s.restack()
        s.drawn = [place(s.phasing * 52 + Card.parse(c).index)
                   for c in fields.get("drawn", "").split()]
        if "combat" in fields:
            s.combat = _parse_combat(fields["combat"])
    except (ValueError, KeyError, IndexError) as exc:
        if isinstance(exc, PositionError):
            raise
        raise PositionError(str(exc)) from None
    for p in (0, 1):  # every card not placed lies at the bottom of its owner's Draw pile
        rest = [c for c in range(p * 52, p * 52 + 52) if c not in placed]
        s.draw[p] = list(reversed(rest)) + s.draw[p]
    if s.phase in (ATTACK, BLOCK, ABILITY_P, ABILITY_O,
                   SPLIT, BONUS, DOMAIN_BONUS) and s.combat is None:
        s.combat = Combat()
    return s


def _read_header(s: State, f: dict[str, str]) -> None:
    s.settings = Settings.parse(f.get("settings", ""))
    s.turn = int(f.get("turn", "1"))
    s.phasing = int(f.get("phasing", "1")) - 1
    s.phase = Phase[f.get("phase", "window1").upper()]
    s.actor = int(f.get("actor", str(s.phasing + 1))) - 1
    seed, _, count = f.get("shuffle", "0 0").partition(" ")
    s.shuffle_seed, s.shuffles = int(seed), int(count or 0)
    if not 0 <= s.shuffle_seed < RESHUFFLE_SEED_LIMIT or s.shuffles < 0:
        raise PositionError(f"307.1: the reshuffle seed is a whole number below 2**128 and the "
                            f"count of reshuffles is not negative, not {f['shuffle']!r}")
    s.lnd_played = f.get("lnd_played", "no") == "yes"
    s.redrawn = f.get("redrawn", "no") == "yes"
    if "winner" in f:
        w = f["winner"]
        s.winner = None if w == "-" else int(w) - 1
        s.result = f.get("result", "")


def _own(p: int, text: str) -> int:
    """A card written in Rlr p's zone: bare means p's own, ``2:4H`` names the owner."""
    return parse_ref(text) if ":" in text else p * 52 + Card.parse(text).index


def _read_side(s: State, p: int, f: dict[str, str], put: Callable[[int], int]) -> None:
    n = p + 1
    s.life[p] = int(f.get(f"{n}.life", "20"))
    for item in f.get(f"{n}.pool", "").split():
        s.pool[p][Suit.parse(item[0])] = int(item[1:])
    s.hand[p] = [put(_own(p, c)) for c in f.get(f"{n}.hand", "").split()]
    s.draw[p] = [put(_own(p, c)) for c in reversed(f.get(f"{n}.draw", "").split())]
    recycle = []
    for c in reversed(f.get(f"{n}.recycle", "").split()):
        cid = put(_own(p, c.lstrip("^")))
        recycle.append(cid)
        if c.startswith("^"):
            s.public_recycle[p].add(cid)
    s.recycle[p] = recycle
    s.discard[p] = [put(_own(p, c)) for c in reversed(f.get(f"{n}.discard", "").split())]
    for zone in ("home", "field"):
        for item in f.get(f"{n}.{zone}", "").split():
            cid = _read_table_card(s, p, item, put)
            getattr(s, zone)[p].append(cid)
    for c in f.get(f"{n}.domain", "").split():
        cid = put(_own(p, c))
        s.domain[p].append(cid)
        s.host[cid] = DOMAIN[p]


def _read_table_card(s: State, p: int, item: str, put: Callable[[int], int]) -> int:
    body, _, flags = item.partition("{")
    first, *enhs = body.split("/")
    cid = put(p * 52 + Card.parse(first).index)
    for e in enhs:
        ecid = put(_own(p, e))
        s.enhs.setdefault(cid, []).append(ecid)
        s.host[ecid] = cid
    for flag in filter(None, flags.rstrip("}").split(",")):
        if flag[0] == "t":
            s.taxed[cid] = int(flag[1:]) - 1
        elif flag == "i":
            s.inactive[cid] = 1
        elif flag[0] == "d":
            s.damage[cid] = int(flag[1:])
        elif flag == "x":
            s.terminal[cid] = 1
        elif flag[0] == "p":
            s.pwr_mod[cid] = int(flag[1:])
        elif flag[0] == "g":
            s.tgh_mod[cid] = int(flag[1:])
        else:
            raise PositionError(f"unknown flag {flag!r} on {first}: use t1 t2 i dN x pN gN")
    return cid


def _parse_combat(text: str) -> Combat:
    cb = Combat()
    f = dict(part.split("=", 1) for part in text.split())

    def refs(key: str) -> list[int]:
        v = f.get(key, "-")
        return [] if v == "-" else [parse_ref(r) for r in v.split(",")]

    cb.attackers = refs("attackers")
    for pair in filter(lambda x: x != "-", f.get("blocks", "-").split(",")):
        b, a = pair.split(">")
        bc, ac = parse_ref(b), NONE if a == "-" else parse_ref(a)
        cb.blocking[bc] = ac
        if ac != NONE:
            cb.blockers.setdefault(ac, []).append(bc)
    cb.blocked = set(refs("blocked")) | set(cb.blockers)
    cb.used = set(refs("used"))
    for pair in filter(lambda x: x != "-", f.get("pending", "-").split(",")):
        c, amount = pair.split("*")
        cb.pending[parse_ref(c)] = int(amount)
    cb.split_queue = refs("split")
    cb.split_left = int(f.get("split_left", "0"))
    cb.bonus_left = int(f.get("bonus_left", "0"))
    cb.bonus_to = refs("bonus_to")
    cb.o_dealt = f.get("dealt", "no") == "yes"
    return cb


# -- game records -------------------------------------------------------------------------------


class RecordError(ValueError):
    """A record that does not replay: the message names the line."""


def record(s: State, seed: Seed | None = None) -> str:
    """The game record of ``s``: settings, seed, then one action per line. The seed line is
    a practice number (``seed: 7``) or a deal key (``seed: key-…``): see
    :mod:`parlor.rules.seeds`; older records all have the first form and replay as before."""
    seed = s.seed if seed is None else seed
    if seed is None:
        raise RecordError("this game was not dealt from a seed, so it has no record")
    lines = ["# Parlor Magic game record", f"settings: {s.settings}", f"seed: {seed}"]
    lines.extend(str(a) for a in s.history)
    return "\n".join(lines) + "\n"


def replay(text: str, upto: int | None = None) -> State:
    """Replay a record (optionally only its first ``upto`` actions)."""
    settings, seed, actions = parse_record(text)
    s = new_game(seed, settings)
    for n, (line_no, action) in enumerate(actions):
        if upto is not None and n >= upto:
            break
        try:
            apply(s, action)
        except ValueError as exc:
            raise RecordError(f"line {line_no}: {action}: {exc}") from None
    return s


def parse_record(text: str) -> tuple[Settings, Seed, list[tuple[int, Action]]]:
    """Settings, seed and numbered actions of a record; RecordError naming the line."""
    settings, seed = Settings.parse(""), None  # no settings line: the defaults of text (307.1)
    actions: list[tuple[int, Action]] = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("settings:"):
            try:
                settings = Settings.parse(line[9:])
            except ValueError as exc:
                raise RecordError(f"line {n}: {exc}") from None
        elif line.startswith("seed:"):
            try:
                seed = parse_seed(line[5:])
            except SeedError as exc:
                raise RecordError(f"line {n}: {exc}") from None
        else:
            try:
                actions.append((n, Action.parse(line)))
            except ActionParseError as exc:
                raise RecordError(f"line {n}: {exc}") from None
    if seed is None:
        raise RecordError("a record needs a 'seed:' line")
    return settings, seed, actions


__all__ = ["PositionError", "RecordError", "parse_position", "parse_record", "position", "record",
           "replay"]
