// Site preferences kept in this browser: four-colour suits.
const box = document.getElementById("four-colour");
if (box) {
  box.checked = document.documentElement.classList.contains("four-colour");
  box.addEventListener("change", () => {
    document.documentElement.classList.toggle("four-colour", box.checked);
    try { localStorage.setItem("pm-four", box.checked ? "1" : "0"); } catch (e) { /* private mode */ }
  });
}
