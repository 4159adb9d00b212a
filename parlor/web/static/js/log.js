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
