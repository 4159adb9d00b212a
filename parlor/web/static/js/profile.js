// The profile (issue 43): the rating graph, drawn here as SVG from the page's JSON (no chart
// service), and this browser's lesson progress and settings merged with the account's.
const SVG = "http://www.w3.org/2000/svg";
const W = 600, H = 200, PAD = 28;

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function drawGraph(svg, points) {
  if (!points.length) return;
  const times = points.map((p) => p.at);
  const lows = points.map((p) => p.rating - p.rd), highs = points.map((p) => p.rating + p.rd);
  const t0 = Math.min(...times), t1 = Math.max(...times);
  const r0 = Math.floor(Math.min(...lows) / 50) * 50, r1 = Math.ceil(Math.max(...highs) / 50) * 50;
  const x = (t) => (t1 === t0 ? W / 2 : PAD + ((t - t0) / (t1 - t0)) * (W - 2 * PAD));
  const y = (r) => H - PAD / 2 - ((r - r0) / Math.max(1, r1 - r0)) * (H - PAD);
  const band = points.map((p) => `${x(p.at)},${y(p.rating + p.rd)}`)
    .concat(points.slice().reverse().map((p) => `${x(p.at)},${y(p.rating - p.rd)}`));
  svg.append(el("polygon", { class: "band", points: band.join(" ") }));
  svg.append(el("line", { class: "axis", x1: PAD, y1: H - PAD / 2, x2: W - PAD / 2, y2: H - PAD / 2 }));
  svg.append(el("text", { x: 2, y: y(r1) + 10 }, String(r1)));
  svg.append(el("text", { x: 2, y: y(r0) }, String(r0)));
  const line = points.map((p) => `${x(p.at)},${y(p.rating)}`).join(" ");
  svg.append(el("polyline", { class: "line", points: line }));
  for (const p of points) {
    const dot = el("circle", { cx: x(p.at), cy: y(p.rating), r: 3, class: "point" });
    dot.append(el("title", {}, `${Math.round(p.rating)} after game ${p.n} (${p.level})`));
    svg.append(dot);
  }
  const last = points[points.length - 1];
  document.getElementById("graph-caption").textContent =
    `${points.length} rated game${points.length === 1 ? "" : "s"}; now ${Math.round(last.rating)} ± ${Math.round(2 * last.rd)}`;
}

function localPrefs() {
  const out = {};
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith("pm-")) continue;
      const raw = localStorage.getItem(key);
      if (key === "pm-learn") {
        try { out[key] = JSON.parse(raw || "{}"); } catch (e) { /* unreadable: not sent */ }
      } else out[key] = raw;
    }
  } catch (e) { /* private mode: nothing kept here */ }
  return out;
}

async function syncPrefs(form) {
  const body = new URLSearchParams({ csrf: form.elements.csrf.value, prefs: JSON.stringify(localPrefs()) });
  const r = await fetch(form.action, { method: "POST", body, credentials: "same-origin" });
  if (!r.ok) return;
  const merged = await r.json();
  try {
    for (const [key, value] of Object.entries(merged)) {
      localStorage.setItem(key, key === "pm-learn" ? JSON.stringify(value) : String(value));
    }
  } catch (e) { /* private mode: not kept */ }
  document.body.dataset.prefsSynced = "1";
}

const data = JSON.parse(document.getElementById("rating-points").textContent);
drawGraph(document.getElementById("rating-graph"), data.points);
const form = document.getElementById("prefs-sync");
if (form) syncPrefs(form);
