// Lesson progress, remembered in this browser (localStorage "pm-learn").
const KEY = "pm-learn";

export function loadProgress() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch (e) { return {}; }
}

export function saveLesson(id, entry) {
  const all = loadProgress();
  all[id] = { ...(all[id] || {}), ...entry };
  try { localStorage.setItem(KEY, JSON.stringify(all)); } catch (e) { /* private mode: not kept */ }
}
