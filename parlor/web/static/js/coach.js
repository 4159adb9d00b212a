// The coach: before a consequential decision, one line on what follows (the lines come from
// the server, derived from the engine's state). A setting, on by default against novice and
// casual and in lessons; remembered in this browser ("pm-coach").
import { describe, richText } from "./text.js";

const KEY = "pm-coach";
const GENTLE = ["novice", "casual", "lesson"];

export function coachOn(level) {
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch (e) { stored = null; }
  return stored === null ? GENTLE.includes(level) : stored === "1";
}

function setCoach(on) {
  try { localStorage.setItem(KEY, on ? "1" : "0"); } catch (e) { /* not kept */ }
}

// The lines for the decisions in view: the selected card's, or else those of the buttons and
// of cards that act with one click (attackers). At most three, without repeats.
// With a card selected, a line that holds for some of its targets only says which (the
// issue 41 newcomer read "This Enh joins the computer's counts" for 2 of 9 targets).
// Without a selection, the same line about several cards (each attacker's "Attacking with QC
// taxes it...") is one line naming them all: three near-copies made the strip too tall.
export function coachLines(snap, selected, legal) {
  return coachGroups(snap, selected, legal).map((g) => g.text);
}

// coachLines with the moves each line is about: [{text, moves}].
function coachGroups(snap, selected, legal) {
  const lines = snap.coach || {};
  const pick = legal.filter((a) => lines[a.text] && (selected ? a.actor === selected : !a.target));
  const moves = new Map();
  for (const a of pick) {
    const line = lines[a.text];
    const key = !selected && a.card && line.includes(a.card) ? line.split(a.card).join(CARD) : line;
    moves.set(key, [...(moves.get(key) || []), a]);
  }
  const mine = selected ? legal.filter((a) => a.actor === selected).length : 0;
  return [...moves].slice(0, 3).map(([line, some]) => {
    if (line.includes(CARD)) return { text: line.split(CARD).join(orList(some.map((a) => a.card))), moves: some };
    return { text: selected && some.length < mine
      ? `${line} (${some.map((a) => describe(a.text, snap.you)).join("; ")})` : line, moves: some };
  });
}

const CARD = "\u0000"; // where a line names its card, while lines are grouped

function orList(cards) {
  return cards.length < 2 ? cards.join("") : `${cards.slice(0, -1).join(", ")} or ${cards[cards.length - 1]}`;
}

export function renderCoach(snap, selected, legal) {
  const el = document.getElementById("coach");
  if (!el) return;
  const on = coachOn(snap.level) && snap.your_turn;
  const groups = on ? coachGroups(snap, selected, legal) : [];
  el.hidden = !groups.length;
  // a line whose every move has its element on the page is said beside each of them too
  // (renderNotes): where a pointer can point at them, the strip leaves it out (learn.css)
  const app = document.getElementById("app");
  const attached = (g) => app && g.moves.every((a) => elementsOf(app, a, selected).some(Boolean));
  el.innerHTML = groups.map((g) => `<span class="coach-line${attached(g) ? " attached" : ""}"><b>Coach:</b> ${richText(g.text)}</span>`).join("");
}

export function wireCoachSetting(level, onChange) {
  const box = document.getElementById("coach-on");
  if (!box) return;
  box.checked = coachOn(level);
  box.addEventListener("change", () => { setCoach(box.checked); onChange(); });
}

// -- each line beside what it is about (issue 41) ---------------------------------------------
// A coach line and the fight's forecast (snap.forecast: what the engine says follows if nobody
// plays another card, parlor.present.forecast) belong to one decision each. They are attached
// to the element that decision is taken with: the attacker's card, the attacker a selected
// blocker would block, the blocker a point goes to, the option button, Done. The element is
// described by them (aria-describedby); pointing at it or focusing it shows them beside it.
// Done's forecast (the declaration made so far, as the preview shows it) is shown under Done
// at all times: it is what the next click sends.

const TIP_ID = "coach-tip";

// The elements a move is taken with on the page drawn now: its option button, if shown, and
// the card clicked for it (a selected blocker's attacker, an attacker, a point's Cre).
function elementsOf(app, a, selected) {
  const q = (sel) => app.querySelector(sel);
  const key = (k) => q(`[data-key="${CSS.escape(k)}"]`);
  if (["done", "pass", "end"].includes(a.text)) return [q(`#controls [data-act="${a.text}"]`)];
  let card = null;
  if (selected) card = a.actor === selected && a.target ? key(a.target) : null;
  else if (a.actor && !a.target) card = key(a.actor);
  else if (!a.actor && a.target) card = key(a.target);
  return [q(`#controls [data-action="${CSS.escape(a.text)}"]`), card];
}

// Each element and what is said about it: [element, [{move, coach, forecast}]].
function notesOf(app, snap, selected, legal) {
  const lines = snap.coach || {};
  const forecast = snap.forecast || {};
  const found = new Map();
  for (const a of legal) {
    if (!lines[a.text] && !forecast[a.text]) continue;
    for (const el of elementsOf(app, a, selected).filter(Boolean)) {
      found.set(el, [...(found.get(el) || []), { move: a, coach: lines[a.text], forecast: forecast[a.text] }]);
    }
  }
  return found;
}

function noteHtml(notes, you) {
  const named = notes.length > 1;
  return notes.map((n) => {
    const head = named ? `<b>${richText(describe(n.move.text, you))}:</b> ` : "";
    const coach = n.coach ? `<span class="note-coach"><b>Coach:</b> ${richText(n.coach)}</span>` : "";
    const fc = n.forecast ? `<span class="note-forecast"><b>Forecast:</b> ${richText(n.forecast)}</span>` : "";
    return `<span class="note">${head}${coach}${fc}</span>`;
  }).join("");
}

function store(app) {
  let el = document.getElementById("coach-notes");
  if (!el) {
    el = document.createElement("div");
    el.id = "coach-notes";
    el.hidden = true; // read through aria-describedby; seen in the tip
    (app.querySelector("section.table") || app).append(el);
  }
  return el;
}

export function renderNotes(snap, selected, legal) {
  const app = document.getElementById("app");
  if (!app) return;
  const box = store(app);
  box.innerHTML = "";
  app.querySelectorAll("[data-note]").forEach((el) => {
    el.removeAttribute("data-note");
    describe_(el, null);
  });
  app.querySelectorAll(".done-forecast").forEach((el) => el.remove());
  const on = coachOn(snap.level) && snap.your_turn;
  const notes = on ? notesOf(app, snap, selected, legal) : new Map();
  let n = 0;
  for (const [el, said] of notes) {
    const id = `coach-note-${n++}`;
    const done = el.dataset.act === "done" && said.some((x) => x.forecast);
    const note = document.createElement(done ? "p" : "span");
    note.id = id;
    note.innerHTML = noteHtml(said, snap.you);
    if (done) {
      note.className = "done-forecast";
      el.after(note); // under Done: the declaration made so far
    } else {
      box.append(note);
    }
    el.dataset.note = id;
    describe_(el, id);
  }
  wireTip(app);
  const active = document.activeElement;
  if (byKey && active && active.dataset && active.dataset.note) showTip(active);
  else hideTip();
}

// `el` described by the coach's note `id` as well as by what describes it already (null: by
// no note of the coach's any more).
function describe_(el, id) {
  const ids = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter((x) => x && !x.startsWith("coach-note-"));
  if (id) ids.push(id);
  if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
  else el.removeAttribute("aria-describedby");
}

function tipEl(app) {
  let tip = document.getElementById(TIP_ID);
  if (!tip) {
    tip = document.createElement("div");
    tip.id = TIP_ID;
    tip.className = "coach-tip";
    tip.setAttribute("role", "tooltip");
    tip.hidden = true;
    (app.querySelector("section.table") || app).append(tip);
  }
  return tip;
}

// The tip beside `el`: to its right when there is room, else to its left, else under it.
function showTip(el) {
  const note = document.getElementById(el.dataset.note);
  const app = document.getElementById("app");
  if (!note || !app || note.classList.contains("done-forecast")) return hideTip();
  const tip = tipEl(app);
  tip.innerHTML = note.innerHTML;
  tip.hidden = false;
  const r = el.getBoundingClientRect();
  const w = Math.min(360, window.innerWidth - 16);
  tip.style.width = `${w}px`;
  const h = tip.getBoundingClientRect().height;
  let left = r.right + 8;
  let top = Math.max(8, Math.min(r.top, window.innerHeight - h - 8));
  if (left + w > window.innerWidth - 8) left = r.left - w - 8;
  if (left < 8) {
    left = Math.max(8, Math.min(r.left, window.innerWidth - w - 8));
    top = r.bottom + h + 8 > window.innerHeight ? Math.max(8, r.top - h - 8) : r.bottom + 8;
  }
  tip.style.left = `${Math.round(left)}px`;
  tip.style.top = `${Math.round(top)}px`;
}

function hideTip() {
  const tip = document.getElementById(TIP_ID);
  if (tip) tip.hidden = true;
}

let wired = false;
// The page's focus moves by itself after each decision (to the next thing to decide): the tip
// follows the focus only while the player moves it with the keys, and the pointer otherwise.
let byKey = false;

function wireTip(app) {
  if (wired) return;
  wired = true;
  const noted = (ev) => ev.target.closest && ev.target.closest("[data-note]");
  document.addEventListener("keydown", (ev) => { if (ev.key === "Tab" || ev.key.startsWith("Arrow")) byKey = true; }, true);
  document.addEventListener("pointerdown", () => { byKey = false; }, true);
  app.addEventListener("pointerover", (ev) => { const el = noted(ev); if (el && ev.pointerType !== "touch") showTip(el); });
  app.addEventListener("pointerout", (ev) => { const el = noted(ev); if (el && !el.contains(ev.relatedTarget)) hideTip(); });
  app.addEventListener("focusin", (ev) => { const el = noted(ev); if (el && byKey) showTip(el); else if (byKey) hideTip(); });
  app.addEventListener("focusout", (ev) => { if (noted(ev)) hideTip(); });
  window.addEventListener("scroll", hideTip, { passive: true });
}
