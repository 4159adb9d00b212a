// A game between two people (issue 45): game.js drives the table, its requests sent to
// /api/friends (the page's data-api); this module shows the invitation link while the
// other seat is empty, whose decision it is and what the other is doing, the clocks, an
// offer (a draw, a takeback) and a rematch, and sends a resignation, an abort, an offer or
// an answer.
import { hooks } from "./hooks.js";

const app = document.getElementById("app");
const gameId = app.dataset.game;
const $ = (id) => document.getElementById(id);
const statusEl = $("friend-status");
const ratedEl = $("friend-rated");
const inviteEl = $("friend-invite");
const abortBtn = $("friend-abort");
const offerEl = $("friend-offer");
const clocksEl = $("friend-clocks");
let current = JSON.parse($("snapshot").textContent);
let clockAt = performance.now(); // when the reply with current's clocks came
let drawnShown = false;
let ready = false; // game.js has drawn the table (its state is the page's)

// the invitation's code comes in the address's fragment, which no server sees
const code = new URLSearchParams(window.location.hash.slice(1)).get("invite");
if (code) $("invite-link").value = `${window.location.origin}/i/${code}`;

function show(s) {
  if (!s.friend) return;
  if (s !== current) clockAt = performance.now();
  current = s;
  const f = s.friend;
  statusEl.textContent = f.activity;
  if (ratedEl) ratedEl.textContent = f.rated_text;  // "Rated…" once the friend sits down
  inviteEl.hidden = f.seated || !code;
  abortBtn.hidden = !f.can_abort;
  $("offer-draw").hidden = !f.can_offer.includes("draw");
  $("offer-takeback").hidden = !f.can_offer.includes("takeback");
  $("rematch").hidden = s.status === "live";
  // the game's end dialog: the other asked already, so this joins their rematch
  if (f.rematch) $("rematch").textContent = "Play the rematch (seats swapped)";
  showOffer(f);
  showClocks();
  if (ready && s.status === "drawn" && !drawnShown) {
    drawnShown = true;
    import("./page.js").then(({ showOver }) => showOver());
  }
}

// the other's offer to answer, one's own waiting or declined, the other's rematch, or the
// other gone (rule 1314: claim the game, or wait)
function showOffer(f) {
  const o = f.offer;
  const rematch = f.rematch && current.status !== "live";
  const gone = f.other_gone && current.status === "live";
  offerEl.hidden = !o && !rematch && !gone;
  const answerable = o && !o.yours && !o.declined;
  $("offer-accept").hidden = !answerable;
  $("offer-decline").hidden = !answerable;
  $("rematch-join").hidden = !rematch;
  $("friend-claim").hidden = !(gone && f.can_claim);
  const away = gone ? `Rlr ${f.opponent + 1} has disconnected (no word for ${f.other_away} s): ` +
    (f.can_claim ? "claim the game, or wait." : `you may claim the game in ${Math.round(f.claim_in)} s.`) : "";
  $("offer-words").textContent = o ? o.words : rematch ? "A rematch, seats swapped, is waiting for you." : away;
}

function clockText(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const whole = Math.ceil(s);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

// the server's clocks as of its last reply; the running one counts down here until the next
// (the server's clock decides: at zero its long poll ends the game and the table shows it)
function showClocks() {
  const c = current.friend && current.friend.clock;
  clocksEl.hidden = !c;
  if (!c) return;
  const spent = (performance.now() - clockAt) / 1000;
  for (const seat of [0, 1]) {
    const el = $(`clock-${seat}`);
    const running = c.running === seat && current.status === "live";
    const left = c.left[seat] - (running ? spent : 0);
    el.querySelector(".left").textContent = clockText(left);
    el.classList.toggle("running", running);
    el.classList.toggle("low", running && left < 10);
    el.classList.toggle("flagged", c.flagged === seat);
  }
}
setInterval(showClocks, 200);

hooks.onSnapshot = show;
hooks.opponent = `Rlr ${2 - current.you}`;
hooks.hints = false; // the server refuses the computer's advice between two people
hooks.outcome = (s) => ({ aborted: "Aborted", drawn: "Drawn" })[s.status] || null;

async function post(path, body = {}) {
  const r = await fetch(`/api/friends/${gameId}/${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ version: current.version, ...body }),
  });
  const reply = await r.json().catch(() => null);
  if (!r.ok) statusEl.textContent = `Refused: ${(reply && reply.message) || r.status}`;
  return r.ok ? reply : null;
}

$("friend-resign").addEventListener("click", async () => {
  if (current.status === "live" && window.confirm("Resign this game? Your friend wins.")) {
    if (await post("resign")) window.location.reload(); // the table, over, as the server has it
  }
});
abortBtn.addEventListener("click", async () => {
  if (window.confirm("Abort this game? It ends with no result.") && await post("abort")) window.location.reload();
});
$("offer-draw").addEventListener("click", async () => {
  const s = await post("offer", { offer: "draw" });
  if (s) show(s);
});
$("offer-takeback").addEventListener("click", async () => {
  const s = await post("offer", { offer: "takeback" });
  if (s) show(s);
});
async function answer(accept) {
  const s = await post("answer", { accept });
  if (!s) return;
  // an accepted takeback or draw changes the table: show it as the server now has it
  if (accept) window.location.reload();
  else show(s);
}
$("offer-accept").addEventListener("click", () => answer(true));
$("offer-decline").addEventListener("click", () => answer(false));
async function rematch() {
  const r = await fetch(`/api/friends/${gameId}/rematch`, {
    method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: "{}",
  });
  const reply = await r.json().catch(() => null);
  if (r.ok) window.location.assign(reply.url); // its token came as its cookie
  else statusEl.textContent = `Refused: ${(reply && reply.message) || r.status}`;
}
$("rematch").addEventListener("click", rematch);
$("friend-claim").addEventListener("click", async () => {
  if (window.confirm(`Claim the game? Rlr ${current.friend.opponent + 1} resigns and you win.`) && await post("claim")) {
    window.location.reload();
  }
});
$("rematch-join").addEventListener("click", rematch);

// game.js's long poll shows a table only once the game moves; what happens beside the moves
// (the friend sitting down, an offer, an answer, a rematch) this page waits for itself
async function watchFriend() {
  const { applySnapshot } = await import("./page.js");
  let heard = current; // the newest reply this poll had (game.js may show a move later)
  for (;;) {
    try {
      const known = heard.version > current.version ? heard : current;
      const r = await fetch(`/api/friends/${gameId}?after=${known.version}&wait=20&log_from=${current.log_total}` +
        `&seated=${known.friend.seated ? 1 : 0}&news=${encodeURIComponent(known.friend.news)}`, { credentials: "same-origin" });
      if (r.ok) {
        const s = await r.json();
        heard = s;
        if (s.friend.seated && !current.friend.seated) applySnapshot(s);
        // a move or the end is game.js's to show (its poll hears it too)
        else if (s.version === current.version && s.status === current.status) show(s);
      } else {
        await new Promise((ok) => setTimeout(ok, 3000));
      }
    } catch (e) {
      await new Promise((ok) => setTimeout(ok, 3000));
    }
  }
}

show(current);
await import("./game.js");
ready = true;
show(current);
watchFriend();
