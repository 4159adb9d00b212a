// The puzzles' index: "play a puzzle near my rating" carries this browser's rating.
import { myPuzzleRating, nextHref } from "./puzzle-rating.js";

const signedIn = document.getElementById("puzzles").dataset.signedIn === "yes";
const link = document.getElementById("puzzles-next");
const params = new URLSearchParams(window.location.search);
const filters = new URLSearchParams();
for (const k of ["theme", "goal"]) if (params.get(k)) filters.set(k, params.get(k));
link.href = nextHref(signedIn, "", filters.toString());
if (!signedIn) document.getElementById("my-rating").textContent = String(Math.round(myPuzzleRating().rating));
