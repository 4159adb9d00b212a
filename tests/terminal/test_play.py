"""``parlor play``: the menu, the commands, the 80x24 layout, save and resume — in process, and
end to end in a real terminal (tmux on a private socket)."""

from __future__ import annotations

import io
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console

from parlor.rules.actions import Action
from parlor.rules.engine import apply, legal_actions, new_game
from parlor.rules.events import Event
from parlor.rules.notation import parse_position, replay
from parlor.rules.ranking import compare
from parlor.rules.state import State
from parlor.terminal.commands import Quit
from parlor.terminal.computer import Computer
from parlor.terminal.game import TerminalGame
from parlor.terminal.menu import Menu
from parlor.terminal.play import parse_header, play_interactive
from parlor.terminal.rulebook import rule_text

ROOT = Path(__file__).resolve().parent.parent.parent


def console(height: int = 24) -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=80, height=height, color_system=None, highlight=False,
                   emoji=False), buf


def scripted(lines: list[str]) -> Callable[[str], str]:
    it = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def game_at(s: State, read: Callable[[str], str], height: int = 24,
            human: int = 0) -> tuple[TerminalGame, io.StringIO]:
    con, buf = console(height)
    return play_interactive(s, human, Computer("random", 1), "cpu", con, read), buf


# -- the menu -----------------------------------------------------------------------------------


def window_state() -> State:
    return parse_position("""
        phasing: 1
        phase: window1
        1.hand: 4C 9D KS
        1.home: 7C 8C 9C 10C 7S 8S 9S
        2.field: JH/3C
        """)


def test_menu_numbers_every_legal_action_once_grouped() -> None:
    s = window_state()
    legal = legal_actions(s)
    menu = Menu.of(legal)
    assert sorted(map(str, menu.actions)) == sorted(map(str, legal))
    assert str(menu.actions[0]) == "pass"  # bare actions first
    plain = "\n".join(t.plain for t in menu.lines(80))
    assert "1)pass" in plain
    assert re.search(r"play \d+\)9D \d+\)KS", plain)
    assert re.search(r"expel 4C at \d+\)2:JH \d+\)2:3C", plain)
    for n, a in enumerate(menu.actions, 1):
        assert menu.pick(n) == a
    assert menu.pick(0) is None and menu.pick(len(menu.actions) + 1) is None


def test_a_long_menu_collapses_behind_letters() -> None:
    s = window_state()
    menu = Menu.of(legal_actions(s))
    full, _ = menu.layout(30)
    lines, letters = menu.layout(30, budget=3)
    assert len(lines) <= 3 < len(full)
    assert letters and all(len(k) == 1 and k not in "hq" for k in letters)
    g = next(iter(letters.values()))
    key = menu.groups[g][0]
    assert f"{key} …" in " ".join(t.plain for t in lines)


def test_commands_pick_by_number_text_or_prefix() -> None:
    s = window_state()
    g, _ = game_at(s, scripted([]))
    menu = Menu.of(legal_actions(s))
    assert g.command("1", menu) == Action.parse("pass")
    assert g.command("play kS", menu) == Action.parse("play KS")
    assert g.command("expel 4C at 2:JH", menu) == Action.parse("expel 4C at 2:JH")
    assert g.command("expel 4c at 2:j", menu) == Action.parse("expel 4C at 2:JH")
    assert g.command("play 9", menu) == Action.parse("play 9D")
    # explicit payment is the same decision
    paid = g.command("play KS tax 7S 8S 9S 10C 7C", menu)
    assert paid is not None and paid.base == Action.parse("play KS")
    assert g.command("expel 4C", menu) is None  # two targets: which one?
    assert "which one?" in g.messages[-1]
    assert g.command("999", menu) is None and "choose 1 to" in g.messages[-1]
    assert g.command("dance", menu) is None and "? for help" in g.messages[-1]


def test_an_illegal_action_is_explained_with_its_rule() -> None:
    s = window_state()
    read = scripted(["expel 4C at 2:7C", "pass"])
    g, buf = game_at(s, read)
    g.human_turn()
    out = buf.getvalue()
    assert "not allowed:" in out
    assert s.history[-1] == Action.parse("pass")


def test_the_screen_fits_80_by_24() -> None:
    """Over whole random games, the spread, the decision line and the menu leave a line for the
    prompt in an 80x24 terminal."""
    for seed in (1, 2):
        s = new_game(seed)
        g, buf = game_at(s, scripted([]))
        rng = random.Random(seed)
        seen = 0
        while not s.is_over:
            legal = legal_actions(s)
            if s.actor == 0 and (len(legal) > 10 or rng.random() < 0.1):
                buf.seek(0)
                buf.truncate()
                for t in g.screen(Menu.of(legal)):
                    g.console.print(t)
                rows = buf.getvalue().splitlines()
                assert len(rows) <= 23, "\n".join(rows)
                assert all(len(r) <= 80 for r in rows)
                assert rows[0].startswith("── Turn") and rows[-1]
                seen += 1
            apply(s, rng.choice(legal))
        assert seen > 10


def test_the_spread_shows_both_sides_and_hides_the_computers_hand() -> None:
    s = parse_position("""
        phasing: 1
        phase: window1
        trumps: 2:3H 1:5S
        1.life: 17
        1.pool: H2 S1
        1.hand: 4C 9D QS
        1.home: 7C{t1} 8C/2:2H
        1.field: KS/4S{i} JC{t2,d1}
        1.domain: 5C 2:4H
        2.hand: QH QD
        2.field: JH/3C{x,d2}
        2.home: 9H
        """)
    g, buf = game_at(s, scripted([]))
    for t in g.screen(Menu.of(legal_actions(s))):
        g.console.print(t)
    out = buf.getvalue()
    assert "Rlr 2 · cpu" in out and "hand 2" in out
    assert "QH" not in out and "QD" not in out  # the computer's hand is a count
    assert "▶ Rlr 1 · you  life 17  mnr H2 S1" in out
    assert "Hand   4C 9D QS" in out
    assert "7C(t1) 8C/2:2H" in out
    assert "KS/4S(i) JC(t2,1d)" in out
    assert "Domain 5C 2:4H" in out
    assert "JH/3C(2d,x)" in out
    assert "Trumps 2:3H 1:5S   trump Spades" in out
    assert out.index("Rlr 2 · cpu") < out.index("Trumps") < out.index("Rlr 1 · you")


def test_help_log_piles_and_letters_do_not_move(tmp_path: Path) -> None:
    s = new_game(5)
    g, buf = game_at(s, scripted(["?", "", "log 3", "", "piles", "", "menu", "1"]),
                     human=s.actor)
    g.human_turn()
    out = buf.getvalue()
    assert "Choosing" in out and "Marks" in out
    assert "Discard" in out
    assert len(s.history) == 1


def test_rule_command_quotes_the_rules() -> None:
    s = window_state()
    g, buf = game_at(s, scripted(["", ""]), height=40)
    menu = Menu.of(legal_actions(s))
    assert g.command("rule 304.3", menu) is None
    assert "304.3 Trim: P chooses Hand cards to recycle" in buf.getvalue()
    assert g.command("rule R32", menu) is None
    assert "1303" in buf.getvalue()
    assert g.command("rule 9999", menu) is None and "no rule 9999" in g.messages[-1]
    assert rule_text("1304", tmp := Path("/nonexistent/rules.md")) is None and tmp


def test_ranking_lines_of_the_log_are_explained() -> None:
    s = window_state()
    g, buf = game_at(s, scripted([]), height=40)
    c = compare("JD/3C", "D:2C")
    g.print_event(Event("bonus", 0, rule="1004", why=c))
    g.print_event(Event("turn", 0, amounts=(2,), rule="301"))
    out = " ".join(buf.getvalue().split())
    assert "JD/3C outranks D:2C in Clubs, 3 to 2: bonus 1 (1004)" in out
    assert "why: The unblocked attacker JD/3C {D1, C3} against the Domain D:2C {C2}" in out
    assert out.count("why:") == 1


def played_to_a_comparison(first: int) -> State:
    """A random game played until its log holds a ranking event with its comparison: the
    first of the seeds from ``first`` on whose game has one."""
    for seed in range(first, first + 20):
        s = new_game(seed)
        rng = random.Random(seed)
        while not s.is_over:
            if any(e.why is not None for e in s.log or []):
                return s
            apply(s, rng.choice(legal_actions(s)))
    raise AssertionError(f"seeds {first}-{first + 19}: no ranking event in a whole game")


def test_the_log_explains_ranking_events_from_their_comparison() -> None:
    s = played_to_a_comparison(5)
    g, buf = game_at(s, scripted([]), height=40)
    g.show_log()
    out = " ".join(buf.getvalue().split())
    shown = [e for e in s.log or [] if e.why is not None]
    assert out.count("why: ") == len(shown) + sum(
        1 for e in s.log or [] if e.why is None and e.kind == "expel")
    assert shown[0].why is not None and f"{shown[0].why.a} " in out


# -- save and resume ----------------------------------------------------------------------------


def test_save_writes_a_record_that_resumes(tmp_path: Path) -> None:
    s = new_game(8)
    path = tmp_path / "g.txt"
    rng = random.Random(8)
    while len(s.history) < 25:
        apply(s, rng.choice(legal_actions(s)))
    con, buf = console()
    g = play_interactive(s, 0, Computer("random", 1), "cpu", con, scripted([]),
                         header="play: seat=1 level=random")
    g.save(str(path))
    text = path.read_text()
    assert parse_header(text) == {"seat": "1", "level": "random"}
    again = replay(text)
    assert again.history == s.history and again.turn == s.turn
    assert f"resume with: parlor play --resume {path}" in " ".join(buf.getvalue().split())
    with pytest.raises(Quit):
        g.command("quit", Menu.of(legal_actions(s)))  # saved: no question asked


def test_quit_asks_when_unsaved() -> None:
    s = new_game(8)
    apply(s, legal_actions(s)[0])
    g, _ = game_at(s, scripted(["n"]))
    assert g.command("quit", Menu.of(legal_actions(s))) is None
    g.read = scripted(["y"])
    with pytest.raises(Quit):
        g.command("quit", Menu.of(legal_actions(s)))


def test_a_whole_game_by_menu_numbers_to_the_end() -> None:
    rng = random.Random(2)
    s = new_game(21)

    def read(prompt: str) -> str:
        if prompt.startswith("#"):
            return str(rng.randint(1, len(legal_actions(s))))
        return ""

    g, buf = game_at(s, read)
    g.run()
    assert s.is_over
    out = buf.getvalue()
    assert any(x in out for x in ("You win!", "You lose.", "Draw"))
    assert "game over" in out


# -- a real terminal ------------------------------------------------------------------------------

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None and not os.environ.get("CI"),
                                reason="tmux is not installed (make test installs it)")


class Tmux:
    """One tmux server on a private socket, with one 80x24 window."""

    def __init__(self, name: str) -> None:
        self.sock = name
        self.env = {**os.environ, "TERM": "xterm-256color"}
        self.env.pop("TMUX", None)
        self.session = ""
        self.started = 0

    def tmux(self, *args: str, check: bool = False) -> str:
        done = subprocess.run(["tmux", "-L", self.sock, *args], capture_output=True,
                              text=True, env=self.env, check=False, timeout=20)
        if check and done.returncode:
            raise AssertionError(f"tmux {' '.join(args)}: {done.stderr}")
        return done.stdout

    def start(self, args: list[str]) -> None:
        """Run ``parlor ARGS`` in a new 80x24 session (the last one is closed first)."""
        if self.session:
            self.tmux("kill-session", "-t", self.session)
        self.started += 1
        self.session = f"t{self.started}"
        cmd = shlex.join([sys.executable, "-m", "parlor.cli", *args])
        shell = f"cd {shlex.quote(str(ROOT))} && {cmd}; echo \"[exited $?]\"; sleep 60"
        for attempt in range(5):  # a server that is still starting or stopping: try again
            try:
                self.tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", self.session,
                          shell, check=True)
                return
            except AssertionError:
                if attempt == 4:
                    raise
                time.sleep(0.2)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.session)

    def history(self) -> str:
        return self.tmux("capture-pane", "-p", "-S", "-3000", "-t", self.session)

    def send(self, text: str) -> None:
        if text:
            self.tmux("send-keys", "-t", self.session, "-l", text)
        self.tmux("send-keys", "-t", self.session, "Enter")

    def wait(self, pattern: str, timeout: float = 15.0, where: str = "screen") -> re.Match[str]:
        end = time.monotonic() + timeout
        text = ""
        while time.monotonic() < end:
            text = self.history() if where == "history" else self.screen()
            m = re.search(pattern, text, re.MULTILINE)
            if m:
                return m
            if "[exited" in text and "exited" not in pattern:
                break
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} did not appear; the screen:\n{self.history()}")

    def prompt(self, timeout: float = 15.0, after: int | None = None) -> int:
        """Wait for the game's prompt ``#N >`` on the last line and return N. With ``after``
        (a move was just sent at prompt #after), wait for a prompt of another number: on a
        loaded machine the old prompt is still on the screen until the game reads the move."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            rows = self.screen().rstrip().split("\n")
            m = re.fullmatch(r"#(\d+) >", rows[-1].rstrip())
            if m and int(m.group(1)) != after:
                return int(m.group(1))
            time.sleep(0.05)
        since = "" if after is None else f" after #{after}"
        raise AssertionError(f"no prompt{since}; the screen:\n{self.history()}")


@pytest.fixture
def term() -> Iterator[Tmux]:
    t = Tmux(f"parlor-test-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    yield t
    socket = t.tmux("display-message", "-p", "#{socket_path}").strip()
    t.tmux("kill-server")
    if socket:
        Path(socket).unlink(missing_ok=True)


@needs_tmux
@pytest.mark.slow  # a real terminal: waits on its screens
def test_play_in_a_real_terminal_save_and_resume(term: Tmux, tmp_path: Path) -> None:
    saved = tmp_path / "game.txt"
    term.start(["play", "--seed", "3", "--level", "random", "--seat", "1"])
    n = term.prompt()
    screen = term.screen()
    # the whole spread, the decision and the menu fit on the 80x24 screen with the prompt
    rows = screen.rstrip("\n").split("\n")
    assert len(rows) <= 24
    assert re.search(r"^── Turn 1 · Rlr 1's turn", screen, re.MULTILINE)
    assert "Rlr 2 · random AI" in screen and "Rlr 1 · you" in screen
    assert "Trumps" in screen and "Hand" in screen and "Your decision" in screen
    assert re.search(r"\d+\)", screen)

    # make moves by number until the computer has played a whole turn and it is our turn again
    for _ in range(60):
        term.send("1")
        n2 = term.prompt(after=n)
        assert n2 > n
        n = n2
        if "Rlr 2 is the phasing Rlr" in term.history() and "Rlr 1's turn" in term.screen():
            break
    else:
        raise AssertionError("the computer never took a turn")
    assert re.search(r"Turn \d+: Rlr 2 is the phasing Rlr", term.history())
    assert re.search(r"Rlr 2 (draws|keeps|Redraws|plays|does not attack)", term.history())

    # a move by its text, then help
    term.send("?")
    term.wait("Choosing")
    term.send("")
    term.prompt()

    term.send(f"save {saved}")
    term.wait(r"saved \d+ moves to")
    n = term.prompt()
    s = replay(saved.read_text())
    assert len(s.history) == n - 1
    assert parse_header(saved.read_text()) == {"seat": "1", "level": "random"}
    term.send("quit")
    term.wait(r"\[exited 0\]", where="history")

    # resume: the same position and move number, and play goes on
    term.start(["play", "--resume", str(saved)])
    m = term.prompt()
    assert m == n
    # the screen is 80 columns wide: a long temporary path (pytest-xdist's popen-gwN/
    # folders) moves to the next line, and one longer still is cut across lines wherever
    # the 80th column falls (its length depends on the run's folder numbers)
    unwrapped = term.history().replace("\n", "")
    assert re.search(rf"Resumed\s*{re.escape(str(saved))}", unwrapped), term.history()
    assert f"Turn {s.turn} " in term.screen()
    term.send("1")
    assert term.prompt(after=m) > m
    term.send("resign")
    term.wait(r"\(y/n\)")
    term.send("y")
    term.wait("You lose", where="history")
    term.wait("Enter to leave")
    term.send("")
    term.wait(r"\[exited 0\]", where="history")


@needs_tmux
@pytest.mark.slow  # a real terminal: waits on its screens
def test_a_human_tournament_game_in_a_real_terminal(term: Tmux) -> None:
    term.start(["tournament", "--teams", "A:human B:random", "--rounds", "1", "--seed", "4",
                "--max-turns", "30"])
    term.prompt()
    assert "Your decision" in term.screen()
    assert "Round 1: your game" in term.history()
    term.send("resign")
    term.wait(r"\(y/n\)")
    term.send("y")
    term.wait("Enter to go on with the tournament")
    term.send("")
    term.wait("Final standings", where="history")
    term.wait(r"\[exited 0\]", where="history")
    out = term.history()
    assert re.search(r"B1 beats A1 by resignation, 20 life left", out)
