// The analysis page: starts the analysis, shows its progress, then the win-chance graph (SVG)
// and the table of decisions. A point of the graph opens that position in the replay.
import { describe, esc, richText } from "./text.js";

const root = document.getElementById("analysis");
const gameId = root.dataset.game;
// a friend game's spectator reads it with the spectator link's key; whose decisions they
// are, in the reader's words ("your", or "Rlr 2's": a friend game's other player)
const key = root.dataset.key || "";
const keyQ = key ? `k=${encodeURIComponent(key)}` : "";
const whose = root.dataset.whose || "your";
const Whose = whose[0].toUpperCase() + whose.slice(1);
const replayAt = (ply) => `/replay/${esc(gameId)}?step=${ply}${keyQ ? `&amp;${keyQ}` : ""}`;
const bar = document.getElementById("analysis-bar");
const count = document.getElementById("analysis-count");
const errEl = document.getElementById("analysis-error");
let status = JSON.parse(document.getElementById("analysis-status").textContent);

const pct = (x) => `${Math.round(x * 100)}%`;
// A decision the expert gave no real estimate (a split, a bonus, a choice settled by rule):
// shown as "no estimate", never as 50%.
const estimated = (d) => d.estimated !== false && d.before != null && d.after != null;

async function call(method) {
  const r = await fetch(`/api/games/${gameId}/analysis${keyQ ? `?${keyQ}` : ""}`, {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: method === "POST" ? "{}" : undefined,
  });
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  return { ok: r.ok, body };
}

// The chart's margins leave room for its axis labels: "100%" whole on the left, the turns
// below. Its points are links, so the chart is a group of links, not an image (axe:
// nested-interactive).
function graph(decisions, me) {
  const W = 640;
  const H = 240;
  const left = 72;
  const right = 16;
  const top = 14;
  const bottom = 42;
  const n = decisions.length;
  const x = (i) => left + (n > 1 ? (i * (W - left - right)) / (n - 1) : (W - left - right) / 2);
  const y = (v) => top + (1 - v) * (H - top - bottom);
  // a decision with no estimate has no point: the line breaks there rather than show a 50%
  const line = decisions.map((d, i) => (estimated(d) ? `${i && estimated(decisions[i - 1]) ? "L" : "M"}${x(i).toFixed(1)},${y(d.after).toFixed(1)}` : "")).filter(Boolean).join(" ");
  const grid = [0, 0.25, 0.5, 0.75, 1].map((v) => `<line x1="${left}" x2="${W - right}" y1="${y(v)}" y2="${y(v)}" class="grid"/>` +
    `<text x="${left - 6}" y="${y(v) + 4}" text-anchor="end" class="axis">${pct(v)}</text>`).join("");
  const turns = n ? [0, Math.floor((n - 1) / 2), n - 1].filter((i, k, a) => a.indexOf(i) === k)
    .map((i) => `<text x="${x(i).toFixed(1)}" y="${H - bottom + 16}" text-anchor="${i === 0 && n > 1 ? "start" : i === n - 1 && n > 1 ? "end" : "middle"}" class="axis">turn ${decisions[i].turn}</text>`).join("") : "";
  const axes = `<text class="axis axis-title" transform="translate(14 ${(top + H - bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(whose)} win chance, equal players</text>` +
    `<text class="axis axis-title" x="${(left + W - right) / 2}" y="${H - 6}" text-anchor="middle">${esc(whose)} decisions, in order</text>`;
  const points = decisions.map((d, i) => (!estimated(d) ? "" : `<a href="${replayAt(d.ply)}" aria-label="Turn ${d.turn}: ${esc(describe(d.played, me))}, ${pct(d.after)}${d.mark ? `, ${d.mark}` : ""}">` +
    `<circle cx="${x(i).toFixed(1)}" cy="${y(d.after).toFixed(1)}" r="${d.mark ? 6 : 4}" class="pt ${d.mark || "ok"}"><title>Turn ${d.turn}: ${esc(d.played)} — ${pct(d.after)}${d.mark ? ` (${d.mark})` : ""}</title></circle></a>`)).join("");
  const legend = `<p class="small wingraph-legend" aria-hidden="true">` +
    ["ok", "inaccuracy", "mistake", "blunder"].map((m) => `<span><svg viewBox="0 0 12 12" width="12" height="12"><circle cx="6" cy="6" r="5" class="pt ${m}"/></svg> ${m === "ok" ? "a decision" : m}</span>`).join(" ") + "</p>";
  return `<svg viewBox="0 0 ${W} ${H}" class="wingraph" role="group" aria-label="${esc(Whose)} win chance between equal players (the expert's estimate) over the game: one link per decision">${grid}${turns}${axes}<path d="${line}" class="wline"/>${points}</svg>${legend}`;
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
    return `<tr class="${d.mark}"><td data-label="Turn"><a href="${replayAt(d.ply)}">${d.turn}</a></td>` +
      `<td data-label="${whose === "your" ? "You" : esc(whose.slice(0, -2))} played">${esc(describe(d.played, me))} <code class="small">${esc(d.played)}</code></td>` +
      `<td data-label="The expert prefers">${same ? "the same" : `${esc(describe(d.best, me))} <code class="small">${esc(d.best)}</code>`}<br>${alts ? `<span class="small muted">Weighed: ${alts}</span>` : ""}</td>` +
      `<td data-label="Win estimate (equal players)">${estimated(d) ? `${pct(d.before)} → ${pct(d.after)}` : "no estimate"}</td><td>${d.mark ? `<strong>${esc(d.mark)}</strong>` : ""}</td></tr>`;
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
