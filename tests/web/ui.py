"""Driving the browser client like a player: read the offered decisions from the page, choose
one, and make it with clicks and keys (never by calling the API)."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ROOT = Path(__file__).resolve().parent.parent.parent
#: Seconds a test's server has to stop by itself on SIGTERM (see :meth:`Server.stop`).
STOP_GRACE = 2.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``python -m parlor.web`` in a subprocess, on a free port and a given database."""

    def __init__(self, db: Path | str, port: int | None = None, pace: float = 0.05,
                 args: tuple[str, ...] = (), env: dict[str, str] | None = None) -> None:
        self.db, self.port, self.pace = db, port or free_port(), pace
        self.args, self.env = args, env or {}
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"http://127.0.0.1:{self.port}"
        #: The server's output: a file, never a pipe that nobody reads while it runs (a full
        #: pipe would block the server's next log line, and the server with it).
        self.log = Path(tempfile.mkstemp(prefix="parlor-server-", suffix=".log")[1])

    def start(self) -> Server:
        env = dict(os.environ, PARLOR_AI_WORKERS="1", PYTHONUNBUFFERED="1")
        db_url = self.db if isinstance(self.db, str) else f"sqlite:///{self.db}"
        if db_url.startswith("postgresql"):  # the server runs a worker of the queue itself
            env.update(PARLOR_EMBEDDED_WORKER="1", PARLOR_WORKER_HEARTBEAT="1",
                       PARLOR_WORKER_STALLED="3")
        env.update(self.env)
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "parlor.web", "--port", str(self.port), "--db",
                 db_url, "--pace", str(self.pace), *self.args],
                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=out,
                start_new_session=True)
        end = time.monotonic() + 90  # a loaded machine starts Python slowly
        while time.monotonic() < end:
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", self.port), timeout=0.2):
                return self
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server died: {self.log.read_text()[-4000:]}")
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def children(self) -> list[int]:
        assert self.proc is not None
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        try:
            return [int(x) for x in path.read_text().split()]
        except OSError:
            return []

    def kill9(self) -> list[int]:
        """SIGKILL the server (no shutdown, no flush); returns the processes it had started."""
        assert self.proc is not None
        kids = self.children()
        self.proc.kill()
        self.proc.wait(10)
        return kids

    def stop(self) -> None:
        """SIGTERM; if the server still runs after :data:`STOP_GRACE`, SIGINT, which uvicorn
        takes as a second Ctrl+C: stop waiting for requests in flight. Those are a page's long
        polls (``wait=20`` in game.js), which uvicorn waits for even when the page is closed
        (the server caps that wait itself now, parlor.web.serve.STOP_GRACE, 3 s; this keeps
        the tests' stop short whatever that setting says); no test checks it."""
        if self.proc is None:
            return
        session = session_of(self.proc)
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(STOP_GRACE)
            except subprocess.TimeoutExpired:
                self.proc.send_signal(signal.SIGINT)
        stop_process(self.proc, session=session)
        self.log.unlink(missing_ok=True)


def snapshot(page: Page) -> dict[str, Any]:
    snap: dict[str, Any] = page.evaluate("window.parlor.snapshot()")
    return snap


def wait_for_decision(page: Page, timeout: float = 30.0) -> dict[str, Any]:
    """Wait until the page shows the player's decision or the end of the game."""
    page.wait_for_function(
        "() => { const s = window.parlor && window.parlor.snapshot();"
        " return s && (s.status === 'over' || (s.your_turn && !document.getElementById('app')"
        ".classList.contains('busy'))); }", timeout=timeout * 1000)
    return snapshot(page)


def key_of(kind: str, card: str, me: int = 0) -> str:
    return {"hand": f"h:{card}", "drawn": f"d:{card}", "mine": f"{me + 1}:{card}"}[kind]


def click_key(page: Page, key: str, keyboard: bool = False) -> None:
    el = page.locator(f'[data-key="{key}"]').first
    if keyboard or "enh" in (el.get_attribute("class") or "") or key.startswith(("D", "T")):
        el.focus()
        page.keyboard.press("Enter")
    else:
        el.click()


def choose(legal: list[str], rng: random.Random) -> str:
    """A plausible choice: Lnds and Cres first, attack with everything, block sometimes."""
    def pick(prefix: tuple[str, ...]) -> list[str]:
        return [a for a in legal if a.startswith(prefix)]

    for group, p in ((pick(("keep",)), 1.0), (pick(("trim",)), 1.0),
                     ([a for a in pick(("play",)) if " on " not in a and " tax " not in a], 0.9),
                     (pick(("attack",)), 0.9), (pick(("assign", "bonus")), 1.0),
                     (pick(("block",)), 0.5), (pick(("play", "expel")), 0.3),
                     (pick(("sally", "harry", "volley", "ally", "carry")), 0.5)):
        if group and rng.random() < p:
            return rng.choice(group)
    for bare in ("done", "pass", "end"):
        if bare in legal:
            return bare
    return rng.choice(legal)


def act_through_ui(page: Page, action: str, keyboard: bool = False) -> None:
    """Make ``action`` with the controls a player would use."""
    w = action.split()
    v = w[0]
    if v in ("pass", "done", "end") or action == "redraw":
        if keyboard:
            page.keyboard.press({"pass": "p", "done": "d", "end": "e", "redraw": "r"}[v])
        else:
            page.locator(f'[data-act="{v}"]').click()
        if action == "redraw":  # Redraw ends the turn: the page asks once more
            confirm = page.locator('[data-act="redraw-confirm"]')
            if keyboard:
                page.wait_for_function("document.activeElement.dataset.act === 'redraw-confirm'")
                page.keyboard.press("Enter")
            else:
                confirm.click()
        return
    if v == "redraw":
        page.locator('[data-act="redraw-mode"]').click()
        click_key(page, f"h:{w[1]}")
        return
    if v in ("assign", "bonus"):
        click_key(page, w[1], keyboard)
        _maybe_option(page, action)
        return
    actor = {"trim": "h", "play": "h", "expel": "h", "keep": "d"}.get(v)
    key = f"{actor}:{w[1]}" if actor else f"1:{w[1]}"
    target = w[3] if v in ("play", "expel") and len(w) > 3 else (w[2] if len(w) > 2 else None)
    before = page.evaluate("window.parlor.snapshot().version")
    click_key(page, key, keyboard)
    if target is None:
        _maybe_option(page, action, before)
        return
    click_key(page, target, keyboard)
    _maybe_option(page, action, before)


def _maybe_option(page: Page, action: str, before: int | None = None) -> None:
    """When one click fits several decisions, the page offers them as buttons: take ours."""
    opt = page.locator(f'button.option[data-action="{action}"]')
    page.wait_for_timeout(30)
    if opt.count() and opt.first.is_visible():
        opt.first.click()


# -- a keyboard-only player ---------------------------------------------------------------------

#: What a keyboard-only game must include (issue 12), as the kinds of action that show them.
SHOWCASE = ("payment", "block", "ability", "split", "bonus")


def kind_of(action: str) -> str:
    v = action.split()[0]
    if " tax " in action or " spend " in action:
        return "payment"
    if v in ("volley", "sally", "harry", "ally", "carry"):
        return "ability"
    return {"assign": "split", "bonus": "bonus"}.get(v, v)


def manual_taxes(view: dict[str, Any], me: int, card: str) -> list[str] | None:
    """The Lnds to tax by hand for ``card`` (the pool spent automatically), or None when the
    pool alone pays or the Lnds cannot (R3, R20, R21: a Lnd with a trump Enh yields trumps)."""
    from parlor.rules.cards import Card

    cost = Card.parse(card).cost
    side = view["sides"][me]
    suit_i = int(cost.suit)  # C D H S are 0 1 2 3
    pool = list(side["pool"])
    if pool[suit_i] >= cost.suited and sum(pool) >= cost.total:
        return None

    def yield_of(tc: dict[str, Any]) -> int:
        trump = view["trump"]
        if trump and any(e[-1] == trump for e in tc["enhs"]):
            return "CDHS".index(trump)
        return "CDHS".index(tc["card"][-1])

    untaxed = [tc for tc in side["home"] if not tc["taxed_on"]]
    taxes: list[str] = []
    for tc in [t for t in untaxed if yield_of(t) == suit_i]:
        if pool[suit_i] >= cost.suited:
            break
        pool[suit_i] += 1
        taxes.append(tc["card"])
    for tc in untaxed:
        if sum(pool) >= cost.total:
            break
        if tc["card"] not in taxes:
            pool[yield_of(tc)] += 1
            taxes.append(tc["card"])
    if pool[suit_i] < cost.suited or sum(pool) < cost.total:
        return None
    return taxes


def showcase_choice(legal: list[str], rng: random.Random, done: set[str],
                    view: dict[str, Any], me: int = 0) -> str:
    """A deterministic player that seeks out what the keyboard test must show: a payment by
    hand, a block, an ability, attacks (so that damage is split and bonus given)."""
    for want in SHOWCASE:
        if want in done:
            continue
        if want == "payment":
            for a in legal:
                w = a.split()
                if w[0] == "play" and kind_name(w[1]) != "Lnd":
                    taxes = manual_taxes(view, me, w[1])
                    if taxes:
                        return f"{a} tax {' '.join(taxes)}"
            continue
        fits = [a for a in legal if kind_of(a) == want]
        if fits:
            return fits[0]
    attack = [a for a in legal if a.startswith("attack")]  # every Cre attacks: splits, bonuses
    if attack:
        return attack[0]
    mine = [a for a in legal if a.startswith("play") and f" on {me + 1}:" in a]
    if mine and rng.random() < 0.7:  # Enhs on your own Cres win rankings: bonus points
        return rng.choice(mine)
    return choose(legal, rng)


def kind_name(card: str) -> str:
    rank = card[:-1]
    return "Cre" if rank in "AJQK" else ("Lnd" if rank in ("7", "8", "9", "10", "T") else "Enh")


def play_showcase_offline(seed: int, level: str, max_turns: int, client: Any) -> set[str]:
    """The same game as the browser test plays, through the API: which showcase kinds arise."""
    r = client.post("/api/games", json={"level": level, "seed": seed, "max_turns": max_turns})
    gid, token = r.json()["id"], r.json()["token"]
    from .helpers import wait_for_human

    rng, done = random.Random(seed), set()
    snap = wait_for_human(client, gid, token)
    while snap["status"] == "live":
        action = showcase_choice(snap["view"]["legal"], rng, done, snap["view"])
        done.add(kind_of(action))
        r = client.post(f"/api/games/{gid}/actions", json={"action": action,
                                                          "version": snap["version"]},
                        headers={"X-Parlor-Token": token})
        snap = wait_for_human(client, gid, token)
    return done & set(SHOWCASE)


def session_of(proc: subprocess.Popen[Any]) -> int | None:
    """The process group ``proc`` leads (started with ``start_new_session``), while it
    runs; None otherwise. Asked before stopping it: once it is reaped its id may be reused."""
    if proc.poll() is not None:
        return None
    with contextlib.suppress(ProcessLookupError):
        if os.getpgid(proc.pid) == proc.pid:
            return proc.pid
    return None


def stop_process(proc: subprocess.Popen[Any], grace: float = 20.0,
                 session: int | None = None) -> None:
    """Stop a server or worker the tests started: SIGTERM, then SIGKILL after ``grace``;
    then whatever it left in the session it led (``session``, or :func:`session_of` now:
    its pool's workers, multiprocessing's resource tracker), so that nothing outlives the
    test holding a port, a database connection or an output pipe."""
    if session is None:
        session = session_of(proc)
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    if session is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(session, signal.SIGKILL)
