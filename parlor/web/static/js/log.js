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

// Append entries to the <ol>; if `replace` the list is rebuilt. Returns the new <li>s.
export function renderLog(ol, entries, { replace = false, fresh = false } = {}) {
  if (replace) ol.innerHTML = "";
  const nearBottom = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 80;
  const frag = document.createDocumentFragment();
  const added = [];
  for (const e of entries) {
    const li = document.createElement("li");
    li.className = `ev ev-${e.kind}${fresh ? " fresh" : ""}`;
    li.dataset.n = e.n;
    li.innerHTML = entryHTML(e);
    frag.appendChild(li);
    added.push(li);
  }
  ol.appendChild(frag);
  if (nearBottom || replace) ol.scrollTop = ol.scrollHeight;
  return added;
}
