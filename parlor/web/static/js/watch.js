// Watching a tournament contest between computers: the public view only (no Hand, no Draw
// order), drawn by the usual table renderer with no choices to make.
import { renderLog } from "./log.js";
import { emptyMarks, PHASES, renderTable } from "./table.js";

const app = document.getElementById("app");
const names = JSON.parse(document.getElementById("w-names").textContent);
let snap = JSON.parse(document.getElementById("snapshot").textContent);
let logCount = 0;

function render() {
  const v = snap.view;
  renderTable({ view: v, me: 0, names, marks: emptyMarks() });
  const who = names[v.actor] || "";
  document.getElementById("phase").textContent = snap.status === "over" ? v.result : `Turn ${v.turn}: ${PHASES[v.phase] || v.phase} (${who})`;
  const single = names.filter((_, i) => v.settings.includes(`single_draw=${i + 1}`));
  document.getElementById("w-draws").textContent = single.length ? `${single.join(" and ")} draw${single.length === 1 ? "s" : ""} single cards (held for a ransom, 1304).` : "";
  renderLog(document.getElementById("log"), snap.log, { replace: logCount === 0 });
  logCount = snap.log_total;
}

async function poll() {
  const url = `/api/tournaments/${app.dataset.tournament}/tables/${app.dataset.table}`;
  while (snap.status !== "over") {
    try {
      const r = await fetch(`${url}?after=${snap.version}&wait=1&log_from=${logCount}`, { credentials: "same-origin" });
      if (!r.ok) { await new Promise((ok) => setTimeout(ok, 2000)); continue; }
      const next = await r.json();
      snap = { ...next, log: next.log };
      render();
    } catch (e) {
      await new Promise((ok) => setTimeout(ok, 2000));
    }
  }
}
snap.log_total = snap.log_total || 0;
render();
poll();
