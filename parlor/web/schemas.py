"""The JSON API's contract (issue 39): a pydantic model for every request body, query and
response of ``/api/*``, one error model, and the statuses each route really sends.

The routes read their bodies with ``json_of`` and check them by hand, with the sentences the
pages show; :func:`checked` then holds the body to its model here, so a body the OpenAPI
document calls invalid is refused (400, naming the field) and one it calls valid is read as
the document says. :func:`install` writes the OpenAPI document from :data:`ROUTES`: only the
API (the pages are not a client's business), bodies required (the API takes JSON only:
``{}`` when there is nothing to say), query parameters typed, and per route the error
statuses it sends (no FastAPI 422 "validation error": the app answers 400).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypeVar

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from parlor.puzzles.model import GOALS, THEMES
from parlor.web.games import BadAction

#: The largest number a move, log position or seed counter reaches in a query.
BIG = 10**7


class _Open(BaseModel):
    """A reply or body that may carry more keys than described (newer fields; a client
    ignores what it does not know)."""

    model_config = ConfigDict(extra="allow")


# -- errors ---------------------------------------------------------------------------------------


class ErrorBody(_Open):
    """Every 4xx/5xx of the API: a code, a sentence for people, and what the error carries
    (``version``: the table's move number; ``retry_after``: seconds before asking again)."""

    error: str = Field(description="a short code: bad_action, not_found, stale, ...")
    message: str = Field(description="what went wrong, in a sentence")
    rule: str | None = Field(None, description="the rule that refused it, when one did")
    version: int | None = None
    retry_after: int | None = None


# -- requests -------------------------------------------------------------------------------------

NonNegative = Annotated[int, Field(ge=0, le=BIG)]
Notation = Annotated[str, Field(min_length=1, max_length=200, pattern=r"\S",
                                description="an action in the game's notation, e.g. 'play 9D'")]


def _range(lo: int, hi: int) -> str:
    """A pattern for the text of a whole number from ``lo`` to ``hi`` (a form field's)."""
    return f"^0*({'|'.join(str(n) for n in range(lo, hi + 1))})$"


#: Whole numbers as a number or as the text of a form field ("" when it is left empty).
Turns = Annotated[int, Field(ge=2, le=1000)] | Annotated[str, Field(pattern=_range(2, 1000))]
_EMPTY = Annotated[str, Field(max_length=0)]
_ROUNDS = Annotated[int, Field(ge=1, le=20)] | Annotated[str, Field(pattern=_range(1, 20))]
_MINUTES = Annotated[int, Field(ge=1, le=240)] | Annotated[str, Field(pattern=_range(1, 240))]
_ROUNDS_T: Any = _ROUNDS  # the types themselves, for TypeAdapter
_MINUTES_T: Any = _MINUTES
_TALENTS = Annotated[int, Field(ge=1, le=50)] | Annotated[str, Field(pattern=_range(1, 50))]


class NewGame(_Open):
    level: str | None = Field(None, description="a computer level (GET /api/levels); "
                              "default: the server's default")
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] | Annotated[
        str, Field(pattern=r"^[0-9]{1,18}$")] | None = Field(
        None, description="a practice deal number; none: a secret deal")
    max_turns: Turns = 200
    mode: Literal["casual", "match"] | None = None
    rated: bool | Literal["", "0", "1", "on", "true", "false"] | None = Field(
        None, description="a rated game (issue 43): refused unless signed in, in match mode, "
        "from a fresh deal, against a level with a calibrated rating (GET /api/levels)")


class Act(_Open):
    """One action (``action``) or a declaration sent whole (``actions``)."""

    action: Notation | None = None  # absent, never null: see _not_null
    actions: Annotated[list[Notation], Field(min_length=1, max_length=60)] | None = None
    version: int = Field(description="the move number the table showed")
    takebacks: NonNegative | None = Field(None, description="the takebacks the table showed")
    log_from: NonNegative = Field(0, description="the first log entry wanted")

    model_config = ConfigDict(extra="allow", json_schema_extra=lambda s: _not_null(
        s, "action", "actions", anyOf=[{"required": ["action"]}, {"required": ["actions"]}]))

    @model_validator(mode="before")
    @classmethod
    def _one_of(cls, data: Any) -> Any:
        if isinstance(data, dict):
            for name in ("action", "actions"):
                if name in data and data[name] is None:
                    raise ValueError(f"{name}: send a value, or leave it out")
            if "action" not in data and "actions" not in data:
                raise ValueError("send 'action' (or a declaration as 'actions')")
        return data


def _not_null(schema: dict[str, Any], *names: str, **extra: Any) -> None:
    """Fields that may be left out but are never null (the route reads null as missing)."""
    for name in names:
        prop = schema["properties"][name]
        prop.pop("default", None)
        schema["properties"][name] = {**prop.pop("anyOf")[0], **prop}
    schema.update(extra)


class Preview(_Open):
    actions: Annotated[list[Notation], Field(min_length=1, max_length=60)]
    version: int


class Takeback(_Open):
    version: int
    takebacks: NonNegative | None = None
    log_from: NonNegative = 0


class Rematch(_Open):
    level: str | None = Field(None, description="a computer level; none: the game's own")


class Record(_Open):
    record: Annotated[str, Field(min_length=1, pattern=r"\S",
                                 description="a game record (GET .../record)")]


class Empty(_Open):
    """Nothing to say: ``{}``."""


class AnalysisAsk(_Open):
    seed: Annotated[int, Field(ge=0, le=2**31 - 1)] = 0


class LessonMove(_Open):
    moves: Annotated[list[str], Field(max_length=60)] = Field(
        default_factory=list, description="the learner's accepted moves so far")
    action: Notation | None = Field(None, description="the next move; none: the lesson's table")


class PuzzlePlayer(_Open):
    """An anonymous browser's puzzle rating, kept in its localStorage, and its random id
    (a result counts once per id); ignored for a signed-in account (kept on the server)."""

    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{8,40}$")]
    rating: Annotated[float, Field(ge=-2000, le=6000)]
    rd: Annotated[float, Field(ge=0, le=350)]
    volatility: Annotated[float, Field(gt=0, le=1)]


class PuzzleMove(_Open):
    moves: Annotated[list[str], Field(max_length=40)] = Field(
        default_factory=list, description="the solver's accepted moves so far")
    action: Notation | None = Field(None, description="the next move; none: the table now")
    player: PuzzlePlayer | None = None


class PuzzleHintAsk(_Open):
    moves: Annotated[list[str], Field(max_length=40)] = Field(default_factory=list)
    level: Annotated[int, Field(ge=1, le=2, description="1: the theme, 2: the card")] = 1


class PuzzleSolutionAsk(_Open):
    step: Annotated[int, Field(ge=0, le=40, description="decisions of the line shown")] = 0
    player: PuzzlePlayer | None = None


class Team(_Open):
    name: Annotated[str, Field(pattern=r"^[A-Za-z][A-Za-z0-9]{0,11}$")]
    players: Annotated[list[str], Field(min_length=1, max_length=8)]


def _rounds_or_minutes(schema: dict[str, Any]) -> None:
    """Exactly one of the two ends a tournament (1312); "" and null say nothing."""
    schema["oneOf"] = [
        {"required": [name], "properties": {name: TypeAdapter[Any](kind).json_schema()}}
        for name, kind in (("rounds", _ROUNDS_T), ("minutes", _MINUTES_T))]


class NewTournament(_Open):
    """The line-up and settings. The rules refuse more than 16 players in all, a name twice
    and the person on two teams (400); the schema cannot say so."""

    model_config = ConfigDict(extra="allow", json_schema_extra=_rounds_or_minutes)

    teams: Annotated[list[Team], Field(min_length=2, max_length=8)]
    rounds: _ROUNDS | _EMPTY | None = None
    minutes: _MINUTES | _EMPTY | None = None
    talents: _TALENTS | _EMPTY | None = None
    max_turns: Turns | _EMPTY | None = None
    seed: Annotated[int, Field(ge=0, le=2**31 - 1)] | Annotated[
        str, Field(pattern=r"^[0-9]{0,9}$")] | None = None
    title: str | None = None


class Payer(_Open):
    player: str
    talents: int


class Ransom(_Open):
    ransom: int = 0
    pay: bool
    payers: Annotated[list[Payer], Field(min_length=1)] | None = None


M = TypeVar("M", bound=BaseModel)


def checked(model: type[M], data: dict[str, Any]) -> M:
    """``data`` read as ``model`` (strictly: no text for a number, no number for a flag),
    or BadAction naming the field and what it must be."""
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or "the body"
        raise BadAction(f"{where}: {first.get('msg', 'not valid')}") from None


# -- replies --------------------------------------------------------------------------------------


class LogEntry(_Open):
    n: int
    text: str
    notation: str
    kind: str
    rule: str | None = None
    automatic: bool
    why: Any = None


class TableCard(_Open):
    """A Lnd or Cre on the table with its Enhs (``parlor.rules.view.TableCard``)."""

    ref: str = Field(description="owner-qualified, '2:KS'")
    card: str
    enhs: list[str]
    text: str
    taxed_on: int | None
    inactive: bool
    damage: int
    terminal: bool
    pwr: int
    tgh: int


class SideView(_Open):
    """One Rlr's half of the spread; ``hand`` is null when hidden from the reader,
    ``discard`` when closed (match play)."""

    life: int
    pool: Annotated[list[int], Field(min_length=4, max_length=4)]
    hand: list[str] | None
    hand_count: int
    draw_count: int
    recycle_count: int
    recycle_known: list[str]
    recycle_face_up: list[str]
    discard: list[str] | None
    discard_count: int
    home: list[TableCard]
    field: list[TableCard]
    domain: list[str]


class CombatView(_Open):
    attackers: list[str]
    blocks: list[Annotated[list[str], Field(min_length=2, max_length=2)]]
    blocked: list[str]
    used: list[str]
    pending: list[Annotated[list[str | int], Field(min_length=2, max_length=2)]]
    split: list[str]
    split_left: int
    bonus_left: int
    bonus_to: list[str]
    o_dealt: bool


class TableView(_Open):
    """The table as the reader may see it (``parlor.rules.view.View``, less its log)."""

    player: int
    settings: str
    turn: int
    phasing: int
    phase: str
    actor: int
    trump: str | None
    stack: list[str]
    sides: Annotated[list[SideView], Field(min_length=2, max_length=2)]
    drawn: list[str] | None
    drawn_count: int
    lnd_played: bool
    redrawn: bool
    combat: CombatView | None
    legal: list[str] = Field(description="the reader's legal actions, when it is theirs")
    winner: int | None
    result: str


Seed = int | str | None


class Choice(_Open):
    """One of ``view.legal``, as the engine parses it (parlor.web.games.choices)."""

    text: str = Field(description="the action in the game's notation, as sent back")
    verb: str
    card: str | None = Field(description="the acting card's face (the reader's own), if any")
    target: str | None = Field(description="the target: a table card (2:KS), D1, D2 or T")


class Snapshot(_Open):
    """A game as its player sees it."""

    id: str
    kind: str
    version: int
    takebacks: int
    level: str
    settings: str
    status: Literal["live", "over", "failed"]
    failure: str | None
    you: int
    seed: Seed
    practice: bool
    thinking: bool
    thinking_now: bool | None = None
    your_turn: bool
    takeback: bool
    task: str
    view: TableView
    choices: list[Choice] = Field(description="view.legal, parsed: what the page offers")
    log: list[LogEntry]
    log_total: int
    result_text: str | None
    costs: dict[str, str]
    why_not: dict[str, str]
    coach: dict[str, str]
    forecast: dict[str, str] = Field(
        default_factory=dict, description="the fight's forecast for each combat decision, by "
        "action: what follows if nobody plays another card (issue 41)")
    staged: list[str] | None = None


class PreviewReply(_Open):
    """The table with the staged declarations, or ``{"final": true}`` when one completes the
    decision (then send them all as an action)."""

    final: bool | None = None
    version: int
    view: TableView | None = None
    choices: list[Choice] | None = None


class Spectated(_Open):
    id: str
    kind: str
    version: int
    settings: str
    status: Literal["live", "over", "aborted", "drawn"]  # a friend game's (issue 45)
    title: str
    you: int
    your_turn: bool
    view: TableView
    log: list[LogEntry]
    log_total: int
    result_text: str | None
    seed: Seed = None


class ReplayStep(_Open):
    id: str
    kind: str
    step: int
    steps: int
    seat: int
    you: int | None = Field(None, description="the player's seat in a game against the "
                            "computer (0 = Rlr 1); null for an imported record")
    seed: int | str
    settings: str
    title: str
    last: str | None
    next: str | None
    view: TableView
    log: list[LogEntry]
    log_total: int
    result_text: str | None


class PastPosition(_Open):
    """An earlier position of a casual game still played (the move list, issue 41): the
    player's own view of it, without the seed or the record's actions (secret until the
    end)."""

    id: str
    kind: str
    in_play: Literal[True]
    step: int
    steps: int
    version: int
    takebacks: int
    seat: int
    you: int
    view: TableView
    log_total: int = Field(description="the log entries written by then")


class Replayed(RootModel[ReplayStep | PastPosition]):
    """A step of a finished game's replay, or of a casual game in play (its player's own
    view)."""


class Move(_Open):
    step: int = Field(description="the position after this move is the replay's step")
    turn: int
    by: int = Field(description="the seat that made it (0 = Rlr 1)")
    log: int = Field(description="the log entries written before it")
    text: str = Field(description="the move in words, as the reader's log tells it")


class MoveList(_Open):
    id: str
    start: int = Field(alias="from")
    steps: int
    version: int
    takebacks: int
    in_play: bool
    moves: list[Move]


class Created(_Open):
    id: str
    token: str = Field(description="the player's secret: send it as X-Parlor-Token")
    url: str


class NewGameReply(Created):
    snapshot: Snapshot


class Imported(Created):
    steps: int


class Handover(_Open):
    url: str
    seconds: int


class Hint(_Open):
    action: str
    alternatives: list[dict[str, Any]]
    source: str
    seconds: float
    budget: str
    version: int | None


class LevelRatingInfo(_Open):
    rating: int
    rd: int = Field(description="the rating's deviation, the RD a rated game uses for it")
    interval: list[int] = Field(description="rating ± 1.96 rd: its 95% interval among the levels")


class Levels(_Open):
    levels: list[str]
    accepted: list[str]
    default: str
    ratings: dict[str, LevelRatingInfo] = Field(
        description="the calibrated levels' ratings (bench/ratings.py); a level not here "
        "cannot be played rated")


class GameRowReply(_Open):
    id: str
    kind: str
    level: str
    turn: int
    status: str
    result: str
    title: str
    created: float
    updated: float
    moves: int
    settings: str
    practice: bool
    seed: Seed
    url: str


class GameList(_Open):
    games: list[GameRowReply]


class Analysis(_Open):
    id: str
    thresholds: dict[str, float]
    player: int
    status: Literal["none", "running", "done", "failed"]
    done: int
    total: int
    seed: int | None = None
    iterations: int | None = None
    decisions: list[dict[str, Any]] | None = None
    error: str | None = None


class LessonIndex(_Open):
    lessons: list[dict[str, Any]]


class LessonSnapshot(_Open):
    id: str
    kind: Literal["lesson"]
    version: int
    status: Literal["live", "over"]
    you: int
    your_turn: bool
    view: TableView
    choices: list[Choice] = Field(description="view.legal, parsed: what the page offers")
    log: list[LogEntry]
    moves: list[str]
    lesson: dict[str, Any]


class PuzzleSnapshot(_Open):
    id: str
    kind: Literal["puzzle"]
    version: int
    status: Literal["live", "over"]
    you: int
    your_turn: bool
    view: TableView
    choices: list[Choice] = Field(description="view.legal, parsed: what the page offers")
    log: list[LogEntry]
    moves: list[str]
    puzzle: dict[str, Any]


class PuzzleIndex(_Open):
    puzzles: list[dict[str, Any]]


class PuzzleHint(_Open):
    level: int
    text: str
    card: str | None = None


class TournamentState(_Open):
    id: str
    title: str
    version: int
    status: Literal["live", "over"]
    round: int
    rounds: int | None
    minutes: int | None
    talents: int
    max_turns: int
    seed: Seed
    practice: bool
    you: str | None
    tables: list[dict[str, Any]]
    standings: list[dict[str, Any]]
    asked: list[dict[str, Any]]
    ransoms: list[dict[str, Any]]
    results: list[dict[str, Any]]
    log: list[Any]
    failure: str | None


class Report(_Open):
    """The finished tournament's report (``parlor.tournament.report``)."""


# -- games between two people (issue 45: parlor.web.routes.friends) ----------------------------


class FriendInvite(_Open):
    mode: Literal["casual", "match"] = "casual"
    seat: Literal[1, 2, "1", "2", "random"] | None = Field(
        None, description="the inviter's seat; default: random")
    max_turns: Annotated[int, Field(ge=2, le=1000)] = 200
    clock: str | None = Field(
        None, max_length=20, examples=["300+3"],
        description="a Fischer clock: base+increment in seconds (base 10 to 10800, "
        "increment 0 to 600), kept by the server; absent or \"none\": no clock")


class Invited(_Open):
    id: str
    token: str = Field(description="the inviter's secret: send it as X-Parlor-Token")
    url: str
    seat: int
    invitation_url: str = Field(description="send it to the friend: the first to open it "
                                "takes the other seat")
    invitation_until: float
    invitation_seconds: int
    watch_url: str
    rated_text: str = Field(description="one line: whether the game will be rated (match "
                            "play between two signed-in accounts)")


class Accepted(_Open):
    id: str
    spectator: bool
    token: str | None = None
    url: str | None = None
    seat: int | None = None
    watch_url: str | None = None


class FriendVersion(_Open):
    version: int = Field(description="the move number the table showed")


class FriendOffer(_Open):
    offer: Literal["draw", "takeback"] = Field(
        description="a draw, or (casual play) to take back your last decision: the other "
        "player accepts or declines")
    version: int = Field(description="the move number the table showed")


class FriendAnswer(_Open):
    accept: bool = Field(description="true accepts the other player's open offer")
    version: int = Field(description="the move number the table showed")


class Rematched(_Open):
    id: str
    url: str
    seat: int
    token: str | None = Field(None, description="the new game's secret, when this call gave "
                              "the seat (else the browser that asked has it)")


class FriendSnapshot(Snapshot):
    """A friend game as one of its players sees it, with ``friend``: the seats, whose
    decision it is and what the other is doing in words."""

    status: Literal["live", "over", "failed", "aborted", "drawn"]  # type: ignore[assignment]
    friend: dict[str, Any]


# -- the routes ---------------------------------------------------------------------------------

#: What every route may answer: a store that cannot be read (503), a stored game that does
#: not replay or a computer that failed (500).
_SERVER = (500, 503)
#: A write: a body that is not JSON or not an object (400), from another site (403), not
#: JSON (415), too large (413).
_WRITE = (400, 403, 413, 415)
#: A game of someone else's (403), no such game (404).
_GAME = (403, 404)


@dataclass(frozen=True)
class Route:
    ok: int
    reply: type[BaseModel] | None  # None: text/plain
    errors: tuple[int, ...]
    body: type[BaseModel] | None = None
    query: dict[str, dict[str, Any]] = field(default_factory=dict)
    summary: str = ""


def _int(lo: int, hi: int, what: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": lo, "maximum": hi, "description": what}


_AFTER = _int(-1, BIG, "answer at once unless the version is past this one")
_WAIT = _int(0, 30, "seconds to wait for a change past 'after' (0: answer at once)")
_LOG_FROM = _int(0, BIG, "the first log entry wanted (the page has the earlier ones)")

ROUTES: dict[tuple[str, str], Route] = {
    ("get", "/api/levels"): Route(200, Levels, ()),
    ("get", "/api/games"): Route(200, GameList, _SERVER),
    ("post", "/api/games"): Route(201, NewGameReply, (401, *_WRITE, 409, *_SERVER), NewGame),
    ("get", "/api/games/{game_id}"): Route(
        200, Snapshot, (400, *_GAME, *_SERVER),
        query={"after": _AFTER, "wait": _WAIT, "log_from": _LOG_FROM}),
    ("post", "/api/games/{game_id}/actions"): Route(
        200, Snapshot, (*_WRITE, *_GAME, 409, 422, *_SERVER), Act),
    ("post", "/api/games/{game_id}/preview"): Route(
        200, PreviewReply, (*_WRITE, *_GAME, 409, 422, *_SERVER), Preview),
    ("post", "/api/games/{game_id}/takeback"): Route(
        200, Snapshot, (*_WRITE, *_GAME, 409, *_SERVER), Takeback),
    ("get", "/api/games/{game_id}/hint"): Route(
        200, Hint, (400, *_GAME, 409, 429, *_SERVER),
        query={"version": _int(0, BIG, "the move number the table showed")}),
    ("post", "/api/games/{game_id}/rematch"): Route(
        201, Created, (*_WRITE, *_GAME, *_SERVER), Rematch),
    ("post", "/api/games/{game_id}/handover"): Route(
        201, Handover, (*_WRITE, *_GAME, *_SERVER), Empty),
    ("get", "/api/games/{game_id}/record"): Route(200, None, (*_GAME, 409, *_SERVER)),
    ("get", "/api/games/{game_id}/analysis"): Route(
        200, Analysis, (*_GAME, 409, 422, *_SERVER)),
    ("post", "/api/games/{game_id}/analysis"): Route(
        202, Analysis, (*_WRITE, *_GAME, 409, 422, *_SERVER), AnalysisAsk),
    ("post", "/api/records"): Route(201, Imported, (*_WRITE, *_SERVER), Record),
    ("get", "/api/replays/{game_id}"): Route(
        200, Replayed, (400, *_GAME, 409, *_SERVER),
        query={"step": _int(0, 10**6, "actions from the start"),
               "seat": _int(1, 2, "whose view: Rlr 1 or 2 (during play: yours only)")}),
    ("get", "/api/replays/{game_id}/moves"): Route(
        200, MoveList, (400, *_GAME, 409, *_SERVER),
        query={"from": _int(0, 10**6, "the first move wanted (the page has the earlier)")}),
    ("get", "/api/watch/{game_id}"): Route(
        200, Spectated, (400, 403, 404, *_SERVER),
        query={"k": {"type": "string", "description": "the spectator key of the game's "
                     "watch link"},
               "after": _AFTER, "wait": _WAIT, "log_from": _LOG_FROM}),
    ("get", "/api/lessons"): Route(200, LessonIndex, ()),
    ("post", "/api/lessons/{lesson_id}"): Route(
        200, LessonSnapshot, (*_WRITE, 404, 422), LessonMove),
    # puzzles (issue 44)
    ("get", "/api/puzzles"): Route(200, PuzzleIndex, (400,), query={
        "theme": {"type": "string", "enum": ["", *THEMES]},
        "goal": {"type": "string", "enum": ["", *GOALS]}}),
    ("post", "/api/puzzles/{puzzle_id}"): Route(
        200, PuzzleSnapshot, (*_WRITE, 404, 422, *_SERVER), PuzzleMove),
    ("post", "/api/puzzles/{puzzle_id}/hint"): Route(
        200, PuzzleHint, (*_WRITE, 404), PuzzleHintAsk),
    ("post", "/api/puzzles/{puzzle_id}/solution"): Route(
        200, PuzzleSnapshot, (*_WRITE, 404, *_SERVER), PuzzleSolutionAsk),
    ("post", "/api/tournaments"): Route(201, Created, (*_WRITE, *_SERVER), NewTournament),
    ("get", "/api/tournaments/{tid}"): Route(
        200, TournamentState, (400, *_GAME, *_SERVER),
        query={"after": _AFTER, "wait": _WAIT}),
    ("post", "/api/tournaments/{tid}/ransom"): Route(
        200, TournamentState, (*_WRITE, *_GAME, 409, *_SERVER), Ransom),
    ("get", "/api/tournaments/{tid}/report"): Route(200, Report, (*_GAME, 409, *_SERVER)),
    ("get", "/api/tournaments/{tid}/tables/{table}"): Route(
        200, Spectated, (400, *_GAME, *_SERVER),
        query={"after": _AFTER, "wait": _WAIT, "log_from": _LOG_FROM}),
    # games between two people (issue 45)
    ("post", "/api/friends"): Route(201, Invited, (*_WRITE, *_SERVER), FriendInvite),
    ("post", "/api/invitations/{code}"): Route(
        200, Accepted, (*_WRITE, 404, 410, *_SERVER), Empty),
    ("get", "/api/friends/{game_id}"): Route(
        200, FriendSnapshot, (400, *_GAME, *_SERVER),
        query={"after": _AFTER, "wait": _WAIT, "log_from": _LOG_FROM,
               "seated": _int(0, 1, "1 if the client's table has the friend seated: "
                              "otherwise news, answered at once"),
               "news": {"type": "string", "maxLength": 200,
                        "description": "the friend.news the client has: otherwise news "
                        "(an offer, a rematch, the other gone), answered at once"}}),
    ("post", "/api/friends/{game_id}/actions"): Route(
        200, FriendSnapshot, (*_WRITE, *_GAME, 409, 422, *_SERVER), Act),
    ("post", "/api/friends/{game_id}/preview"): Route(
        200, PreviewReply, (*_WRITE, *_GAME, 409, 422, *_SERVER), Preview),
    ("get", "/api/friends/{game_id}/hint"): Route(
        200, Hint, (400, *_GAME, *_SERVER),
        query={"version": _int(0, BIG, "the move number the table showed")}),
    ("post", "/api/friends/{game_id}/resign"): Route(
        200, FriendSnapshot, (*_WRITE, *_GAME, 409, *_SERVER), FriendVersion),
    ("post", "/api/friends/{game_id}/abort"): Route(
        200, FriendSnapshot, (*_WRITE, *_GAME, 409, *_SERVER), FriendVersion),
    ("post", "/api/friends/{game_id}/claim"): Route(
        200, FriendSnapshot, (*_WRITE, *_GAME, 409, *_SERVER), FriendVersion),
    ("post", "/api/friends/{game_id}/offer"): Route(
        200, FriendSnapshot, (*_WRITE, *_GAME, 409, *_SERVER), FriendOffer),
    ("post", "/api/friends/{game_id}/answer"): Route(
        200, FriendSnapshot, (*_WRITE, *_GAME, 409, *_SERVER), FriendAnswer),
    ("post", "/api/friends/{game_id}/rematch"): Route(
        200, Rematched, (*_WRITE, *_GAME, 409, *_SERVER), Empty),
}

_REASONS = {400: "Bad request: the message names what is wrong",
            401: "Not signed in (a rated game needs an account)", 403: "Not yours, or sent "
            "from another site", 404: "No such game (or lesson, tournament, table)",
            405: "Method not allowed (see Allow)", 409: "Not now: the table changed, the "
            "game is over, it is not your decision, or the level cannot be played rated",
            413: "Body too large",
            415: "Not application/json", 422: "Refused by the rules: the message says which",
            410: "The invitation ran out before anyone accepted it",
            429: "Too many hints: ask again after Retry-After seconds",
            500: "A stored game that does not replay, or the computer failed",
            503: "The store cannot answer, or the service is busy (analyses: see "
                 "Retry-After): try again"}


def _ref(model: type[BaseModel], defs: dict[str, Any]) -> dict[str, Any]:
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}",
                                     mode="serialization")
    defs.update(schema.pop("$defs", {}))
    defs[model.__name__] = schema
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def _request_ref(model: type[BaseModel], defs: dict[str, Any]) -> dict[str, Any]:
    name = model.__name__ + "Body"
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}",
                                     mode="validation")
    defs.update(schema.pop("$defs", {}))
    schema["title"] = name
    defs[name] = schema
    return {"$ref": f"#/components/schemas/{name}"}


def _operation(op: dict[str, Any], path: str, route: Route, defs: dict[str, Any]) -> None:
    error = {"$ref": "#/components/schemas/ErrorBody"}
    responses: dict[str, Any] = {}
    if route.reply is None:
        responses[str(route.ok)] = {"description": "The record, as text",
                                    "content": {"text/plain": {"schema": {"type": "string"}}}}
    else:
        responses[str(route.ok)] = {"description": "OK", "content": {
            "application/json": {"schema": _ref(route.reply, defs)}}}
    for status in sorted({*route.errors, 405}):
        resp: dict[str, Any] = {"description": _REASONS[status],
                                "content": {"application/json": {"schema": error}}}
        if status == 405:
            resp["headers"] = {"Allow": {"schema": {"type": "string"},
                                         "description": "the methods this path takes"}}
        if status == 429:
            resp["headers"] = {"Retry-After": {"schema": {"type": "integer"},
                                               "description": "seconds"}}
        responses[str(status)] = resp
    op["responses"] = responses
    if ("{game_id}" in path and not path.startswith("/api/watch/")) or "{tid}" in path:
        op["security"] = [{"playerToken": []}]
    if route.body is not None:
        op["requestBody"] = {"required": True, "content": {
            "application/json": {"schema": _request_ref(route.body, defs)}}}
    else:
        op.pop("requestBody", None)
    for param in op.get("parameters", []):
        if param["in"] == "path":
            param["schema"] = {"type": "string", "pattern": r"^[A-Za-z0-9_-]{1,32}$"} \
                if param["name"] != "table" else {"type": "integer", "minimum": 1, "maximum": 16}
        elif param["in"] == "query" and param["name"] in route.query:
            param["schema"] = route.query[param["name"]]
            param.pop("description", None)


def install(app: FastAPI, levels: list[str], lessons: list[str]) -> None:
    """Write ``app``'s OpenAPI document from :data:`ROUTES` (once, on first request)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        doc = get_openapi(title=app.title, version=app.version, routes=app.routes,
                          description="The Parlor Magic JSON API. Send the player's token "
                          "as the X-Parlor-Token header. Errors are "
                          "{\"error\", \"message\", ...}.")
        defs: dict[str, Any] = {}
        _ref(ErrorBody, defs)
        paths: dict[str, Any] = {}
        for path, item in doc["paths"].items():
            if not path.startswith("/api/"):
                continue  # the pages: HTML for browsers
            for method, op in item.items():
                route = ROUTES.get((method, path))
                if route is None:
                    raise RuntimeError(f"{method.upper()} {path} has no contract in "
                                       "parlor.web.schemas.ROUTES")
                _operation(op, path, route, defs)
            paths[path] = item
        missing = {f"{m.upper()} {p}" for m, p in ROUTES if m not in paths.get(p, {})}
        if missing:
            raise RuntimeError(f"no such route, yet in ROUTES: {sorted(missing)}")
        _enums(defs, levels, lessons, paths)
        doc["paths"] = paths
        doc["components"] = {"schemas": defs, "securitySchemes": {"playerToken": {
            "type": "apiKey", "in": "header", "name": "X-Parlor-Token",
            "description": "the token a game (or tournament) was created with; a browser "
                           "sends it as the cookie pm_<game id> (pmt_<tournament id>)"}}}
        app.openapi_schema = doc
        return doc

    app.openapi = openapi  # type: ignore[method-assign]


def _enums(defs: dict[str, Any], levels: list[str], lessons: list[str],
           paths: dict[str, Any]) -> None:
    """The server's own levels and lessons, which only it knows."""
    level = {"type": "string", "enum": [*levels, ""]}  # "" (a form's empty choice): null
    defs["NewGameBody"]["properties"]["level"]["anyOf"][0] = level
    defs["RematchBody"]["properties"]["level"]["anyOf"][0] = level
    defs["Team"]["properties"]["players"]["items"] = {"type": "string",
                                                     "enum": [*levels, "human"]}
    for param in paths["/api/lessons/{lesson_id}"]["post"].get("parameters", []):
        if param["name"] == "lesson_id":
            param["schema"] = {"type": "string", "enum": lessons}


def json_number(text: str) -> int | float:
    """A JSON number with a fraction or exponent, as JSON Schema reads it: ``3.0`` is the
    integer 3 (a client's generator may write whole numbers so), ``2.5`` stays a float."""
    value = float(text)
    return int(value) if value.is_integer() else value


_PATHS = [(re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), method.upper())
          for method, path in ROUTES]


def methods_of(path: str) -> list[str] | None:
    """The methods an API path takes (the Guard answers 405 for others before it reads a
    body), or None when no route has it (404)."""
    found = sorted({method for pattern, method in _PATHS if pattern.match(path)})
    return found or None


def strict_int(value: str | None, name: str, default: int, lo: int, hi: int) -> int:
    """A query's whole number: digits (a leading minus where ``lo`` < 0), nothing else."""
    if value is None:
        return default
    if not re.fullmatch(r"-?[0-9]{1,12}", value):
        raise BadAction(f"{name} must be a whole number, not {value[:40]!r}")
    n = int(value)
    if not lo <= n <= hi:
        raise BadAction(f"{name} must be between {lo} and {hi}")
    return n


__all__ = ["ROUTES", "ErrorBody", "checked", "install", "methods_of", "strict_int"]
