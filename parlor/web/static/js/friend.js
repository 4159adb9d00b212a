// A game between two people (issue 45): game.js drives the table, its requests sent to
// /api/friends (the page's data-api); this module shows the invitation link while the
// other seat is empty, whose decision it is and what the other is doing, and sends a
// resignation or an abort.
import { hooks } from "./hooks.js";

const app = document.getElementById("app");
const gameId = app.dataset.game;
const statusEl = document.getElementById("friend-status");
const inviteEl = document.getElementById("friend-invite");
const abortBtn = document.getElementById("friend-abort");
let current = JSON.parse(document.getElementById("snapshot").textContent);

// the invitation's code comes in the address's fragment, which no server sees
const code = new URLSearchParams(window.location.hash.slice(1)).get("invite");
if (code) document.getElementById("invite-link").value = `${window.location.origin}/i/${code}`;

function show(s) {
  current = s;
  const f = s.friend;
  if (!f) return;
  statusEl.textContent = f.activity;
  inviteEl.hidden = f.seated || !code;
  abortBtn.hidden = !f.can_abort;
}

hooks.onSnapshot = show;
hooks.opponent = `Rlr ${2 - current.you}`;
hooks.hints = false; // the server refuses the computer's advice between two people
hooks.outcome = (s) => (s.status === "aborted" ? "Aborted" : null);

async function post(path) {
  const r = await fetch(`/api/friends/${gameId}/${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ version: current.version }),
  });
  const body = await r.json().catch(() => null);
  if (!r.ok) statusEl.textContent = `Refused: ${(body && body.message) || r.status}`;
  else window.location.reload(); // the table, over or aborted, as the server now has it
}

document.getElementById("friend-resign").addEventListener("click", () => {
  if (current.status === "live" && window.confirm("Resign this game? Your friend wins.")) post("resign");
});
abortBtn.addEventListener("click", () => {
  if (window.confirm("Abort this game? It ends with no result.")) post("abort");
});

// game.js's long poll shows a table only once the game moves; the friend sitting down is
// not a move, so until then this page waits for it itself
async function waitForFriend() {
  const { applySnapshot } = await import("./page.js");
  while (!current.friend.seated && current.status === "live") {
    try {
      const r = await fetch(`/api/friends/${gameId}?after=${current.version}&wait=20&log_from=${current.log_total}&seated=0`, { credentials: "same-origin" });
      if (r.ok) {
        const s = await r.json();
        if (s.friend.seated) applySnapshot(s);
        else show(s);
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
waitForFriend();
