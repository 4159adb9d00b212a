// A spectator's table: read-only, public information only (the server sends no Hand and no
// drawn card), following the game as it is played.
import { renderLog } from "./log.js";
import { announce, combatSummary } from "./news.js";
import { emptyMarks, PHASES, renderTable } from "./table.js";
import { esc, richText } from "./text.js";

const app = document.getElementById("app");
const gameId = app.dataset.game;
const key = app.dataset.key;
const logEl = document.getElementById("log");
const phaseEl = document.getElementById("phase");
let snap = JSON.parse(document.getElementById("snapshot").textContent);
let logCount = 0;
// The one who plays and the computer (a spectator is not the player: not "You").
const NAMES = snap.kind === "play" ? (snap.you === 0 ? ["Player", "Computer"] : ["Computer", "Player"]) : ["Rlr 1", "Rlr 2"];

function render() {
  const v = snap.view;
  renderTable({ view: v, me: snap.you, names: NAMES, marks: emptyMarks() });
  phaseEl.innerHTML = snap.status === "over"
    ? `<strong>The game is over.</strong> ${richText(snap.result_text || v.result || "")}`
    : `<span class="turn">Turn ${v.turn}</span> · ${richText(PHASES[v.phase] || v.phase)} — ${esc(NAMES[v.actor])} to decide`;
  // a friend game over: its record, replay and analysis, opened with this link's key
  if (snap.kind === "friend" && snap.status !== "live") {
    const k = `k=${encodeURIComponent(key)}`;
    if (snap.status !== "over") phaseEl.innerHTML = `<strong>The game is over.</strong> ${richText(snap.result_text || "")}`;
    phaseEl.innerHTML += ` <span class="over-links"><a class="btn small" id="watch-analysis" href="/g/${esc(gameId)}/analysis?${k}">Analyse the game</a>` +
      ` <a class="btn small" id="watch-replay" href="/replay/${esc(gameId)}?${k}">Replay</a>` +
      ` <a class="btn small" href="/g/${esc(gameId)}/record.txt?${k}" download>Export record</a></span>`;
  }
}

function apply(s) {
  const fresh = (s.log || []).filter((e) => e.n >= logCount);
  if (fresh.length) {
    renderLog(logEl, fresh, { fresh: logCount > 0 });
    if (logCount > 0) {
      announce(fresh, { fromAction: true });
      combatSummary(fresh, snap, s, NAMES);
    }
    logCount = fresh[fresh.length - 1].n + 1;
  }
  snap = s;
  render();
}

async function follow() {
  while (snap.status === "live") {
    try {
      const r = await fetch(`/api/watch/${gameId}?k=${encodeURIComponent(key)}&after=${snap.version}&wait=20&log_from=${logCount}`);
      if (r.ok) apply(await r.json());
      else await new Promise((ok) => setTimeout(ok, 3000));
    } catch (e) {
      await new Promise((ok) => setTimeout(ok, 3000));
    }
  }
}

app.addEventListener("click", (ev) => {
  if (ev.target.closest('[data-act="close-combat"]')) document.getElementById("combat").hidden = true;
});
apply(snap);
follow();
