// The game log: one sentence per event, its rule as a link, and a "why" for ranking decisions.
import { esc, richText, ruleHref } from "./text.js";

function entryHTML(e) {
  const href = ruleHref(e.rule);
  const rule = href ? ` <a class="rule-chip" href="${href}" target="_blank" rel="noopener" title="Rule ${esc(e.rule)}">${esc(e.rule)}</a>` : "";
  let why = "";
  if (e.why) {
    const rules = e.why.rules.map((r) => `<a class="rule-link" href="/rules#r${esc(r)}" target="_blank" rel="noopener">${esc(r)}</a>`).join(", ");
    why = `<details class="why"><summary>why?</summary><p>${richText(e.why.text)}</p><p class="small muted">Rules: ${rules}</p></details>`;
  }
  const notation = e.notation && e.notation !== e.text
    ? ` <code class="notation" title="The sentence in the game's notation">${esc(e.notation)}</code>` : "";
  return `<span class="text"${e.notation ? ` title="${esc(e.notation)}"` : ""}>${richText(e.text)}</span>${notation}${rule}${why}`;
}

const atBottom = (ol) => ol.scrollHeight - ol.scrollTop - ol.clientHeight < 80;

// "N new events below": shown when entries arrive while the reader has scrolled up, so the
// log never moves under them and nothing new goes unseen. A real button (Tab reaches it).
function newMarker(ol) {
  const next = ol.nextElementSibling;
  if (next && next.classList.contains("log-new")) return next;
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn small log-new";
  b.hidden = true;
  b.dataset.unseen = "0";
  if (ol.id) b.setAttribute("aria-controls", ol.id);
  b.addEventListener("click", () => {
    ol.scrollTop = ol.scrollHeight;
    b.hidden = true;
    b.dataset.unseen = "0";
    if (!ol.hasAttribute("tabindex")) ol.tabIndex = -1;
    ol.focus({ preventScroll: true }); // the button goes away: the focus stays with the log
  });
  ol.addEventListener("scroll", () => {
    if (atBottom(ol)) { b.hidden = true; b.dataset.unseen = "0"; }
  });
  ol.after(b);
  return b;
}

// Append entries to the <ol>; if `replace` the list is rebuilt. Returns the new <li>s.
export function renderLog(ol, entries, { replace = false, fresh = false } = {}) {
  if (replace) ol.innerHTML = "";
  const nearBottom = atBottom(ol) || !ol.children.length; // a first fill starts at the newest
  const frag = document.createDocumentFragment();
  const added = [];
  for (const e of entries) {
    const li = document.createElement("li");
    li.className = `ev ev-${e.kind}${e.automatic ? " ev-auto" : ""}${fresh ? " fresh" : ""}`;
    li.dataset.n = e.n;
    li.innerHTML = entryHTML(e);
    frag.appendChild(li);
    added.push(li);
  }
  ol.appendChild(frag);
  rove(ol);
  const marker = newMarker(ol);
  if (nearBottom || replace) {
    ol.scrollTop = ol.scrollHeight;
    marker.hidden = true;
    marker.dataset.unseen = "0";
  } else if (added.length && ol.scrollHeight > ol.clientHeight) {
    const n = Number(marker.dataset.unseen) + added.length;
    marker.dataset.unseen = String(n);
    marker.textContent = `${n} new event${n === 1 ? "" : "s"} below ↓`;
    marker.hidden = false;
  }
  return added;
}

// -- the keyboard: the log is one Tab stop (a roving tabindex) ------------------------------
// Tab enters the log at the line last visited (at first the newest) and leaves it with the
// next Tab; ↑ ↓ Home End move between lines, → ← between a line's rule links and its "why?",
// and Enter follows the link or opens the why. A long game's log never fills the Tab order.

const ITEMS = "a, summary, button";

function lineOf(el) { return el.closest("li"); }

function focusables(li) { return [li, ...li.querySelectorAll(ITEMS)]; }

function current(ol) {
  return ol.querySelector(':scope > li[tabindex="0"]');
}

function makeCurrent(ol, li) {
  const was = current(ol);
  if (was && was !== li) was.tabIndex = -1;
  li.tabIndex = 0;
}

function rove(ol) {
  for (const el of ol.querySelectorAll(ITEMS)) el.tabIndex = -1;
  const lines = ol.querySelectorAll(":scope > li");
  const keep = current(ol);
  for (const li of lines) if (li !== keep) li.tabIndex = -1;
  const focused = ol.contains(document.activeElement);
  if (!focused && lines.length) makeCurrent(ol, lines[lines.length - 1]); // Tab lands on the newest
  if (ol.dataset.roving) return;
  ol.dataset.roving = "1";
  ol.addEventListener("focusin", (ev) => { const li = lineOf(ev.target); if (li) makeCurrent(ol, li); });
  ol.addEventListener("keydown", (ev) => moveIn(ol, ev));
}

function moveIn(ol, ev) {
  const li = lineOf(ev.target);
  if (!li) return;
  const lines = [...ol.querySelectorAll(":scope > li")];
  const i = lines.indexOf(li);
  const inLine = focusables(li);
  const j = inLine.indexOf(ev.target);
  let next = null;
  if (ev.key === "ArrowDown") next = lines[i + 1];
  else if (ev.key === "ArrowUp") next = lines[i - 1];
  else if (ev.key === "Home") next = lines[0];
  else if (ev.key === "End") next = lines[lines.length - 1];
  else if (ev.key === "ArrowRight") next = inLine[j + 1];
  else if (ev.key === "ArrowLeft") next = inLine[j - 1];
  else return;
  ev.preventDefault();
  ev.stopPropagation(); // the table's own keys (the replay's ← →) are not for the log
  if (next) {
    makeCurrent(ol, lineOf(next));
    next.focus();
  }
}
