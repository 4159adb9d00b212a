"""The terminal front-end: the ``parlor play``, ``parlor tournament`` and ``parlor simulate``
commands (registered by :mod:`parlor.cli`).

* :mod:`~parlor.terminal.play` — ``parlor play``: the command, the console and its reader;
* :mod:`~parlor.terminal.game` — one game's loop (:class:`TerminalGame`): the log, the screen,
  save and the look back after the game;
* :mod:`~parlor.terminal.commands` — what the human types: numbers, actions, ``?``, ``log`` …;
* :mod:`~parlor.terminal.spread` — the table as the terminal draws it;
* :mod:`~parlor.terminal.menu` — the numbered, grouped menu of the legal actions;
* :mod:`~parlor.terminal.rulebook` — ``rule 304``: quotes from docs/rules.md;
* :mod:`~parlor.terminal.computer` — the computer players and the level names;
* :mod:`~parlor.terminal.tournament` — ``parlor tournament`` (rule 1300); the games are
  played by :mod:`~parlor.terminal.runner`, the teams read by :mod:`~parlor.terminal.teams`,
  the tables drawn by :mod:`~parlor.terminal.standings`;
* :mod:`~parlor.terminal.simulate` — ``parlor simulate``: games between computer players, with
  :mod:`~parlor.terminal.stats` (the summary) and :mod:`~parlor.terminal.progress` (the bar).
  It is here, not in :mod:`parlor.ai`, because it is a command whose product is text for a
  terminal; the agents it runs are :mod:`parlor.ai`'s.

The sentences people read (the "why" of a ranking decision, what each phase asks) come from
:mod:`parlor.present`, shared with the web app; the terminal imports nothing of
:mod:`parlor.web`.
"""
