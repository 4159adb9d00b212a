// The home page: a fan of cards, and loading a record file into the import box.
import { cardSVG } from "./cards.js";

const fan = document.getElementById("fan");
if (fan) {
  fan.innerHTML = ["KS", "QH", "9D", "4C", "AS"].map((c, i) =>
    `<span class="fan-card" style="--r:${(i - 2) * 9}deg">${cardSVG(c)}</span>`).join("");
}
const file = document.getElementById("record-file");
const area = document.getElementById("record");
if (file && area) {
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (f) area.value = await f.text();
  });
}

// A refused import comes back to this page: the pasted record is kept until it is accepted.
if (area) {
  try {
    const kept = sessionStorage.getItem("pm-import");
    if (kept && !area.value) area.value = kept;
    area.form.addEventListener("submit", () => sessionStorage.setItem("pm-import", area.value));
    if (!document.referrer.includes("/import")) sessionStorage.removeItem("pm-import");
  } catch (e) { /* private mode: not kept */ }
}

// The chosen level's one-line description, under the list.
const level = document.getElementById("level");
const levelDesc = document.getElementById("level-desc");
if (level && levelDesc) {
  level.addEventListener("change", () => {
    levelDesc.textContent = level.selectedOptions[0]?.dataset.desc || "";
  });
}
