// A puzzle on the real table: game.js drives the table (clicks, touch, keys); this module
// sends the solver's moves to the puzzle API with the moves accepted so far, and shows the
// goal, the result, the explanation of a wrong move, the hints and the solution step by step.
// The server judges every move by replaying the puzzle's line: the page never decides a result.
import { hooks } from "./hooks.js";
import { applySnapshot } from "./page.js";
import { myPuzzleRating, nextHref, saveRating } from "./puzzle-rating.js";
import { esc, richText } from "./text.js";

const app = document.getElementById("app");
const puzzleId = app.dataset.puzzle;
const signedIn = app.dataset.signedIn === "yes";
const $ = (id) => document.getElementById(id);
const statusEl = $("puzzle-status");
const feedbackEl = $("puzzle-feedback");
const hintBox = $("puzzle-hint");
const solutionEl = $("puzzle-solution");
const showBtn = $("puzzle-show");
const stepBtn = $("puzzle-step");
const hintBtn = $("puzzle-hint-btn");
const overDlg = $("over");
let moves = [];
let hintLevel = 0;
let step = null; // the solution's step shown, once it is shown
let steps = 0;
let over = false;
let found = 0; // the solver's moves found so far

const player = () => (signedIn ? {} : { player: myPuzzleRating() });

async function post(path, body) {
  const r = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  return { ok: r.ok, status: r.status, body: data };
}

hooks.hints = false; // the computer's advice: no; the puzzle's own hints: H
hooks.overLabel = "Puzzle over…";
hooks.transport = {
  async act(action) {
    const r = await post(`/api/puzzles/${puzzleId}`, { moves, action, ...player() });
    if (r.ok) moves = r.body.moves;
    return r;
  },
};

hooks.onRefusal = (body) => {
  feedbackEl.textContent = body && body.error === "illegal" ? "The rules refuse that move: try another." : "";
};

const OUTCOME = { solved: "Puzzle solved!", failed: "Not the solution", solution: "The solution" };
hooks.outcome = (s) => (s.puzzle && OUTCOME[s.puzzle.result]) || null;

function showRating(rated) {
  if (!rated) return;
  if (!signedIn) saveRating({ ...myPuzzleRating(), ...rated.player });
  $("my-rating").textContent = String(Math.round(rated.player.rating));
  setNext(); // near the new rating
  $("puzzle-rating").textContent = String(Math.round(rated.puzzle.rating));
}

function explanation(P) {
  if (!P.explanation.length) return "";
  return `<p>What happens after your move:</p><ol class="puzzle-explain">${P.explanation.map((x) => `<li>${richText(x)}</li>`).join("")}</ol>`;
}

function themes(P) {
  return P.themes && P.themes.length ? `<p class="small muted">Themes: ${P.themes.map(esc).join(", ")}</p>` : "";
}

function showStatus(s) {
  const P = s.puzzle;
  $("puzzle-count").textContent = P.to_find > 1 ? `(${P.found} of ${P.to_find} moves found)` : "";
  if (P.result === "solved") {
    statusEl.innerHTML = `<p class="solved">Solved!</p>${themes(P)}`;
  } else if (P.result === "failed") {
    statusEl.innerHTML = `<p class="failed">Not the solution.</p>${explanation(P)}${themes(P)}`;
  } else if (P.result !== "solution") {
    statusEl.innerHTML = P.found ? "<p>Right. Keep going: find the next move.</p>" : "<p>Your move: find the line that reaches the goal.</p>";
  }
}

function showSolutionStep(s) {
  const S = s.puzzle.solution;
  steps = S.steps;
  const said = S.said.length ? `<ul>${S.said.map((x) => `<li>${richText(x)}</li>`).join("")}</ul>` : "";
  const who = S.step === 0 ? "The position." : `${S.by === "you" ? "Your move" : "The computer's reply"}${S.move ? `: <code>${esc(S.move)}</code>` : ""}.`;
  solutionEl.hidden = false;
  solutionEl.innerHTML = `<p><strong>Solution, step ${S.step} of ${S.steps}.</strong> ${who}</p>${said}`;
  stepBtn.hidden = S.step >= S.steps;
  showBtn.hidden = true;
}

hooks.onSnapshot = (s) => {
  const P = s.puzzle;
  if (!P) return;
  feedbackEl.textContent = "";
  over = s.status === "over";
  showRating(P.rated);
  if (P.result === "solution") {
    showSolutionStep(s);
    statusEl.innerHTML = '<p class="failed">Not the solution.</p><p class="small">Here is the line, one decision at a time.</p>';
  } else {
    showStatus(s);
  }
  if (P.found !== found && hintLevel === 2) { // a new move to find: its card may be asked
    hintLevel = 1;
    hintBtn.disabled = false;
  }
  found = P.found;
  hintBtn.hidden = over;
  if (over) hintBox.hidden = true; // the themes are said with the result
  showBtn.hidden = !(P.result === "failed") || step !== null;
  $("over-solution").hidden = P.result !== "failed" || step !== null;
  if (P.result === "failed") $("over-result").innerHTML = `${esc(s.result_text)}${explanation(P)}`;
  if (P.result === "solved") $("over-result").innerHTML = `${esc(s.result_text)}${themes(P)}`;
};

async function showSolution(k) {
  if (overDlg.open) overDlg.close();
  step = k;
  const r = await post(`/api/puzzles/${puzzleId}/solution`, { step: k, ...player() });
  if (!r.ok) {
    feedbackEl.textContent = (r.body && r.body.message) || "The solution cannot be shown now.";
    return;
  }
  applySnapshot(r.body, { fromAction: true });
  stepBtn.focus();
  if (stepBtn.hidden) $("puzzle-next").focus();
}

async function hint() {
  if (over || hintLevel >= 2) return;
  hintLevel += 1;
  const r = await post(`/api/puzzles/${puzzleId}/hint`, { moves, level: hintLevel });
  hintBox.hidden = false;
  hintBox.insertAdjacentHTML("beforeend", r.ok ? `<p><strong>Hint ${hintLevel}:</strong> ${richText(r.body.text)}</p>`
    : `<p>${esc((r.body && r.body.message) || "No hint now.")}</p>`);
  hintBtn.innerHTML = hintLevel < 2 ? "Another hint <kbd>H</kbd>" : "Hint <kbd>H</kbd>";
  hintBtn.disabled = hintLevel >= 2;
}

hintBtn.addEventListener("click", hint);
showBtn.addEventListener("click", () => showSolution(0));
$("over-solution").addEventListener("click", () => showSolution(0));
stepBtn.addEventListener("click", () => showSolution(Math.min(steps, (step || 0) + 1)));
$("puzzle-restart").addEventListener("click", () => window.location.reload());
document.addEventListener("keydown", (ev) => {
  const typing = ev.target.matches("input, textarea, select");
  if (typing || ev.ctrlKey || ev.metaKey || ev.altKey || ev.key.toLowerCase() !== "h") return;
  hint();
});

function setNext() {
  const next = nextHref(signedIn, puzzleId);
  $("puzzle-next").href = next;
  $("over-next").href = next;
}

setNext();
if (!signedIn) $("my-rating").textContent = String(Math.round(myPuzzleRating().rating));
await import("./game.js");
