// The analysis page: starts the analysis, shows its progress, then the win-chance graph (SVG)
// and the table of decisions. A point of the graph opens that position in the replay.
import { describe, esc, richText } from "./text.js";

const root = document.getElementById("analysis");
const gameId = root.dataset.game;
const bar = document.getElementById("analysis-bar");
const count = document.getElementById("analysis-count");
const errEl = document.getElementById("analysis-error");
let status = JSON.parse(document.getElementById("analysis-status").textContent);

const pct = (x) => `${Math.round(x * 100)}%`;

async function call(method) {
  const r = await fetch(`/api/games/${gameId}/analysis`, {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: method === "POST" ? "{}" : undefined,
  });
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  return { ok: r.ok, body };
}

function graph(decisions, me) {
  const W = 640;
  const H = 220;
  const pad = 30;
  const n = decisions.length;
  const x = (i) => pad + (n > 1 ? (i * (W - 2 * pad)) / (n - 1) : (W - 2 * pad) / 2);
  const y = (v) => H - pad - v * (H - 2 * pad);
  const line = decisions.map((d, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(d.after).toFixed(1)}`).join(" ");
  const grid = [0, 0.25, 0.5, 0.75, 1].map((v) => `<line x1="${pad}" x2="${W - pad}" y1="${y(v)}" y2="${y(v)}" class="grid"/>` +
    `<text x="${pad - 4}" y="${y(v) + 4}" text-anchor="end" class="axis">${pct(v)}</text>`).join("");
  const points = decisions.map((d, i) => `<a href="/replay/${esc(gameId)}?step=${d.ply}" aria-label="Turn ${d.turn}: ${esc(describe(d.played, me))}, ${pct(d.after)}${d.mark ? `, ${d.mark}` : ""}">` +
    `<circle cx="${x(i).toFixed(1)}" cy="${y(d.after).toFixed(1)}" r="${d.mark ? 6 : 4}" class="pt ${d.mark || "ok"}"><title>Turn ${d.turn}: ${esc(d.played)} — ${pct(d.after)}${d.mark ? ` (${d.mark})` : ""}</title></circle></a>`).join("");
  return `<svg viewBox="0 0 ${W} ${H}" class="wingraph" role="img" aria-label="Win chance over the game">${grid}<path d="${line}" class="wline"/>${points}</svg>`;
}

function show() {
  const done = status.done || 0;
  const total = status.total || 0;
  bar.max = Math.max(1, total);
  bar.value = done;
  const ahead = status.ahead || 0;
  count.textContent = ahead && !done ? `Waiting: ${ahead} ${ahead === 1 ? "analysis goes" : "analyses go"} first.`
    : (total ? `${done} of ${total} decisions` : "");
  if (status.status === "failed") errEl.textContent = `The analysis failed: ${status.error || "unknown error"}`;
  if (status.status !== "done") return;
  document.getElementById("analysis-progress").hidden = true;
  const ds = status.decisions || [];
  const me = status.player;
  document.getElementById("analysis-graph-wrap").hidden = false;
  document.getElementById("analysis-graph").innerHTML = graph(ds, me);
  const marks = { inaccuracy: 0, mistake: 0, blunder: 0 };
  ds.forEach((d) => { if (d.mark) marks[d.mark] += 1; });
  document.getElementById("analysis-summary").textContent = `${ds.length} decisions: ${marks.blunder} blunders, ${marks.mistake} mistakes, ${marks.inaccuracy} inaccuracies.`;
  const table = document.getElementById("analysis-table");
  table.hidden = false;
  table.querySelector("tbody").innerHTML = ds.map((d) => {
    const same = d.best === d.played;
    const alts = d.alternatives.map(([a, v]) => `${esc(describe(a, me))} ${pct(v)}`).join("; ");
    return `<tr class="${d.mark}"><td><a href="/replay/${esc(gameId)}?step=${d.ply}">${d.turn}</a></td>` +
      `<td>${esc(describe(d.played, me))} <code class="small">${esc(d.played)}</code></td>` +
      `<td>${same ? "the same" : `${esc(describe(d.best, me))} <code class="small">${esc(d.best)}</code>`}<br><span class="small muted">Weighed: ${alts}</span></td>` +
      `<td>${pct(d.before)} → ${pct(d.after)}</td><td>${d.mark ? `<strong>${esc(d.mark)}</strong>` : ""}</td></tr>`;
  }).join("");
}

async function run() {
  if (status.status === "none" || status.status === "failed") {
    const r = await call("POST");
    if (!r.ok) { errEl.innerHTML = richText((r.body && r.body.message) || "The analysis cannot start."); return; }
    status = r.body;
  }
  show();
  while (status.status === "running") {
    await new Promise((ok) => setTimeout(ok, 700));
    const r = await call("GET");
    if (!r.ok) { errEl.innerHTML = richText((r.body && r.body.message) || "Lost the analysis."); return; }
    status = r.body;
    show();
  }
}

window.parlorAnalysis = { status: () => status };
run();
