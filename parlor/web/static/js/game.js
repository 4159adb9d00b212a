// The game page: keeps the snapshot, turns clicks and keys into actions, talks to the server.
// Every decision offered comes from the view's `legal` list; the server judges everything.
import { cardName, face, kind } from "./cards.js";
import { renderLog } from "./log.js";
import { renderCoach, wireCoachSetting } from "./coach.js";
import { hooks } from "./hooks.js";
import { announce, combatSummary, outcomeWords } from "./news.js";
import { pref } from "./prefs.js";
import { emptyMarks, PHASES, renderTable } from "./table.js";
import { describe, esc, richText } from "./text.js";

const app = document.getElementById("app");
const gameId = app.dataset.game;
const logEl = document.getElementById("log");
const msgEl = document.getElementById("message");
const phaseEl = document.getElementById("phase");
const controlsEl = document.getElementById("controls");
const hintEl = document.getElementById("hint");
const overDlg = document.getElementById("over");

let snap = JSON.parse(document.getElementById("snapshot").textContent);
let logCount = 0;
let selected = null; // key of the selected actor card
let redrawMode = false;
let pay = null; // {action, lnds: Set of faces, spend: [suit letters]}
let busy = false;
let hint = null;
let overShown = false;
let pollId = 0;
let confirmRedraw = false; // "Redraw" ends the turn: it asks once more before it is sent
let focusWanted = true; // after an action, or when the decision comes back: focus what to decide
let pointerPay = false;
let shownAt = 0; // when the last of the computer's plays was shown (the pace setting) // the last payment pick was a click: Enter then pays
let payByHand = false;
// A declaration not yet final (attackers, blockers, a split, bonus points): the server shows
// the table as it would be (POST .../preview, nothing stored); Done sends it whole, Cancel
// takes it all back. `base` is the real snapshot while `snap` is the preview.
const DECLARATIONS = ["attack", "block", "assign", "bonus"];
let staged = [];
let base = null;
try { payByHand = localStorage.getItem("pm-pay") === "1"; } catch (e) { /* ignore */ }

const me = () => snap.you;
const names = () => (me() === 0 ? ["You", "Computer"] : ["Computer", "You"]);
const mine = (face_) => `${me() + 1}:${face_}`;

// -- the legal actions, as actor keys and target keys ------------------------------------------

function parseLegal(text) {
  const w = text.split(/\s+/);
  const v = w[0];
  const a = { text, verb: v, actor: null, target: null };
  if (["trim", "play", "expel", "redraw"].includes(v) && w[1]) a.actor = `h:${w[1]}`;
  if (v === "keep") a.actor = `d:${w[1]}`;
  if (["attack", "block", "volley", "sally", "harry", "ally", "carry"].includes(v)) a.actor = mine(w[1]);
  if (v === "play" && w[2] === "on") a.target = w[3];
  if (v === "expel") a.target = w[3];
  if (["block", "volley", "ally", "carry"].includes(v)) a.target = w[2];
  if (v === "assign" || v === "bonus") a.target = w[1];
  return a;
}

function legal() {
  return (snap.view.legal || []).map(parseLegal);
}

function actionsFor(actor) {
  return legal().filter((a) => a.actor === actor && (a.verb !== "redraw" || redrawMode));
}

// -- marks for the table -------------------------------------------------------------------------

function marks() {
  const m = emptyMarks();
  if (!snap.your_turn || busy) {
    if (hint) hintKeys(hint.action).forEach((k) => m.hinted.add(k));
    return m;
  }
  if (pay) {
    const side = snap.view.sides[me()];
    side.home.filter((tc) => !tc.taxed_on).forEach((tc) => m.payable.add(tc.ref));
    pay.lnds.forEach((f) => m.paying.add(mine(f)));
    "CDHS".split("").forEach((s, i) => { if (side.pool[i]) m.payable.add(`pool:${s}`); });
    m.spend = pay.spend;
    m.selected = parseLegal(pay.action).actor;
    return m;
  }
  for (const a of legal()) {
    if (a.verb === "redraw" && !redrawMode) continue;
    if (redrawMode && a.verb !== "redraw") continue;
    if (a.actor) m.selectable.add(a.actor);
    else if (a.target) m.targets.add(a.target);
  }
  if (selected) {
    m.selected = selected;
    actionsFor(selected).forEach((a) => { if (a.target) m.targets.add(a.target); });
  }
  if (hint) hintKeys(hint.action).forEach((k) => m.hinted.add(k));
  return m;
}

function hintKeys(action) {
  const a = parseLegal(action);
  return [a.actor, a.target].filter(Boolean);
}

// -- rendering ---------------------------------------------------------------------------------------

function render() {
  const active = document.activeElement;
  const hadFocus = active && active !== document.body && app.contains(active);
  const focusKey = active && (active.dataset.key || active.dataset.act);
  const v = snap.view;
  renderTable({ view: v, me: me(), names: names(), marks: marks(), costs: snap.costs, whyNot: snap.your_turn ? snap.why_not : null });
  renderStatus();
  renderControls();
  renderCoach(snap, selected, busy || pay ? [] : legal());
  app.classList.toggle("busy", busy);
  app.classList.toggle("thinking", snap.thinking);
  const lost = !document.activeElement || document.activeElement === document.body;
  if (focusWanted && snap.your_turn && !busy && (lost || !app.contains(document.activeElement))) {
    focusWanted = false;
    const next = ["[role=button].payable", "[role=button].target", "[role=button].selected", "[role=button].selectable",
      "#controls button.primary", "#controls button"].map((q) => app.querySelector(q)).find(Boolean);
    if (next) next.focus({ preventScroll: false });
  } else if (hadFocus && !app.contains(document.activeElement)) {
    // the focused card or button was redrawn: focus it again, or the next thing to decide
    const again = focusKey && app.querySelector(`[data-key="${CSS.escape(focusKey)}"], [data-act="${CSS.escape(focusKey)}"]`);
    const next = again && again.tabIndex >= 0 ? again
      : app.querySelector(".selected, [role=button].selectable, [role=button].target, #controls button");
    if (next) next.focus({ preventScroll: true });
  }
  if (snap.status === "over" && !overShown) showOver();
  document.title = `${snap.status === "over" ? outcome() : (snap.your_turn ? "Your move" : "The computer's move")} — ${baseTitle}`;
}
const baseTitle = document.title.replace(/^Parlor Magic — /, "Parlor Magic: ");

function renderStatus() {
  const v = snap.view;
  const phase = PHASES[v.phase] || v.phase;
  if (snap.status === "over") {
    phaseEl.innerHTML = `<strong>${esc(outcome())}</strong> ${richText(snap.result_text || v.result)}`;
    return;
  }
  if (snap.status === "failed") {  // the server's sentence: a bug, the game stops here
    phaseEl.innerHTML = `<strong class="failed">${esc(snap.failure)}</strong>`;
    return;
  }
  const who = snap.your_turn
    ? '<strong class="you-decide">Your decision</strong>'
    : '<strong class="cpu-decides"><span class="spinner" aria-hidden="true"></span>The computer is thinking…</strong>';
  phaseEl.innerHTML = `<span class="turn">Turn ${v.turn}${v.settings ? ` of ${esc(String(v.settings).replace(/.*max_turns=(\d+).*/, "$1"))}` : ""}</span> · ` +
    `${richText(phase)} — ${who}`;
}

function button(act, label, key, extra = "") {
  return `<button type="button" class="btn ${extra}" data-act="${esc(act)}"${key ? ` aria-keyshortcuts="${key}" title="Key: ${key}"` : ""}>${esc(label)}${key ? ` <kbd>${key}</kbd>` : ""}</button>`;
}

function renderControls() {
  let html = "";
  if (snap.status === "over") {
    controlsEl.innerHTML = `<button type="button" class="btn primary" data-act="show-over">${hooks.transport ? "Lesson complete…" : "Game over…"}</button>` +
      (snap.takeback ? button("takeback", "Take back", "U") : "");
    return;
  }
  if (snap.status === "failed") {
    controlsEl.innerHTML = `<a class="btn primary" href="/">New game</a>`;
    return;
  }
  if (snap.your_turn && !busy) {
    if (pay) {
      const lnds = [...pay.lnds].join(" ") || "none";
      html += `<span class="pay-note">${esc(describe(pay.action, me()))}: tax <b>${esc(lnds)}</b>, spend <b>${esc(pay.spend.join("") || "nothing")}</b> from the pool</span>`;
      html += button("pay-confirm", "Pay and play", "Enter", "primary") + button("cancel", "Cancel", "Esc");
    } else {
      const L = legal();
      if (selected) {
        const opts = actionsFor(selected);
        html += `<span class="sel-note">${esc(cardName(face(selected.replace(/^[hd]:/, ""))))}:</span>`;
        html += opts.map((a) => `<button type="button" class="btn option" data-action="${esc(a.text)}">${esc(describe(a.text, me()))}</button>`).join("");
        html += button("cancel", "Cancel", "Esc");
      } else if (confirmRedraw) {
        html += `<span class="sel-note" id="redraw-note">Redraw recycles both drawn cards and <b>ends your turn</b>: no Lnd, no attack this turn.</span>` +
          button("redraw-confirm", "Redraw and end the turn", "", "primary") + button("cancel", "Cancel", "Esc");
      } else if (redrawMode) {
        html += `<span class="sel-note">Redraw: choose a Hand card to recycle with the drawn cards. This <b>ends your turn</b>.</span>` + button("cancel", "Cancel", "Esc");
      } else {
        if (staged.length) html += button("cancel", "Cancel declarations", "Esc", "staged");
        const prompt = promptText();
        if (prompt) html += `<span class="sel-note prompt" id="prompt">${prompt}</span>`;
        if (L.some((a) => a.text === "pass")) html += button("pass", "Pass", "P", "primary");
        if (L.some((a) => a.text === "done")) html += button("done", "Done", "D", "primary");
        if (L.some((a) => a.text === "end")) html += button("end", "Don't attack", "E");
        if (L.some((a) => a.text === "redraw")) html += button("redraw", "Redraw", "R");
        else if (L.some((a) => a.verb === "redraw")) html += button("redraw-mode", "Redraw…", "R");
        if (!hooks.transport) html += button("hint", "Hint", "H", "ghost");
        if (snap.takeback) html += button("takeback", "Take back", "U", "ghost");
      }
    }
    html += `<label class="pref pay-pref"><input type="checkbox" id="pay-by-hand"${payByHand ? " checked" : ""}> Choose Lnds to pay</label>`;
  } else if (busy) {
    html = '<span class="muted">Sending…</span>';
  } else {
    html = '<span class="muted">Wait for the computer.</span>';
  }
  controlsEl.innerHTML = html;
  const box = document.getElementById("pay-by-hand");
  if (box) {
    box.addEventListener("change", () => {
      payByHand = box.checked;
      try { localStorage.setItem("pm-pay", payByHand ? "1" : "0"); } catch (e) { /* ignore */ }
    });
  }
}

// The words for the end of the game: a lesson's own (hooks.js), else win, loss or draw.
function outcome() {
  const hooked = hooks.outcome && hooks.outcome(snap);
  return hooked || outcomeWords(snap);
}

// What to do now when the buttons alone do not say it: splitting damage, giving bonus points.
function promptText() {
  const v = snap.view;
  const cb = v.combat;
  if (!cb) return "";
  const n = (k) => `${k} more point${k === 1 ? "" : "s"}`;
  if (v.phase === "split" && cb.split.length) {
    return `Split the damage of ${esc(cardName(face(cb.split[0])))}: give ${n(cb.split_left)} — click one of its blockers.`;
  }
  if (v.phase === "bonus" || v.phase === "domain_bonus") {
    const to = legal().some((a) => a.verb === "bonus" && a.target && !a.target.startsWith(`${me() + 1}:`)) ? "an opposing Cre" : "a Cre";
    return `Give ${n(cb.bonus_left)} of bonus: click ${to}.`;
  }
  if (v.phase === "attack") return "Click each Cre to attack with, then <b>Done</b>; or <b>Don't attack</b>.";
  if (v.phase === "block") return "Click a Cre of yours, then the attacker it blocks; <b>Done</b> when finished.";
  return "";
}

function showOver() {
  overShown = true;
  document.getElementById("over-title").textContent = outcome();
  document.getElementById("over-result").innerHTML = `${richText(snap.result_text || snap.view.result)}` +
    (snap.seed !== null ? `<br><span class="muted small">Seed ${snap.seed} · ${snap.version} moves</span>` : "");
  if (typeof overDlg.showModal === "function" && !overDlg.open) overDlg.showModal();
}

function say(text, kind = "info") {
  msgEl.className = `message ${kind}`;
  msgEl.innerHTML = text ? richText(text) : "";
}

// -- snapshots ---------------------------------------------------------------------------------------

function applySnapshot(s, { fromAction = false } = {}) {
  const changed = s.version !== (base || snap).version;
  const entries = s.log || [];
  if (entries.length && entries[0].n < logCount) {
    // the server sent from an earlier point: drop ours from there
    [...logEl.children].forEach((li) => { if (Number(li.dataset.n) >= entries[0].n) li.remove(); });
    logCount = entries[0].n;
  }
  const fresh = entries.filter((e) => e.n >= logCount);
  if (fresh.length) {
    renderLog(logEl, fresh, { fresh: logCount > 0 });
    logCount = fresh[fresh.length - 1].n + 1;
  }
  const before = snap;
  snap = s;
  if (changed && fresh.length && logCount > fresh.length) {
    announce(fresh, { fromAction });
    combatSummary(fresh, before, s);
  }
  staged = []; // whatever the server sends is the real table: a declaration not sent is gone
  base = null;
  if (changed) {
    selected = null;
    redrawMode = false;
    confirmRedraw = false;
    pay = null;
    hint = null;
    hintEl.hidden = true;
    if (s.your_turn) focusWanted = true;
    if (!fromAction && fresh.length) {
      const last = fresh.filter((e) => !["turn", "untax", "draw"].includes(e.kind)).pop() || fresh[fresh.length - 1];
      say(last.text, "event");
    }
  }
  render();
  if (hooks.onSnapshot) hooks.onSnapshot(s);
}

async function api(path, opts = {}) {
  const r = await fetch(path, { credentials: "same-origin", ...opts });
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  return { ok: r.ok, status: r.status, body };
}

async function refresh() {
  // after a refusal: bring the table up to date, keeping the refusal's message
  if (hooks.transport) return;
  const r = await api(`/api/games/${gameId}?log_from=${logCount}`);
  if (r.ok) applySnapshot(r.body, { fromAction: true });
}

async function send(action) {
  if (busy) return;
  busy = true;
  focusWanted = true;
  document.getElementById("combat").hidden = true;
  render();
  try {
    const r = hooks.transport ? await hooks.transport.act(action, snap.version, logCount)
      : await api(`/api/games/${gameId}/actions`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ ...(staged.length ? { actions: [...staged, action] } : { action }), version: snap.version, takebacks: snap.takebacks, log_from: logCount }),
      });
    busy = false;
    if (r.ok) {
      say("");
      applySnapshot(r.body, { fromAction: true });
    } else {
      const m = (r.body && r.body.message) || `The server refused (${r.status}).`;
      say(`Refused: ${m}`, "error");
      if (staged.length) { snap = base; staged = []; base = null; } // nothing of it was stored
      if (hooks.onRefusal) hooks.onRefusal(r.body);
      if (r.body && r.body.error === "stale") await refresh();
      else render();
    }
  } catch (e) {
    busy = false;
    say("The server cannot be reached: nothing was done. Try again in a moment.", "error");
    render();
  }
  poll();
}

async function poll() {
  if (hooks.transport) return; // the lesson's server answers each move at once
  const id = ++pollId;
  while (id === pollId && snap.status === "live") {
    try {
      const r = await api(`/api/games/${gameId}?after=${snap.version}&wait=20&log_from=${logCount}`);
      if (id !== pollId) return;
      if (r.ok) {
        const moved = r.body.version !== snap.version || r.body.status !== snap.status;
        const wait = Number(pref("pace")) - (Date.now() - shownAt);
        if (moved && wait > 0) await new Promise((ok) => setTimeout(ok, wait));
        if (id !== pollId) return;
        if (moved) { applySnapshot(r.body); shownAt = Date.now(); }
        if (msgEl.classList.contains("offline")) say("");
      } else if (r.status === 404 || r.status === 403) {
        say((r.body && r.body.message) || "This game is not available.", "error");
        return;
      } else {
        await new Promise((ok) => setTimeout(ok, 1500));
      }
    } catch (e) {
      if (id !== pollId) return;
      say("Connection lost: retrying…", "error offline");
      await new Promise((ok) => setTimeout(ok, 1500));
    }
  }
}

// -- choosing ----------------------------------------------------------------------------------------

function needsPayment(a) {
  return payByHand && (a.verb === "play" || a.verb === "expel") && kind(a.text.split(/\s+/)[1]) !== "Lnd";
}

function perform(a) {
  if (DECLARATIONS.includes(a.verb) && !hooks.transport) return declare(a.text);
  if (needsPayment(a)) {
    pay = { action: a.text, lnds: new Set(), spend: [] };
    selected = null;
    focusWanted = true;
    say("Choose the Lnds to tax and any pool points to spend (click them, or Tab to them and press Enter), then Pay and play.");
    render();
    return;
  }
  send(a.text);
}

// One more declaration: the server previews it (the table as it would be, nothing stored).
// The one that completes the declaration (the last point of a split, say) sends it all.
async function declare(action) {
  if (busy) return;
  busy = true;
  render();
  const version = (base || snap).version;
  let r;
  try {
    r = await api(`/api/games/${gameId}/preview`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ actions: [...staged, action], version }),
    });
  } catch (e) {
    busy = false;
    say("The server cannot be reached: nothing was done. Try again in a moment.", "error");
    return render();
  }
  busy = false;
  if (r.ok && r.body.final) return send(action);
  if (!r.ok) {
    say(`Refused: ${(r.body && r.body.message) || `the server said ${r.status}`}`, "error");
    if (r.body && r.body.error === "stale") { staged = []; base = null; await refresh(); }
    return render();
  }
  if (!base) base = snap;
  staged = r.body.staged;
  snap = r.body;
  selected = null;
  focusWanted = true;
  say(`Not sent yet: ${staged.map((x) => describe(x, me())).join("; ")}. Cancel (Esc) takes ${staged.length > 1 ? "them all" : "it"} back.`);
  render();
}

function cancelDeclarations() {
  snap = base;
  staged = [];
  base = null;
  say("Declarations taken back: nothing was sent.", "info");
}

function choose(options) {
  // several actions for one click (e.g. an Enh on a card or an expel of it): offer them
  selectedOptions = options;
  controlsEl.innerHTML = `<span class="sel-note">Which?</span>` + options.map((a) =>
    `<button type="button" class="btn option" data-action="${esc(a.text)}">${esc(describe(a.text, me()))}</button>`).join("") +
    button("cancel", "Cancel", "Esc");
  const first = controlsEl.querySelector("button");
  if (first) first.focus();
}
let selectedOptions = null;

function clickKey(key) {
  if (busy) return;
  if (snap.status !== "live") return;
  if (!snap.your_turn) {
    say("Wait: it is the computer's decision.", "info");
    return;
  }
  if (pay) {
    if (key.startsWith("pool:")) {
      const s = key.slice(5);
      const have = snap.view.sides[me()].pool["CDHS".indexOf(s)];
      const n = pay.spend.filter((x) => x === s).length;
      if (n < have) pay.spend.push(s);
      else pay.spend = pay.spend.filter((x) => x !== s);
    } else if (key.startsWith(`${me() + 1}:`)) {
      const f = face(key);
      const lnd = snap.view.sides[me()].home.find((tc) => tc.ref === key && !tc.taxed_on);
      if (lnd) {
        if (pay.lnds.has(f)) pay.lnds.delete(f);
        else pay.lnds.add(f);
      } else {
        say(`${cardName(f)} cannot be taxed for this payment: choose your untaxed Lnds.`, "error");
      }
    }
    render();
    if (pointerPay) {
      const payBtn = controlsEl.querySelector('[data-act="pay-confirm"]');
      if (payBtn) payBtn.focus();
    }
    return;
  }
  const L = legal();
  if (selected && key !== selected) {
    const opts = actionsFor(selected).filter((a) => a.target === key);
    if (opts.length === 1) return perform(opts[0]);
    if (opts.length > 1) return choose(opts);
  }
  const direct = L.filter((a) => !a.actor && a.target === key);
  if (direct.length === 1 && !selected) return perform(direct[0]);
  if (direct.length > 1 && !selected) return choose(direct);
  const own = actionsFor(key);
  if (own.length) {
    if (selected === key) {
      selected = null;
      render();
      return;
    }
    if (redrawMode || (own.length === 1 && !own[0].target)) return perform(own[0]);
    selected = key;
    say(`${cardName(face(key.replace(/^[hd]:/, "")))} selected: click a highlighted target, or choose below.`);
    render();
    return;
  }
  const name = key.startsWith("pool:") ? "That mnr" : cardName(face(key.replace(/^[hd]:/, "")));
  const whyNot = snap.why_not && snap.why_not[key];
  say(whyNot ? `Why not? ${whyNot}.` : `${name}: no legal action with it now. ${PHASES[snap.view.phase] || ""}.`, "error");
}

function clickAct(act) {
  switch (act) {
    case "pass": case "done": case "end": return send(act);
    case "redraw":
      confirmRedraw = true;
      focusWanted = true;
      say("Redraw ends your turn. Confirm, or Cancel.");
      render();
      return controlsEl.querySelector('[data-act="redraw-confirm"]')?.focus();
    case "redraw-confirm": confirmRedraw = false; return send("redraw");
    case "redraw-mode":
      redrawMode = true;
      selected = null;
      say("Choose the Hand card to recycle with the drawn cards. Redraw ends your turn.");
      return render();
    case "cancel":
      if (staged.length && !selected && !selectedOptions) cancelDeclarations();
      else say("");
      selected = null; redrawMode = false; pay = null; selectedOptions = null; confirmRedraw = false;
      focusWanted = true;
      return render();
    case "pay-confirm": {
      if (!pay) return;
      let text = pay.action;
      if (pay.lnds.size) text += ` tax ${[...pay.lnds].join(" ")}`;
      if (pay.spend.length) text += ` spend ${pay.spend.join("")}`;
      if (!pay.lnds.size && !pay.spend.length) {
        say("Choose Lnds to tax or pool points to spend, or untick “Choose Lnds to pay”.", "error");
        return;
      }
      pay = null;
      return send(text);
    }
    case "hint": return askHint();
    case "takeback": return takeBack();
    case "show-over": overShown = false; return showOver();
    default: return null;
  }
}

async function takeBack() {
  // casual play: your last decision and the computer's reply are undone on the server
  if (busy) return;
  busy = true;
  render();
  const r = await api(`/api/games/${gameId}/takeback`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ version: snap.version, takebacks: snap.takebacks, log_from: 0 }),
  });
  busy = false;
  if (r.ok) {
    overShown = false;
    if (overDlg.open) overDlg.close();
    applySnapshot(r.body, { fromAction: true });
    say("Taken back: your last decision and the computer's reply to it.", "info");
    poll();
  } else {
    say(`Refused: ${(r.body && r.body.message) || `the server said ${r.status}`}`, "error");
    render();
  }
}

async function askHint() {
  hintEl.hidden = false;
  hintEl.innerHTML = '<p><span class="spinner" aria-hidden="true"></span> The expert is thinking…</p>';
  const r = await api(`/api/games/${gameId}/hint?version=${snap.version}`);
  if (!r.ok) {
    hintEl.innerHTML = `<p class="error">${richText((r.body && r.body.message) || "No hint now.")}</p>`;
    return;
  }
  hint = r.body;
  const estimate = (x) => (typeof x.score === "number" && x.score >= 0 && x.score <= 1
    ? `${Math.round(x.score * 100)}% win estimate` : (x.score !== null && x.score !== undefined ? String(x.score) : ""));
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

app.addEventListener("click", (ev) => {
  const t = ev.target;
  pointerPay = ev.detail > 0; // a real click (keyboard activation has detail 0)
  if (t.closest("a, summary, input, label, dialog, form")) return;
  const b = t.closest("[data-action]");
  if (b) {
    const a = legal().find((x) => x.text === b.dataset.action) || parseLegal(b.dataset.action);
    selectedOptions = null;
    return perform(a);
  }
  const act = t.closest("[data-act]");
  if (act) {
    if (act.dataset.act === "close-hint") { hint = null; hintEl.hidden = true; return render(); }
    if (act.dataset.act === "close-combat") { document.getElementById("combat").hidden = true; focusWanted = true; return render(); }
    return clickAct(act.dataset.act);
  }
  const k = t.closest("[data-key]");
  if (k && k.dataset.key) clickKey(k.dataset.key);
});

app.addEventListener("focusin", (ev) => {
  // focusing a card with no legal action says why not (from the engine, via the snapshot)
  const el = ev.target.closest && ev.target.closest('[data-key][data-why]');
  const why = el && snap.why_not && snap.why_not[el.dataset.key];
  if (why) say(`Why not? ${why}.`, "error");
});

app.addEventListener("keydown", (ev) => {
  if ((ev.key === "Enter" || ev.key === " ") && ev.target.matches("[data-key][role=button]")) {
    ev.preventDefault();
    ev.stopPropagation(); // the key picked this card: it must not also pay or pass
    pointerPay = false;
    clickKey(ev.target.dataset.key);
  }
});

document.addEventListener("keydown", (ev) => {
  const typing = ev.target.matches("input:not([type=checkbox]):not([type=radio]), textarea, select");
  if (typing || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key.toLowerCase();
  const L = legal();
  if (k === "escape") return clickAct("cancel");
  if (!snap.your_turn) return;
  if (k === "enter" && pay && !ev.target.closest("button, a, summary")) { ev.preventDefault(); return clickAct("pay-confirm"); }
  if (k === "p" && L.some((a) => a.text === "pass")) return send("pass");
  if (k === "d" && L.some((a) => a.text === "done")) return send("done");
  if (k === "e" && L.some((a) => a.text === "end")) return send("end");
  if (k === "r" && L.some((a) => a.text === "redraw")) return clickAct("redraw");
  if (k === "r" && L.some((a) => a.verb === "redraw")) return clickAct("redraw-mode");
  if (k === "h") return askHint();
  if (k === "u" && snap.takeback) return takeBack();
  return null;
});

const resignBtn = document.getElementById("resign");
if (resignBtn) {
  resignBtn.addEventListener("click", () => {
    if (snap.status === "live" && window.confirm("Resign this game? The computer wins.")) send("resign");
  });
}
document.getElementById("over-close").addEventListener("click", () => overDlg.close());

wireCoachSetting(snap.level, () => render());

// for tests and the curious: the current snapshot (the player's own view only)
// moves(): the decisions made on this page, sent or declared (a test waits on it)
window.parlor = { snapshot: () => snap, send, moves: () => snap.version + staged.length, staged: () => [...staged] };

applySnapshot(snap, { fromAction: true });
poll();
