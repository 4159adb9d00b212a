// Draws the full spread from a view (the JSON of parlor.rules.view.View) into the page.
// It marks what the controller says is selectable, selected or a target; it decides nothing.
import { backSVG, cardName, cardSVG, face, kind, SUIT_NAMES } from "./cards.js";
import { esc } from "./text.js";

const SUITS = ["C", "D", "H", "S"];

function suitIcon(suit, cls = "") {
  return `<svg class="suit-icon ${cls}" viewBox="0 0 100 100" aria-hidden="true"><use href="#suit-${suit}" class="s-${suit}"/></svg>`;
}

function markClasses(key, marks) {
  const c = [];
  if (marks.selectable.has(key)) c.push("selectable");
  if (marks.selected === key) c.push("selected");
  if (marks.targets.has(key)) c.push("target");
  if (marks.hinted.has(key)) c.push("hinted");
  if (marks.paying.has(key)) c.push("paying");
  else if (marks.payable.has(key)) c.push("payable");
  return c.join(" ");
}

function interactive(key, marks) {
  const active = marks.selectable.has(key) || marks.targets.has(key) || marks.payable.has(key);
  return active ? ` tabindex="0" role="button"` : ` role="img"`;
}

// "You" -> "your", "Computer" -> "the computer's", "Rlr 2" -> "Rlr 2's"
export function possessive(name) {
  if (name === "You") return "your";
  if (name === "Computer") return "the computer's";
  return `${name}'s`;
}

function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

function enhNames(enhs) {
  return enhs.map((e) => cardName(face(e))).join(" and ");
}

function statusWords(tc, ctx) {
  const w = [];
  if (tc.taxed_on) w.push(tc.taxed_on - 1 === ctx.me ? "taxed on your turn" : `taxed on ${possessive(ctx.names[tc.taxed_on - 1])} turn`);
  if (tc.inactive) w.push("inactive");
  if (tc.damage) w.push(`${tc.damage} damage`);
  if (tc.terminal) w.push("terminal");
  const cb = ctx.combat;
  if (cb) {
    if (cb.attackers.includes(tc.ref)) w.push("attacking");
    const b = cb.blocks.find(([bl]) => bl === tc.ref);
    if (b && b[1] !== "-") w.push(`blocking ${cardName(face(b[1]))}`);
  }
  return w;
}

function tableCard(tc, ctx, zone) {
  const marks = ctx.marks;
  const isCre = kind(tc.card) === "Cre";
  const words = statusWords(tc, ctx);
  let label = cardName(tc.card);
  if (tc.enhs.length) label += ` with ${enhNames(tc.enhs)}`;
  if (isCre) label += `, ${tc.pwr}/${tc.tgh}`;
  if (words.length) label += `, ${words.join(", ")}`;
  const cls = ["tcard", `k-${kind(tc.card)}`];
  if (tc.taxed_on) cls.push("taxed", `taxed-${tc.taxed_on}`);
  if (tc.inactive) cls.push("inactive");
  if (tc.terminal) cls.push("terminal");
  const cb = ctx.combat;
  let combatBadge = "";
  if (cb) {
    const ai = cb.attackers.indexOf(tc.ref);
    if (ai >= 0) {
      cls.push("attacking");
      combatBadge = `<span class="badge atk" title="Attacker ${ai + 1}">ATK ${ai + 1}</span>`;
    }
    const b = cb.blocks.find(([bl]) => bl === tc.ref);
    if (b && b[1] !== "-") {
      cls.push("blocking");
      combatBadge = `<span class="badge blk" title="Blocks ${esc(b[1])}">BLK ${cb.attackers.indexOf(b[1]) + 1}</span>`;
    }
  }
  let badges = combatBadge;
  if (isCre) {
    const modded = tc.pwr !== baseStats(tc.card)[0] || tc.tgh !== baseStats(tc.card)[1];
    badges += `<span class="badge pt${modded ? " modded" : ""}">${tc.pwr}/${tc.tgh}</span>`;
  }
  if (tc.damage) badges += `<span class="badge dmg" title="${tc.damage} damage">−${tc.damage}</span>`;
  if (tc.inactive) badges += `<span class="badge zz" title="Inactive: summoned this turn">zz</span>`;
  if (tc.terminal) badges += `<span class="badge term" title="Terminal: leaves at the next untax">✕</span>`;
  const enhs = tc.enhs.map((e, i) => {
    const key = e;
    return `<div class="enh ${markClasses(key, marks)}" data-key="${esc(key)}" style="--i:${i + 1};z-index:${20 - i}" title="${esc(face(e))} on ${esc(tc.card)}"` +
      named(key, marks, `${cardName(face(e))}, an Enh on ${cardName(tc.card)}${e.startsWith(`${ctx.me + 1}:`) ? ", yours" : ""}`) +
      `${cardSVG(face(e))}</div>`;
  }).join("");
  return `<div class="hostwrap${tc.taxed_on ? " taxed" : ""}" style="--n:${tc.enhs.length}">${enhs}` +
    `<div class="${cls.join(" ")} ${markClasses(tc.ref, marks)}" data-key="${esc(tc.ref)}"${named(tc.ref, marks, label)}` +
    // the badges repeat what the name says (power/toughness, damage, attacking...)
    `<div class="slot"><div class="face">${cardSVG(tc.card)}</div></div><span aria-hidden="true">${badges}</span></div></div>`;
}

// A card's role and name, and the end of its opening tag: a picture named by its label, or a
// button named by its content (a hidden text first), so that the words a speech user reads
// are its name (axe: label-content-name-mismatch, on the cards of a fight).
function named(key, marks, label) {
  const active = marks.selectable.has(key) || marks.targets.has(key) || marks.payable.has(key);
  return active ? ` tabindex="0" role="button"><span class="sr-only">${esc(label)}</span>`
    : ` role="img" aria-label="${esc(label)}">`;
}

function baseStats(card) {
  const r = face(card).slice(0, -1);
  return { A: [1, 1], J: [1, 2], Q: [2, 2], K: [2, 3] }[r] || [0, 0];
}

function pile(label, count, cards, note, extraCls = "") {
  const list = cards && cards.length
    ? `<div class="pile-list">${cards.map((c) => `<span class="mini" title="${esc(cardName(c))}">${cardSVG(c, { noKind: true })}</span>`).join("")}</div>`
    : `<p class="muted small">${esc(note)}</p>`;
  const back = count ? backSVG() : `<svg class="card-svg" viewBox="0 0 100 140" aria-hidden="true"><rect x="2" y="2" width="96" height="136" rx="8" class="empty-slot"/></svg>`;
  return `<details class="pile ${extraCls}"><summary>` +
    `<span class="pile-card">${back}<span class="count">${count}<span class="sr-only"> cards in</span></span></span><span class="pile-label">${esc(label)}</span></summary>` +
    `<div class="pile-pop">${list}</div></details>`;
}

function plate(side, p, ctx) {
  const v = ctx.view;
  const pool = SUITS.map((s, i) => {
    const n = side.pool[i];
    const key = `pool:${s}`;
    const payable = ctx.marks.payable.has(key);
    const spent = ctx.marks.spend ? ctx.marks.spend.filter((x) => x === s).length : 0;
    return `<span class="chip${n ? "" : " zero"}${payable ? " payable" : ""}" data-key="${p === ctx.me ? key : ""}"` +
      `${payable ? ' tabindex="0" role="button"' : ' role="img"'} aria-label="${SUIT_NAMES[s]}: ${n} mnr${spent ? `, ${spent} chosen to spend` : ""}" title="${SUIT_NAMES[s]} mnr">` +
      `${suitIcon(s)}<b>${n}</b>${spent ? `<i>−${spent}</i>` : ""}</span>`;
  }).join("");
  const phasing = v.phasing === p;
  const deciding = v.actor === p && v.phase !== "over";
  const who = cap(possessive(ctx.names[p]).replace(/^the /, ""));
  return `<div class="plate${deciding ? " deciding" : ""}${phasing ? " phasing" : ""}" role="group" aria-label="${esc(ctx.names[p])}: ${side.life} life${phasing ? ", whose turn it is" : ""}">` +
    `<div class="who"><span class="name">${esc(ctx.names[p])}${ctx.names[p].startsWith("Rlr") ? "" : ` <small>Rlr ${p + 1}</small>`}</span>${phasing ? '<span class="tag" title="The phasing Rlr: whose turn it is">P</span>' : '<span class="tag o" title="The other Rlr">O</span>'}</div>` +
    `<div class="life" title="Life"><svg class="suit-icon" viewBox="0 0 100 100" aria-hidden="true"><use href="#suit-H" class="life-heart"/></svg><b>${side.life}</b><span class="life-label">life</span></div>` +
    `<div class="pool" role="group" aria-label="${esc(who)} mnr pool" title="Mnr pool by suit">${pool}</div>` +
    `<div class="counts">${side.hand_count} in Hand</div></div>`;
}

function zone(cls, key, label, inner, ctx, count) {
  const marks = ctx.marks;
  const usable = key && (marks.targets.has(key) || marks.selectable.has(key));
  const k = key ? ` data-key="${esc(key)}"${usable ? ' tabindex="0" role="button"' : ' role="group"'}` : ' role="group"';
  const crowded = count > 6 ? " crowded" : "";
  return `<div class="zone ${cls}${crowded} ${key ? markClasses(key, marks) : ""}"${k} aria-label="${esc(label)}">` +
    `<span class="zone-label" aria-hidden="true">${esc(cls.split(" ")[0])}</span><div class="cards">${inner}</div></div>`;
}

function sideHTML(p, ctx) {
  const v = ctx.view;
  const side = v.sides[p];
  const mine = p === ctx.me;
  const name = cap(possessive(ctx.names[p]));
  const home = side.home.map((tc) => tableCard(tc, ctx, "home")).join("");
  const field = side.field.map((tc) => tableCard(tc, ctx, "field")).join("");
  const domKey = `D${p + 1}`;
  const domain = side.domain.map((e) => `<div class="dcard ${markClasses(e, ctx.marks)}" data-key="${esc(e)}"` +
    `${named(e, ctx.marks, `${cardName(face(e))} in ${name} Domain${e.startsWith(`${ctx.me + 1}:`) ? ", cast by you" : ""}`)}${cardSVG(face(e))}</div>`).join("");
  const known = side.recycle_known || [];
  const piles = `<div class="piles" role="group" aria-label="${esc(name)} piles">` +
    pile("Draw", side.draw_count, null, "Face down.") +
    pile("Recycle", side.recycle_count, known, mine ? "Empty." : "Face down; none known.") +
    pile("Discard", side.discard_count, side.discard, side.discard === null ? "Closed in match play." : "Empty.") + "</div>";
  let backs = "";
  if (!mine || !side.hand) {
    const cards = Array.from({ length: side.hand_count }, () => `<div class="bcard">${backSVG()}</div>`).join("");
    const drawn = v.phasing === p && v.drawn_count ? `<span class="drawn-backs" aria-label="${v.drawn_count} drawn cards">+${v.drawn_count} drawn</span>` : "";
    backs = `<div class="hand backs" role="img" aria-label="${esc(name)} Hand: ${side.hand_count} cards, face down"><span class="zone-label" aria-hidden="true">hand ${side.hand_count}</span><div class="cards">${cards}</div>${drawn}</div>`;
  }
  const zones = zone("home", null, `${name} Home: ${side.home.length} Lnds`, home || '<span class="empty">no Lnds</span>', ctx, side.home.length) +
    zone("domain", domKey, `${name} Domain: ${side.domain.length} Enhs`, domain || '<span class="empty">no Enhs</span>', ctx, side.domain.length);
  // a phone in a fight: Home, Domain, piles and the backs of the Hand fold to one line of
  // counts (tap to open it), so that both Fields are on the screen together; never while a
  // card there is a part of the decision (a Lnd to pay with, an Enh to aim at)
  const foldable = ctx.fight && !zones.includes('role="button"');
  const fold = ctx.fight && `${p}:${ctx.fight.split(":")[0]}`; // a fight's turn
  const open = !foldable || unfolded.has(fold);
  const toggle = foldable
    ? `<button type="button" class="btn small lands-toggle" data-fold="${fold}" aria-expanded="${open}">` +
      `<span class="sr-only">${esc(name)} </span>Home ${side.home.length} · Domain ${side.domain.length} · Hand ${side.hand_count} · Draw ${side.draw_count}` +
      `<span aria-hidden="true">${open ? "▴" : "▾"}</span></button>`
    : "";
  const lands = `<div class="side-row lands-row${open ? "" : " folded"}">${toggle}${backs}${piles}${zones}</div>`;
  const fieldRow = `<div class="side-row field-row">${plate(side, p, ctx)}` +
    zone("field", null, `${name} Field: ${side.field.length} Cres`, field || '<span class="empty">no Cres</span>', ctx, side.field.length) + "</div>";
  let hand;
  if (mine && side.hand) {
    const cards = side.hand.map((c) => {
      const key = `h:${c}`;
      const cost = ctx.costs && ctx.costs[c];
      const costBadge = cost ? `<span class="badge cost" title="Cost: ${esc(cost)}">${esc(cost)}</span>` : "";
      // a card with no legal action stays focusable, so that keyboards hear why not
      const whyNot = ctx.whyNot && ctx.whyNot[key];
      const focus = whyNot && !ctx.marks.selectable.has(key) ? ' tabindex="0" role="button" data-why="1"' : interactive(key, ctx.marks);
      const why = whyNot ? `; cannot be used now: ${esc(whyNot)}` : "";
      if (!focus.includes('role="button"')) {
        return `<div class="hcard ${markClasses(key, ctx.marks)}" data-key="${esc(key)}"${focus} aria-label="${esc(cardName(c))}, in your Hand${cost ? `, costs ${esc(cost)}` : ""}${why}">${cardSVG(c)}${costBadge}</div>`;
      }
      // a button is named by its content, not an aria-label: the cost printed on the card is
      // then a part of its name, as a speech user reads it (axe: label-content-name-mismatch)
      return `<div class="hcard ${markClasses(key, ctx.marks)}" data-key="${esc(key)}"${focus}>` +
        `<span class="sr-only">${esc(cardName(c))}, in your Hand${cost ? ", costs " : ""}</span>${cardSVG(c)}${costBadge}` +
        `${why ? `<span class="sr-only">${why}</span>` : ""}</div>`;
    }).join("");
    let drawn = "";
    if (v.drawn && v.drawn.length && v.phasing === p) {
      drawn = `<div class="drawn" role="group" aria-label="Drawn cards"><span class="zone-label">drawn</span>` + v.drawn.map((c) => {
        const key = `d:${c}`;
        return `<div class="hcard drawn-card ${markClasses(key, ctx.marks)}" data-key="${esc(key)}"${named(key, ctx.marks, `${cardName(c)}, just drawn`)}${cardSVG(c)}</div>`;
      }).join("") + "</div>";
    }
    hand = `<div class="side-row hand-row">${drawn}<div class="hand${side.hand.length > 8 ? " crowded" : ""}" role="group" aria-label="Your Hand: ${side.hand.length} cards">${cards || '<span class="empty">empty Hand</span>'}</div></div>`;
  } else {
    hand = "";
  }
  return mine ? fieldRow + lands + hand : lands + fieldRow;
}

function trumpsHTML(ctx) {
  const v = ctx.view;
  const stack = v.stack;
  const top = stack.length ? stack[stack.length - 1] : null;
  const cards = stack.slice(-4).map((c, i, arr) => {
    const isTop = i === arr.length - 1;
    const key = c;
    return `<div class="scard${isTop ? " top" : ""} ${isTop ? markClasses(key, ctx.marks) : ""}" data-key="${isTop ? esc(key) : ""}" style="--i:${i}"` +
      `${isTop ? named(key, ctx.marks, `${cardName(face(c))}, top of the Trumps stack`) : ` role="img" aria-label="${esc(cardName(face(c)))}">`}${cardSVG(face(c))}</div>`;
  }).join("");
  const trump = v.trump
    ? `<span class="trump-suit">${suitIcon(v.trump, "big")}<span>${SUIT_NAMES[v.trump]} are trumps</span></span>`
    : `<span class="trump-suit none">No trump suit</span>`;
  const stackRole = ctx.marks.targets.has("T") || ctx.marks.selectable.has("T") ? ' tabindex="0" role="button"' : ' role="group"';
  return `<div class="zone stack ${markClasses("T", ctx.marks)}" data-key="T"${stackRole} aria-label="The Trumps stack: ${stack.length} cards${top ? `, ${esc(cardName(face(top)))} on top` : ""}">` +
    `<span class="zone-label" aria-hidden="true">trumps</span><div class="cards">${cards || '<span class="empty">empty</span>'}</div></div>${trump}`;
}

const PHONE = window.matchMedia("(max-width: 760px)");
const FIGHT_PHASES = ["attack", "block", "split"];
// The folded rows a person opened, by side and fight: the next fight folds them again.
const unfolded = new Set();
let shownFight = null; // the fight last brought on screen
let lastCtx = null;

// A fight's key while attackers are declared, blocked or split (and a phone is showing it),
// else null.
function fightOf(v) {
  if (!PHONE.matches || !(v.combat || FIGHT_PHASES.includes(v.phase))) return null;
  return `${v.turn}:${v.phase}`;
}

// Render the spread. ctx: {view, me, names, marks:{selectable,targets,selected,hinted,paying,payable,spend}}
export function renderTable(ctx) {
  lastCtx = ctx;
  ctx.combat = ctx.view.combat;
  ctx.fight = fightOf(ctx.view);
  const before = REDUCED.matches ? null : cardPlaces();
  document.getElementById("side-opp").innerHTML = sideHTML(1 - ctx.me, ctx);
  document.getElementById("side-me").innerHTML = sideHTML(ctx.me, ctx);
  document.getElementById("trumps").innerHTML = trumpsHTML(ctx);
  document.getElementById("side-opp").parentElement.classList.toggle("fight", !!ctx.fight);
  fitRows();
  glide(before);
  // after the page has drawn its status and decisions too (their height is known then)
  requestAnimationFrame(() => showFight(ctx.fight));
}

// When a fight's decision comes on a phone, the page scrolls to show both Fields (from the
// opponent's) if they are not both on the screen already; once a phase, so a person can
// scroll away from it.
function showFight(fight) {
  if (!fight || fight === shownFight) return;
  shownFight = fight;
  const opp = document.querySelector("#side-opp .field-row");
  const mine = document.querySelector("#side-me .field-row");
  if (!opp || !mine) return;
  const a = opp.getBoundingClientRect();
  const b = mine.getBoundingClientRect();
  if (a.top >= 0 && b.bottom <= window.innerHeight) return;
  window.scrollBy(0, a.top - Math.max(0, (window.innerHeight - (b.bottom - a.top)) / 2));
}

document.addEventListener("click", (ev) => {
  const t = ev.target.closest && ev.target.closest(".lands-toggle");
  if (!t || !lastCtx) return;
  const key = t.dataset.fold;
  if (unfolded.has(key)) unfolded.delete(key);
  else unfolded.add(key);
  renderTable(lastCtx);
  const again = document.querySelector(`.lands-toggle[data-fold="${CSS.escape(key)}"]`);
  if (again) again.focus({ preventScroll: true });
});

// Overlap the cards of a row just enough to keep it on one line (like a fanned hand). A Home
// never overlaps: its taxed Lnds lie sideways and must stay readable (fitHome).
export function fitRows() {
  if (PHONE.matches) return unfitRows(); // a phone wraps its rows (CSS): a card keeps its 44 px
  for (const row of document.querySelectorAll(".zone.home .cards")) fitHome(row);
  for (const row of document.querySelectorAll(".zone.field .cards, .zone.domain .cards, .hand .cards, .hand:not(.backs)")) {
    const kids = [...row.children].filter((k) => !k.classList.contains("empty") && !k.classList.contains("zone-label"));
    kids.forEach((k) => { k.style.marginLeft = ""; });
    if (kids.length < 2) continue;
    const avail = row.clientWidth;
    const used = row.scrollWidth;
    if (used <= avail + 1) continue;
    const step = Math.ceil((used - avail) / (kids.length - 1));
    const gap = parseFloat(getComputedStyle(row).columnGap) || 0;
    kids.slice(1).forEach((k) => { k.style.marginLeft = `${-(step + 2)}px`; });
    if (gap && row.scrollWidth > avail + 1) row.style.columnGap = "0px";
  }
}

// What fitRows did on a wider window, undone.
function unfitRows() {
  for (const row of document.querySelectorAll(".zone .cards, .hand")) {
    ["--cw", "--ch", "--peek", "column-gap"].forEach((v) => row.style.removeProperty(v));
    row.classList.remove("wrap");
    for (const k of row.children) k.style.marginLeft = "";
  }
}

// A crowded Home: smaller cards first (down to 60%), then a second line; never an overlap.
function fitHome(row) {
  ["--cw", "--ch", "--peek", "column-gap"].forEach((v) => row.style.removeProperty(v));
  row.classList.remove("wrap");
  const avail = row.clientWidth;
  if (row.scrollWidth <= avail + 1) return;
  const base = parseFloat(getComputedStyle(row).getPropertyValue("--cw")) || 60;
  const size = (cw) => {
    row.style.setProperty("--cw", `${cw}px`);
    row.style.setProperty("--ch", `${cw * 1.4}px`);
    row.style.setProperty("--peek", `${cw * 0.3}px`);
    return row.scrollWidth <= avail + 1;
  };
  row.style.setProperty("column-gap", "4px");
  for (let cw = Math.floor(base * Math.min(1, avail / row.scrollWidth)) + 2; cw >= base * 0.6; cw -= 2) {
    if (size(cw)) return;
  }
  row.classList.add("wrap");
}

window.addEventListener("resize", () => fitRows());

export function emptyMarks() {
  return { selectable: new Set(), targets: new Set(), selected: null, hinted: new Set(), paying: new Set(), payable: new Set(), spend: [] };
}

export const PHASES = {
  trim: "Recycle down to 7 cards in Hand",
  keep: "Keep one drawn card, or Redraw",
  window1: "First window: play a card or pass",
  attack: "Declare attackers, or don't attack",
  block: "Declare blockers",
  ability_p: "Abilities of the phasing Rlr",
  ability_o: "Abilities of the other Rlr",
  window2: "Second window: play a card or pass",
  split: "Split an attacker's damage among its blockers",
  bonus: "Distribute the bonus points",
  domain_bonus: "Distribute the Domain's bonus points",
  over: "The game is over",
};

// -- cards that move (issue 41: "alive") -------------------------------------------------------
// A card that changes place between two drawings of the table (a Hand card played to the
// Field, a drawn card kept) glides from where it was; a card new to the table (the
// opponent's play) fades in. Web Animations, composited on the card's own transform; none
// under prefers-reduced-motion, and none on the page's first drawing.
const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)");
const CARDS = ".tcard, .hcard, .dcard, .scard.top, .enh";
let moved = 0; // cards animated since the page opened (read by the tests)

const faceOf = (key) => key.replace(/^(?:h|d|\d):/, "");

function cardPlaces() {
  const at = new Map();
  for (const el of document.querySelectorAll(`#side-opp :is(${CARDS}), #side-me :is(${CARDS}), #trumps :is(${CARDS})`)) {
    if (el.dataset.key) at.set(faceOf(el.dataset.key), { key: el.dataset.key, box: el.getBoundingClientRect() });
  }
  return at;
}

function glide(before) {
  if (!before || !before.size) return;
  for (const [face, now] of cardPlaces()) {
    const was = before.get(face);
    if (was && was.key === now.key) continue; // the same card in the same place
    const el = document.querySelector(`[data-key="${CSS.escape(now.key)}"]`);
    if (!el || typeof el.animate !== "function") continue;
    const ease = { duration: 320, easing: "cubic-bezier(.2, .7, .3, 1)" };
    if (was) {
      const dx = was.box.left - now.box.left;
      const dy = was.box.top - now.box.top;
      el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }], { ...ease, composite: "add" });
    } else {
      el.animate([{ opacity: 0, transform: "scale(0.85)" }, { opacity: 1, transform: "none" }], ease);
    }
    moved += 1;
  }
  document.body.dataset.cardsMoved = String(moved);
}
