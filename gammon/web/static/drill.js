// The drill page: the signed-in player's own marked decisions, due by spaced repetition (the
// server schedules them as `gammon drill` does). A due card's position is drawn; the player picks
// the play among the legal ones, or the cube action; the engine's ranking answers and the card is
// rescheduled. Everything the server sends is shown as text.
import { $, call, csrfToken, dateTime, decimal, loadLanguage, percent, showError, t, tLine, tn } from "./common.js";
import { drawDecision } from "./profile.js";

const fmt = (x, digits = 3) => decimal(Number(x), digits);
const CUBE = { double: ["double", "no double"], take: ["take", "pass"] };
const CUBE_BUTTONS = { double: () => t("Double"), "no double": () => t("No double"), take: () => t("Take"),
                       pass: () => t("Pass") };
const drill = { card: null, busy: false };

function progressText(p) {
  const parts = [tn("{due} due of {n} card", "{due} due of {n} cards", p.cards, { due: p.due })];
  if (p.reviews) {
    parts.push(tn("{n} review, {pct} right", "{n} reviews, {pct} right", p.reviews, { pct: percent(p.accuracy, 0) }));
  }
  if (!p.due && p.next_due) parts.push(t("the next one is due {when}", { when: dateTime(p.next_due) }));
  return parts.join(" · ");
}

function question(card) {
  const d = card.decision;
  if (card.asks_for === "play") return t("You to play {dice}: which play?", { dice: `${d.dice[0]}-${d.dice[1]}` });
  if (card.asks_for === "take") return t("{name} doubles: take or pass?", { name: card.names[1] });
  return t("Your turn to roll: double or not?");
}

function context(card) {
  const d = card.decision;
  const score = d.match_length ? t("score {score} in a match to {length}", { score: `${d.score[0]}-${d.score[1]}`,
                                                                            length: d.match_length }) : t("money game");
  return t("Against {name}, game {game}: {score}.", { name: card.names[1], game: d.game, score });
}

// The board after a play of the review (the answer's first; a click on a ranked play shows it).
function showAfter(r, play) {
  const d = drill.card.decision;
  drawDecision($("#board"), { ...d, ...r.boards[play], dice: null }, t("after {play}", { play: tLine(play) }));
  for (const tr of $("#drill-ranking").rows) tr.classList.toggle("shown", tr.dataset.choice === play);
}

async function load() {
  showError("");
  let deck;
  // signed out (no CSRF cookie): not asked, as its 401 is an error in the browser's console
  try { deck = csrfToken() ? await call("GET", "/api/account/drill") : null; } catch (e) { deck = null; }
  if (deck === null) {
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
      $("#drill-progress").textContent = t("No cards yet: they come from the marked decisions of your analysed " +
        "matches (play signed in, or add match files on the account page).");
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
    b.type = "button"; b.dataset.answer = choice; b.textContent = CUBE_BUTTONS[choice]();
    b.addEventListener("click", () => answer(choice));
    cube.append(b);
  }
}

async function answer(text) {
  if (!drill.card || drill.busy) return;
  if (!text) { showError(t("Choose a play first.")); return; }  // the list starts with none chosen
  showError("");
  drill.busy = true;
  try {
    const r = await call("POST", `/api/account/drill/${drill.card.id}/review`, { answer: text });
    showReview(r);
  } catch (e) { showError(tLine(String(e.message || e))); } finally { drill.busy = false; }
}

function showReview(r) {
  $("#drill-card").hidden = true;
  $("#drill-review").hidden = false;
  const result = $("#drill-result");
  const lost = r.error === null ? t("not among the plays the analysis ranked")
    : t("it loses {error} EMG", { error: fmt(r.error) });
  const given = tLine(r.answer), best = tLine(r.best);
  result.textContent = r.right ? (r.error > 0.001 ? t("Close: {answer}, {lost}. Best: {best}.", { answer: given, lost, best })
    : t("Right: {answer}.", { answer: given })) : t("{answer}: {lost}. Best: {best}.", { answer: given, lost, best });
  result.className = r.right ? "right" : "wrong";
  const table = $("#drill-ranking");
  table.replaceChildren();
  const head = table.insertRow();
  for (const h of ["#", t("choice"), t("equity"), t("error")]) {
    const th = document.createElement("th"); th.textContent = h; head.append(th);
  }
  r.ranking.forEach((c, i) => {
    const tr = table.insertRow();
    if (c.choice === r.answer) tr.className = "played";
    tr.dataset.choice = c.choice;
    for (const v of [i + 1, tLine(c.choice), fmt(c.equity), i ? `-${fmt(c.error)}` : ""]) {
      const td = tr.insertCell(); td.textContent = v;
    }
    if (r.boards[c.choice]) tr.addEventListener("click", () => showAfter(r, c.choice));
  });
  if (r.boards[r.answer]) showAfter(r, r.answer);
  $("#drill-played").textContent = t("In the match you chose {played} (-{error} EMG, {mark}). This card is due again {when}.",
    { played: tLine(r.played), error: fmt(r.played_error), mark: tLine(r.mark), when: dateTime(r.due) });
  $("#drill-progress").textContent = progressText(r.progress);
}

$("#drill-answer").addEventListener("click", () => answer($("#drill-plays").value));
$("#drill-plays").addEventListener("dblclick", () => answer($("#drill-plays").value));
$("#drill-next").addEventListener("click", () => load());
window.drill = drill;  // for the browser tests and the console
loadLanguage().then(load).catch(e => showError(String(e.message || e)));
