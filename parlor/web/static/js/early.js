// Before the page paints (a classic script in <head>, not a module): four-colour suits if
// this browser chose them. A file rather than inline script, since the CSP allows no inline script.
try {
  if (localStorage.getItem("pm-four") === "1") document.documentElement.classList.add("four-colour");
} catch (e) { /* private mode: two colours */ }
