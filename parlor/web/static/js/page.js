// Drawing the game page from the state: the table, the status line, the controls, the coach,
// the message line, the log, and where the keyboard's focus goes.
import { renderCoach, renderNotes } from "./coach.js";
import { outcome, renderControls, renderStatus } from "./controls.js";
import { hooks } from "./hooks.js";
import { renderLog } from "./log.js";
import { legal, marks, me } from "./moves.js";
import { announce, clearNews, combatSummary } from "./news.js";
import { logRendered, setOverShown, showSnapshot, state, wantFocus } from "./state.js";
import { renderTable } from "./table.js";
import { richText } from "./text.js";

export const app = document.getElementById("app");
export const hintEl = document.getElementById("hint");
const logEl = document.getElementById("log");
const msgEl = document.getElementById("message");
const overDlg = document.getElementById("over");
const baseTitle = document.title.replace(/^Parlor Magic — /, "Parlor Magic: ");

let rendered = false; // the page has been drawn once

const names = () => { const o = hooks.opponent || "Computer"; return me() === 0 ? ["You", o] : [o, "You"]; };

export function render() {
  if (hooks.past && hooks.past.active()) return hooks.past.render(); // an earlier position is shown (movelist.js)
  const snap = state.snap;
  const active = document.activeElement;
  const hadFocus = active && active !== document.body && app.contains(active);
  const focusKey = active && (active.dataset.key || active.dataset.act);
  renderTable({ view: snap.view, me: me(), names: names(), marks: marks(), costs: snap.costs, whyNot: snap.your_turn ? snap.why_not : null });
  renderStatus();
  renderControls();
  showNewest();
  renderCoach(snap, state.selected, state.busy || state.pay ? [] : legal());
  renderNotes(snap, state.selected, state.busy || state.pay ? [] : legal());
  app.classList.toggle("busy", state.busy);
  app.classList.toggle("thinking", snap.thinking);
  const lost = !document.activeElement || document.activeElement === document.body;
  if (state.focusWanted && snap.your_turn && !state.busy && (lost || !app.contains(document.activeElement))) {
    wantFocus(false);
    const next = ["[role=button].payable", "[role=button].target", "[role=button].selected", "[role=button].selectable",
      "#controls button.primary", "#controls button"].map((q) => app.querySelector(q)).find(Boolean);
    // the page's first focus does not scroll: a phone opens at its top (a lesson's goal and
    // steps, the opponent's side), not at the Hand card that has the focus
    if (next) next.focus({ preventScroll: !rendered });
  } else if (hadFocus && !app.contains(document.activeElement)) {
    // the focused card or button was redrawn: focus it again, or the next thing to decide
    const again = focusKey && app.querySelector(`[data-key="${CSS.escape(focusKey)}"], [data-act="${CSS.escape(focusKey)}"]`);
    const next = again && again.tabIndex >= 0 ? again
      : app.querySelector(".selected, [role=button].selectable, [role=button].target, #controls button");
    if (next) next.focus({ preventScroll: true });
  }
  rendered = true;
  if (snap.status === "over" && !state.overShown) showOver();
  document.title = `${snap.status === "over" ? outcome() : (snap.your_turn ? "Your move" : `${hooks.opponent || "The computer"}'s move`)} — ${baseTitle}`;
}

// The news strip shows its newest line, whatever a redrawn status strip did to its width.
function showNewest() {
  const news = document.getElementById("news");
  if (news && !news.hidden) news.scrollTop = news.scrollHeight;
}

export function showOver() {
  const snap = state.snap;
  setOverShown(true);
  document.getElementById("over-title").textContent = outcome();
  document.getElementById("over-result").innerHTML = `${richText(snap.result_text || snap.view.result)}` +
    // a practice deal's number can be dealt again; a secret deal's key means nothing to a person
    `<br><span class="muted small">${typeof snap.seed === "number" ? `Seed ${snap.seed} · ` : ""}${snap.version} moves</span>`;
  if (typeof overDlg.showModal === "function" && !overDlg.open) overDlg.showModal();
}

export function closeOver() {
  setOverShown(false);
  if (overDlg.open) overDlg.close();
}

export function say(text, kind = "info") {
  msgEl.className = `message ${kind}`;
  msgEl.innerHTML = text ? richText(text) : "";
}

export const offline = () => msgEl.classList.contains("offline");

// A snapshot from the server: its new log entries, the news of what changed, then the table.
// `fromAction`: the player's own action brought it (its news is not announced as the
// computer's).
export function applySnapshot(s, { fromAction = false } = {}) {
  const changed = s.version !== (state.base || state.snap).version;
  const entries = s.log || [];
  if (entries.length && entries[0].n < state.logCount) {
    // the server sent from an earlier point (a takeback): drop ours from there, and the
    // strips' news of the moves undone
    clearNews();
    [...logEl.children].forEach((li) => { if (Number(li.dataset.n) >= entries[0].n) li.remove(); });
    logRendered(entries[0].n);
  }
  const fresh = entries.filter((e) => e.n >= state.logCount);
  if (fresh.length) {
    renderLog(logEl, fresh, { fresh: state.logCount > 0 });
    logRendered(fresh[fresh.length - 1].n + 1);
  }
  const before = state.snap;
  showSnapshot(s, changed);
  if (changed && fresh.length && state.logCount > fresh.length) {
    announce(fresh, { fromAction });
    combatSummary(fresh, before, s);
  }
  if (changed) {
    hintEl.hidden = true;
    if (!fromAction && fresh.length) {
      const last = fresh.filter((e) => !["turn", "untax", "draw"].includes(e.kind)).pop() || fresh[fresh.length - 1];
      say(last.text, "event");
    }
  }
  render();
  if (hooks.onSnapshot) hooks.onSnapshot(s);
  if (hooks.past) hooks.past.changed(s);
}
