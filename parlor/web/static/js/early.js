// Loaded in <head> before the page paints (a file, not an inline script, for the CSP):
// the colour preferences, so the table is never drawn first in the wrong colours.
try {
  if (localStorage.getItem("pm-four") === "1") document.documentElement.classList.add("four-colour");
  if (localStorage.getItem("pm-notation") === "1") document.documentElement.classList.add("show-notation");
} catch (e) { /* private mode: the defaults */ }
