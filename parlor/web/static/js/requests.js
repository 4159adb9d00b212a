// Talking to the server: sending a decision, previewing a declaration, taking back, asking
// for a hint, and waiting for the computer's moves (a long poll). The server judges every
// decision; a refusal is said on the page with the server's reason.
import { hooks } from "./hooks.js";
import { me } from "./moves.js";
import { pref } from "./prefs.js";
import { applySnapshot, closeOver, hintEl, offline, render, say } from "./page.js";
import { dropStaged, markShown, nextPoll, setBusy, setHint, showPreview, state, wantFocus } from "./state.js";
import { describe, esc, richText } from "./text.js";

const gameId = document.getElementById("app").dataset.game;
// where the table's requests go: a game between two people has its own (friend.html)
const API = document.getElementById("app").dataset.api || "/api/games";
const JSON_POST = { method: "POST", headers: { "Content-Type": "application/json" } };

async function api(path, opts = {}) {
  const r = await fetch(path, { credentials: "same-origin", ...opts });
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  return { ok: r.ok, status: r.status, body };
}

const refusal = (r) => `Refused: ${(r.body && r.body.message) || `the server said ${r.status}`}`;

// After a refusal: bring the table up to date, keeping the refusal's message.
async function refresh() {
  if (hooks.transport) return;
  const r = await api(`${API}/${gameId}?log_from=${state.logCount}`);
  if (r.ok) applySnapshot(r.body, { fromAction: true });
}

// The decision `action` (with the staged declarations before it, if any).
export async function send(action) {
  if (state.busy) return;
  setBusy(true);
  wantFocus();
  document.getElementById("combat").hidden = true;
  render();
  const snap = state.snap;
  try {
    const r = hooks.transport ? await hooks.transport.act(action, snap.version, state.logCount)
      : await api(`${API}/${gameId}/actions`, {
        ...JSON_POST,
        body: JSON.stringify({ ...(state.staged.length ? { actions: [...state.staged, action] } : { action }), version: snap.version, takebacks: snap.takebacks, log_from: state.logCount }),
      });
    setBusy(false);
    if (r.ok) {
      say("");
      applySnapshot(r.body, { fromAction: true });
    } else {
      const m = (r.body && r.body.message) || `The server refused (${r.status}).`;
      say(`Refused: ${m}`, "error");
      dropStaged(); // nothing of it was stored
      if (hooks.onRefusal) hooks.onRefusal(r.body);
      if (r.body && r.body.error === "stale") await refresh();
      else render();
    }
  } catch (e) {
    setBusy(false);
    say("The server cannot be reached: nothing was done. Try again in a moment.", "error");
    render();
  }
}

// One more declaration: the server previews it (the table as it would be, nothing stored).
// The one that completes the declaration (the last point of a split, say) sends it all.
export async function declare(action) {
  if (state.busy) return;
  setBusy(true);
  render();
  const version = (state.base || state.snap).version;
  let r;
  try {
    r = await api(`${API}/${gameId}/preview`, { ...JSON_POST, body: JSON.stringify({ actions: [...state.staged, action], version }) });
  } catch (e) {
    setBusy(false);
    say("The server cannot be reached: nothing was done. Try again in a moment.", "error");
    return render();
  }
  setBusy(false);
  if (r.ok && r.body.final) return send(action);
  if (!r.ok) {
    say(refusal(r), "error");
    if (r.body && r.body.error === "stale") { dropStaged(); await refresh(); }
    return render();
  }
  showPreview(r.body);
  const staged = state.staged;
  say(`Not sent yet: ${staged.map((x) => describe(x, me())).join("; ")}. Cancel (Esc) takes ${staged.length > 1 ? "them all" : "it"} back.`);
  return render();
}

// Casual play: the player's last decision and the computer's reply are undone on the server.
export async function takeBack() {
  if (state.busy) return;
  setBusy(true);
  render();
  const r = await api(`${API}/${gameId}/takeback`, {
    ...JSON_POST,
    body: JSON.stringify({ version: state.snap.version, takebacks: state.snap.takebacks, log_from: 0 }),
  });
  setBusy(false);
  if (r.ok) {
    closeOver();
    applySnapshot(r.body, { fromAction: true });
    say("Taken back: your last decision and the computer's reply to it.", "info");
    poll();
  } else {
    say(refusal(r), "error");
    render();
  }
}

export async function askHint() {
  hintEl.hidden = false;
  hintEl.innerHTML = '<p><span class="spinner" aria-hidden="true"></span> The expert is thinking…</p>';
  const r = await api(`${API}/${gameId}/hint?version=${state.snap.version}`);
  if (!r.ok) {
    hintEl.innerHTML = `<p class="error">${richText((r.body && r.body.message) || "No hint now.")}</p>`;
    return;
  }
  const hint = r.body;
  setHint(hint);
  const estimate = (x) => (typeof x.score === "number" && x.score >= 0 && x.score <= 1
    ? `${Math.round(x.score * 100)}% win estimate between equal players` : (x.score !== null && x.score !== undefined ? String(x.score) : ""));
  const noteOf = (x) => (x.note && !x.note.startsWith(x.action) ? x.note : "");
  const alts = (hint.alternatives || []).map((x) => `<li><b>${esc(describe(x.action, me()))}</b>` +
    `${estimate(x) ? ` <span class="muted">${esc(estimate(x))}</span>` : ""}` +
    `${noteOf(x) ? `<br><span class="small muted">${richText(noteOf(x))}</span>` : ""}</li>`).join("");
  hintEl.innerHTML = `<h3>Hint <span class="muted small">from the ${esc(hint.source)}</span></h3>` +
    `<p>The expert would: <strong>${esc(describe(hint.action, me()))}</strong> <code class="small">${esc(hint.action)}</code></p>` +
    `<p><button type="button" class="btn small primary" data-action="${esc(hint.action)}">Do it</button> <button type="button" class="btn small" data-act="close-hint">Close</button></p>` +
    (alts ? `<p class="small">What it weighed:</p><ol class="alts small">${alts}</ol>` : "");
  render();
}

// Wait for the computer's moves, showing each after the pace setting's pause. A new poll
// stops the one running.
export async function poll() {
  if (hooks.transport) return; // the lesson's server answers each move at once
  const id = nextPoll();
  while (id === state.pollId && state.snap.status === "live") {
    try {
      const r = await api(`${API}/${gameId}?after=${state.snap.version}&wait=20&log_from=${state.logCount}`);
      if (id !== state.pollId) return;
      if (r.ok) {
        const moved = r.body.version !== state.snap.version || r.body.status !== state.snap.status;
        const wait = Number(pref("pace")) - (Date.now() - state.shownAt);
        if (moved && wait > 0) await new Promise((ok) => setTimeout(ok, wait));
        if (id !== state.pollId) return;
        if (moved) { applySnapshot(r.body); markShown(); }
        if (offline()) say("");
      } else if (r.status === 404 || r.status === 403) {
        say((r.body && r.body.message) || "This game is not available.", "error");
        return;
      } else {
        await new Promise((ok) => setTimeout(ok, 1500));
      }
    } catch (e) {
      if (id !== state.pollId) return;
      say("Connection lost: retrying…", "error offline");
      await new Promise((ok) => setTimeout(ok, 1500));
    }
  }
}
