// Step-by-step replay of a finished or imported game, from either Rlr's seat.
import { renderLog } from "./log.js";
import { emptyMarks, PHASES, renderTable } from "./table.js";
import { esc, richText } from "./text.js";

const app = document.getElementById("app");
const gameId = app.dataset.game;
// a friend game's spectator reads the replay with the spectator link's key
const key = new URLSearchParams(window.location.search).get("k");
const keyQ = key ? `&k=${encodeURIComponent(key)}` : "";
const logEl = document.getElementById("log");
const phaseEl = document.getElementById("phase");
const msgEl = document.getElementById("message");
const slider = document.getElementById("step");
const playBtn = document.getElementById("play");
const seatBtn = document.getElementById("seat");

let snap = JSON.parse(document.getElementById("snapshot").textContent);
let timer = null;
let loading = false;

function render() {
  const seat = snap.seat;
  renderTable({ view: snap.view, me: seat, names: names(), marks: emptyMarks() });
  const v = snap.view;
  phaseEl.innerHTML = `<span class="turn">Step ${snap.step} of ${snap.steps}</span> · Turn ${v.turn} · ${richText(PHASES[v.phase] || v.phase)}` +
    (v.phase === "over" ? ` — ${richText(v.result)}` : ` — ${esc(names()[v.actor])} to decide`);
  msgEl.innerHTML = snap.last ? `Last action: <code>${esc(snap.last)}</code>` + (snap.next ? ` · next: <code>${esc(snap.next)}</code>` : "") : (snap.next ? `First action: <code>${esc(snap.next)}</code>` : "");
  renderLog(logEl, snap.log, { replace: true });
  slider.value = String(snap.step);
  slider.max = String(snap.steps);
  slider.setAttribute("aria-valuetext", `step ${snap.step} of ${snap.steps}`);
  const other = snap.kind === "friend" ? `Rlr ${seat + 1}'s` : "The computer's";
  const whose = snap.you === null || snap.you === undefined ? `Rlr ${seat + 1}'s` : (seat === snap.you ? "Your" : other);
  seatBtn.textContent = `${whose} seat`;
  seatBtn.setAttribute("aria-label", `${whose} seat: switch seats`);
}

// A game against the computer says who is who as its table did; an imported record cannot.
function names() {
  if (snap.you === null || snap.you === undefined) return ["Rlr 1", "Rlr 2"];
  if (snap.kind === "friend") return snap.you === 0 ? ["You", "Rlr 2"] : ["Rlr 1", "You"]; // a person, not the computer
  return snap.you === 0 ? ["You", "Computer"] : ["Computer", "You"];
}

let pending = null; // the step the keys have asked for, while it loads
let queued = null; // a step asked for while another loads: shown next, never dropped

async function go(step, seat = snap.seat) {
  if (loading) {
    queued = { step, seat };
    return;
  }
  loading = true;
  try {
    const n = Math.max(0, Math.min(step, snap.steps));
    const r = await fetch(`/api/replays/${gameId}?step=${n}&seat=${seat + 1}${keyQ}`, { credentials: "same-origin" });
    if (r.ok) {
      snap = await r.json();
      if (pending === snap.step) pending = null;
      render();
      history.replaceState(null, "", `/replay/${gameId}?step=${snap.step}${keyQ}`);
    } else {
      msgEl.textContent = "This step cannot be shown.";
    }
  } finally {
    loading = false;
  }
  if (queued) {
    const q = queued;
    queued = null;
    go(q.step, q.seat);
  }
}

function stop() {
  if (timer) clearInterval(timer);
  timer = null;
  playBtn.textContent = "Play";
  playBtn.setAttribute("aria-pressed", "false");
}

document.getElementById("first").addEventListener("click", () => { stop(); go(0); });
document.getElementById("prev").addEventListener("click", () => { stop(); go(snap.step - 1); });
document.getElementById("next").addEventListener("click", () => { stop(); go(snap.step + 1); });
document.getElementById("last").addEventListener("click", () => { stop(); go(snap.steps); });
slider.addEventListener("change", () => { stop(); go(Number(slider.value)); });
seatBtn.addEventListener("click", () => go(snap.step, 1 - snap.seat));
playBtn.addEventListener("click", () => {
  if (timer) return stop();
  playBtn.textContent = "Pause";
  playBtn.setAttribute("aria-pressed", "true");
  timer = setInterval(() => {
    if (snap.step >= snap.steps) return stop();
    go(snap.step + 1);
  }, 700);
  return null;
});
document.addEventListener("keydown", (ev) => {
  if (ev.target.matches("input[type=text], textarea, select")) return;
  const at = queued ? queued.step : (pending ?? snap.step);
  if (ev.key === "ArrowRight") { stop(); pending = Math.min(at + 1, snap.steps); go(pending); }
  if (ev.key === "ArrowLeft") { stop(); pending = Math.max(at - 1, 0); go(pending); }
  if (ev.key === "Home") { stop(); go(0); }
  if (ev.key === "End") { stop(); go(snap.steps); }
});

render();
