"""Tournament play (rules 1300, R32): teams, talents, payouts, ransoms, pairings, standings.

Pure: no I/O and no clock of its own. A :class:`Tournament` is an immutable value; every step
returns a new one, and its randomness (the lot that orders equal players, the seed of each
deal) comes from the tournament's seed and the round number alone, so a tournament replays
exactly. The seed is a practice number or a deal key (:mod:`parlor.rules.seeds`): from a
number every contest is dealt from a 32-bit practice number, as ever (anyone who knows or
finds the number knows every deal); from a key every contest gets a deal key of its own, a
keyed hash of the tournament's key, so one contest's cards tell nothing of the others.

A tournament with a time limit is told the time that has passed when a round ends
(:func:`end_round`'s ``elapsed``); a front-end reads its clock and passes it in.

    >>> t = new_tournament([("A", ["Ann", "Al"]), ("B", ["Bo", "Bea"])], seed=1)
    >>> rnd = pair_round(t)
    >>> [sorted(t.players[i].team for i in p.seats) for p in rnd.pairings]
    [['A', 'B'], ['A', 'B']]
    >>> first = rnd.pairings[0]
    >>> t = settle(t, Outcome(rnd.number, first.table, first.seats, first.seed,
    ...                       winner=first.seats[0], winner_life=12, turns=30))
    >>> t.players[first.seats[1]].talents, t.players[first.seats[0]].talents  # 1303.1
    (0, 8)

The choices this module makes where rule 1300 leaves the point open (1301 says pairing is
"by agreement") are numbered 1307-1312 in ``docs/rules.md``, after rule 1306.

* **Payouts** by the winner's life at the end of the game (1303): above 8 the loser pays all
  its talents, 5-8 a ransom of (life - 4) is set and the loser plays on with single-card
  draws (1304), below 5 one talent. A draw pays nothing; a resignation is a loss (1305).
* **Pairing** (1307): every round pairs as many players still in as possible, each against a
  player of another team, in standings order (most talents first, then a seeded lot), each
  player taking the first opponent it has met the fewest times. Players left over sit out.
* **Ransoms** (1308-1310) are paid between rounds, never after the last one, by any
  player(s) of the prisoner's team, the prisoner included [R32]: automatically by the richest
  who keeps at least one talent after paying (or by several, richest first), except for a
  team with a person on it, who is asked (:func:`answer_ransom`: pay, and who pays, or
  decline).
* **Out** (1302, 1311): a player with no talents is out for good; ransoms it holds or owes
  lapse.
* **Winning** (1312): most talents after the last round, or once the time limit has passed
  at the end of a round; equal talents share the place.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from parlor.rules.seeds import DealKey, KeyedStream, Seed, derive_key
from parlor.rules.state import Settings
from parlor.rules.values import Value

DEFAULT_TALENTS = 4  # 1302: the dole
DEFAULT_ROUNDS = 6
RANSOM_BASE = 4  # 1303.2: the ransom is the winner's life minus 4


class TournamentError(ValueError):
    """A tournament that cannot be set up, or a step that does not fit its state."""


# -- payouts (1303) --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Payout(Value):
    """What a win is worth (1303): ``bracket`` is "all", "ransom" or "one"."""

    bracket: str
    ransom: int = 0  # for "ransom": the winner's life - 4

    def describe(self) -> str:
        if self.bracket == "all":
            return "above 8, the loser pays all (1303.1)"
        if self.bracket == "one":
            return "below 5, the loser pays one (1303.3)"
        return f"5 to 8, a ransom of {self.ransom} (1303.2)"


def payout(winner_life: int) -> Payout:
    """The payout bracket for the winner's remaining life [R32].

    >>> [payout(x).bracket for x in (20, 9, 8, 5, 4, 0, -3)]
    ['all', 'all', 'ransom', 'ransom', 'one', 'one', 'one']
    >>> payout(7).ransom
    3
    """
    if winner_life > 8:
        return Payout("all")
    if winner_life >= 5:
        return Payout("ransom", winner_life - RANSOM_BASE)
    return Payout("one")


# -- the tournament's values -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TournamentSettings(Value):
    """How the tournament is run. It ends by ``rounds`` or by ``time_limit`` (seconds), the
    organiser's choice (1312): exactly one of the two is set."""

    rounds: int | None = DEFAULT_ROUNDS  # 1312: the set number of rounds
    talents: int = DEFAULT_TALENTS  # 1302: each player's dole
    max_turns: int = 200  # 1203: a game's turn limit (a draw after it)
    match_play: bool = True  # 1306: match strictures (closed Discard piles)
    auto_ransom: bool = True  # 1308: computer teams pay ransoms when able (off: never)
    time_limit: float | None = None  # 1312.1: the set length of time, in seconds

    def __post_init__(self) -> None:
        if (self.rounds is None) == (self.time_limit is None):
            raise TournamentError("a tournament ends after a set number of rounds or a set "
                                  "length of time: choose one of the two (1312)")
        if self.rounds is not None and self.rounds < 1:
            raise TournamentError("a tournament needs at least one round")
        if self.time_limit is not None and not self.time_limit > 0:
            raise TournamentError("a time limit must be more than 0 seconds (1312.1)")
        if self.talents < 1:
            raise TournamentError("each player needs a dole of at least one talent (1302)")
        if self.max_turns < 1:
            raise TournamentError("max_turns must be at least 1")


@dataclass(frozen=True, slots=True)
class Player(Value):
    name: str
    team: str
    talents: int
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    out_round: int | None = None  # the round in which it lost its last talent
    human: bool = False  # a person: its team is asked about its ransoms (1308.2)

    @property
    def is_in(self) -> bool:
        return self.talents > 0


@dataclass(frozen=True, slots=True)
class Ransom(Value):
    """``prisoner`` plays with single-card draws until its team pays ``amount`` talents to
    ``holder`` (1303.2)."""

    prisoner: int
    holder: int
    amount: int
    round: int


@dataclass(frozen=True, slots=True)
class Pairing(Value):
    """One game of a round: ``seats`` are player indices seated as Rlr 1 and Rlr 2."""

    round: int
    table: int
    seats: tuple[int, int]
    seed: Seed  # the deal's seed: a practice number, or a key of its own (R31)
    single_draw: tuple[bool, bool]  # 1304: per seat

    def game_settings(self, ts: TournamentSettings) -> Settings:
        """The engine settings of this game: match strictures and single-card draws."""
        return Settings(max_turns=ts.max_turns, match_play=ts.match_play,
                        single_draw=self.single_draw)


@dataclass(frozen=True, slots=True)
class Round(Value):
    number: int
    pairings: tuple[Pairing, ...]
    sitting_out: tuple[int, ...]  # players in the tournament who have no game (1307.2)


@dataclass(frozen=True, slots=True)
class Outcome(Value):
    """How one game ended. ``winner`` is a player index (None for a draw); ``how`` is
    "attack", "resign" or "draw"."""

    round: int
    table: int
    seats: tuple[int, int]
    seed: Seed
    winner: int | None
    winner_life: int = 0
    turns: int = 0
    how: str = "attack"

    @property
    def loser(self) -> int | None:
        if self.winner is None:
            return None
        return self.seats[1] if self.winner == self.seats[0] else self.seats[0]


@dataclass(frozen=True, slots=True)
class Settlement(Value):
    """A game and what it cost: ``paid`` talents from loser to winner, or a ransom set."""

    outcome: Outcome
    bracket: str  # "all", "ransom", "one" or "draw"
    paid: int
    ransom: int = 0


@dataclass(frozen=True, slots=True)
class Tournament(Value):
    settings: TournamentSettings
    seed: Seed
    players: tuple[Player, ...]
    round: int = 0  # rounds completed
    ransoms: tuple[Ransom, ...] = ()
    results: tuple[Settlement, ...] = ()
    log: tuple[str, ...] = field(default=())
    asked: tuple[Ransom, ...] = ()  # ransoms a person's team must answer before the next round
    ended: bool = False  # set by end_round when the tournament is over (1312)

    @property
    def teams(self) -> tuple[str, ...]:
        """Team names in the order they were given."""
        return tuple(dict.fromkeys(p.team for p in self.players))

    def held(self, player: int) -> bool:
        """Whether ``player`` owes a ransom, and so plays with single-card draws (1304)."""
        return any(r.prisoner == player for r in self.ransoms)

    def total_talents(self) -> int:
        return sum(p.talents for p in self.players)


def new_tournament(teams: Sequence[tuple[str, Sequence[str]]],
                   settings: TournamentSettings | None = None, seed: Seed = 0,
                   humans: Sequence[str] = ()) -> Tournament:
    """A tournament of ``teams`` (name, player names), each player with the dole (1302).
    ``humans`` names the players who are people: their teams answer their own ransoms."""
    ts = settings or TournamentSettings()
    players: list[Player] = []
    names: set[str] = set()
    team_names: set[str] = set()
    for team, members in teams:
        if team in team_names:
            raise TournamentError(f"team {team!r} is given twice")
        team_names.add(team)
        if not members:
            raise TournamentError(f"team {team!r} has no players")
        for name in members:
            if name in names:
                raise TournamentError(f"player name {name!r} is used twice")
            names.add(name)
            players.append(Player(name, team, ts.talents, human=name in humans))
    if len(team_names) < 2:
        raise TournamentError("a tournament needs at least two teams (1301)")
    unknown = sorted(set(humans) - names)
    if unknown:
        raise TournamentError(f"no player named {unknown[0]!r}")
    length = (f"{ts.rounds} round{'s' if ts.rounds != 1 else ''}" if ts.rounds is not None
              else f"a time limit of {_duration(ts.time_limit or 0)}")
    log = (f"{len(players)} players in {len(team_names)} teams, {ts.talents} talents each, "
           f"{length} (1301, 1302, 1312)",)
    return Tournament(ts, seed, tuple(players), log=log)


# -- pairing (1307) ---------------------------------------------------------------------------


def max_games(team_sizes: Sequence[int]) -> int:
    """The most games one round can hold when players only meet other teams: a complete
    multipartite graph has a matching of min(n // 2, n - largest part).

    >>> max_games([2, 2]), max_games([3, 1]), max_games([2, 2, 1]), max_games([4])
    (2, 1, 2, 0)
    """
    n = sum(team_sizes)
    return min(n // 2, n - max(team_sizes, default=0))


def _sizes(t: Tournament, ids: Sequence[int]) -> list[int]:
    return list(Counter(t.players[i].team for i in ids).values())


def meetings(t: Tournament, a: int, b: int) -> int:
    """How many games ``a`` and ``b`` have played against each other."""
    pair = {a, b}
    return sum(1 for r in t.results if set(r.outcome.seats) == pair)


def _duration(seconds: float) -> str:
    """
    >>> _duration(90), _duration(3600), _duration(45)
    ('1 min 30 s', '60 min', '45 s')
    """
    m, sec = divmod(round(seconds), 60)
    if not m:
        return f"{sec} s"
    return f"{m} min {sec} s" if sec else f"{m} min"


def is_over(t: Tournament) -> bool:
    """After the last round, once the time limit has passed at the end of a round (1312.1),
    or once no two players still in are of different teams."""
    if t.ended:
        return True
    if t.settings.rounds is not None and t.round >= t.settings.rounds:
        return True
    return max_games(_sizes(t, [i for i, p in enumerate(t.players) if p.is_in])) == 0


def pair_round(t: Tournament) -> Round:
    """The next round's games (1307).

    1. Only players still in play (1302) and never two of the same team (1301).
    2. The round holds as many games as possible.
    3. Order: most talents first, then a lot drawn from the tournament seed for this round.
    4. When someone must sit out, it is the one with the fewest rounds sat out so far, then
       the lowest in the order, among those whose absence still allows the most games.
    5. Down the order, each unpaired player meets the first unpaired player of another team
       that it has met the fewest times, as long as the others can still all be paired. The
       higher of the two is seated as Rlr 1 (who goes first is dealt at random, 106).
    """
    if is_over(t):
        raise TournamentError("the tournament is over: no round to pair")
    if t.asked:
        r = t.asked[0]
        raise TournamentError(
            f"team {t.players[r.prisoner].team} must first answer whether it pays the "
            f"ransom of {t.players[r.prisoner].name} (1308.2)")
    number = t.round + 1
    rng = _lot(t.seed, number)
    ids = [i for i, p in enumerate(t.players) if p.is_in]
    lot = {i: rng.random() for i in ids}
    order = sorted(ids, key=lambda i: (-t.players[i].talents, lot[i]))
    rank = {i: n for n, i in enumerate(order)}
    target = max_games(_sizes(t, order))

    rest = list(order)
    sitting: list[int] = []
    while len(rest) > 2 * target:
        fits = [c for c in rest if max_games(_sizes(t, [i for i in rest if i != c])) == target]
        c = min(fits, key=lambda i: (t.players[i].byes, -rank[i]))
        rest.remove(c)
        sitting.append(c)

    pairs: list[tuple[int, int]] = []
    while rest:
        x = rest[0]
        options = []
        for y in rest[1:]:
            if t.players[y].team == t.players[x].team:
                continue
            left = [i for i in rest if i not in (x, y)]
            if 2 * max_games(_sizes(t, left)) == len(left):
                options.append(y)
        y = min(options, key=lambda i: (meetings(t, x, i), rank[i]))
        pairs.append((x, y))
        rest = [i for i in rest if i not in (x, y)]

    pairings = tuple(
        Pairing(number, table, (a, b), _deal_seed(t.seed, rng, number, table),
                (t.held(a), t.held(b)))
        for table, (a, b) in enumerate(pairs, 1))
    return Round(number, pairings, tuple(sorted(sitting, key=rank.__getitem__)))


def _lot(seed: Seed, number: int) -> random.Random:
    """The stream of round ``number``'s lot (and, for a practice number, its deals)."""
    if isinstance(seed, DealKey):
        return KeyedStream(seed.key, f"tournament/lot/{number}")
    return random.Random(f"parlor-tournament:{seed}:{number}")


def _deal_seed(seed: Seed, rng: random.Random, number: int, table: int) -> Seed:
    """A contest's deal (R31): from a key, a key of its own; from a practice number, the
    next 32 bits of the round's stream (as every tournament before deal keys was dealt)."""
    if isinstance(seed, DealKey):
        return derive_key(seed, f"tournament/deal/{number}/{table}")
    return rng.getrandbits(32)


def _seed_json(seed: Seed) -> int | str:
    return seed if isinstance(seed, int) else str(seed)


# -- settling games (1303-1305) ---------------------------------------------------------------


def _set(players: list[Player], i: int, **changes: int | None) -> None:
    players[i] = replace(players[i], **changes)  # type: ignore[arg-type]


def settle(t: Tournament, o: Outcome) -> Tournament:
    """Pay for one game (1303): the loser's talents move to the winner, or a ransom is set."""
    a, b = o.seats
    players = list(t.players)
    for i in (a, b):
        if not 0 <= i < len(players):
            raise TournamentError(f"no player {i}")
        if not players[i].is_in:
            raise TournamentError(f"{players[i].name} is out of the tournament (1302)")
    if players[a].team == players[b].team:
        raise TournamentError("players of the same team do not meet (1301)")
    if o.winner is not None and o.winner not in o.seats:
        raise TournamentError("the winner must be one of the two players")
    log = list(t.log)
    ransoms = list(t.ransoms)
    head = f"Round {o.round}, table {o.table}:"
    if o.winner is None:
        for i in (a, b):
            _set(players, i, draws=players[i].draws + 1)
        log.append(f"{head} {players[a].name} and {players[b].name} draw: nothing is paid "
                   "(1305)")
        done = Settlement(o, "draw", 0)
        return replace(t, players=tuple(players), results=(*t.results, done), log=tuple(log))

    w, loser = o.winner, o.loser
    assert loser is not None
    pay = payout(o.winner_life)
    _set(players, w, wins=players[w].wins + 1)
    _set(players, loser, losses=players[loser].losses + 1)
    how = " by resignation" if o.how == "resign" else ""
    log.append(f"{head} {players[w].name} beats {players[loser].name}{how}, "
               f"{o.winner_life} life left: {pay.describe()}")
    paid = 0
    if pay.bracket == "ransom":
        ransoms.append(Ransom(loser, w, pay.ransom, o.round))
        log.append(f"{players[loser].name} is held for a ransom of {pay.ransom} to "
                   f"{players[w].name} and draws single cards (1304)")
    else:
        paid = players[loser].talents if pay.bracket == "all" else 1
        _set(players, loser, talents=players[loser].talents - paid)
        _set(players, w, talents=players[w].talents + paid)
        log.append(f"{players[loser].name} pays {_talents(paid)} to {players[w].name}: "
                   f"{players[loser].talents} left, {players[w].name} has "
                   f"{players[w].talents}")
        if not players[loser].is_in:
            _set(players, loser, out_round=o.round)
            log.append(f"{players[loser].name} has no talents left and is out (1302)")
    t = replace(t, players=tuple(players), ransoms=tuple(ransoms),
                results=(*t.results, Settlement(o, pay.bracket, paid, pay.ransom)),
                log=tuple(log))
    return _lapse(t)


def _talents(n: int) -> str:
    return "1 talent" if n == 1 else f"{n} talents"


def _lapse(t: Tournament) -> Tournament:
    """Ransoms owed by or to a player who is out lapse (1311)."""
    keep: list[Ransom] = []
    log = list(t.log)
    for r in t.ransoms:
        prisoner, holder = t.players[r.prisoner], t.players[r.holder]
        if not prisoner.is_in:
            log.append(f"The ransom of {prisoner.name} lapses: {prisoner.name} is out (1311)")
        elif not holder.is_in:
            log.append(f"The ransom of {prisoner.name} lapses: {holder.name} is out, and "
                       f"{prisoner.name} is released (1311)")
        else:
            keep.append(r)
    if len(keep) == len(t.ransoms):
        return t
    return replace(t, ransoms=tuple(keep), log=tuple(log))


# -- ransoms and the end of a round (1308-1310) ------------------------------------------------


def _team_in(t: Tournament, player: int) -> list[int]:
    """The players of ``player``'s team still in the tournament, itself included."""
    team = t.players[player].team
    return [i for i, p in enumerate(t.players) if p.team == team and p.is_in]


def asks(t: Tournament, r: Ransom) -> bool:
    """Whether the prisoner's team has a person still in, who is asked about ``r`` (1308.2)."""
    return any(t.players[i].human for i in _team_in(t, r.prisoner))


def can_pay(t: Tournament, r: Ransom) -> bool:
    """Whether the prisoner's team can pay ``r`` now, each payer keeping a talent (1309)."""
    return sum(t.players[i].talents - 1 for i in _team_in(t, r.prisoner)) >= r.amount


def ransom_payers(t: Tournament, r: Ransom) -> list[tuple[int, int]]:
    """Who pays ransom ``r`` when its team pays by itself, and how much each (empty: it
    cannot be paid yet).

    Any player(s) of the prisoner's team still in the tournament may pay, the prisoner
    included [R32] (1308). A payer keeps at least one talent (1309). The richest player able
    to pay it alone does (the first listed among equals); otherwise they club together,
    richest first, if together they can cover it. This is also the answer offered first to a
    person who is asked (1308.2)."""
    team = _team_in(t, r.prisoner)
    team.sort(key=lambda i: -t.players[i].talents)  # stable: listing order among equals
    spare = {i: t.players[i].talents - 1 for i in team}
    alone = [i for i in team if spare[i] >= r.amount]
    if alone:
        return [(alone[0], r.amount)]
    if sum(spare.values()) < r.amount:
        return []
    out: list[tuple[int, int]] = []
    due = r.amount
    for i in team:
        give = min(spare[i], due)
        if give:
            out.append((i, give))
            due -= give
        if not due:
            break
    return out


def _pay(t: Tournament, r: Ransom, payers: Sequence[tuple[int, int]]) -> Tournament:
    """Move the talents of ransom ``r`` from ``payers`` to its holder and release it."""
    players = list(t.players)
    for i, amount in payers:
        _set(players, i, talents=players[i].talents - amount)
    _set(players, r.holder, talents=players[r.holder].talents + r.amount)
    who = " and ".join(f"{players[i].name} ({n})" for i, n in payers)
    log = [*t.log, f"{who} pay{'s' if len(payers) == 1 else ''} the ransom of "
                   f"{players[r.prisoner].name}: {_talents(r.amount)} to "
                   f"{players[r.holder].name} (1308)"]
    left = list(t.ransoms)
    left.remove(r)
    if all(x.prisoner != r.prisoner for x in left):
        log.append(f"{players[r.prisoner].name} is released: two-card draws again (1310)")
    return replace(t, players=tuple(players), ransoms=tuple(left), log=tuple(log))


def pay_ransoms(t: Tournament) -> Tournament:
    """Between rounds: pay, oldest first, every ransom its team pays by itself (1308.1). A team
    with a person still in pays nothing here: it is asked (1308.2, :func:`answer_ransom`)."""
    t = _lapse(t)
    if not t.settings.auto_ransom:
        return t
    for r in list(t.ransoms):
        if r not in t.ransoms or asks(t, r):
            continue
        payers = ransom_payers(t, r)
        if payers:
            t = _pay(t, r, payers)
    return t


def answer_ransom(t: Tournament, r: Ransom,
                  payers: Sequence[tuple[int, int]] | None) -> Tournament:
    """A person's team answers ransom ``r`` (1308.2): ``payers`` lists who pays how much (any
    player(s) of the team still in, the prisoner included, each keeping a talent, 1309; the
    amounts add up to the ransom), or None to decline. A declined ransom stands: the prisoner
    keeps to single-card draws, and its team is asked again before the next round."""
    if r not in t.asked:
        raise TournamentError("that ransom is not waiting for an answer (1308.2)")
    asked = tuple(x for x in t.asked if x != r)
    prisoner = t.players[r.prisoner]
    if payers is None:
        line = (f"Team {prisoner.team} declines to pay the ransom of {prisoner.name} "
                f"({_talents(r.amount)}): single-card draws go on (1308.2)")
        return replace(t, asked=asked, log=(*t.log, line))
    team = set(_team_in(t, r.prisoner))
    seen: set[int] = set()
    for i, amount in payers:
        if i not in team:
            raise TournamentError(f"only players of team {prisoner.team} still in may pay "
                                  f"the ransom of {prisoner.name} (1308)")
        if i in seen:
            raise TournamentError(f"{t.players[i].name} is listed twice")
        seen.add(i)
        if amount < 1:
            raise TournamentError("each payer pays at least one talent")
        if t.players[i].talents - amount < 1:
            raise TournamentError(f"{t.players[i].name} has {_talents(t.players[i].talents)}"
                                  ": a payer keeps at least one (1309)")
    total = sum(amount for _, amount in payers)
    if total != r.amount:
        raise TournamentError(f"the ransom of {prisoner.name} is {_talents(r.amount)}, "
                              f"not {total} (1303.2)")
    return replace(_pay(t, r, payers), asked=asked)


def sit_out(t: Tournament, rnd: Round) -> Tournament:
    """Count the round's sitters (they play no game and pay nothing, 1307.2)."""
    players = list(t.players)
    for i in rnd.sitting_out:
        _set(players, i, byes=players[i].byes + 1)
    log = list(t.log)
    if rnd.sitting_out:
        names = ", ".join(players[i].name for i in rnd.sitting_out)
        log.append(f"Round {rnd.number}: {names} sit{'s' if len(rnd.sitting_out) == 1 else ''}"
                   " out (1307)")
    return replace(t, players=tuple(players), log=tuple(log))


def end_round(t: Tournament, elapsed: float | None = None) -> Tournament:
    """Close a round. If it was the last (the set rounds are played, or ``elapsed``, the
    seconds since the tournament began, has reached its time limit, 1312.1, or no two
    players still in are of different teams), the tournament is over and an unpaid ransom
    simply stands. Otherwise the break between rounds begins: the ransoms teams pay by
    themselves are paid (1308.1), and those of a person's team that it can pay are asked
    (1308.2, :attr:`Tournament.asked`)."""
    if t.settings.time_limit is not None and elapsed is None:
        raise TournamentError("a tournament with a time limit needs the time elapsed at the "
                              "end of each round (1312.1)")
    t = replace(t, round=t.round + 1, asked=())
    timed_out = (t.settings.time_limit is not None and elapsed is not None
                 and elapsed >= t.settings.time_limit)
    if timed_out:
        t = replace(t, ended=True, log=(
            *t.log, f"The time limit ({_duration(t.settings.time_limit or 0)}) has passed: "
                    "no new round starts (1312.1)"))
    if is_over(t):
        t = replace(_lapse(t), ended=True)
        if t.ransoms:
            t = replace(t, log=(*t.log, "Unpaid ransoms stand: nothing is left to be freed "
                                        "from (1308)"))
        return replace(t, log=(*t.log, _final_line(t)))
    t = pay_ransoms(t)
    asked = tuple(r for r in t.ransoms if asks(t, r) and can_pay(t, r))
    return replace(t, asked=asked)


def play_round(t: Tournament, rnd: Round, outcomes: Sequence[Outcome],
               elapsed: float | None = None) -> Tournament:
    """A whole round at once: sitters, every game's settlement, then :func:`end_round`."""
    if rnd.number != t.round + 1:
        raise TournamentError(f"round {rnd.number} is not the next round ({t.round + 1})")
    t = sit_out(t, rnd)
    for o in outcomes:
        t = settle(t, o)
    return end_round(t, elapsed)


# -- standings (1312) ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing(Value):
    place: int
    tied: bool
    player: int
    name: str
    team: str
    talents: int
    wins: int
    losses: int
    draws: int
    byes: int
    out: bool
    ransom_owed: int  # talents of ransom its team owes for it (0: normal draws)


def standings(t: Tournament) -> list[Standing]:
    """Players by talents, most first; equal talents share a place (1312). Among equals the
    listing order is by wins, then the order the players were given (it does not rank)."""
    order = sorted(range(len(t.players)),
                   key=lambda i: (-t.players[i].talents, -t.players[i].wins, i))
    counts = Counter(p.talents for p in t.players)
    out = []
    for i in order:
        p = t.players[i]
        place = 1 + sum(1 for q in t.players if q.talents > p.talents)
        owed = sum(r.amount for r in t.ransoms if r.prisoner == i)
        out.append(Standing(place, counts[p.talents] > 1, i, p.name, p.team, p.talents, p.wins,
                            p.losses, p.draws, p.byes, not p.is_in, owed))
    return out


@dataclass(frozen=True, slots=True)
class TeamStanding(Value):
    place: int
    team: str
    talents: int
    players_in: int
    players: int


def team_standings(t: Tournament) -> list[TeamStanding]:
    """Teams by their players' talents added up (for information: the tournament is won by a
    player, 1302)."""
    rows = []
    for team in t.teams:
        members = [p for p in t.players if p.team == team]
        rows.append((team, sum(p.talents for p in members), sum(p.is_in for p in members),
                     len(members)))
    rows.sort(key=lambda r: -r[1])
    return [TeamStanding(1 + sum(1 for x in rows if x[1] > r[1]), *r) for r in rows]


def winners(t: Tournament) -> list[int]:
    """The player(s) with the most talents (all of them share the win on a tie, 1312)."""
    best = max(p.talents for p in t.players)
    return [i for i, p in enumerate(t.players) if p.talents == best]


def _final_line(t: Tournament) -> str:
    names = [t.players[i].name for i in winners(t)]
    best = t.players[winners(t)[0]].talents
    if len(names) == 1:
        return f"{names[0]} wins the tournament with {_talents(best)} (1312)"
    return f"{' and '.join(names)} share the win with {_talents(best)} each (1312)"


def report(t: Tournament, levels: Sequence[str]) -> dict[str, Any]:
    """The whole tournament as plain JSON-able data: the report of ``parlor tournament`` and
    of the web app's export. ``levels`` gives each player's level as its front-end names it
    ("human" for the person)."""
    place = {st.player: st.place for st in standings(t)}
    return {
        "settings": asdict(t.settings),
        "seed": _seed_json(t.seed),
        "rounds_played": t.round,
        "teams": {team: [p.name for p in t.players if p.team == team] for team in t.teams},
        "winners": [t.players[i].name for i in winners(t)],
        "players": [
            {"name": p.name, "team": p.team, "level": levels[i],
             "place": place[i], "talents": p.talents, "wins": p.wins,
             "losses": p.losses, "draws": p.draws, "sat_out": p.byes,
             "out_round": p.out_round,
             "ransom_owed": sum(r.amount for r in t.ransoms if r.prisoner == i)}
            for i, p in enumerate(t.players)],
        "team_standings": [asdict(ts) for ts in team_standings(t)],
        "games": [
            {"round": st.outcome.round, "table": st.outcome.table,
             "rlr1": t.players[st.outcome.seats[0]].name,
             "rlr2": t.players[st.outcome.seats[1]].name,
             "seed": _seed_json(st.outcome.seed),
             "winner": None if st.outcome.winner is None
             else t.players[st.outcome.winner].name,
             "winner_life": st.outcome.winner_life, "turns": st.outcome.turns,
             "how": st.outcome.how, "bracket": st.bracket, "paid": st.paid,
             "ransom": st.ransom}
            for st in t.results],
        "open_ransoms": [
            {"prisoner": t.players[r.prisoner].name, "holder": t.players[r.holder].name,
             "amount": r.amount, "round": r.round} for r in t.ransoms],
        "log": list(t.log),
    }


__all__ = [
    "DEFAULT_ROUNDS",
    "DEFAULT_TALENTS",
    "Outcome",
    "Pairing",
    "Payout",
    "Player",
    "Ransom",
    "Round",
    "Settlement",
    "Standing",
    "TeamStanding",
    "Tournament",
    "TournamentError",
    "TournamentSettings",
    "answer_ransom",
    "asks",
    "can_pay",
    "end_round",
    "is_over",
    "max_games",
    "meetings",
    "new_tournament",
    "pair_round",
    "pay_ransoms",
    "payout",
    "play_round",
    "ransom_payers",
    "report",
    "settle",
    "sit_out",
    "standings",
    "team_standings",
    "winners",
]
