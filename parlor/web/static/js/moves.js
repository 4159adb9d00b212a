// The decisions the page offers: the snapshot's `choices` (its legal actions as the engine
// parsed them, parlor.web.games.choices), each with the table keys the page clicks: the key of
// the acting card (`actor`) and of the target (`target`). Nothing here reads the notation.
import { state } from "./state.js";
import { emptyMarks } from "./table.js";

export const me = () => state.snap.you;
export const mine = (face) => `${me() + 1}:${face}`;

// Where the table shows the acting card: among the drawn cards, in the Hand, or on the table.
function actorKey(snap, card) {
  if (!card) return null;
  const v = snap.view;
  if ((v.drawn || []).includes(card)) return `d:${card}`;
  if ((v.sides[snap.you].hand || []).includes(card)) return `h:${card}`;
  return `${snap.you + 1}:${card}`;
}

function movesOf(snap) {
  return (snap.choices || []).map((c) => ({ ...c, actor: actorKey(snap, c.card) }));
}

// The moves of the table shown (a preview's, while declarations are staged).
export function legal() {
  return movesOf(state.snap);
}

// The move `text` names: one of the table shown, or of the server's own table under a preview
// (a hint is given for it); else only its text, for the server to judge.
export function moveOf(text) {
  const found = legal().find((a) => a.text === text)
    || (state.base ? movesOf(state.base).find((a) => a.text === text) : null);
  return found || { text, verb: null, card: null, actor: null, target: null };
}

export function actionsFor(actor) {
  return legal().filter((a) => a.actor === actor && (a.verb !== "redraw" || state.redrawMode));
}

function hintKeys() {
  const a = moveOf(state.hint.action);
  return [a.actor, a.target].filter(Boolean);
}

// What the table marks: the cards to pick, the targets, the selection, the hint, the payment.
export function marks() {
  const m = emptyMarks();
  if (!state.snap.your_turn || state.busy) {
    if (state.hint) hintKeys().forEach((k) => m.hinted.add(k));
    return m;
  }
  const pay = state.pay;
  if (pay) {
    const side = state.snap.view.sides[me()];
    side.home.filter((tc) => !tc.taxed_on).forEach((tc) => m.payable.add(tc.ref));
    pay.lnds.forEach((f) => m.paying.add(mine(f)));
    "CDHS".split("").forEach((s, i) => { if (side.pool[i]) m.payable.add(`pool:${s}`); });
    m.spend = pay.spend;
    m.selected = pay.move.actor;
    return m;
  }
  for (const a of legal()) {
    if ((a.verb === "redraw") !== state.redrawMode) continue;
    if (a.actor) m.selectable.add(a.actor);
    else if (a.target) m.targets.add(a.target);
  }
  if (state.selected) {
    m.selected = state.selected;
    actionsFor(state.selected).forEach((a) => { if (a.target) m.targets.add(a.target); });
  }
  if (state.hint) hintKeys().forEach((k) => m.hinted.add(k));
  return m;
}
