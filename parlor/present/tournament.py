"""The tournament's words (rules 1300), for the terminal's tables and the web page alike."""

from __future__ import annotations

from parlor.rules.tournament import Ransom, Standing, Tournament


def talents(n: int) -> str:
    """
    >>> talents(1), talents(3)
    ('1 talent', '3 talents')
    """
    return "1 talent" if n == 1 else f"{n} talents"


def standing_note(t: Tournament, st: Standing) -> str:
    """What a standings row says beyond the numbers: out, held for a ransom, sat out."""
    notes = []
    if st.out:
        notes.append(f"out (round {t.players[st.player].out_round})")
    if st.ransom_owed:
        notes.append(f"held: ransom of {talents(st.ransom_owed)} owed, single-card draws")
    if st.byes:
        notes.append(f"sat out {st.byes}")
    return "; ".join(notes)


def ransom_question(t: Tournament, r: Ransom) -> str:
    """The question a person's team is asked between rounds (1308.2)."""
    prisoner, holder = t.players[r.prisoner].name, t.players[r.holder].name
    return (f"{prisoner} lost to {holder} in round {r.round} and owes a ransom of "
            f"{talents(r.amount)}. Until it is paid, {prisoner} draws single cards (1304). "
            f"Any player of team {t.players[r.prisoner].team} may pay, {prisoner} included; "
            "each keeps at least one talent (1309).")


__all__ = ["ransom_question", "standing_note", "talents"]
