// The coach: before a consequential decision, one line on what follows (the lines come from
// the server, derived from the engine's state). A setting, on by default against novice and
// casual and in lessons; remembered in this browser ("pm-coach").
import { describe, richText } from "./text.js";

const KEY = "pm-coach";
const GENTLE = ["novice", "casual", "lesson"];

export function coachOn(level) {
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch (e) { stored = null; }
  return stored === null ? GENTLE.includes(level) : stored === "1";
}

function setCoach(on) {
  try { localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* not kept */ }
}

// The lines for the decisions in view: the selected card's, or else those of the buttons and
// of cards that act with one click (attackers). At most three, without repeats.
// With a card selected, a line that holds for some of its targets only says which (the
// issue 41 newcomer read "This Enh joins the computer's counts" for 2 of 9 targets).
// Without a selection, the same line about several cards (each attacker's "Attacking with QC
// taxes it...") is one line naming them all: three near-copies made the strip too tall.
export function coachLines(snap, selected, legal) {
  const lines = snap.coach || {};
  const pick = legal.filter((a) => lines[a.text] && (selected ? a.actor === selected : !a.target));
  const moves = new Map();
  for (const a of pick) {
    const line = lines[a.text];
    const key = !selected && a.card && line.includes(a.card) ? line.split(a.card).join(CARD) : line;
    moves.set(key, [...(moves.get(key) || []), a]);
  }
  const mine = selected ? legal.filter((a) => a.actor === selected).length : 0;
  return [...moves].slice(0, 3).map(([line, some]) => {
    if (line.includes(CARD)) return line.split(CARD).join(orList(some.map((a) => a.card)));
    return selected && some.length < mine
      ? `${line} (${some.map((a) => describe(a.text, snap.you)).join("; ")})` : line;
  });
}

const CARD = "\u0000"; // where a line names its card, while lines are grouped

function orList(cards) {
  return cards.length < 2 ? cards.join("") : `${cards.slice(0, -1).join(", ")} or ${cards[cards.length - 1]}`;
}

export function renderCoach(snap, selected, legal) {
  const el = document.getElementById("coach");
  if (!el) return;
  const on = coachOn(snap.level) && snap.your_turn;
  const lines = on ? coachLines(snap, selected, legal) : [];
  el.hidden = !lines.length;
  el.innerHTML = lines.map((l) => `<span class="coach-line"><b>Coach:</b> ${richText(l)}</span>`).join("");
}

export function wireCoachSetting(level, onChange) {
  const box = document.getElementById("coach-on");
  if (!box) return;
  box.checked = coachOn(level);
  box.addEventListener("change", () => { setCoach(box.checked); onChange(); });
}
