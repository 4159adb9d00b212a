// The Learn page: marks the lessons done or started in this browser.
import { loadProgress } from "./progress.js";

const progress = loadProgress();
let firstOpen = null;
for (const li of document.querySelectorAll("#lesson-list li[data-lesson]")) {
  const id = li.dataset.lesson;
  const p = progress[id];
  const mark = li.querySelector(".lesson-state");
  if (p && p.done) {
    mark.textContent = "✓ done";
    li.classList.add("done");
  } else {
    if (p && p.moves && p.moves.length) mark.textContent = "started";
    if (!firstOpen) firstOpen = li;
  }
}
const start = document.getElementById("learn-start");
if (start && firstOpen && firstOpen !== document.querySelector("#lesson-list li")) {
  start.href = firstOpen.querySelector("a").getAttribute("href");
  start.textContent = "Continue with the next lesson";
}
