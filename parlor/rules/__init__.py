"""The game: cards, actions, the state and the engine that applies actions under the numbered
rules of docs/rules.md. Pure: no I/O, no global random (a game replays from its seed and
actions), and it imports nothing else of :mod:`parlor`. Hidden information leaves it only as
a projection, :func:`parlor.rules.view.view`."""
