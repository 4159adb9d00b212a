// The game page's controller: turns clicks and keys into decisions. Every decision offered
// comes from the snapshot's legal actions (moves.js); the server judges everything. The
// state lives in state.js, the drawing in page.js and controls.js, the requests in
// requests.js.
import { cardName, face, kind } from "./cards.js";
import { wireCoachSetting } from "./coach.js";
import { renderOptions } from "./controls.js";
import { hooks } from "./hooks.js";
import { actionsFor, legal, marks, me, moveOf } from "./moves.js";
import { app, applySnapshot, hintEl, render, say, showOver } from "./page.js";
import { askHint, declare, poll, send, takeBack } from "./requests.js";
import {
  askRedraw, clearChoice, dropStaged, endPay, offer, select, setHint, setOverShown, setPointer,
  start, startPay, startRedraw, state, toggleSpend, toggleTax, wantFocus,
} from "./state.js";
import { PHASES } from "./table.js";

// The declarations the server previews before they are final (Games.preview): attackers
// (R8), blockers (R10), a split (1003.2), bonus points.
const DECLARATIONS = ["attack", "block", "assign", "bonus"];

start(JSON.parse(document.getElementById("snapshot").textContent));

const cardOf = (key) => cardName(face(key.replace(/^[hd]:/, "")));

function needsPayment(a) {
  return state.payByHand && (a.verb === "play" || a.verb === "expel") && kind(a.card) !== "Lnd";
}

function perform(a) {
  if (DECLARATIONS.includes(a.verb) && !hooks.transport) return declare(a.text);
  if (needsPayment(a)) {
    startPay(a);
    say("Choose the Lnds to tax and any pool points to spend (click them, or Tab to them and press Space), then Pay and play (Enter).");
    return render();
  }
  return send(a.text);
}

// Several moves for one click (e.g. an Enh on a card or an expel of it): the player picks one.
function choose(moves) {
  offer(moves);
  renderOptions(moves);
}

function pickPayment(key) {
  const side = state.snap.view.sides[me()];
  if (key.startsWith("pool:")) {
    const s = key.slice(5);
    toggleSpend(s, side.pool["CDHS".indexOf(s)]);
  } else if (key.startsWith(`${me() + 1}:`)) {
    const f = face(key);
    if (side.home.find((tc) => tc.ref === key && !tc.taxed_on)) toggleTax(f);
    else say(`${cardName(f)} cannot be taxed for this payment: choose your untaxed Lnds.`, "error");
  }
  render();
  if (state.pointerPay) {
    const payBtn = document.querySelector('#controls [data-act="pay-confirm"]');
    if (payBtn) payBtn.focus();
  }
}

function clickKey(key) {
  if (state.busy || state.snap.status !== "live") return null;
  if (!state.snap.your_turn) return say(`Wait: it is ${hooks.opponent ? `${hooks.opponent}'s` : "the computer's"} decision.`, "info");
  if (state.pay) return pickPayment(key);
  const selected = state.selected;
  if (selected && key !== selected) {
    const opts = actionsFor(selected).filter((a) => a.target === key);
    if (opts.length === 1) return perform(opts[0]);
    if (opts.length > 1) return choose(opts);
  }
  const direct = legal().filter((a) => !a.actor && a.target === key);
  if (direct.length === 1 && !selected) return perform(direct[0]);
  if (direct.length > 1 && !selected) return choose(direct);
  const own = actionsFor(key);
  if (own.length) {
    if (selected === key) {
      select(null);
      return render();
    }
    if (state.redrawMode || (own.length === 1 && !own[0].target)) return perform(own[0]);
    select(key);
    say(`${cardOf(key)} selected: click a highlighted target, or choose below.`);
    return render();
  }
  if (hooks.transport && selected && selected.startsWith("h:") && onStack(key)) {
    // a lesson explains a wrong stack move (its step's own words): the server judges it
    return send(`play ${face(selected.slice(2))} on T`);
  }
  const name = key.startsWith("pool:") ? "That mnr" : cardOf(key);
  const whyNot = state.snap.why_not && state.snap.why_not[key];
  return say(whyNot ? `Why not? ${whyNot}.` : `${name}: no legal action with it now. ${PHASES[state.snap.view.phase] || ""}.`, "error");
}

// The Trumps stack, or the card on its top.
function onStack(key) {
  const stack = state.snap.view.stack;
  return key === "T" || (stack.length > 0 && key === stack[stack.length - 1]);
}

function payConfirm() {
  const pay = state.pay;
  if (!pay) return null;
  if (!pay.lnds.size && !pay.spend.length) {
    return say("Choose Lnds to tax or pool points to spend, or untick “Choose Lnds to pay”.", "error");
  }
  let text = pay.move.text;
  if (pay.lnds.size) text += ` tax ${[...pay.lnds].join(" ")}`;
  if (pay.spend.length) text += ` spend ${pay.spend.join("")}`;
  endPay();
  return send(text);
}

function clickAct(act) {
  switch (act) {
    case "pass": case "done": case "end": return send(act);
    case "redraw":
      askRedraw(true);
      say("Redraw ends your turn. Confirm, or Cancel.");
      render();
      return document.querySelector('#controls [data-act="redraw-confirm"]')?.focus();
    case "redraw-confirm": askRedraw(false); return send("redraw");
    case "redraw-mode":
      startRedraw();
      say("Choose the Hand card to recycle with the drawn cards. Redraw ends your turn.");
      return render();
    case "cancel":
      if (state.staged.length && !state.selected && !state.options) {
        dropStaged();
        say("Declarations taken back: nothing was sent.", "info");
      } else {
        say("");
      }
      clearChoice();
      wantFocus();
      return render();
    case "pay-confirm": return payConfirm();
    case "hint": return askHint();
    case "takeback": return takeBack();
    case "show-over": setOverShown(false); return showOver();
    default: return null;
  }
}

app.addEventListener("click", (ev) => {
  if (hooks.past && hooks.past.active()) return null; // an earlier position: nothing to decide on it
  const t = ev.target;
  setPointer(ev.detail > 0); // a real click (keyboard activation has detail 0)
  if (t.closest("a, summary, input, label, dialog, form")) return null;
  const b = t.closest("[data-action]");
  if (b) {
    offer(null);
    return perform(moveOf(b.dataset.action));
  }
  const act = t.closest("[data-act]");
  if (act) {
    if (act.dataset.act === "close-hint") { setHint(null); hintEl.hidden = true; return render(); }
    if (act.dataset.act === "close-combat") { document.getElementById("combat").hidden = true; wantFocus(); return render(); }
    return clickAct(act.dataset.act);
  }
  const key = keyAt(t);
  return key ? clickKey(key) : null;
});

// The table key a click on `el` means. A card inside a zone (the Trumps stack's top card) has
// its own key, but when the zone is the target and the card is not, the click on the card is
// a click on the zone: the player clicked where the table glows.
function keyAt(el) {
  const m = marks();
  const keys = [];
  for (let k = el.closest("[data-key]"); k; k = k.parentElement && k.parentElement.closest("[data-key]")) {
    if (k.dataset.key) keys.push(k.dataset.key);
  }
  const live = (key) => m.targets.has(key) || m.selectable.has(key) || m.payable.has(key);
  return keys.find(live) || keys[0] || null;
}

app.addEventListener("focusin", (ev) => {
  // focusing a card with no legal action says why not (from the engine, via the snapshot)
  const el = ev.target.closest && ev.target.closest('[data-key][data-why]');
  const why = el && state.snap.why_not && state.snap.why_not[el.dataset.key];
  if (why) say(`Why not? ${why}.`, "error");
});

app.addEventListener("keydown", (ev) => {
  if (ev.key === "Tab" && tabToTarget(ev)) return;
  if ((ev.key === "Enter" || ev.key === " ") && ev.target.matches("[data-key][role=button]")) {
    ev.preventDefault();
    ev.stopPropagation(); // the key picked this card: it must not also pay or pass
    setPointer(false);
    // while paying, Enter is what the "Pay and play" button says it is; Space picks a Lnd
    if (ev.key === "Enter" && state.pay) return clickAct("pay-confirm");
    clickKey(ev.target.dataset.key);
  }
  return null;
});

// After a card is selected its targets come next in the Tab order, wherever they lie on the
// table (the Hand is drawn last, the opponent's Cres first): Tab from the selected card, or
// from one target, goes to the next target; past the last one Tab goes on as usual.
// Shift+Tab keeps the page's order, so that going back always reaches every control.
function tabToTarget(ev) {
  if (!state.selected || ev.shiftKey || ev.altKey || ev.ctrlKey || ev.metaKey) return false;
  const targets = [...app.querySelectorAll("[role=button].target")];
  const chain = [app.querySelector("[role=button].selected"), ...targets].filter(Boolean);
  const at = chain.indexOf(ev.target);
  const next = at < 0 ? null : chain[at + 1];
  if (!next) return false;
  ev.preventDefault();
  next.focus();
  return true;
}

document.addEventListener("keydown", (ev) => {
  const typing = ev.target.matches("input:not([type=checkbox]):not([type=radio]), textarea, select");
  if (typing || ev.ctrlKey || ev.metaKey || ev.altKey) return null;
  if (hooks.past && hooks.past.active()) return null; // the move list's keys, not a decision's
  const k = ev.key.toLowerCase();
  const has = (text) => legal().some((a) => a.text === text);
  if (k === "escape") return clickAct("cancel");
  if (!state.snap.your_turn) return null;
  if (k === "enter" && state.pay && !ev.target.closest("button, a, summary")) { ev.preventDefault(); return clickAct("pay-confirm"); }
  if (k === "p" && has("pass")) return send("pass");
  if (k === "d" && has("done")) return send("done");
  if (k === "e" && has("end")) return send("end");
  if (k === "r" && has("redraw")) return clickAct("redraw");
  if (k === "r" && legal().some((a) => a.verb === "redraw")) return clickAct("redraw-mode");
  if (k === "h" && hooks.hints) return askHint();
  if (k === "u" && state.snap.takeback) return takeBack();
  return null;
});

const resignBtn = document.getElementById("resign");
if (resignBtn) {
  resignBtn.addEventListener("click", () => {
    if (state.snap.status === "live" && window.confirm("Resign this game? The computer wins.")) send("resign");
  });
}
document.getElementById("over-close").addEventListener("click", () => document.getElementById("over").close());

wireCoachSetting(state.snap.level, () => render());

// for tests and the curious: the current snapshot (the player's own view only)
// moves(): the decisions made on this page, sent or declared (a test waits on it)
window.parlor = { snapshot: () => state.snap, send, moves: () => state.snap.version + state.staged.length, staged: () => [...state.staged] };

applySnapshot(state.snap, { fromAction: true });
poll();
