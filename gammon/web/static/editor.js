// The position editor: set up a position by clicking the board or by pasting an ID, set the dice,
// cube and score, then ask the server for the hint, the evaluation and cube decision, or a rollout
// (a background job with a progress bar). The URL (#id=XGID) always links to the position shown.
import { Board } from "./board.js";
import { $, call, clickable, decimal, loadLanguage, percent, showError, signedDecimal, singleClick, t, tLine, tn } from "./common.js";
import { cancelJobOnClick, forgetJob, pollJob, showJobBar } from "./jobs.js";
import { showShareId } from "./share.js";

const START = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0];
const ed = { board: START.slice(), position: null, hints: null, shown: null, job: null, jobFor: null,
             timer: null, asked: 0, starting: false };
window.ed = ed;  // for the browser tests and the console

// ---- the position: the board here, the rest in the form; the server checks and names it ----------
function counts(b) {
  let mine = 0, theirs = 0;
  for (const n of b) { if (n > 0) mine += n; else theirs -= n; }
  return [mine, theirs];
}

function setupBody() {
  const d1 = Number($("#die1").value), d2 = Number($("#die2").value);
  const length = Number($("#match-length").value) || 0;
  return { board: ed.board, dice: d1 && d2 ? [d1, d2] : null, cube_value: Number($("#cube-value").value),
           cube_owner: $("#cube-owner").value, match_length: length,
           score: length ? [Number($("#score-you").value) || 0, Number($("#score-opponent").value) || 0] : [0, 0],
           crawford: length > 0 && $("#crawford").checked, jacoby: !length && $("#jacoby").checked,
           beavers: !length && $("#beavers").checked, double_offered: $("#double-offered").checked };
}

async function ask(request, fill) {  // the latest answer wins: an older one arriving late is dropped
  const n = ++ed.asked;
  try {
    const position = await request;
    if (n === ed.asked) show(position, fill);
  } catch (e) {
    if (n !== ed.asked) return;
    // An ID that does not read leaves the board as it was, and so its position; a board set up
    // here that is no position has none.
    if (!fill) ed.position = null;
    showError(tLine(String(e.message || e)));
    render();
  }
}

// Set up from the board and the form (which stays as the user left it), or read an ID (which fills it).
const setUp = () => ask(call("POST", "/api/positions", setupBody()), false);
// An ID is some 60 characters: a huge paste goes cut (the server's refusal quotes its start), for
// whole it would make an address longer than the server reads ("the server answered HTTP 400").
const load = id => ask(call("GET", "/api/positions?id=" + encodeURIComponent(id.trim().slice(0, 1000))), true);

// The ID that names the whole position, to ask about it and to link to it: its XGID, else (an offer
// to resign, which no XGID holds) its GNU Backgammon ID.
const idOf = p => p.xgid || p.gnubg_id;

function show(p, fill) {
  showError("");
  if (ed.job && ed.jobFor !== idOf(p)) forgetJob(ed);  // a rollout of the position left behind
  ed.position = p; ed.board = p.board.slice(); ed.hints = null; ed.shown = null;
  $("#hints").hidden = true;
  $("#result").textContent = "";
  if (fill) fillForm(p);
  // a double is offered before the roll: the server sets up such a position without the dice
  $("#double-offered").checked = p.double_offered;
  if (p.double_offered) $("#die1").value = $("#die2").value = 0;
  const url = "/editor#id=" + encodeURIComponent(idOf(p));
  history.replaceState(null, "", url);
  $("#position-link").href = url;
  render();
}

// An ID may name a cube past the list's 64 or a match past its 99 points: the list gets it, or it
// would show nothing and the next change would send no cube (refused) or a money game.
function choose(select, value, label) {
  if (![...select.options].some(o => Number(o.value) === value)) select.add(new Option(label, value));
  select.value = value;
}

function fillForm(p) {
  $("#die1").value = p.dice ? p.dice[0] : 0;
  $("#die2").value = p.dice ? p.dice[1] : 0;
  choose($("#cube-value"), p.cube_value, String(p.cube_value));
  $("#cube-owner").value = p.cube_owner;
  choose($("#match-length"), p.match_length,
         tn("Match to {n} point", "Match to {n} points", p.match_length));
  $("#score-you").value = p.score[0];
  $("#score-opponent").value = p.score[1];
  $("#crawford").checked = p.crawford;
  $("#jacoby").checked = p.jacoby;
  $("#beavers").checked = p.beavers;
}

function render() {
  const p = ed.position, money = !(Number($("#match-length").value) > 0);
  for (const id of ["#score-you", "#score-opponent", "#crawford"]) $(id).disabled = money;
  for (const id of ["#jacoby", "#beavers"]) $(id).disabled = !money;
  $("#position-id").textContent = p ? p.position_id : "";
  $("#gnubg-id").textContent = p ? p.gnubg_id : "";
  $("#xgid").textContent = !p ? "" : p.xgid || t("no XGID: it cannot hold the offer to resign");
  showShareId(p ? p.gnubg_id : "");  // "Copy ID", "Copy image": the position's PositionID:MatchID
  $("#description").textContent = p ? `${tLine(p.description)} · ` +
    t("pips {mine} (you) vs {theirs}", { mine: p.pips[0], theirs: p.pips[1] }) : "";
  for (const id of ["#hint", "#eval", "#rollout"]) $(id).disabled = !p || p.game_over;
  const after = ed.shown !== null ? ed.hints.plays[ed.shown] : null;
  const [mine, theirs] = counts(ed.board);
  const board = after ? after.board : ed.board;
  const off = after ? after.off : [15 - mine, 15 - theirs];
  const cube = p && p.match_length && p.crawford ? null
    : { value: Number($("#cube-value").value),
        owner: { centred: null, you: "viewer", opponent: "opponent" }[$("#cube-owner").value] };
  const dice = p && p.dice;
  Board.draw($("#board"), {
    board, off, viewerLight: true, dice, diceLight: true, diceRight: true, diceUsed: after ? [true, true] : null,
    cube, moverIsViewer: true, sources: new Set(), selected: null, dests: new Set(), onClick: place,
    message: after ? t("after {play}", { play: after.play }) : null,
  });
}

function place(target) {
  if (ed.shown !== null) { ed.shown = null; render(); return; }  // back from a hint's board
  const how = document.querySelector("input[name=place]:checked").value;
  if (target !== "bar" && typeof target !== "number") return;
  const b = ed.board.slice(), [mine, theirs] = counts(b);
  // a side has 15 checkers: a click that would add a 16th says so rather than doing nothing
  if ((how === "you" && mine >= 15) || (how === "opponent" && theirs >= 15)) {
    showError(how === "you"
      ? t("You have all 15 checkers on the board: remove one first (or pick \"remove one\" and click it)")
      : t("The opponent has all 15 checkers on the board: remove one first (or pick \"remove one\" and click it)"));
    return;
  }
  if (target === "bar") {
    if (how === "you") b[25] += 1;
    else if (how === "opponent") b[0] -= 1;
    else if (b[25] > 0) b[25] -= 1; else if (b[0] < 0) b[0] += 1;
  } else {
    const p = target;
    if (how === "you") { if (b[p] < 0) b[p] = 0; b[p] += 1; }
    else if (how === "opponent") { if (b[p] > 0) b[p] = 0; b[p] -= 1; }
    else if (b[p] !== 0) b[p] -= Math.sign(b[p]);
  }
  ed.board = b;
  render();
  setUp();
}

// ---- what the engine says -----------------------------------------------------------------------
const pct = x => percent(x, 1);
const signed = (x, n = 3) => signedDecimal(x, n);

function chancesLine(p) {
  return t("win {win} (gammon {gammon}, bg {backgammon}), lose {lose} (gammon {lose_gammon}, bg {lose_backgammon})",
           { win: pct(p.win), gammon: pct(p.win_gammon), backgammon: pct(p.win_backgammon), lose: pct(p.lose),
             lose_gammon: pct(p.lose_gammon), lose_backgammon: pct(p.lose_backgammon) });
}

async function hint() {
  try {
    const h = ed.hints = await call("GET", `/api/positions/hint?n=5&id=${encodeURIComponent(idOf(ed.position))}`);
    const list = $("#hints");
    list.innerHTML = "";
    h.plays.forEach((p, i) => {
      const li = document.createElement("li");
      li.dataset.play = p.play;
      const score = h.unit === "mwc" ? t("MWC {value}", { value: pct(p.score) })
        : t("equity {value}", { value: signed(p.score) });
      li.textContent = `${p.play}  ${score}  ` + t("win {value}", { value: pct(p.probabilities.win) });
      clickable(li, () => { ed.shown = ed.shown === i ? null : i; render(); });
      list.appendChild(li);
    });
    if (!h.plays.length) {
      const li = document.createElement("li");
      li.textContent = t("no legal play: the turn passes");
      list.appendChild(li);
    }
    list.hidden = false;
    showError("");
  } catch (e) { showError(tLine(String(e.message || e))); }
}

function cubeText(c, unit) {
  const action = tLine(c.action);
  if (!c.available) {  // no double the player on roll can make: its equities are null
    const lines = [t("cube action: {action}", { action }),
                   t("cubeful equity{unit}: no double {no_double}", { unit, no_double: signed(c.no_double) })];
    if (c.mwc) lines.push(t("match winning chances: no double {no_double}", { no_double: pct(c.mwc[0]) }));
    return lines;
  }
  const answer = tLine(c.answer);
  const lines = [t("cube action: {action} (if doubled, the opponent should {answer})", { action, answer }),
                 t("cubeful equity{unit}: no double {no_double}, double/take {take}, double/pass {pass}",
                   { unit, no_double: signed(c.no_double), take: signed(c.double_take), pass: signed(c.double_pass) })];
  if (c.mwc) {
    lines.push(t("match winning chances: no double {no_double}, double/take {take}, double/pass {pass}",
                 { no_double: pct(c.mwc[0]), take: pct(c.mwc[1]), pass: pct(c.mwc[2]) }));
  }
  return lines;
}

async function evaluate() {
  try {
    const e = await call("GET", `/api/positions/eval?id=${encodeURIComponent(idOf(ed.position))}`);
    const unit = ed.position.match_length ? " (EMG)" : "";
    $("#result").textContent = [t("Evaluation, {plies} ply, for you (on roll):", { plies: e.plies }),
      chancesLine(e.probabilities),
      t("cubeless equity {value}", { value: signed(e.cubeless_equity) }) +
        (e.mwc !== null ? t(", match winning chances {value}", { value: pct(e.mwc) }) : ""),
      ...cubeText(e.cube, unit)].join("\n");
    showError("");
  } catch (err) { showError(tLine(String(err.message || err))); }
}

// ---- rollouts: a job on the server, polled --------------------------------------------------------
async function rollout() {
  // one job per click: a double click started two, and the first, cancelled, held the worker
  if (ed.starting) return;
  ed.starting = true;
  try {
    const id = idOf(ed.position);
    const job = await call("POST", "/api/positions/rollout", { id, kind: $("#rollout-kind").value,
                                                              trials: Number($("#trials").value) });
    if (!ed.position || idOf(ed.position) !== id) {  // the position changed while it was asked for
      forgetJob({ job });
      return;
    }
    if (ed.job) forgetJob(ed);  // one job at a time: the new rollout replaces the one running
    ed.job = job; ed.jobFor = id;
    $("#result").textContent = "";
    showError("");
    showJob(ed.job);
    poll();
  } catch (e) { showError(tLine(String(e.message || e))); } finally { ed.starting = false; }
}

function poll() {
  return pollJob(ed, showJob, job => { $("#result").textContent = rolloutText(job.result); });
}

function showJob(job) {
  let text = t("{done} of {total} trials", { done: job.done, total: job.total || "?" });
  if (job.detail) {
    const best = job.detail.equity.indexOf(Math.max(...job.detail.equity));
    const se = job.detail.standard_error[best];
    text += t(": equity {value}", { value: signed(job.detail.equity[best], 4) }) + (se !== null ? ` ± ${decimal(se, 4)}` : "");
  }
  showJobBar(job, text);
}

function resultLine(r) {
  const se = r.standard_error !== null ? ` ± ${decimal(r.standard_error, 4)}` : "";
  const equity = r.cubeful ? t("cubeful equity {value}", { value: signed(r.equity, 4) })
    : t("cubeless equity {value}", { value: signed(r.equity, 4) });
  return equity + se + (r.mwc !== null ? t(", MWC {value}", { value: pct(r.mwc) }) : "") +
         `; ${chancesLine(r.probabilities)}`;
}

function rolloutText(res) {
  if (res.kind === "cube") {
    return [t("Cube rollout ({trials} trials, seed {seed}):", { trials: res.no_double.trials, seed: res.no_double.seed }),
            ...cubeText(res.decision, ed.position.match_length ? " (EMG)" : ""),
            t("no double: {line}", { line: resultLine(res.no_double) }),
            t("double/take: {line}", { line: resultLine(res.double_take) })].join("\n");
  }
  if (res.kind === "plays") {
    return [t("Rollout of the best plays ({trials} trials):", { trials: res.plays.length ? res.plays[0].trials : 0 }),
            ...res.plays.map((p, i) => `${i + 1}. ${p.play}: ${resultLine(p)}`)].join("\n");
  }
  return t("Rollout ({trials} trials, seed {seed}), for you (on roll):", { trials: res.trials, seed: res.seed }) +
    `\n${resultLine(res)}`;
}

// ---- start ---------------------------------------------------------------------------------------
(async () => {
  await loadLanguage();
  for (const id of ["#die1", "#die2"]) {
    $(id).add(new Option("–", 0));
    for (let d = 1; d <= 6; d++) $(id).add(new Option(String(d), d));
  }
  for (let v = 1; v <= 64; v *= 2) $("#cube-value").add(new Option(String(v), v));
  // length 0 is a money game: say so, never "Match to 0"
  $("#match-length").add(new Option(t("Money game"), 0));
  for (let n = 1; n <= 99; n++) $("#match-length").add(new Option(tn("Match to {n} point", "Match to {n} points", n), n));
  for (const id of ["#die1", "#die2", "#cube-value", "#cube-owner", "#match-length", "#score-you",
                    "#score-opponent", "#crawford", "#jacoby", "#beavers", "#double-offered"]) {
    $(id).addEventListener("change", () => { render(); setUp(); });
  }
  $("#start-position").addEventListener("click", () => { ed.board = START.slice(); setUp(); });
  $("#clear").addEventListener("click", () => {  // no position: the link and the address name none
    ed.asked += 1;  // an answer still on its way is for the board cleared
    ed.board = new Array(26).fill(0); ed.position = null; ed.hints = null; ed.shown = null;
    if (ed.job) forgetJob(ed);
    $("#hints").hidden = true;
    $("#result").textContent = "";
    history.replaceState(null, "", "/editor");
    $("#position-link").href = "/editor";
    render();
  });
  $("#load-id").addEventListener("click", () => load($("#id-input").value));
  $("#id-input").addEventListener("keydown", ev => { if (ev.key === "Enter") load($("#id-input").value); });
  $("#hint").addEventListener("click", hint);
  $("#eval").addEventListener("click", evaluate);
  singleClick($("#rollout")).addEventListener("click", rollout);
  cancelJobOnClick(ed, showJob);
  window.addEventListener("hashchange", () => {
    const id = new URLSearchParams(location.hash.slice(1)).get("id");
    if (id && (!ed.position || id !== idOf(ed.position))) load(id);
  });
  const id = new URLSearchParams(location.hash.slice(1)).get("id");
  if (id) load(id); else setUp();
})();
