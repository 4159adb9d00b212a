// The game page's state, in one object owned by this module. Every other module reads
// `state.<field>`; none assigns to it (an assignment throws): each change is one of the
// functions below, so that who may change what, and when, is written in one place.

const PAY_KEY = "pm-pay";

const fields = {
  /** The snapshot on the table: the server's, or a preview of staged declarations. */
  snap: null,
  /** The server's own snapshot while `snap` is a preview; null otherwise. */
  base: null,
  /** Declarations previewed and not sent yet (attackers, blockers, a split, bonus points):
   *  the server shows the table as it would be (POST .../preview, nothing stored); Done
   *  sends them whole, Cancel takes them all back. */
  staged: [],
  /** How many log entries the page has rendered: the next one to ask the server for. */
  logCount: 0,
  /** The table key of the selected acting card (h:9H, d:JC, 1:KS), or null. */
  selected: null,
  /** The moves offered for one click when it means several (an Enh on a card or an expel
   *  of it), or null. */
  options: null,
  /** The player is choosing the Hand card to recycle with a Redraw. */
  redrawMode: false,
  /** "Redraw" ends the turn: it asks once more before it is sent. */
  confirmRedraw: false,
  /** A payment chosen by hand: {move, lnds: Set of faces to tax, spend: [suit letters]}. */
  pay: null,
  /** A request is on its way: no decision is taken until it answers. */
  busy: false,
  /** The hint shown (the server's answer), or null. */
  hint: null,
  /** The game-over dialog was shown for this end of the game. */
  overShown: false,
  /** The number of the running poll: a poll with another number stops. */
  pollId: 0,
  /** The next render focuses what there is to decide (after an action, or when the
   *  decision comes back to the player). */
  focusWanted: true,
  /** The last payment pick was a click (then Enter pays), not a key. */
  pointerPay: false,
  /** When the last of the computer's plays was shown (Date.now()): the pace setting counts
   *  from there. */
  shownAt: 0,
  /** The player chooses the Lnds to pay with (a setting remembered in this browser). */
  payByHand: false,
};

export const state = new Proxy(fields, {
  set(_, name) { throw new TypeError(`state.${String(name)} is changed through state.js only`); },
  deleteProperty(_, name) { throw new TypeError(`state.${String(name)} cannot be deleted`); },
});

export function start(snap) {
  fields.snap = snap;
  try { fields.payByHand = localStorage.getItem(PAY_KEY) === "1"; } catch (e) { /* not kept */ }
}

// -- snapshots and declarations -------------------------------------------------------------------

// The server's snapshot replaces whatever was on the table, a preview included: a declaration
// not sent is gone. `changed`: the game moved, so every half-made choice and the hint go too.
export function showSnapshot(snap, changed) {
  fields.snap = snap;
  fields.staged = [];
  fields.base = null;
  if (!changed) return;
  clearChoice();
  fields.hint = null;
  if (snap.your_turn) fields.focusWanted = true;
}

// The server's preview of the staged declarations and one more (`reply.staged`).
export function showPreview(reply) {
  if (!fields.base) fields.base = fields.snap;
  fields.staged = reply.staged;
  fields.snap = reply;
  fields.selected = null;
  fields.focusWanted = true;
}

// The declarations are taken back or refused: the server's own snapshot is on the table again.
export function dropStaged() {
  if (fields.base) fields.snap = fields.base;
  fields.staged = [];
  fields.base = null;
}

export function logRendered(count) { fields.logCount = count; }

// -- choosing -------------------------------------------------------------------------------------

export function select(key) { fields.selected = key; }

export function offer(moves) { fields.options = moves; }

export function startRedraw() {
  fields.redrawMode = true;
  fields.selected = null;
}

export function askRedraw(on) {
  fields.confirmRedraw = on;
  if (on) fields.focusWanted = true;
}

// Every half-made choice is dropped: the selection, the options, a Redraw, a payment.
export function clearChoice() {
  fields.selected = null;
  fields.options = null;
  fields.redrawMode = false;
  fields.confirmRedraw = false;
  fields.pay = null;
}

// -- paying by hand ---------------------------------------------------------------------------------

export function startPay(move) {
  fields.pay = { move, lnds: new Set(), spend: [] };
  fields.selected = null;
  fields.focusWanted = true;
}

export function toggleTax(face) {
  if (fields.pay.lnds.has(face)) fields.pay.lnds.delete(face);
  else fields.pay.lnds.add(face);
}

// One more point of `suit` from the pool, or, when all `have` are spent, none of it.
export function toggleSpend(suit, have) {
  const n = fields.pay.spend.filter((x) => x === suit).length;
  if (n < have) fields.pay.spend.push(suit);
  else fields.pay.spend = fields.pay.spend.filter((x) => x !== suit);
}

export function endPay() { fields.pay = null; }

export function setPayByHand(on) {
  fields.payByHand = on;
  try { localStorage.setItem(PAY_KEY, on ? "1" : "0"); } catch (e) { /* not kept */ }
}

export function setPointer(pointer) { fields.pointerPay = pointer; }

// -- the page around the decision -----------------------------------------------------------------

export function setBusy(busy) { fields.busy = busy; }

export function wantFocus(on = true) { fields.focusWanted = on; }

export function setHint(hint) { fields.hint = hint; }

export function setOverShown(shown) { fields.overShown = shown; }

// A new poll: the one running stops at its next turn.
export function nextPoll() { return ++fields.pollId; }

export function markShown() { fields.shownAt = Date.now(); }
