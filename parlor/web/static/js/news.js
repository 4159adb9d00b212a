// What just happened, said on screen and to screen readers: every event since the last look
// (the computer's plays included), a summary of each combat, the result in plain words, and
// optional sounds. The sentences are the server's (parlor's presentation), shown as they come.
import { pref } from "./prefs.js";
import { esc, richText } from "./text.js";

const newsEl = document.getElementById("news");
const combatEl = document.getElementById("combat");
const COMBAT = new Set(["damage", "eliminate", "bonus", "life", "burn", "expel"]);
const QUIET = new Set(["untax", "draw", "reshuffle"]);

export function outcomeWords(snap) {
  const w = snap.view.winner;
  if (w === null || w === undefined) return "A draw";
  return w === snap.you ? "You won" : "You lost";
}

// The events of one update, newest last, in a live region (role=log): nothing is missed when
// the computer makes several plays at once.
export function announce(entries, { fromAction = false } = {}) {
  if (!newsEl) return;
  const shown = entries.filter((e) => !QUIET.has(e.kind)).slice(-6);
  if (!shown.length) return;
  // a list inside the live region: a role=log on the list itself would orphan its items
  newsEl.innerHTML = `<ul>${shown.map((e) => `<li class="ev-${esc(e.kind)}">${richText(e.text)}</li>`).join("")}</ul>`;
  newsEl.hidden = false;
  newsEl.scrollTop = newsEl.scrollHeight; // the strip is short: its newest line is the one shown
  sound(entries, fromAction);
}

// One sound an update, for the weightiest thing in it: the end of the game, damage, an attack
// or block, a card played (the player's own plays included: a card landing is heard).
const SOUNDS = [
  [["win", "draw_game"], [523, 659, 784]],
  [["damage", "life", "eliminate", "burn"], [220]],
  [["attack", "block"], [440, 330]],
  [["play", "expel"], [660]],
];

function sound(entries, fromAction) {
  const kinds = new Set(entries.map((e) => e.kind));
  const found = SOUNDS.find(([ks]) => ks.some((k) => kinds.has(k)));
  if (found) tones(found[1]);
  else if (!fromAction) tones([660]);
}

// The game went back (a takeback): what the strips said happened did not, after all.
export function clearNews() {
  for (const el of [newsEl, combatEl]) {
    if (!el) continue;
    el.innerHTML = "";
    el.hidden = true;
  }
}

// After a combat resolves: who dealt what to whom, who was eliminated, the Domain step, and each
// Rlr's life before and after.
export function combatSummary(entries, before, after, names = null) {
  if (!combatEl) return;
  const lines = entries.filter((e) => COMBAT.has(e.kind));
  const resolved = before.view.combat && !after.view.combat;
  if (!lines.length || (!resolved && !lines.some((e) => e.kind === "life" || e.kind === "eliminate"))) return;
  const you = after.you;
  const lifeLine = [you, 1 - you].map((p) => {
    const a = before.view.sides[p].life;
    const b = after.view.sides[p].life;
    const who = names ? `${names[p]}'s life` : (p === you ? "Your life" : "The computer's life");
    return `${who}: ${a} → ${b}${a === b ? " (unchanged)" : ""}`;
  }).join("; ");
  combatEl.innerHTML = `<h2 class="combat-title" id="combat-title">Combat</h2><ul>${lines.map((e) => `<li>${richText(e.text)}</li>`).join("")}</ul>` +
    `<p class="life-change">${esc(lifeLine)}.</p><button type="button" class="btn small" data-act="close-combat">Close</button>`;
  combatEl.hidden = false;
}

let audio = null;
// Short tones one after another (a chord's notes in turn). On by default; the Sounds setting
// (Settings, remembered in this browser) mutes them.
function tones(freqs) {
  if (pref("sounds") !== "1") return;
  try {
    audio = audio || new AudioContext();
    freqs.forEach((freq, i) => {
      const at = audio.currentTime + i * 0.12;
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.08, at);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.22);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.22);
    });
  } catch (e) { /* no audio device: silence */ }
}
