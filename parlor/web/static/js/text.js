// Text helpers: escaping, rule links, glossary tooltips and action descriptions.
import { cardName, face, owner } from "./cards.js";

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export const GLOSSARY = {
  Rlr: "Ruler: one of the two players",
  Lnd: "Land (a 7 to 10): taxed for one point of mnr of its suit",
  Enh: "Enhancement (a 2 to 6): played on a card, a Domain or the Trumps stack; ranks, trumps and expels",
  Cre: "Creature (an A, J, Q or K): attacks and blocks",
  mnr: "Manor: the mana of Parlor Magic, one point per taxed Lnd, of the Lnd's suit",
};

// Escape, then link rule citations (R13, (1102.2), 903.4) and mark the game's abbreviations.
export function richText(text, opts = {}) {
  let s = esc(text);
  s = s.replace(/\b(R\d{1,2})\b/g, '<a class="rule-link" href="/rules#$1" target="_blank" rel="noopener">$1</a>');
  s = s.replace(/(\(|, |\b(?:rule|rules) )(\d{3,4}(?:\.\d+)?)(?=[),])/g,
    '$1<a class="rule-link" href="/rules#r$2" target="_blank" rel="noopener">$2</a>');
  if (opts.terms !== false) {
    s = s.replace(/\b(Rlr|Lnd|Enh|Cre|[Mm]nr)(s?)\b/g, (m, w, pl) => {
      const tip = GLOSSARY[w.toLowerCase() === "mnr" ? "mnr" : w];
      return `<abbr class="term" title="${esc(tip)}">${w}${pl}</abbr>`;
    });
  }
  return s;
}

export function ruleHref(rule) {
  if (!rule) return null;
  return /^R\d+$/.test(rule) ? `/rules#${rule}` : `/rules#r${rule}`;
}

function whose(ref, me) {
  if (ref === "T") return "the Trumps stack";
  if (/^D[12]$/.test(ref)) return Number(ref[1]) - 1 === me ? "your Domain" : "the computer's Domain";
  const o = owner(ref);
  const name = face(ref);
  if (o === null) return name;
  return (o - 1 === me ? "your " : "the computer's ") + name;
}

// An action in the game's notation, as a short English phrase for buttons and hints.
export function describe(action, me = 0) {
  const w = action.split(/\s+/);
  const v = w[0];
  const pay = action.includes(" tax ") || action.includes(" spend ") ? " (paying by hand)" : "";
  switch (v) {
    case "pass": return "Pass";
    case "done": return "Done";
    case "end": return "Don't attack (end the turn)";
    case "resign": return "Resign";
    case "trim": return `Recycle ${w[1]} (keep 7 in Hand)`;
    case "keep": return `Keep ${w[1]}`;
    case "redraw": return w[1] ? `Redraw, recycling ${w[1]}` : "Redraw";
    case "play":
      if (w[2] === "on") return `Play ${w[1]} on ${whose(w[3], me)}${pay}`;
      return `Play ${w[1]}${pay}`;
    case "expel": return `Expel ${whose(w[3], me)} with ${w[1]}${pay}`;
    case "attack": return `Attack with ${w[1]}`;
    case "block": return `Block ${whose(w[2], me)} with ${w[1]}`;
    case "volley": return `${w[1]} Volleys ${whose(w[2], me)}`;
    case "sally": return `${w[1]} Sallies (+1 Pwr)`;
    case "harry": return `${w[1]} Harries (+1 Tgh)`;
    case "ally": return `${w[1]} Allies: tax ${whose(w[2], me)}`;
    case "carry": return `${w[1]} Carries ${whose(w[2], me)}`;
    case "assign": return `1 damage to ${whose(w[1], me)}`;
    case "bonus": return `1 bonus point to ${whose(w[1], me)}`;
    default: return action;
  }
}

export function longName(ref) {
  return cardName(face(ref));
}
