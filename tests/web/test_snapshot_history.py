"""A reply renders no history it does not send (issue 38): the table is built without the
log and without the trail, and the log entries only from ``log_from`` on. Held equal, at
every step of random games, to the readable reference: the whole view rendered (log and
trail included), turned into a dict, its history dropped, and the log rendered whole and
then sliced at ``log_from``."""

from __future__ import annotations

import random
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from parlor.rules.engine import apply, legal_actions
from parlor.rules.state import State
from parlor.rules.view import SPECTATOR, View, view
from parlor.store import GameStore
from parlor.web.games import Games, LiveGame, _log_entries

SEEDS = (3, 13)
STEPS = 260  # long enough for a long trail and log (seed 13 plays past it)


def reference_payload(s: State, player: int) -> dict[str, Any]:
    """The table as the web sent it when it rendered the whole view: ``to_dict`` of the
    full view (log and trail rendered), the history then dropped."""
    full = view(s, player)
    d = asdict(full)
    for key in ("log", "log_why", "trail"):
        del d[key]
    d["settings"] = str(full.settings)
    return d


def reference_log(s: State, player: int, log_from: int,
                  reader: int | None) -> list[dict[str, Any]]:
    """Every log entry rendered, then the ones from ``log_from`` kept; their sentences are the
    full view's log (``Event.text_for``: nothing hidden from ``player``)."""
    entries = _log_entries(s, player, 0, reader)
    assert [e["notation"] for e in entries] == list(view(s, player).log)
    return entries[log_from:]


def random_game(games: Games, seed: int) -> LiveGame:
    live, _ = games.create("random", seed, max_turns=2000)
    return live


@pytest.mark.slow
def test_replies_at_every_step_equal_the_full_render_then_slice() -> None:
    games = Games(GameStore("sqlite://"))
    checked = 0
    for seed in SEEDS:
        live = random_game(games, seed)
        rng = random.Random(seed)
        for _ in range(STEPS):
            s = live.state
            if s.is_over:
                break
            total = len(s.log or ())
            log_from = rng.choice((0, max(0, total - 3), total, total + 5,
                                   rng.randrange(total + 1)))
            snap = games.snapshot(live, log_from)
            assert snap["view"] == reference_payload(s, live.human)
            assert snap["log"] == reference_log(s, live.human, log_from, live.human)
            assert snap["log_total"] == total
            watch = games.spectator_snapshot(live, log_from)
            assert watch["view"] == reference_payload(s, SPECTATOR)
            assert watch["log"] == reference_log(s, SPECTATOR, log_from, None)
            apply(s, rng.choice(legal_actions(s)))
            checked += 1
    assert checked > 300


def test_a_replay_step_equals_the_full_render() -> None:
    games = Games(GameStore("sqlite://"))
    live, _ = games.create("random", 5, max_turns=30)
    rng = random.Random(5)
    while not live.state.is_over:
        job = games.computer_job(live)
        if job is None:
            games.act(live, live.row.version,
                      rng.choice([str(a) for a in legal_actions(live.state)]))
        else:
            games.apply_computer(live, job.version, rng.choice(job.legal),
                                 takebacks=job.takebacks)
    total = len(live.actions)
    for step in sorted({0, 1, total // 3, total // 2, total - 1, total}):
        for seat in (0, 1):
            snap = games.replay_snapshot(live, step, seat)
            s = games._state_at(live, step)
            assert snap["view"] == reference_payload(s, seat)
            assert snap["log"] == reference_log(s, seat, 0, None)


def test_the_computer_still_reads_the_trail() -> None:
    """The agents' views keep the trail the browser's table leaves out (107.1): the part
    that the levels read (from the opponent's last keep, :func:`read_trail`), which gives
    them the same clues as the whole trail (parlor.ai.belief)."""
    from parlor.ai.belief import clues as read
    from parlor.web.games import read_trail

    def clues(v: View) -> list[tuple[object, ...]]:
        """What the belief reads of a view: each clue's fields (a Clue has no equality)."""
        return [(c.lnd_open, c.mnr, c.total, c.played_after) for c in read(v)]

    games = Games(GameStore("sqlite://"))
    live, _ = games.create("random", 4)
    rng = random.Random(4)
    seen = clued = 0
    for _ in range(80):
        job = games.computer_job(live)
        if job is None:
            if live.state.is_over:
                break
            hint = games.hint_job(live, None)
            whole = view(live.state, live.human)
            assert hint.view.trail == read_trail(whole).trail
            assert clues(hint.view) == clues(whole)
            games.act(live, live.row.version,
                      rng.choice([str(a) for a in legal_actions(live.state)]))
            continue
        s = live.state
        whole = view(s, live.computer)
        assert job.view.trail == read_trail(whole).trail
        assert whole.trail[len(whole.trail) - len(job.view.trail):] == job.view.trail
        assert clues(job.view) == clues(whole)
        clued += bool(clues(whole))
        seen += 1
        games.apply_computer(live, job.version, rng.choice(job.legal), takebacks=job.takebacks)
    assert seen > 10 and clued > 0  # (the opponent passed with a card at some decisions)


def test_107_1_the_kept_public_trail_equals_the_trail_written_anew(tmp_path: Path) -> None:
    """live_agent_view (each public step written once per seat, kept per line of play) is
    the reference agent_view, its trail as the levels read it (read_trail), at every
    decision of games with takebacks (R30): for both seats, the table and the trail alike."""
    from parlor.web.games import agent_view, live_agent_view, read_trail

    games = Games(GameStore(f"sqlite:///{tmp_path / 'kept.db'}"), 10)
    for seed in range(6):
        live, _token = games.create("random", seed, 40)
        rng = random.Random(seed)
        takebacks = 0
        while not live.state.is_over:
            # as the server asks: at the computer's decisions, and now and then at a hint
            for seat in (0, 1):
                if seat == live.state.actor and (seat == live.computer or rng.random() < 0.2):
                    with live.lock:
                        kept = live_agent_view(live, seat)
                    fresh = read_trail(agent_view(live.state, seat))
                    assert kept == fresh and kept.trail == fresh.trail
            s = live.state
            if s.actor == live.human and takebacks < 6 and rng.random() < 0.2 \
                    and games._can_take_back(live):
                games.takeback(live, live.row.version, 0, live.row.takebacks)
                takebacks += 1
                continue
            text = str(rng.choice(legal_actions(s)))
            if s.actor == live.human:
                games.act(live, live.row.version, text, 0, live.row.takebacks)
            else:
                games.apply_computer(live, live.row.version, text,
                                     takebacks=live.row.takebacks)
        assert takebacks > 0, "the line changed at least once"
