"""The learned evaluation: a win estimate from :func:`~parlor.ai.features.features`.

A small network trained on self-play outcomes (:mod:`parlor.ai.train`, ``parlor train``):
the logit is a linear function of the features plus a layer of ``tanh`` units,

    z = b + w . f + sum_j v_j * tanh(c_j + U_j . f)

then, like :func:`~parlor.ai.evaluate.win_prob`, pulled toward a draw over the last 20 turns
before the turn limit and squashed into [0, 1]. Inference is plain Python (it runs at every
leaf of the search, compiled with the rest of parlor.ai; no numpy, no deep-learning runtime).

The weights are package data, ``parlor/ai/weights/value-v2.json`` (``value-v1.json``, the linear
fit the expert used before, is kept for matches, ``expert@value=v1``, as are ``value-v3.json``,
fitted to the expert's own games as well, ``expert@value=v3``, and ``value-v4.json``, v2's data
with the Hand's suit features, ``expert@value=v4``): the format version, the
feature names they were trained on, the seed and command that reproduce them, the data size
and the validation figures. They are read once, by the first agent that uses them
(:func:`packaged`, cached), from the installed package (never from the working directory);
a file of another version or naming a feature this version does not compute is refused with
the reason (no silent fallback); a file fitted before a feature was added weighs it 0, which
is the model it was. Not at this module's import: ``parlor train`` must run when the shipped file no
longer fits the features, to replace it.

    >>> from parlor.rules.engine import new_game
    >>> 0.0 < learned_win_prob(new_game(1), 0, packaged()) < 1.0
    True
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from parlor.ai.features import FEATURE_NAMES, features
from parlor.rules.state import OVER, State
from parlor.rules.values import Value

#: The weights file format this module reads.
FORMAT = "parlor-value/1"
#: The file in the package the agents use.
WEIGHTS_FILE = "value-v2.json"


@dataclass(frozen=True, slots=True)
class ValueModel(Value):
    """The trained numbers, and what the file says about where they came from."""

    bias: float
    linear: tuple[float, ...]  # w, one per feature
    hidden: tuple[tuple[float, ...], ...]  # U, one row per unit
    hidden_bias: tuple[float, ...]  # c
    out: tuple[float, ...]  # v
    info: tuple[tuple[str, str], ...] = ()  # version, seed, command, data size, validation

    def logit(self, f: list[float]) -> float:
        """The raw logit of feature row ``f`` (before the draw pull)."""
        # Indexed loops: compiled by mypyc they run on unboxed floats, 3.5 times faster than
        # sum(map(mul, ...)) (9 against 32 us for 16 tanh units, 2026-12-02).
        n = len(f)
        linear = self.linear
        z = self.bias
        for i in range(n):
            z += linear[i] * f[i]
        hidden, hidden_bias, out = self.hidden, self.hidden_bias, self.out
        for j in range(len(hidden)):
            row = hidden[j]
            h = hidden_bias[j]
            for i in range(n):
                h += row[i] * f[i]
            z += out[j] * math.tanh(h)
        return z


def model_from_dict(d: dict[str, Any]) -> ValueModel:
    """A :class:`ValueModel` from a weights file's data; ValueError if it does not fit (a
    plain ValueError: parlor.ai is compiled by mypyc, which builds no exception classes)."""
    if d.get("format") != FORMAT:
        raise ValueError(f"weights format {d.get('format')!r}; this version reads {FORMAT!r}")
    names = tuple(d.get("features", ()))
    unknown = [n for n in names if n not in FEATURE_NAMES]
    if unknown or len(set(names)) != len(names):
        raise ValueError(f"the weights were trained on features this version does not compute "
                         f"({', '.join(unknown) or 'a name twice'}): retrain them with "
                         "`parlor train`")
    k = len(names)
    file_linear = [float(x) for x in d["linear"]]
    file_hidden = [[float(x) for x in row] for row in d["hidden"]]
    hidden_bias = tuple(float(x) for x in d["hidden_bias"])
    out = tuple(float(x) for x in d["out"])
    if len(file_linear) != k or any(len(r) != k for r in file_hidden) or not (
            len(file_hidden) == len(hidden_bias) == len(out)):
        raise ValueError("the weights' shapes do not match their features")
    linear = _by_name(names, file_linear)
    hidden = tuple(_by_name(names, row) for row in file_hidden)
    info = tuple((k, str(d[k])) for k in ("version", "seed", "command", "games", "positions")
                 if k in d)
    return ValueModel(float(d["bias"]), linear, hidden, hidden_bias, out, info)


def _by_name(names: tuple[str, ...], weights: list[float]) -> tuple[float, ...]:
    """``weights`` (one per name of ``names``) laid out in :data:`FEATURE_NAMES`' order, 0 for
    a feature the file was not trained on: a file fitted before a feature was added (v1-v3
    before the Hand's suits) weighs it 0 and computes exactly the logit it was fitted with."""
    at = dict(zip(names, weights, strict=True))
    return tuple(at.get(n, 0.0) for n in FEATURE_NAMES)


def load_packaged(name: str = WEIGHTS_FILE) -> ValueModel:
    """The weights shipped in the package (``parlor/ai/weights/NAME``), read now."""
    text = resources.files("parlor.ai").joinpath("weights", name).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return model_from_dict(data)


_CACHE: dict[str, ValueModel] = {}


def packaged(name: str = WEIGHTS_FILE) -> ValueModel:
    """The package's weights file ``name`` (:data:`WEIGHTS_FILE` unless a benchmark names
    another, ``expert@value=v2``), read on the first call only."""
    model = _CACHE.get(name)
    if model is None:
        model = _CACHE[name] = load_packaged(name)
    return model


def weights_file(tag: str) -> str:
    """The weights file a spec's ``value=TAG`` names: ``value-TAG.json`` in the package's
    weights folder; ValueError, naming the files there, if there is no such file."""
    name = f"value-{tag}.json"
    folder = resources.files("parlor.ai").joinpath("weights")
    if not tag.replace("-", "").isalnum() or not folder.joinpath(name).is_file():
        there = sorted(f.name for f in folder.iterdir() if f.name.endswith(".json"))
        raise ValueError(f"no weights file {name!r} in parlor/ai/weights (there: "
                         f"{', '.join(there)})")
    return name


def learned_win_prob(s: State, p: int, model: ValueModel) -> float:
    """A win estimate for ``p`` in [0, 1] from ``p``'s view of ``s`` (a finished game is
    exactly 1, 0 or 0.5 for a draw)."""
    if s.phase is OVER:
        if s.winner is None:
            return 0.5
        return 1.0 if s.winner == p else 0.0
    x = model.logit(features(s, p)) * draw_pull(s.settings.max_turns - s.turn)
    if x > 30:
        return 1.0
    if x < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def learned(model: ValueModel | None = None) -> Callable[[State, int], float]:
    """The learned evaluation as a search's leaf evaluation (the package's weights unless
    ``model`` is given)."""
    m = packaged() if model is None else model

    def evaluate(s: State, p: int) -> float:
        return learned_win_prob(s, p, m)

    return evaluate


def draw_pull(turns_left: int) -> float:
    """The factor on the logit near the turn limit (a draw there pulls toward one half)."""
    return 1.0 if turns_left >= 20 else max(0.0, turns_left) / 20.0


__all__ = ["FORMAT", "WEIGHTS_FILE", "ValueModel", "draw_pull",
           "learned", "learned_win_prob", "load_packaged", "model_from_dict",
           "packaged", "weights_file"]
