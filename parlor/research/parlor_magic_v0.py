"""Parlor Magic in PettingZoo's classic style: ``from parlor.research import parlor_magic_v0``
then ``parlor_magic_v0.env()`` (wrapped in PettingZoo's order checks) or
``parlor_magic_v0.raw_env()`` (the bare AEC environment), as ``pettingzoo.classic.chess_v6``
offers them. See :mod:`parlor.research.petting`."""

from __future__ import annotations

from parlor.research.petting import ParlorAECEnv as raw_env
from parlor.research.petting import env

__all__ = ["env", "raw_env"]
