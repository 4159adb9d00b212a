"""Tournament play (rules 1300, R32): teams, talents, payouts, ransoms, pairings, standings.

Pure: no I/O and no clock. A :class:`Tournament` is an immutable value; every step returns a
new one, and its randomness (the lot that orders equal players, the seed of each deal) comes
from the tournament's seed and the round number alone, so a tournament replays exactly.

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
"by agreement") are numbered 1307-1312, after rule 1306 of ``docs/rules.md``;
:data:`RULES_NOTE` is their text, to be added there.

* **Payouts** by the winner's life at the end of the game (1303): above 8 the loser pays all
  its talents, 5-8 a ransom of (life - 4) is set and the loser plays on with single-card
  draws (1304), below 5 one talent. A draw pays nothing; a resignation is a loss (1305).
* **Pairing** (1307): every round pairs as many players still in as possible, each against a
  player of another team, in standings order (most talents first, then a seeded lot), each
  player taking the first opponent it has met the fewest times. Players left over sit out.
* **Ransoms** (1308-1310) are paid between rounds, by the prisoner's richest teammate who
  keeps at least one talent after paying (or by several, richest first, if none can alone).
* **Out** (1302, 1311): a player with no talents is out for good; ransoms it holds or owes
  lapse.
* **Winning** (1312): most talents after the last round; equal talents share the place.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from parlor.rules.state import Settings

DEFAULT_TALENTS = 4  # 1302: the dole
DEFAULT_ROUNDS = 6
RANSOM_BASE = 4  # 1303.2: the ransom is the winner's life minus 4


class TournamentError(ValueError):
    """A tournament that cannot be set up, or a step that does not fit its state."""


# -- payouts (1303) --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Payout:
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
class TournamentSettings:
    rounds: int = DEFAULT_ROUNDS  # 1302: the set number of rounds
    talents: int = DEFAULT_TALENTS  # 1302: each player's dole
    max_turns: int = 200  # 1203: a game's turn limit (a draw after it)
    match_play: bool = True  # 1306: match strictures (closed Discard piles)
    auto_ransom: bool = True  # 1308: teammates pay ransoms when able (off: never)

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise TournamentError("a tournament needs at least one round")
        if self.talents < 1:
            raise TournamentError("each player needs a dole of at least one talent (1302)")
        if self.max_turns < 1:
            raise TournamentError("max_turns must be at least 1")


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    team: str
    talents: int
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    out_round: int | None = None  # the round in which it lost its last talent

    @property
    def is_in(self) -> bool:
        return self.talents > 0


@dataclass(frozen=True, slots=True)
class Ransom:
    """``prisoner`` plays with single-card draws until its team pays ``amount`` talents to
    ``holder`` (1303.2)."""

    prisoner: int
    holder: int
    amount: int
    round: int


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of a round: ``seats`` are player indices seated as Rlr 1 and Rlr 2."""

    round: int
    table: int
    seats: tuple[int, int]
    seed: int  # the deal's seed
    single_draw: tuple[bool, bool]  # 1304: per seat

    def game_settings(self, ts: TournamentSettings) -> Settings:
        """The engine settings of this game: match strictures and single-card draws."""
        return Settings(max_turns=ts.max_turns, match_play=ts.match_play,
                        single_draw=self.single_draw)


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    pairings: tuple[Pairing, ...]
    sitting_out: tuple[int, ...]  # players in the tournament who have no game (1307.2)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one game ended. ``winner`` is a player index (None for a draw); ``how`` is
    "attack", "resign" or "draw"."""

    round: int
    table: int
    seats: tuple[int, int]
    seed: int
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
class Settlement:
    """A game and what it cost: ``paid`` talents from loser to winner, or a ransom set."""

    outcome: Outcome
    bracket: str  # "all", "ransom", "one" or "draw"
    paid: int
    ransom: int = 0


@dataclass(frozen=True, slots=True)
class Tournament:
    settings: TournamentSettings
    seed: int
    players: tuple[Player, ...]
    round: int = 0  # rounds completed
    ransoms: tuple[Ransom, ...] = ()
    results: tuple[Settlement, ...] = ()
    log: tuple[str, ...] = field(default=())

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
                   settings: TournamentSettings | None = None, seed: int = 0) -> Tournament:
    """A tournament of ``teams`` (name, player names), each player with the dole (1302)."""
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
            players.append(Player(name, team, ts.talents))
    if len(team_names) < 2:
        raise TournamentError("a tournament needs at least two teams (1301)")
    log = (f"{len(players)} players in {len(team_names)} teams, {ts.talents} talents each, "
           f"{ts.rounds} rounds (1301, 1302)",)
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


def is_over(t: Tournament) -> bool:
    """After the last round, or once no two players still in are of different teams."""
    if t.round >= t.settings.rounds:
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
    number = t.round + 1
    rng = random.Random(f"parlor-tournament:{t.seed}:{number}")
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
        Pairing(number, table, (a, b), rng.getrandbits(32), (t.held(a), t.held(b)))
        for table, (a, b) in enumerate(pairs, 1))
    return Round(number, pairings, tuple(sorted(sitting, key=rank.__getitem__)))


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


def ransom_payers(t: Tournament, r: Ransom) -> list[tuple[int, int]]:
    """Who pays ransom ``r`` now, and how much each (empty: it cannot be paid yet).

    The prisoner's teammates still in the tournament pay, never the prisoner itself (1308).
    A payer keeps at least one talent (1309). The richest teammate able to pay it alone does
    (the first listed among equals); otherwise teammates club together, richest first, if
    together they can cover it."""
    team = t.players[r.prisoner].team
    mates = [i for i, p in enumerate(t.players)
             if p.team == team and i != r.prisoner and p.is_in]
    mates.sort(key=lambda i: -t.players[i].talents)  # stable: listing order among equals
    spare = {i: t.players[i].talents - 1 for i in mates}
    alone = [i for i in mates if spare[i] >= r.amount]
    if alone:
        return [(alone[0], r.amount)]
    if sum(spare.values()) < r.amount:
        return []
    out: list[tuple[int, int]] = []
    due = r.amount
    for i in mates:
        give = min(spare[i], due)
        if give:
            out.append((i, give))
            due -= give
        if not due:
            break
    return out


def pay_ransoms(t: Tournament) -> Tournament:
    """Pay every ransom that can be paid, oldest first (1308-1310)."""
    t = _lapse(t)
    if not t.settings.auto_ransom or not t.ransoms:
        return t
    players = list(t.players)
    log = list(t.log)
    keep: list[Ransom] = []
    for r in t.ransoms:
        payers = ransom_payers(replace(t, players=tuple(players)), r)
        if not payers:
            keep.append(r)
            continue
        for i, amount in payers:
            _set(players, i, talents=players[i].talents - amount)
        _set(players, r.holder, talents=players[r.holder].talents + r.amount)
        who = " and ".join(f"{players[i].name} ({n})" for i, n in payers)
        log.append(f"{who} pay{'s' if len(payers) == 1 else ''} the ransom of "
                   f"{players[r.prisoner].name}: {_talents(r.amount)} to "
                   f"{players[r.holder].name} (1308)")
    before = dict.fromkeys(r.prisoner for r in t.ransoms)
    for i in before:
        if all(r.prisoner != i for r in keep):
            log.append(f"{players[i].name} is released: two-card draws again (1310)")
    return replace(t, players=tuple(players), ransoms=tuple(keep), log=tuple(log))


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


def end_round(t: Tournament) -> Tournament:
    """Close a round: ransoms are paid (1308), then the round counts as played."""
    t = pay_ransoms(t)
    t = replace(t, round=t.round + 1)
    if is_over(t):
        t = replace(t, log=(*t.log, _final_line(t)))
    return t


def play_round(t: Tournament, rnd: Round, outcomes: Sequence[Outcome]) -> Tournament:
    """A whole round at once: sitters, every game's settlement, then :func:`end_round`."""
    if rnd.number != t.round + 1:
        raise TournamentError(f"round {rnd.number} is not the next round ({t.round + 1})")
    t = sit_out(t, rnd)
    for o in outcomes:
        t = settle(t, o)
    return end_round(t)


# -- standings (1312) ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
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
class TeamStanding:
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


RULES_NOTE = """\
**1307.** Pairing [Choice]. Each round pairs the players still in (1302), never two of the same
team (1301), in as many games as the teams allow.
- 1307.1 Order: most talents first; equal talents in an order drawn by lot from the tournament's
  seed for that round.
- 1307.2 If not everyone can play, those who sit out are chosen among the players whose absence
  still allows the most games: the fewest rounds sat out so far first, then the lowest in the
  order. Sitting out pays nothing.
- 1307.3 Down the order, each unpaired player meets the first unpaired player of another team
  whom it has met the fewest times, so long as everyone else left can still be paired. The higher
  player sits as Rlr 1; who goes first is still dealt at random (106).
- 1307.4 Each game is dealt from a seed drawn from the tournament's seed, so the pairings and
  deals of a tournament replay exactly.

**1308.** Ransom [Choice]. Ransoms are paid between rounds, after all the round's games, oldest
first. The prisoner's teammates pay, never the prisoner itself: the teammate with the most
talents pays it whole if it can, otherwise teammates club together, richest first. Payment is
automatic whenever it is possible (a setting can turn it off: then no ransom is ever paid).

**1309.** A payer always keeps at least one talent: paying a ransom never puts a player out.

**1310.** A player held by several ransoms (one per 5-8 loss) draws single cards until all are
paid. Released, it draws two again from its next game on.

**1311.** A player with no talents is out for good. A ransom owed by a player who is out, or owed
to one, lapses, and in the second case the prisoner is released without payment.

**1312.** The tournament ends after the set number of rounds, or sooner once no two players still
in are of different teams. Players are ranked by talents. Equal talents share a place, and
players tied for the most talents share the win. Team totals are shown for information only.
A game that reaches the turn limit (1203) is a draw and pays nothing (1305). The payout uses the
winner's life when the game ends, a resignation included.
"""


__all__ = [
    "DEFAULT_ROUNDS",
    "DEFAULT_TALENTS",
    "RULES_NOTE",
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
    "settle",
    "sit_out",
    "standings",
    "team_standings",
    "winners",
]
