// Tournaments (rules 1300): the creation form, and the tournament page (pairings, standings,
// ransom questions, results), kept up to date by long polling. The server decides everything.
import { esc } from "./text.js";

const HUMAN = "human";

async function post(url, data) {
  const r = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(data),
    credentials: "same-origin",
  });
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.message || `the server said ${r.status}`);
  return body;
}

// -- the creation form ------------------------------------------------------------------------

function setupForm(form) {
  const levels = JSON.parse(document.getElementById("t-levels").textContent);
  const teamsEl = document.getElementById("t-teams");
  const errorEl = document.getElementById("t-error");
  const letters = "ABCDEFGH";
  const pick = levels.includes("greedy") ? "greedy" : levels[0];

  function levelSelect(value, label) {
    const opts = [`<option value="${HUMAN}"${value === HUMAN ? " selected" : ""}>you</option>`]
      .concat(levels.map((l) => `<option value="${esc(l)}"${l === value ? " selected" : ""}>${esc(l)}</option>`));
    return `<select class="t-level" aria-label="${esc(label)}">${opts.join("")}</select>`;
  }

  function addPlayer(teamEl, value) {
    const list = teamEl.querySelector(".t-players");
    const n = list.children.length + 1;
    const li = document.createElement("li");
    li.innerHTML = `${levelSelect(value, `${teamEl.dataset.name} player ${n}`)} <button type="button" class="btn small t-remove" aria-label="Remove this player">✕</button>`;
    list.appendChild(li);
  }

  function addTeam(players) {
    const name = letters[teamsEl.children.length] || `T${teamsEl.children.length + 1}`;
    const el = document.createElement("div");
    el.className = "t-team";
    el.dataset.name = name;
    el.innerHTML = `<label>Team <input class="t-team-name" value="${name}" maxlength="12" aria-label="Team name"></label>` +
      `<ol class="t-players"></ol><button type="button" class="btn small t-add-player">Add a player</button>` +
      ` <button type="button" class="btn small t-remove-team">Remove the team</button>`;
    teamsEl.appendChild(el);
    players.forEach((p) => addPlayer(el, p));
  }

  addTeam([HUMAN, pick]);
  addTeam([pick, pick]);
  document.getElementById("t-add-team").addEventListener("click", () => addTeam([pick]));
  teamsEl.addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    if (!b) return;
    const team = b.closest(".t-team");
    if (b.classList.contains("t-add-player")) addPlayer(team, pick);
    if (b.classList.contains("t-remove")) b.closest("li").remove();
    if (b.classList.contains("t-remove-team")) team.remove();
  });
  for (const r of form.querySelectorAll('input[name="ends"]')) {
    r.addEventListener("change", () => {
      const byRounds = form.querySelector('input[name="ends"]:checked').value === "rounds";
      document.getElementById("t-rounds").disabled = !byRounds;
      document.getElementById("t-minutes").disabled = byRounds;
    });
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    errorEl.textContent = "";
    const byRounds = form.querySelector('input[name="ends"]:checked').value === "rounds";
    const data = {
      title: document.getElementById("t-title").value,
      teams: [...teamsEl.children].map((t) => ({
        name: t.querySelector(".t-team-name").value.trim(),
        players: [...t.querySelectorAll(".t-level")].map((s) => s.value),
      })),
      talents: document.getElementById("t-talents").value,
      max_turns: document.getElementById("t-turns").value,
      seed: document.getElementById("t-seed").value,
    };
    if (byRounds) data.rounds = document.getElementById("t-rounds").value;
    else data.minutes = document.getElementById("t-minutes").value;
    try {
      const made = await post("/api/tournaments", data);
      window.location.assign(made.url);
    } catch (e) {
      errorEl.textContent = e.message;
    }
  });
}

// -- the tournament page ----------------------------------------------------------------------------

function talents(n) {
  return n === 1 ? "1 talent" : `${n} talents`;
}

function statusLine(s) {
  if (s.failure) return `The tournament stopped on an error: ${s.failure}`;
  const end = s.rounds ? `${s.rounds} round${s.rounds === 1 ? "" : "s"}` : `${s.minutes} minutes (${Math.floor(s.elapsed / 60)} played)`;
  if (s.status === "over") return `The tournament is over. ${s.log[s.log.length - 1] || ""}`;
  if (s.asked.length) return `Between rounds: your team is asked about a ransom. (${end})`;
  return `Round ${s.round} of ${end}. Talents each at the start: ${s.talents}.`;
}

function tablesHTML(s) {
  if (!s.tables.length) return `<p class="muted">${s.status === "over" ? "No more rounds." : "The next round is being paired…"}</p>`;
  const rows = s.tables.map((t) => {
    const who = t.players.map((p, i) => `${esc(p)} <span class="muted">(${t.levels[i] === HUMAN ? "you" : esc(t.levels[i])})</span>` +
      (t.single_draw[i] ? ' <span class="t-single" title="Held for a ransom: draws one card and keeps it, no Redraw (1304)">single-card draws</span>' : "")).join(" against ");
    const state = t.done ? "finished" : t.turn ? `turn ${t.turn}` : "dealing";
    const link = t.yours ? (t.done ? "" : `<a class="btn primary small" href="${t.url}">Play your contest</a>`) : `<a class="btn small" href="${t.url}">Watch</a>`;
    return `<tr${t.yours ? ' class="t-you"' : ""}><td data-label="Table">${t.table}</td><td>${who}</td><td>${state}</td><td>${link}</td></tr>`;
  }).join("");
  return `<table class="t-table"><thead><tr><th scope="col">Table</th><th scope="col">Rlr 1 against Rlr 2</th><th scope="col">State</th><th scope="col"><span class="sr-only">Links</span></th></tr></thead><tbody>${rows}</tbody></table>`;
}

function standingsHTML(s) {
  const rows = s.standings.map((p) => {
    return `<tr class="${p.out ? "t-out" : ""}${p.you ? " t-you" : ""}"><td>${p.place}${p.tied ? "=" : ""}</td><td>${esc(p.name)}${p.you ? " (you)" : ""}</td><td data-label="Team">${esc(p.team)}</td><td data-label="Level">${p.level === HUMAN ? "you" : esc(p.level)}</td><td class="num" data-label="Talents">${p.talents}</td><td class="num" data-label="W-L-D">${p.wins}-${p.losses}-${p.draws}</td><td>${esc(p.note)}</td></tr>`;
  }).join("");
  const owed = s.ransoms.length ? `<p>Ransoms owed: ${s.ransoms.map((r) => `${esc(r.prisoner)} owes ${esc(r.holder)} ${talents(r.amount)}`).join("; ")}.</p>` : "";
  return `<table class="t-table" id="t-standings-table"><thead><tr><th scope="col">#</th><th scope="col">Player</th><th scope="col">Team</th><th scope="col">Level</th><th scope="col" class="num">Talents</th><th scope="col" class="num">W-L-D</th><th scope="col">Note</th></tr></thead><tbody>${rows}</tbody></table>${owed}`;
}

function resultsHTML(s) {
  if (!s.results.length) return '<p class="muted">None yet.</p>';
  const rows = s.results.map((r) => {
    const what = r.winner === null ? "draw: nothing paid" : r.bracket === "ransom" ? `${r.life} life: a ransom of ${talents(r.ransom)}` : `${r.life} life: ${talents(r.paid)} paid`;
    return `<tr><td data-label="Round">${r.round}</td><td data-label="Table">${r.table}</td><td>${esc(r.players.join(" against "))}</td><td data-label="Winner">${r.winner === null ? "—" : esc(r.winner)}${r.how === "resign" ? " (resignation)" : ""}</td><td>${what}</td><td><a href="${r.url}">Replay</a></td></tr>`;
  }).join("");
  return `<table class="t-table"><thead><tr><th scope="col">Round</th><th scope="col">Table</th><th scope="col">Players</th><th scope="col">Winner</th><th scope="col">Payment</th><th scope="col"><span class="sr-only">Links</span></th></tr></thead><tbody>${rows}</tbody></table>`;
}

function askHTML(q) {
  const inputs = q.team.map((m) => {
    const offered = (q.offer.find((o) => o.player === m.player) || { talents: 0 }).talents;
    return `<label class="t-payer">${esc(m.player)} <span class="muted">(has ${talents(m.talents)})</span> pays <input type="number" min="0" max="${Math.max(0, m.talents - 1)}" value="${offered}" data-player="${esc(m.player)}" aria-label="Talents ${esc(m.player)} pays"></label>`;
  }).join("");
  return `<form class="t-ransom" data-n="${q.n}"><p>${esc(q.question)}</p>` +
    `<div class="t-payers">${inputs}</div><p class="error" role="alert"></p>` +
    `<button type="submit" class="btn primary" name="pay">Pay the ransom</button> <button type="button" class="btn t-decline">Don't pay</button></form>`;
}

function setupPage(root) {
  let snap = JSON.parse(document.getElementById("t-snapshot").textContent);
  const id = root.dataset.id;
  const askEl = document.getElementById("t-ask");
  const askBody = document.getElementById("t-ask-body");
  let askedKey = "";

  const shown = {};
  function put(elId, html, prop = "innerHTML") { // only what changed: focus and reading stay put
    if (shown[elId] === html) return;
    shown[elId] = html;
    document.getElementById(elId)[prop] = html;
  }

  function render() {
    put("t-status", statusLine(snap), "textContent");
    put("t-tables", tablesHTML(snap));
    put("t-standings", standingsHTML(snap));
    put("t-results", resultsHTML(snap));
    put("t-log", snap.log.map((l) => `<li>${esc(l)}</li>`).join(""));
    document.getElementById("t-export").hidden = snap.status !== "over";
    const key = JSON.stringify(snap.asked);
    if (key !== askedKey) { // keep what the person is typing until the question changes
      askedKey = key;
      askEl.hidden = !snap.asked.length;
      askBody.innerHTML = snap.asked.length ? askHTML(snap.asked[0]) : "";
    }
  }

  async function answer(form, pay) {
    const err = form.querySelector(".error");
    const data = { ransom: Number(form.dataset.n), pay };
    if (pay) {
      data.payers = [...form.querySelectorAll("input[data-player]")]
        .map((i) => ({ player: i.dataset.player, talents: Number(i.value || 0) }))
        .filter((p) => p.talents > 0);
    }
    try {
      snap = await post(`/api/tournaments/${id}/ransom`, data);
      render();
    } catch (e) {
      err.textContent = e.message;
    }
  }

  askBody.addEventListener("submit", (ev) => { ev.preventDefault(); answer(ev.target, true); });
  askBody.addEventListener("click", (ev) => {
    if (ev.target.classList.contains("t-decline")) answer(ev.target.closest("form"), false);
  });

  async function poll() {
    for (;;) {
      if (snap.status === "over") return;
      try {
        const r = await fetch(`/api/tournaments/${id}?after=${snap.version}&wait=2`, { credentials: "same-origin" });
        if (r.ok) { snap = await r.json(); render(); } else await new Promise((ok) => setTimeout(ok, 2000));
      } catch (e) {
        await new Promise((ok) => setTimeout(ok, 2000));
      }
    }
  }
  render();
  poll();
}

const form = document.getElementById("t-form");
if (form) setupForm(form);
const root = document.getElementById("tourney");
if (root) setupPage(root);
