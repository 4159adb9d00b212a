"""A reply at step 500 costs what it costs at step 5 (issue 38): the log entries are written
once per event and kept per line of play (``log_since``), the parts of a reply fixed by the
table are made once per position and carry their JSON (``position``, ``Encoded``), and the
reply is encoded with that JSON (``encode_reply``). Each fast path is held equal to its
readable reference, at every step of random games with takebacks, previews, and states
grown in place: ``_log_entries`` rendered from the start, ``_position_parts`` made anew,
and starlette's ``JSONResponse`` encoding the plain reply."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.responses import JSONResponse

from parlor.rules import view as view_module
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.state import COMBAT_STATUS, NONE, Settings, State
from parlor.rules.view import SPECTATOR, View, make_combat, make_side, make_table_card
from parlor.rules.view import view as real_view
from parlor.store import GameStore
from parlor.web import games as games_module
from parlor.web.games import (
    DECLARATIONS,
    LOG_KEPT,
    Encoded,
    GameError,
    Games,
    LiveGame,
    _log_entries,
    _position_parts,
    _side_dict,
    encode_reply,
    encoded_side,
    kept_combat,
    kept_sides,
    log_since,
    position,
    side_json,
)


def plain(x: Any) -> Any:
    """``x`` with every :class:`Encoded` dict a plain dict."""
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return type(x)(plain(v) for v in x)
    return x


def check(games: Games, live: LiveGame, rng: random.Random) -> None:
    """Every fast path at the live game's table equals its reference."""
    s = live.state
    total = len(s.log or ())
    for log_from in (0, total, max(0, total - 4), rng.randrange(total + 1), total + 3):
        with live.lock:
            for player, reader in ((live.human, live.human), (SPECTATOR, None), (0, None)):
                assert log_since(live, s, player, log_from, reader) == \
                    _log_entries(s, player, log_from, reader)
        snap = games.snapshot(live, log_from)
        watch = games.spectator_snapshot(live, log_from)
        for reply in (snap, watch):
            assert encode_reply(reply) == JSONResponse(plain(reply)).body
            assert json.loads(encode_reply(reply)) == json.loads(json.dumps(reply))
    with live.lock:
        for seat in (live.human, SPECTATOR):
            assert plain(position(live, s, seat)) == _position_parts(s, seat)
    # made again from nothing kept: the same reply
    kept = games.snapshot(live, 0)
    live.logs.clear()
    live.positions.clear()
    live.sides.clear()
    assert games.snapshot(live, 0) == kept


def play(games: Games, seed: int, steps: int) -> int:
    """A random game with takebacks and previews, checked at every step; its takebacks."""
    live, _ = games.create("random", seed, max_turns=2000)
    rng = random.Random(seed)
    takebacks = 0
    for _ in range(steps):
        s = live.state
        if s.is_over:
            break
        check(games, live, rng)
        choices = [str(a) for a in legal_actions(s)]
        text = rng.choice(choices)
        if s.actor != live.human:
            games.apply_computer(live, live.row.version, text, takebacks=live.row.takebacks)
            continue
        if rng.random() < 0.1 and games._can_take_back(live):
            games.takeback(live, live.row.version, 0, live.row.takebacks)
            takebacks += 1
            continue
        declared = [c for c in choices if c.split()[0] in DECLARATIONS]
        if declared and rng.random() < 0.5:  # a preview writes nothing that is kept
            with contextlib.suppress(GameError):
                games.preview(live, live.row.version, [rng.choice(declared)])
        games.act(live, live.row.version, text, rng.randrange(len(s.log or ()) + 1),
                  live.row.takebacks)
    return takebacks


@pytest.mark.slow  # random playouts, every reference rebuilt at every step (make check leaves it)
def test_replies_made_from_what_is_kept_equal_the_references(tmp_path: Path) -> None:
    games = Games(GameStore(f"sqlite:///{tmp_path / 'kept.db'}"), 10)
    takebacks = sum(play(games, seed, 160) for seed in range(5))
    assert takebacks > 3, "the line of play changed several times"


def test_a_state_grown_in_place_is_made_again() -> None:
    """A refresh replays new actions onto the cached state itself (Games._refresh_locked):
    what was kept for it is made again, and the log entries extended."""
    games = Games(GameStore("sqlite://"))
    live, _ = games.create("random", 8, max_turns=2000)
    rng = random.Random(8)
    for _ in range(120):
        s = live.state
        if s.is_over:
            break
        before = games.snapshot(live, 0)
        apply(s, rng.choice(legal_actions(s)))  # the same object, one action further
        after = games.snapshot(live, 0)
        assert len(after["log"]) >= len(before["log"])
        with live.lock:
            assert plain(position(live, s, live.human)) == _position_parts(s, live.human)
            assert after["log"] == _log_entries(s, live.human, 0, live.human)


def test_a_long_game_keeps_only_its_last_log_entries() -> None:
    """The entries kept per reader stay few however long the game (LOG_KEPT), and a reload
    (``log_from`` 0) still gets them all."""
    games = Games(GameStore("sqlite://"))
    live, _ = games.create("random", 13, max_turns=2000)
    rng = random.Random(13)
    for _ in range(400):
        s = live.state
        assert not s.is_over
        games.snapshot(live, len(s.log or ()))
        apply(s, rng.choice(legal_actions(s)))
    s = live.state
    assert len(s.log or ()) > 4 * LOG_KEPT
    games.snapshot(live, len(s.log or ()) - 2)
    assert all(len(kept.entries) <= 2 * LOG_KEPT for kept in live.logs.values())
    assert games.snapshot(live, 0)["log"] == _log_entries(s, live.human, 0, live.human)
    assert games.snapshot(live, 7)["log"] == _log_entries(s, live.human, 7, live.human)


def test_an_encoded_reply_is_the_plain_encoding() -> None:
    table = {"a": ["x", 1.5, None], "é": "ü\u0000"}
    reply = {"id": "g", "view": Encoded(table), "log": [{"text": "\u0000parlor:0\u0000"}],
             "coach": Encoded({}), "n": 3}
    assert encode_reply(reply) == JSONResponse(plain(reply)).body
    # a value that reads like a placeholder does not fool it
    tricky = {"view": Encoded(table), "t": "\u0000parlor:0\u0000"}
    assert encode_reply(tricky) == JSONResponse(plain(tricky)).body
    assert encode_reply([1, "a"]) == JSONResponse([1, "a"]).body


def _late_game(games: Games, steps: int) -> LiveGame:
    """A live game ``steps`` random actions in, the human to act."""
    live, _ = games.create("random", 13, max_turns=2000)
    rng = random.Random(13)
    for _ in range(steps):
        text = rng.choice([str(a) for a in legal_actions(live.state)])
        if live.state.actor == live.human:
            games.act(live, live.row.version, text, 0, live.row.takebacks)
        else:
            games.apply_computer(live, live.row.version, text, takebacks=live.row.takebacks)
    while live.state.actor != live.human:
        games.apply_computer(live, live.row.version, str(legal_actions(live.state)[0]),
                             takebacks=live.row.takebacks)
    assert not live.state.is_over
    return live


class Work:
    """What replies render, counted through the web module's own names (parlor.web is never
    compiled): each view made and whether it rendered the log or the trail, each log
    entry written."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.views: list[tuple[bool, bool, View]] = []
        self.entries = 0
        real_entries = games_module._log_entries

        def view(s: State, player: int, log: bool = True, trail: bool = True,
                 **kept: Any) -> View:  # the sides and combat a reply kept
            v = real_view(s, player, log=log, trail=trail, **kept)
            self.views.append((log, trail, v))
            return v

        def log_entries(s: State, player: int | None, start: int,
                        reader: int | None = None,
                        opponent: str = "the computer") -> list[dict[str, Any]]:
            out = real_entries(s, player, start, reader, opponent)
            self.entries += len(out)
            return out

        monkeypatch.setattr(games_module, "view", view)
        monkeypatch.setattr(games_module, "_log_entries", log_entries)

    def reset(self) -> None:
        self.views.clear()
        self.entries = 0


def test_a_late_reply_renders_none_of_the_history(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 38: a reply's work does not depend on how long the game has run, counted (not
    timed). At step 400 (a log of hundreds of events): a long poll at an unchanged position
    makes no view and writes no log entry; a move (POST, then the computer's answer, then
    the long poll) makes views without the log or the trail (``table_view``) and writes
    the log entries of its own events only; a spectator likewise."""
    games = Games(GameStore(f"sqlite:///{tmp_path / 'late.db'}"), 10)
    live = _late_game(games, 400)
    total = len(live.state.log or ())
    assert total > 500
    games.snapshot(live, total)
    games.spectator_snapshot(live, total)
    work = Work(monkeypatch)

    for _ in range(3):  # long polls and reloads of the table at one position
        games.snapshot(live, total)
        games.spectator_snapshot(live, total)
    assert (work.views, work.entries) == ([], 0)

    rng = random.Random(5)
    for _ in range(6):  # moves: the human's, the computer's answer, each side's reply
        s = live.state
        if s.is_over:
            break
        before = len(s.log or ())
        text = rng.choice([str(a) for a in legal_actions(s)])
        if s.actor == live.human:
            reply = games.act(live, live.row.version, text, before, live.row.takebacks)
        else:
            games.apply_computer(live, live.row.version, text, takebacks=live.row.takebacks)
            reply = games.snapshot(live, before)
        games.spectator_snapshot(live, before)
        new = len(live.state.log or ()) - before
        assert len(reply["log"]) == new
        assert work.views and all(not log and not trail and not v.log and not v.trail
                                  for log, trail, v in work.views)
        assert len(work.views) <= 2  # the human's table, the spectators' table
        assert work.entries == 2 * new  # the human's entries and the spectators'
        work.reset()


def test_a_sides_json_from_its_cards_json_is_the_plain_encoding() -> None:
    """``encoded_side`` (each zone's and each card's JSON written once, the side's written
    around them) equals ``Encoded(_side_dict(side))``, dict and JSON, for every side of
    random games and every viewer; a card or a zone made anew (another object, maybe at a
    freed one's id) is never given another's JSON. Written from the side it was made
    again from (``side_json``'s ``was``: that side five steps before, the other side, the
    other viewer's, the same side with another zone), what changed is written anew."""
    for seed in range(4):
        s, rng = new_game(seed, Settings(max_turns=2000)), random.Random(seed)
        before: dict[tuple[int, int], tuple[Any, tuple[str, ...]]] = {}
        for step in range(500):
            if s.is_over:
                break
            if step % 5 == 0:
                written = {}
                for player in (0, 1, SPECTATOR):
                    for q, side in enumerate(real_view(s, player, log=False, trail=False).sides):
                        fast, ref = encoded_side(side), Encoded(_side_dict(side))
                        assert fast == ref and list(fast) == list(ref)
                        assert (fast.json, fast.raw) == (ref.json, ref.raw)
                        written[player, q] = (side, side_json(side)[1])
                        others = [before.get((player, q)), before.get((player, 1 - q)),
                                  written.get((0 if player else 1, q)),
                                  (replace(side, home=side.field), written[player, q][1])]
                        for was in others:
                            if was is None:
                                continue
                            fast, pieces = side_json(side, was)
                            assert fast == ref and list(fast) == list(ref)
                            assert (fast.json, fast.raw) == (ref.json, ref.raw)
                            assert "{" + ",".join(pieces) + "}" == ref.json
                before = written
                template = real_view(s, 0, log=False, trail=False).sides[0]
                for q in (0, 1):  # cards made anew, not those views share
                    for c in s.home[q] + s.field[q]:
                        one = replace(template, home=(make_table_card(s, c),), field=())
                        fast, ref = encoded_side(one), Encoded(_side_dict(one))
                        assert fast == ref and fast.json == ref.json
                    side = real_view(s, 0, log=False, trail=False).sides[q]
                    # its zones as other tuples, and each as the other zone
                    for home, field in ((tuple(list(side.home)), tuple(list(side.field))),
                                        (side.field, side.home)):
                        other = replace(side, home=home, field=field)
                        fast, ref = encoded_side(other), Encoded(_side_dict(other))
                        assert fast == ref and fast.json == ref.json
            apply(s, rng.choice(legal_actions(s)))


def _changes(s: State, q: int) -> list[tuple[str, Callable[[], None]]]:
    """A change in place of each thing a side of Rlr ``q`` reads (``side_reads``), each
    one a viewer sees."""
    home, field = s.home[q], s.field[q]
    card = (home + field)[0]
    spare = s.draw[q][:]  # cards to put where a view shows them (the state is not replayed)
    assert len(spare) >= 7, "cards in the draw pile to move"

    def enh() -> None:
        s.enhs[card] = [*s.enhs.get(card, []), spare.pop()]

    return [
        ("life", lambda: s.life.__setitem__(q, s.life[q] - 1)),
        ("pool", lambda: s.pool[q].__setitem__(0, s.pool[q][0] + 1)),
        ("hand", lambda: s.hand[q].append(spare.pop())),
        ("draw", lambda: s.draw[q].pop()),
        ("recycle", lambda: s.recycle[q].append(spare.pop())),
        ("face up", lambda: s.public_recycle[q].add(s.recycle[q][-1])),
        ("discard", lambda: s.discard[q].append(spare.pop())),
        ("domain", lambda: s.domain[q].append(spare.pop())),
        ("table", lambda: home.append(spare.pop())),
        ("order", lambda: home.insert(0, home.pop())),  # two cards at least, now
        ("taxed", lambda: s.taxed.__setitem__(card, q if s.taxed[card] == NONE else NONE)),
        ("inactive", lambda: s.inactive.__setitem__(card, 1 - s.inactive[card])),
        ("damage", lambda: s.damage.__setitem__(card, s.damage[card] + 1)),
        ("terminal", lambda: s.terminal.__setitem__(card, 1 - s.terminal[card])),
        ("pwr", lambda: s.pwr_mod.__setitem__(card, s.pwr_mod[card] + 1)),
        ("tgh", lambda: s.tgh_mod.__setitem__(card, s.tgh_mod[card] + 1)),
        ("enhs", enh),
    ]


#: The changes of :func:`_changes` that leave a side's table cards as they are.
OFF_THE_TABLE = ("life", "pool", "hand", "draw", "recycle", "face up", "discard", "domain")
#: A side's lists of names (``side_again`` keeps them while their cards are unchanged), each
#: with the changes of :func:`_changes` that change its cards.
NAMED = {"hand": ("hand",), "recycle_known": ("recycle", "face up"),
         "recycle_face_up": ("recycle", "face up"), "discard": ("discard",),
         "domain": ("domain",)}


def test_a_kept_side_is_made_again_when_anything_it_reads_changes(tmp_path: Path) -> None:
    """``kept_sides`` keeps a side while what it reads is unchanged: each change in place
    (as a refresh grows a live state) of anything a side shows gives the reference's side
    (``make_side``) at once, for its owner and for the other viewers; a change off the
    table (a Hand, a pile, life, pool, the domain) gives the side again with the zones it
    had (its Home and Field not read again), and so does any change for the other side; a
    list of names (a pile, the Hand, the domain) whose cards did not change is the one the
    side had (not named again), and one whose cards did is named anew."""
    games = Games(GameStore(f"sqlite:///{tmp_path / 'sides.db'}"), 10)
    live = _late_game(games, 120)
    s = live.state
    s.own(COMBAT_STATUS)  # its own status lists, changed in place below
    for q in (0, 1):
        assert s.home[q] or s.field[q], "a late table has cards on both sides"
        for what, change in _changes(s, q):
            with live.lock:
                before = {viewer: kept_sides(live, s, viewer) for viewer in (0, 1, SPECTATOR)}
                change()
                view_module._ZONES.clear()  # a zone made again would be another tuple
                kept = {viewer: kept_sides(live, s, viewer) for viewer in (0, 1, SPECTATOR)}
                # the other side's cards show what they showed: its zones are not read
                # again (a status or an Enh is read for all cards at once, both sides')
                other = (tuple(s.home[1 - q]), tuple(s.field[1 - q]))
                assert not [key for key in view_module._ZONES if key[0] in other], what
                for viewer in (0, 1, SPECTATOR):
                    made = tuple(make_side(s, p, viewer) for p in (0, 1))
                    now = kept[viewer]
                    assert now == made, (what, viewer)
                    if what in OFF_THE_TABLE:
                        assert now[q].home is before[viewer][q].home, (what, viewer)
                        assert now[q].field is before[viewer][q].field, (what, viewer)
                    for name, changes in NAMED.items():
                        for p in (0, 1):
                            kept_names = getattr(before[viewer][p], name)
                            if p != q or what not in changes:
                                assert getattr(now[p], name) is kept_names, (what, name)
                    # what a viewer sees changed (another's Hand and recycle pile: counts)
                    assert made[q] != before[viewer][q] or (
                        what == "face up" and viewer == q), (what, viewer)


def test_a_kept_combat_is_made_again_when_anything_it_reads_changes(tmp_path: Path) -> None:
    games = Games(GameStore(f"sqlite:///{tmp_path / 'combat.db'}"), 10)
    live, _ = games.create("random", 3, max_turns=2000)
    rng = random.Random(3)
    while live.state.combat is None or not live.state.combat.attackers:
        text = rng.choice([str(a) for a in legal_actions(live.state)])
        if live.state.actor == live.human:
            games.act(live, live.row.version, text, 0, live.row.takebacks)
        else:
            games.apply_computer(live, live.row.version, text, takebacks=live.row.takebacks)
    cb = live.state.combat
    a = cb.attackers[0]
    changes: list[Callable[[], None]] = [
        lambda: cb.attackers.append(a), lambda: cb.blocking.__setitem__(a, NONE),
        lambda: cb.blocked.add(a), lambda: cb.used.add(a),
        lambda: cb.pending.__setitem__(a, 2), lambda: cb.split_queue.append(a),
        lambda: setattr(cb, "split_left", cb.split_left + 1),
        lambda: setattr(cb, "bonus_left", cb.bonus_left + 1),
        lambda: cb.bonus_to.append(a), lambda: setattr(cb, "o_dealt", not cb.o_dealt),
    ]
    with live.lock:
        for change in changes:
            before = kept_combat(live, live.state)
            change()
            assert kept_combat(live, live.state) == make_combat(cb) != before
