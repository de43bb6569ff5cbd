// The drill page: the signed-in player's own marked decisions, due by spaced repetition (the
// server schedules them as `gammon drill` does). A due card's position is drawn; the player picks
// the play among the legal ones, or the cube action; the engine's ranking answers and the card is
// rescheduled. Everything the server sends is shown as text.
import { $, call, showError } from "./common.js";
import { drawDecision } from "./profile.js";

const fmt = (x, digits = 3) => Number(x).toFixed(digits);
const CUBE = { double: ["double", "no double"], take: ["take", "pass"] };
const drill = { card: null, busy: false };

function progressText(p) {
  const done = p.reviews ? ` · ${p.reviews} review${p.reviews === 1 ? "" : "s"}, ${Math.round(100 * p.accuracy)}% right`
    : "";
  const next = !p.due && p.next_due ? ` · the next one is due ${new Date(p.next_due).toLocaleString()}` : "";
  return `${p.due} due of ${p.cards} card${p.cards === 1 ? "" : "s"}${done}${next}`;
}

function question(card) {
  const d = card.decision;
  if (card.asks_for === "play") return `You to play ${d.dice[0]}-${d.dice[1]}: which play?`;
  if (card.asks_for === "take") return `${card.names[1]} doubles: take or pass?`;
  return "Your turn to roll: double or not?";
}

function context(card) {
  const d = card.decision;
  const score = d.match_length ? `score ${d.score[0]}-${d.score[1]} in a match to ${d.match_length}` : "money game";
  return `Against ${card.names[1]}, game ${d.game}: ${score}.`;
}

// The board after a play of the review (the answer's first; a click on a ranked play shows it).
function showAfter(r, play) {
  const d = drill.card.decision;
  drawDecision($("#board"), { ...d, ...r.boards[play], dice: null }, `after ${play}`);
  for (const tr of $("#drill-ranking").rows) tr.classList.toggle("shown", tr.cells[1].textContent === play);
}

async function load() {
  showError("");
  let deck;
  try { deck = await call("GET", "/api/account/drill"); } catch (e) {
    $("#drill-signed-out").hidden = false;
    return;
  }
  $("#drill-panel").hidden = false;
  $("#drill-review").hidden = true;
  $("#drill-progress").textContent = progressText(deck.progress);
  drill.card = deck.card;
  $("#drill-card").hidden = $("#drill-board").hidden = !deck.card;
  if (!deck.card) {
    if (!deck.progress.cards) {
      $("#drill-progress").textContent = "No cards yet: they come from the marked decisions of your analysed " +
        "matches (play signed in, or add match files on the account page).";
    }
    return;
  }
  const card = deck.card;
  drawDecision($("#board"), card.decision);
  $("#drill-question").textContent = question(card);
  $("#drill-context").textContent = context(card);
  $("#drill-play").hidden = card.asks_for !== "play";
  $("#drill-cube").hidden = card.asks_for === "play";
  const plays = $("#drill-plays");
  plays.replaceChildren(...card.plays.map(p => new Option(p, p)));
  const cube = $("#drill-cube");
  cube.replaceChildren();
  for (const choice of CUBE[card.asks_for] || []) {
    const b = document.createElement("button");
    b.type = "button"; b.dataset.answer = choice; b.textContent = choice[0].toUpperCase() + choice.slice(1);
    b.addEventListener("click", () => answer(choice));
    cube.append(b);
  }
}

async function answer(text) {
  if (!drill.card || drill.busy || !text) return;
  drill.busy = true;
  try {
    const r = await call("POST", `/api/account/drill/${drill.card.id}/review`, { answer: text });
    showReview(r);
  } catch (e) { showError(String(e.message || e)); } finally { drill.busy = false; }
}

function showReview(r) {
  $("#drill-card").hidden = true;
  $("#drill-review").hidden = false;
  const result = $("#drill-result");
  const lost = r.error === null ? "not among the plays the analysis ranked" : `it loses ${fmt(r.error)} EMG`;
  result.textContent = r.right ? (r.error > 0.001 ? `Close: ${r.answer}, ${lost}. Best: ${r.best}.` : `Right: ${r.answer}.`)
    : `${r.answer}: ${lost}. Best: ${r.best}.`;
  result.className = r.right ? "right" : "wrong";
  const table = $("#drill-ranking");
  table.replaceChildren();
  const head = table.insertRow();
  for (const h of ["#", "choice", "equity", "error"]) {
    const th = document.createElement("th"); th.textContent = h; head.append(th);
  }
  r.ranking.forEach((c, i) => {
    const tr = table.insertRow();
    if (c.choice === r.answer) tr.className = "played";
    for (const v of [i + 1, c.choice, fmt(c.equity), i ? `-${fmt(c.error)}` : ""]) {
      const td = tr.insertCell(); td.textContent = v;
    }
    if (r.boards[c.choice]) tr.addEventListener("click", () => showAfter(r, c.choice));
  });
  if (r.boards[r.answer]) showAfter(r, r.answer);
  $("#drill-played").textContent = `In the match you chose ${r.played} (-${fmt(r.played_error)} EMG, ${r.mark}). ` +
    `This card is due again ${new Date(r.due).toLocaleString()}.`;
  $("#drill-progress").textContent = progressText(r.progress);
}

$("#drill-answer").addEventListener("click", () => answer($("#drill-plays").value));
$("#drill-plays").addEventListener("dblclick", () => answer($("#drill-plays").value));
$("#drill-next").addEventListener("click", () => load());
window.drill = drill;  // for the browser tests and the console
load().catch(e => showError(String(e.message || e)));
