// A lesson on the real table: game.js drives the table; this module sends the moves to the
// lesson API with the moves accepted so far (kept in localStorage) and shows the steps.
import { hooks } from "./hooks.js";
import { loadProgress, saveLesson } from "./progress.js";
import { richText } from "./text.js";

const app = document.getElementById("app");
const lessonId = app.dataset.lesson;
const stepEl = document.getElementById("lesson-step");
const feedbackEl = document.getElementById("lesson-feedback");
const nextEl = document.getElementById("lesson-next");
const overNext = document.getElementById("over-next");
let moves = [];

async function post(body) {
  const r = await fetch(`/api/lessons/${lessonId}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  return { ok: r.ok, status: r.status, body: data };
}

hooks.transport = {
  async act(action) {
    const r = await post({ moves, action });
    if (r.ok) {
      moves = r.body.moves;
      saveLesson(lessonId, r.body.lesson.finished ? { moves, done: true } : { moves });
    }
    return r;
  },
};

hooks.onRefusal = (body) => {
  feedbackEl.innerHTML = body && body.lesson_why
    ? `<strong>Not quite.</strong> ${richText(body.lesson_why)}${body.rule_says ? ` <span class="small muted">(The rules: ${richText(body.rule_says)})</span>` : ""} Try again.`
    : "";
};

hooks.outcome = (s) => (s.lesson && s.lesson.finished ? "Lesson complete!" : null);

hooks.onSnapshot = (s) => {
  const L = s.lesson;
  if (!L) return;
  feedbackEl.textContent = "";
  if (L.finished) {
    stepEl.innerHTML = `<p><strong>Well done.</strong> ${richText(L.done)}</p>`;
    document.getElementById("over-result").innerHTML = richText(L.done);
    saveLesson(lessonId, { done: true, moves: s.moves });
  } else {
    stepEl.innerHTML = `<p class="small muted">Step ${L.step + 1} of ${L.steps}</p><p>${richText(L.say)}</p>`;
  }
  const href = L.next ? `/learn/${L.next.id}` : "/learn";
  nextEl.href = href;
  overNext.href = href;
  overNext.textContent = L.next ? `Next: ${L.next.title}` : "Back to the lessons";
  nextEl.hidden = !L.finished;
};

document.getElementById("lesson-restart").addEventListener("click", () => {
  saveLesson(lessonId, { moves: [] });
  window.location.reload();
});

// resume where this browser left the lesson, then let game.js draw the table
const saved = (loadProgress()[lessonId] || {}).moves || [];
const boot = document.getElementById("snapshot");
if (saved.length) {
  const r = await post({ moves: saved });
  if (r.ok) {
    moves = r.body.moves;
    boot.textContent = JSON.stringify(r.body);
  } else {
    saveLesson(lessonId, { moves: [] });
  }
}
await import("./game.js");
