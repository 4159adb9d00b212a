"""Words for humans: the one presentation module, shared by the web app and the terminal.

It turns what the engine decides into the sentences people read; the notation (``D:2D``,
``1:KS``) stays in records, tooltips and typed input. It reads only :mod:`parlor.rules`.

* :mod:`~parlor.present.explain` — the "why" of each ranking decision of the log (903-1106);
* :mod:`~parlor.present.phases` — what each phase of the turn asks of the actor;
* :mod:`~parlor.present.prose` — the log's sentences for a person: "you", "the computer",
  cards by name, rendered from the engine's events (:mod:`parlor.rules.events`), never
  parsed out of its sentences;
* :mod:`~parlor.present.tournament` — standings notes and ransom questions (1300).
"""
