// An anonymous player's puzzle rating, kept in this browser (localStorage "pm-puzzles"): the
// Glicko-2 rating, deviation and volatility the server last sent, and a random id of this
// browser's own, with which the server counts a result on a puzzle once. A signed-in player's
// rating is the account's, kept on the server.
const KEY = "pm-puzzles";

function fresh() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  const id = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { id, rating: 1500, rd: 350, volatility: 0.06 };
}

export function myPuzzleRating() {
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { kept = null; }
  if (!kept || typeof kept.id !== "string" || typeof kept.rating !== "number") {
    kept = fresh();
    saveRating(kept);
  }
  return kept;
}

export function saveRating(r) {
  try { localStorage.setItem(KEY, JSON.stringify(r)); } catch (e) { /* private mode: not kept */ }
}

// Where "next puzzle" goes: near this rating, skipping the puzzles this browser has tried.
export function nextHref(signedIn, after, search = "") {
  const q = new URLSearchParams(search);
  if (!signedIn) {
    const me = myPuzzleRating();
    q.set("rating", String(Math.round(me.rating)));
    q.set("player", me.id);
  }
  if (after) q.set("after", after);
  const text = q.toString();
  return `/puzzles${text ? `?${text}` : ""}`;
}
