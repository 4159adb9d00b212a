"""Every example of README.md and docs/*.md runs as written.

Each fenced block names what it holds, and that decides how it is run:

* ``record``: a game record, replayed by the engine (``notation.replay``);
* ``position``: a position, parsed (``notation.parse_position``) and written back the same;
* ``python``: doctest examples (``>>>``) are run by doctest, other code is executed;
* ``sh``: command lines. ``parlor ...`` lines are parsed by the command's own parser here and
  run for a few seconds in ``test_the_parlor_commands_of_the_docs_run`` (slow); ``make T``
  names a target of the Makefile; ``python bench/X.py --opt`` names a script and its options;
  ``pip install 'parlor-magic[x]'`` an extra of pyproject.toml. The steps that change the
  machine or need a deployment (``sudo``, ``createdb``, ``export``, ``curl``) are not run:
  only the files they name are checked;
* ``text``: not an example (a diagram, a sample of output).

A block that names none of these fails, so a new example cannot go unrun.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from parlor.cli import build_parser
from parlor.rules.engine import apply
from parlor.rules.notation import parse_position, position, replay

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
KINDS = {"record", "position", "python", "sh", "text"}
_FENCE = re.compile(r"^```(\S*)\s*$")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the opening fence
    kind: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of a Markdown page, in order."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    start, kind, body = 0, "", list[str]()
    inside = False
    for n, line in enumerate(lines, 1):
        m = _FENCE.match(line.strip())
        if m and not inside:
            inside, start, kind, body = True, n, m.group(1), []
        elif m and inside:
            inside = False
            found.append(Block(page, start, kind, "\n".join(body) + "\n"))
        elif inside:
            body.append(line)
    assert not inside, f"{page.name}:{start}: a fence is never closed"
    return found


ALL = [b for page in PAGES for b in blocks(page)]


def of_kind(kind: str) -> list[Block]:
    return [b for b in ALL if b.kind == kind]


def test_every_block_says_what_it_holds() -> None:
    unnamed = [f"{b.id} ```{b.kind}" for b in ALL if b.kind not in KINDS]
    assert not unnamed, f"name each block one of {sorted(KINDS)}: {unnamed}"


@pytest.mark.parametrize("block", of_kind("record"), ids=lambda b: b.id)
def test_the_records_replay(block: Block) -> None:
    replay(block.text)  # a RecordError names the line that does not replay


@pytest.mark.parametrize("block", of_kind("position"), ids=lambda b: b.id)
def test_the_positions_parse_and_read_back(block: Block) -> None:
    state = parse_position(block.text)
    assert position(parse_position(position(state))) == position(state)


# docs/research.md's examples need the research extra; tests/research/test_docs.py runs them
RUN_ELSEWHERE = {"research.md"}


@pytest.mark.parametrize("block", [b for b in of_kind("python")
                                   if b.page.name not in RUN_ELSEWHERE], ids=lambda b: b.id)
def test_the_python_examples_run(block: Block) -> None:
    if ">>>" in block.text:
        test = doctest.DocTestParser().get_doctest(block.text, {}, block.id, str(block.page),
                                                   block.line)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert runner.summarize(verbose=False).failed == 0, block.id
    else:
        exec(compile(block.text, block.id, "exec"), {})


# -- command lines --------------------------------------------------------------------------


def command_lines(block: Block) -> list[list[list[str]]]:
    """The lines of an ``sh`` block, each run from the repository's root as its own shell
    line: continuations joined, comments and prompts dropped, ``a && b`` two commands."""
    text = block.text.replace("\\\n", " ")
    out: list[list[list[str]]] = []
    for line in text.splitlines():
        words = shlex.split(line.removeprefix("$ "), comments=True)
        line_commands: list[list[str]] = []
        while words:
            cut = words.index("&&") if "&&" in words else len(words)
            line_commands.append(words[:cut])
            words = words[cut + 1:]
        if line_commands:
            out.append(line_commands)
    return out


def parlor_args(words: list[str]) -> list[str] | None:
    """The arguments of a ``parlor`` command line, None for another program."""
    return words[1:] if Path(words[0]).name == "parlor" else None


SH = of_kind("sh")
PARLOR = [(b, args) for b in SH for line in command_lines(b) for w in line
          if (args := parlor_args(w)) is not None]
MAKE_TARGETS = set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(), re.M))
EXTRAS = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
             ["optional-dependencies"])
# steps of a deployment: they change the machine or need one running; not run here
NOT_RUN = {"sudo", "sudoedit", "createdb", "export", "curl"}


def check_command(words: list[str], cwd: Path) -> Path:
    """Checks one command line as far as it can run here; returns the folder after it."""
    program, args = Path(words[0]).name, words[1:]
    if program == "cd":
        return cwd / args[0]
    if program == "parlor":
        build_parser().parse_args(args)  # a usage error exits (SystemExit fails the test)
    elif program == "make":
        assert set(args) <= MAKE_TARGETS, f"no such make target: {args}"
    elif program.startswith("python"):
        script = cwd / args[0]
        source = script.read_text(encoding="utf-8")
        for option in (a.partition("=")[0] for a in args if a.startswith("--")):
            assert f'"{option}"' in source, f"{args[0]} has no option {option}"
    elif program == "pip":
        extras = {x for a in args for x in re.findall(r"parlor-magic\[([\w,]+)\]", a)}
        assert extras and {e for x in extras for e in x.split(",")} <= EXTRAS, args
    elif program in NOT_RUN:
        for path in (a for a in args if a.startswith("deploy/")):
            assert list(ROOT.glob(path)), f"{path} names no file of the repository"
    else:
        raise AssertionError(f"{' '.join(words)}: no way to check {program!r} here")
    return cwd


@pytest.mark.parametrize("block", SH, ids=lambda b: b.id)
def test_the_command_lines_name_what_exists(block: Block) -> None:
    for line in command_lines(block):
        cwd = ROOT
        for words in line:
            cwd = check_command(words, cwd)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
@pytest.mark.parametrize(("block", "args"), PARLOR,
                         ids=[f"{b.id}:{' '.join(a[:2])}" for b, a in PARLOR])
def test_the_parlor_commands_of_the_docs_run(block: Block, args: list[str], tmp_path: Path,
                                             request: pytest.FixtureRequest) -> None:
    """Each runs for up to 4 s as written (a server's port made free, a record for
    ``analyse``): it finishes without error, is still running when stopped, or, where a
    person plays, asks its first question."""
    if "--port" in args:
        args = list(args)
        args[args.index("--port") + 1] = str(free_port())
    (record,) = of_kind("record")[:1]
    (tmp_path / "game.txt").write_text(record.text)
    url = (request.getfixturevalue("pg_url") if args[0] == "worker"
           else f"sqlite:///{tmp_path}/parlor.db")  # a worker runs only on PostgreSQL
    env = {**os.environ, "PARLOR_DATABASE_URL": url,
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    # its own process group, so that a command still running at the stop is ended with
    # every process it started (`--workers N` forks; stopping only the parent left them on)
    with subprocess.Popen([sys.executable, "-m", "parlor.cli", *args], cwd=tmp_path, env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, start_new_session=True) as proc:
        try:
            stdout, stderr = proc.communicate(timeout=4)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return  # still running: it started as the docs say
    run = subprocess.CompletedProcess(proc.args, proc.returncode, stdout, stderr)
    if args[0] == "play" or "human" in " ".join(args):
        # a person plays: with no one at the keyboard it stops at its first question
        assert "Your decision" in run.stdout, run.stdout[-2000:] + run.stderr[-2000:]
    else:
        assert run.returncode == 0, run.stderr[-2000:]


# -- the sample refusal of docs/rules.md ------------------------------------------------------


def test_the_sample_refusal_of_the_rules_is_the_engines() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    m = re.search(r'with `(.+?)` on Rlr 2\'s Field, `(.+?)` is refused with "(.+?)"\)', rules,
                  re.S)
    assert m, "docs/rules.md's introduction gives a sample refusal"
    field, action, said = (g.replace("\n", " ") for g in m.groups())
    state = parse_position(f"phasing: 1\n1.hand: 3C\n1.home: 7C 8C 9C 10C\n2.field: {field}\n")
    with pytest.raises(ValueError) as refused:
        apply(state, action)
    assert str(refused.value) == said


def test_the_expel_example_of_the_notation_does_what_it_says() -> None:
    """docs/notation.md: after ``expel 4C at 2:JH`` on its short position, "the Jack and its
    3C go to Rlr 2's Recycle pile face up and the 4C to Rlr 1's Discard"."""
    page = ROOT / "docs" / "notation.md"
    (block,) = [b for b in blocks(page) if b.kind == "position" and "2.field: JH/3C" in b.text]
    assert 'apply(state, "expel 4C at 2:JH")' in page.read_text(encoding="utf-8")
    after = position(apply(parse_position(block.text), "expel 4C at 2:JH")).splitlines()
    assert "2.recycle: ^JH ^3C" in after and "1.discard: 4C" in after
