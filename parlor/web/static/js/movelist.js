// The move list beside the game log (issue 41, as lichess's): the game's moves, one line
// each, and during a casual game a way back through its positions without leaving the table.
// ← → (or the buttons, or a tap on a move) step back and forth; the table shows the position
// as it was then, from the player's own seat: the server replays the record and sends the
// engine's view for this seat only (/api/replays/{id}?step=N), never the computer's Hand.
// Looking back changes nothing in the game: the live table goes on underneath (the long
// poll keeps running), its new moves are counted, not shown, until "Back to the live
// position" (End or Esc). A match game shows no earlier position during play (109, R30).
import { hooks } from "./hooks.js";
import { render as renderLive } from "./page.js";
import { state } from "./state.js";
import { emptyMarks, PHASES, renderTable } from "./table.js";
import { esc, richText } from "./text.js";

const app = document.getElementById("app");
const gameId = app.dataset.game;
const box = document.getElementById("movelist");
const list = document.getElementById("ml-list");
const note = document.getElementById("ml-note");
const phaseEl = document.getElementById("phase");
const msgEl = document.getElementById("message");
const controlsEl = document.getElementById("controls");
const logEl = document.getElementById("log");

const match = /\bmatch_play\b/.test(state.snap.settings || "");

const ml = {
  moves: [], // {step, turn, by, log, text}: the moves the page has, in order
  takebacks: state.snap.takebacks, // the line of play they belong to
  loading: null, // the request for more moves on its way
  at: null, // the step shown while looking back; null: the live table
  past: null, // the server's position at `at`
  since: 0, // the live version when looking back began (new moves are counted from it)
  wanted: null, // a step asked for while another loads: shown next, never dropped
  busy: false,
};

const me = () => state.snap.you;
const names = () => { const o = hooks.opponent || "Computer"; return me() === 0 ? ["You", o] : [o, "You"]; };
const total = () => (state.base || state.snap).version;
const looking = () => ml.at !== null;

async function getJSON(url) {
  const r = await fetch(url, { credentials: "same-origin" });
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  return { ok: r.ok, status: r.status, body };
}

// -- the list ---------------------------------------------------------------------------------

// The moves the page lacks (all of them after a takeback): each asked for once.
async function loadMoves() {
  if (ml.loading || match) return;
  const snap = state.base || state.snap;
  if (snap.takebacks !== ml.takebacks) {
    ml.moves = [];
    ml.takebacks = snap.takebacks;
    if (looking()) goLive();
    drawList();
  }
  if (ml.moves.length >= snap.version) return;
  ml.loading = getJSON(`/api/replays/${gameId}/moves?from=${ml.moves.length}`);
  const r = await ml.loading;
  ml.loading = null;
  if (!r.ok) {
    note.textContent = (r.body && r.body.message) || "The move list cannot be shown now.";
    return;
  }
  const same = r.body.takebacks === ml.takebacks; // else the server took back: the poll brings it
  if (same && r.body.from === ml.moves.length) {
    ml.moves.push(...r.body.moves);
    drawList();
  }
  const now = state.base || state.snap; // it may have moved on (or back) meanwhile
  if (now.takebacks !== ml.takebacks || (same && ml.moves.length < now.version)) loadMoves();
}

function optionHTML(m, prev) {
  const mine = m.by === me();
  const turn = !prev || prev.turn !== m.turn ? `<span class="ml-turn">${m.turn}</span>` : '<span class="ml-turn"></span>';
  return `<li role="option" id="ml-${m.step}" data-step="${m.step}" class="${mine ? "ml-mine" : "ml-theirs"}" aria-selected="false">` +
    `${turn}<span class="ml-text" title="${esc(m.text)}">${richText(m.text)}</span></li>`;
}

function drawList() {
  const start = '<li role="option" id="ml-0" data-step="0" class="ml-start" aria-selected="false"><span class="ml-turn"></span><span class="ml-text">The deal</span></li>';
  list.innerHTML = start + ml.moves.map((m, i) => optionHTML(m, ml.moves[i - 1])).join("");
  mark();
}

// The shown position is the selected move (the live one: the last), and it is in view.
function mark() {
  if (match) return; // its note stays: no position is shown or stepped to
  const step = looking() ? ml.at : ml.moves.length;
  let chosen = null;
  for (const li of list.children) {
    const on = Number(li.dataset.step) === step;
    li.setAttribute("aria-selected", on ? "true" : "false");
    li.classList.toggle("ml-after", looking() && Number(li.dataset.step) > step);
    if (on) chosen = li;
  }
  if (chosen) {
    list.setAttribute("aria-activedescendant", chosen.id);
    const top = chosen.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top + chosen.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top - list.clientHeight / 2;
    }
  }
  box.classList.toggle("looking", looking());
  const newer = total() - ml.since;
  document.getElementById("ml-live").disabled = !looking();
  document.getElementById("ml-prev").disabled = (looking() ? ml.at : total()) <= 0;
  document.getElementById("ml-next").disabled = !looking();
  note.textContent = looking() ? `Shown: move ${ml.at} of ${total()}${newer > 0 ? ` · ${newer} new` : ""}` : "";
}

// -- stepping ---------------------------------------------------------------------------------

async function show(step, reveal = false) {
  if (match) return;
  const n = Math.max(0, Math.min(step, total()));
  if (n >= total()) { goLive(reveal); return; }
  if (ml.busy) { ml.wanted = n; return; }
  ml.busy = true;
  if (!looking()) ml.since = total();
  try {
    const r = await getJSON(`/api/replays/${gameId}?step=${n}&seat=${me() + 1}`);
    if (r.ok) {
      ml.at = r.body.step;
      ml.past = r.body;
      drawPast();
      if (reveal) showTable();
    } else {
      msgEl.className = "message error";
      msgEl.textContent = (r.body && r.body.message) || "This position cannot be shown.";
    }
  } finally {
    ml.busy = false;
  }
  if (ml.wanted !== null) {
    const w = ml.wanted;
    ml.wanted = null;
    show(w);
  }
}

const shownStep = () => (ml.wanted !== null ? ml.wanted : (looking() ? ml.at : total()));
const back = (reveal) => show(shownStep() - 1, reveal);
const forward = (reveal) => { if (looking()) show(shownStep() + 1, reveal); };

// A step asked for below the table (a phone: the list follows the table) brings the table's
// middle, with its Back, Forward and live buttons, into view.
function showTable() {
  const c = document.getElementById("center");
  const r = c.getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight) c.scrollIntoView({ block: "center" });
}

function goLive(reveal = false) {
  // from the list, the focus stays in it; from the strip, the live table focuses the decision
  const focusWasHere = box.contains(document.activeElement);
  ml.at = null;
  ml.past = null;
  ml.wanted = null;
  app.classList.remove("looking-back");
  for (const li of logEl.querySelectorAll(":scope > li.later")) li.classList.remove("later");
  logEl.scrollTop = logEl.scrollHeight;
  renderLive();
  mark();
  if (focusWasHere && !box.contains(document.activeElement)) list.focus({ preventScroll: true });
  if (reveal) showTable();
}

// The earlier position on the table: no card can be chosen, the status strip says what is
// shown and how to come back, the log's later lines are dimmed.
function drawPast() {
  const p = ml.past;
  const v = p.view;
  const keep = document.activeElement;
  app.classList.add("looking-back");
  renderTable({ view: v, me: p.seat, names: names(), marks: emptyMarks() });
  const who = v.phase === "over" ? "" : ` — ${esc(names()[v.actor])} to decide`;
  phaseEl.innerHTML = `<span class="turn">Looking back · Turn ${v.turn}</span> · ${richText(PHASES[v.phase] || v.phase)}${who}`;
  const move = ml.moves[p.step - 1];
  msgEl.className = "message info";
  msgEl.innerHTML = move ? `The table as it was after move ${p.step}: ${richText(move.text)}` : "The table as it was dealt, before the first move.";
  const coach = document.getElementById("coach");
  if (coach) coach.hidden = true;
  const newer = total() - ml.since;
  const over = state.snap.status === "over" ? " — the game is over" : "";
  controlsEl.innerHTML = `<button type="button" class="btn" data-ml="prev" aria-keyshortcuts="ArrowLeft" title="Key: ←"${p.step <= 0 ? " disabled" : ""}><span aria-hidden="true">‹</span> Back</button>` +
    `<button type="button" class="btn" data-ml="next" aria-keyshortcuts="ArrowRight" title="Key: →">Forward <span aria-hidden="true">›</span></button>` +
    `<button type="button" class="btn primary" data-ml="live" aria-keyshortcuts="End" title="Key: End or Esc">Back to the live position</button>` +
    (newer > 0 || over ? `<span class="ml-new" role="status">${newer} new move${newer === 1 ? "" : "s"}${over}</span>` : "");
  for (const li of logEl.querySelectorAll(":scope > li")) li.classList.toggle("later", Number(li.dataset.n) >= p.log_total);
  showInLog(p.log_total - 1);
  mark();
  // a button the redraw replaced keeps the focus (the same one, drawn again)
  if (keep && keep.dataset && keep.dataset.ml && !controlsEl.contains(keep)) {
    const again = controlsEl.querySelector(`[data-ml="${keep.dataset.ml}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
    else list.focus({ preventScroll: true });
  }
}

// The log scrolled (within itself) to the last line written by the position shown.
function showInLog(n) {
  const li = logEl.querySelector(`:scope > li[data-n="${n}"]`);
  if (!li) return;
  const bottom = li.offsetTop - logEl.offsetTop + li.offsetHeight;
  if (bottom > logEl.scrollTop + logEl.clientHeight || bottom < logEl.scrollTop + li.offsetHeight) {
    logEl.scrollTop = bottom - logEl.clientHeight + 8;
  }
}

// -- the hooks: the game page draws the live table only when no earlier one is shown ----------

hooks.past = {
  active: looking,
  render: drawPast,
  changed: () => { loadMoves(); mark(); }, // render() has drawn the table (or the past one) already
};

// -- clicks, taps and keys --------------------------------------------------------------------

document.addEventListener("click", (ev) => {
  const b = ev.target.closest && ev.target.closest("[data-ml]");
  if (b) {
    const below = box.contains(b);
    if (b.dataset.ml === "prev") back(below);
    else if (b.dataset.ml === "next") forward(below);
    else if (b.dataset.ml === "live") goLive(below);
    return;
  }
  const li = ev.target.closest && ev.target.closest("#ml-list > li[data-step]");
  if (li) show(Number(li.dataset.step), true);
});

list.addEventListener("keydown", (ev) => {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const at = shownStep();
  const to = { ArrowUp: at - 1, ArrowLeft: at - 1, ArrowDown: at + 1, ArrowRight: at + 1, Home: 0, End: total(), PageUp: at - 10, PageDown: at + 10 }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  ev.stopPropagation();
  show(to);
});

document.addEventListener("keydown", (ev) => {
  if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
  if (ev.target.closest && ev.target.closest("input, textarea, select, dialog, details[open], [role=listbox], #log")) return;
  if (ev.key === "ArrowLeft") { ev.preventDefault(); back(); }
  else if (ev.key === "ArrowRight" && looking()) { ev.preventDefault(); forward(); }
  else if ((ev.key === "Escape" || ev.key === "End") && looking()) { ev.preventDefault(); goLive(); }
});

if (match) {
  box.classList.add("closed");
  note.textContent = "A match game: earlier positions are not shown during play (players rely on memory, 109).";
  for (const id of ["ml-prev", "ml-next", "ml-live"]) document.getElementById(id).hidden = true;
  list.hidden = true;
} else {
  drawList(); // the deal at least: a listbox is never empty
  loadMoves();
}

// for tests: the step shown (null: the live table) and the moves listed
window.parlorMoves = { at: () => ml.at, moves: () => ml.moves.slice(), past: () => ml.past, busy: () => ml.busy || ml.wanted !== null };
