// Cards drawn as SVG, and their names for screen readers. Display only: no rules here.

export const SUIT_NAMES = { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" };
export const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King", T: "10" };
// The card art names each court card's feature ability (rules 707-711), as a printed card would.
const ABILITIES = {
  JC: "Volley", JS: "Volley", KH: "Sally", KC: "Sally · Ally", KS: "Sally",
  JH: "Harry", KD: "Harry", JD: "Harry", QS: "Carry · Ally", QH: "Carry", QD: "Carry",
  QC: "Carry",
};

export function face(text) {
  // "2:KS" -> "KS"; "KS" -> "KS"
  const i = text.indexOf(":");
  return i < 0 ? text : text.slice(i + 1);
}

export function owner(text) {
  const i = text.indexOf(":");
  return i < 0 ? null : Number(text.slice(0, i));
}

export function parts(text) {
  const f = face(text);
  let rank = f.slice(0, -1);
  if (rank === "T") rank = "10";
  return { rank, suit: f.slice(-1) };
}

export function kind(text) {
  const { rank } = parts(text);
  if ("AJQK".includes(rank)) return "Cre";
  return Number(rank) >= 7 ? "Lnd" : "Enh";
}

export function cardName(text) {
  const { rank, suit } = parts(text);
  return `${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[suit] || suit}`;
}

const PIPS = {
  2: [[50, 30], [50, 110]],
  3: [[50, 30], [50, 70], [50, 110]],
  4: [[30, 30], [70, 30], [30, 110], [70, 110]],
  5: [[30, 30], [70, 30], [50, 70], [30, 110], [70, 110]],
  6: [[30, 30], [70, 30], [30, 70], [70, 70], [30, 110], [70, 110]],
  7: [[30, 30], [70, 30], [50, 50], [30, 70], [70, 70], [30, 110], [70, 110]],
  8: [[30, 30], [70, 30], [50, 50], [30, 70], [70, 70], [50, 90], [30, 110], [70, 110]],
  9: [[30, 28], [70, 28], [30, 56], [70, 56], [50, 70], [30, 84], [70, 84], [30, 112], [70, 112]],
  10: [[30, 28], [70, 28], [50, 43], [30, 56], [70, 56], [30, 84], [70, 84], [50, 97], [30, 112],
    [70, 112]],
};

function pip(suit, x, y, size) {
  const flip = y > 72 ? ` transform="rotate(180 ${x} ${y})"` : "";
  return `<use href="#suit-${suit}" class="s-${suit}" x="${x - size / 2}" y="${y - size / 2}" ` +
    `width="${size}" height="${size}"${flip}/>`;
}

function index(rank, suit) {
  const fs = rank === "10" ? 17 : 21;
  return `<text x="11" y="23" class="idx s-${suit}" font-size="${fs}" text-anchor="middle">${rank}</text>` +
    `<use href="#suit-${suit}" class="s-${suit}" x="4" y="27" width="14" height="14"/>`;
}

const KIND_LABEL = { Cre: "Cre", Lnd: "Lnd", Enh: "Enh" };
const COURT_STATS = { A: "1/1", J: "1/2", Q: "2/2", K: "2/3" };

// A face-up card as an SVG string (viewBox 100 x 140).
export function cardSVG(text, opts = {}) {
  const { rank, suit } = parts(text);
  const k = kind(text);
  let body = "";
  if (k === "Cre") {
    if (rank === "A") {
      body = pip(suit, 50, 66, 46);
    } else {
      body = `<rect x="19" y="20" width="62" height="92" rx="5" class="court court-${suit}"/>` +
        `<text x="50" y="70" class="court-letter s-${suit}" font-size="44" text-anchor="middle">${rank}</text>` +
        `<use href="#suit-${suit}" class="s-${suit}" x="38" y="77" width="24" height="24"/>`;
    }
    const ability = ABILITIES[rank + suit];
    if (ability) {
      body += `<text x="50" y="127" class="ability" font-size="10.5" text-anchor="middle">${ability}</text>`;
    } else {
      body += `<text x="50" y="127" class="ability" font-size="10.5" text-anchor="middle">${COURT_STATS[rank]}</text>`;
    }
  } else {
    const size = Number(rank) >= 9 ? 17 : 19;
    body = PIPS[rank].map(([x, y]) => pip(suit, x, y, size)).join("");
  }
  const idx = index(rank, suit);
  const idx2 = `<g transform="rotate(180 50 70)">${idx}</g>`;
  const band = `<rect x="0" y="0" width="100" height="140" rx="9" class="frame frame-${k}"/>`;
  const label = `<text x="89" y="16" class="kind kind-${k}" font-size="10" text-anchor="middle">${KIND_LABEL[k]}</text>`;
  return `<svg class="card-svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="98" height="138" rx="8" class="paper"/>${band}${body}${idx}${idx2}` +
    `${opts.noKind ? "" : label}</svg>`;
}

export function backSVG() {
  return `<svg class="card-svg" viewBox="0 0 100 140" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="98" height="138" rx="8" class="paper"/>` +
    `<rect x="7" y="7" width="86" height="126" rx="5" fill="url(#back-lattice)"/>` +
    `<rect x="7" y="7" width="86" height="126" rx="5" class="back-rim"/></svg>`;
}
