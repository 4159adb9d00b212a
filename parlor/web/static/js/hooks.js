// Hooks through which other pages (the lessons) reuse the game page's controller, game.js.
// A page sets them before importing game.js; the game page leaves them empty.
export const hooks = {
  transport: null, // {act(action, version, logFrom) -> Promise<{ok, status, body}>}: no polling
  onSnapshot: null, // (snapshot) after each render
  onRefusal: null, // (body) when the server refuses a move
  outcome: null, // (snapshot) -> the words for the end of the game
  opponent: null, // the other side's name ("Rlr 2" across a friend); default: the computer
  overLabel: null, // the over button's words (a puzzle's own); default: the lesson's or the game's
  hints: true, // the computer's advice is offered (never between two people: the server refuses it)
  past: null, // the move list (movelist.js): {active(), render(), changed(snapshot)} while it shows an earlier position
};
