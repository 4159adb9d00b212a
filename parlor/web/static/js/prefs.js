// Site preferences kept in this browser: four-colour suits, sounds, the computer's pace, and
// whether the log shows the game's notation. Each is a checkbox or select with data-pref.
const DEFAULTS = { four: "0", sounds: "1", pace: "0", notation: "0" }; // sounds on: issue 41
const CLASSES = { four: "four-colour", notation: "show-notation" };

export function pref(name) {
  try {
    const v = localStorage.getItem(`pm-${name}`);
    return v === null ? DEFAULTS[name] : v;
  } catch (e) {
    return DEFAULTS[name]; // private mode: the defaults
  }
}

function store(name, value) {
  try { localStorage.setItem(`pm-${name}`, value); } catch (e) { /* private mode: not kept */ }
}

function apply(name) {
  if (CLASSES[name]) document.documentElement.classList.toggle(CLASSES[name], pref(name) === "1");
}

for (const name of Object.keys(CLASSES)) apply(name);
for (const el of document.querySelectorAll("[data-pref]")) {
  const name = el.dataset.pref;
  if (el.type === "checkbox") el.checked = pref(name) === "1";
  else el.value = pref(name);
  el.addEventListener("change", () => {
    store(name, el.type === "checkbox" ? (el.checked ? "1" : "0") : el.value);
    apply(name);
  });
}
