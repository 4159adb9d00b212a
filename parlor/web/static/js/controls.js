// The words and buttons around the table: the status line (turn, phase, who decides) and the
// controls bar (the buttons for the decision, the options of a click, a payment by hand).
// They only show the state; game.js handles what the buttons do.
import { cardName, face, kind } from "./cards.js";
import { hooks } from "./hooks.js";
import { actionsFor, legal, me } from "./moves.js";
import { outcomeWords } from "./news.js";
import { setPayByHand, state } from "./state.js";
import { PHASES } from "./table.js";
import { describe, esc, richText } from "./text.js";

const phaseEl = document.getElementById("phase");
const controlsEl = document.getElementById("controls");

// The words for the end of the game: a lesson's own (hooks.js), else win, loss or draw.
export function outcome() {
  const snap = state.snap;
  const hooked = hooks.outcome && hooks.outcome(snap);
  return hooked || outcomeWords(snap);
}

// Over by the rules, or ended beside them (a game between friends drawn by agreement or
// aborted): no one is deciding any more.
const ENDED = ["over", "drawn", "aborted"];

export function renderStatus() {
  const snap = state.snap;
  const v = snap.view;
  const phase = PHASES[v.phase] || v.phase;
  if (ENDED.includes(snap.status)) {
    phaseEl.innerHTML = `<strong>${esc(outcome())}</strong> ${richText(snap.result_text || v.result)}`;
    return;
  }
  if (snap.status === "failed") {  // the server's sentence: a bug, the game stops here
    phaseEl.innerHTML = `<strong class="failed">${esc(snap.failure)}</strong>`;
    return;
  }
  // a game between friends before the other seat is taken: nobody is deciding yet
  const unseated = snap.friend && !snap.friend.seated;
  const who = snap.your_turn
    ? '<strong class="you-decide">Your decision</strong>'
    : unseated ? '<strong class="cpu-decides">Waiting for your friend to take the other seat</strong>'
    : `<strong class="cpu-decides"><span class="spinner" aria-hidden="true"></span>${hooks.opponent ? `${esc(hooks.opponent)} is deciding…` : "The computer is thinking…"}</strong>`;
  phaseEl.innerHTML = `<span class="turn">Turn ${v.turn}${v.settings ? ` of ${esc(String(v.settings).replace(/.*max_turns=(\d+).*/, "$1"))}` : ""}</span> · ` +
    `${richText(phase)} — ${who}`;
}

export function button(act, label, key, extra = "") {
  return `<button type="button" class="btn ${extra}" data-act="${esc(act)}"${key ? ` aria-keyshortcuts="${key}" title="Key: ${key}"` : ""}>${esc(label)}${key ? ` <kbd>${key}</kbd>` : ""}</button>`;
}

function optionButtons(moves) {
  return moves.map((a) => `<button type="button" class="btn option" data-action="${esc(a.text)}">${esc(describe(a.text, me()))}</button>`).join("");
}

export function renderControls() {
  const snap = state.snap;
  if (ENDED.includes(snap.status)) {
    controlsEl.innerHTML = `<button type="button" class="btn primary" data-act="show-over">${hooks.overLabel || (hooks.transport ? "Lesson complete…" : "Game over…")}</button>` +
      (snap.takeback ? button("takeback", "Take back", "U") : "");
    return;
  }
  if (snap.status === "failed") {
    controlsEl.innerHTML = `<a class="btn primary" href="/">New game</a>`;
    return;
  }
  if (!snap.your_turn || state.busy) {
    const whom = snap.friend && !snap.friend.seated ? "your friend to take the other seat" : (hooks.opponent || "the computer");
    controlsEl.innerHTML = state.busy ? '<span class="muted">Sending…</span>' : `<span class="muted">Wait for ${esc(whom)}.</span>`;
    return;
  }
  // the choice of paying by hand only where something is paid for (a Cre or an Enh played or
  // expelled), or while it is ticked (to untick it): elsewhere it was a row with nothing to say
  const pays = legal().some((a) => (a.verb === "play" || a.verb === "expel") && a.card && kind(a.card) !== "Lnd");
  controlsEl.innerHTML = decisionControls() + (pays || state.pay || state.payByHand
    ? `<label class="pref pay-pref"><input type="checkbox" id="pay-by-hand"${state.payByHand ? " checked" : ""}> Choose Lnds to pay</label>` : "");
  const box = document.getElementById("pay-by-hand");
  if (box) box.addEventListener("change", () => setPayByHand(box.checked));
}

function decisionControls() {
  const pay = state.pay;
  if (pay) {
    const lnds = [...pay.lnds].join(" ") || "none";
    return `<span class="pay-note">${esc(describe(pay.move.text, me()))}: tax <b>${esc(lnds)}</b>, spend <b>${esc(pay.spend.join("") || "nothing")}</b> from the pool</span>` +
      button("pay-confirm", "Pay and play", "Enter", "primary") + button("cancel", "Cancel", "Esc");
  }
  if (state.selected) {
    return `<span class="sel-note">${esc(cardName(face(state.selected.replace(/^[hd]:/, ""))))}:</span>` +
      optionButtons(actionsFor(state.selected)) + button("cancel", "Cancel", "Esc");
  }
  if (state.confirmRedraw) {
    return `<span class="sel-note" id="redraw-note">Redraw recycles both drawn cards and <b>ends your turn</b>: no Lnd, no attack this turn.</span>` +
      button("redraw-confirm", "Redraw and end the turn", "", "primary") + button("cancel", "Cancel", "Esc");
  }
  if (state.redrawMode) {
    return `<span class="sel-note">Redraw: choose a Hand card to recycle with the drawn cards. This <b>ends your turn</b>.</span>` + button("cancel", "Cancel", "Esc");
  }
  const L = legal();
  let html = "";
  if (state.staged.length) html += button("cancel", "Cancel declarations", "Esc", "staged");
  const prompt = promptText();
  if (prompt) html += `<span class="sel-note prompt" id="prompt">${prompt}</span>`;
  // keeping a drawn card has buttons too: clicking the card is not the only, hidden, way
  html += L.filter((a) => a.verb === "keep").map((a) => `<button type="button" class="btn option keep" data-action="${esc(a.text)}">Keep ${esc(cardName(face(a.card)))}</button>`).join("");
  if (L.some((a) => a.text === "pass")) html += button("pass", "Pass", "P", "primary");
  if (L.some((a) => a.text === "done")) html += button("done", "Done", "D", "primary");
  if (L.some((a) => a.text === "end")) html += button("end", "Don't attack", "E");
  if (L.some((a) => a.text === "redraw")) html += button("redraw", "Redraw", "R");
  else if (L.some((a) => a.verb === "redraw")) html += button("redraw-mode", "Redraw…", "R");
  if (!hooks.transport && hooks.hints) html += button("hint", "Hint", "H", "ghost");
  if (state.snap.takeback) html += button("takeback", "Take back", "U", "ghost");
  return html;
}

// Several moves for one click: the player picks one of them (or cancels).
export function renderOptions(moves) {
  controlsEl.innerHTML = `<span class="sel-note">Which?</span>` + optionButtons(moves) + button("cancel", "Cancel", "Esc");
  const first = controlsEl.querySelector("button");
  if (first) first.focus();
}

// What to do now when the buttons alone do not say it: splitting damage, giving bonus points.
function promptText() {
  const v = state.snap.view;
  const cb = v.combat;
  if (!cb) return "";
  const n = (k) => `${k} more point${k === 1 ? "" : "s"}`;
  if (v.phase === "split" && cb.split.length) {
    return `Split the damage of ${esc(cardName(face(cb.split[0])))}: give ${n(cb.split_left)} — click one of its blockers.`;
  }
  if (v.phase === "bonus" || v.phase === "domain_bonus") {
    const to = legal().some((a) => a.verb === "bonus" && a.target && !a.target.startsWith(`${me() + 1}:`)) ? "an opposing Cre" : "a Cre";
    return `Give ${n(cb.bonus_left)} of bonus: click ${to}.`;
  }
  if (v.phase === "attack") return "Click each Cre to attack with, then <b>Done</b>; or <b>Don't attack</b>.";
  if (v.phase === "block") return "Click a Cre of yours, then the attacker it blocks; <b>Done</b> when finished.";
  return "";
}
