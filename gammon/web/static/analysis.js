// The analysis page: a .mat, SGF or .xg file (or, at /analysis/<match>#token=...&game=N, a match of this server)
// analysed by the server in the background; a progress bar while it runs, then each player's
// statistics, the chart of winning chances and the marked decisions, each shown on the board.
import { Board } from "./board.js";
import { $, call, clickable, cubeActionWord, decimal, loadLanguage, pageLink, percent, showError, singleClick, t, tLine,
  tn } from "./common.js";
import { cancelJobOnClick, forgetJob, pollJob, showJobBar } from "./jobs.js";
import { showShareId } from "./share.js";

const study = { job: null, result: null, decision: null, shown: null, timer: null, seen: [], starting: false };
window.study = study;  // for the browser tests and the console
const language = loadLanguage().then(() => {  // the page's words; a job's text waits for them
  // the default depth's option is written out here: tests read its markup as it stands
  $('#plies option[value="2"]').textContent = t("2 ply (as the terminal)");
});

// ---- the job: start, poll, cancel ----------------------------------------------------------------
async function start(body) {
  await language;
  showError("");
  // a new file replaces the one under way, which would hold the worker and keep the new one waiting
  if (study.job) forgetJob(study);
  $("#report").hidden = $("#decision").hidden = $("#decision-board").hidden = true;
  try {
    study.job = await call("POST", "/api/analyses", body);
    showJob(study.job);
    poll();
  } catch (e) { showError(tLine(String(e.message || e))); }
}

function poll() {
  return pollJob(study, showJob, job => { study.result = job.result; showReport(job.result); });
}

function showJob(job) {
  showJobBar(job, job.total ? t("analysing: {done} of {total} actions", { done: job.done, total: job.total })
    : t("reading the file..."));
  study.seen.push({ status: job.status, done: job.done, total: job.total,  // what the bar showed
                    text: $("#progress-text").textContent });
}

// ---- the report ----------------------------------------------------------------------------------
const fixed = (x, n) => (x === null || x === undefined ? "" : decimal(Number(x), n));

function showReport(res) {
  const kind = res.match_length ? tn("{n}-point match", "{n}-point match", res.match_length) : t("money session");
  $("#title").textContent = t("{first} vs {second}: {kind}, analysed at {plies} ply",
                              { first: res.names[0], second: res.names[1], kind, plies: res.plies });
  const rows = [
    ["", p => p.name],
    [t("Moves (unforced)"), p => `${p.checker.moves} (${p.checker.unforced})`],
    [t("Moves marked doubtful / bad / very bad"),
     p => `${p.checker.marked.doubtful} / ${p.checker.marked.bad} / ${p.checker.marked["very bad"]}`],
    [t("Checker play error rate (mEMG)"), p => fixed(p.checker.error_rate, 1)],
    [t("Cube decisions (close or actual)"), p => `${p.cube.total} (${p.cube.decisions})`],
    [t("Cube error rate (mEMG)"), p => fixed(p.cube.error_rate, 1)],
    [t("Luck rate (mEMG)"), p => fixed(p.luck.rate, 1)],
    [t("Overall error rate (mEMG)"), p => fixed(p.overall.error_rate, 1)],
    [t("Performance rating (PR)"), p => fixed(p.overall.pr, 1)],
  ];
  const table = $("#stats");
  table.innerHTML = "";
  rows.forEach(([label, f], i) => {
    const tr = table.insertRow();
    for (const text of [label, f(res.players[0]), f(res.players[1])]) {
      const cell = document.createElement(i ? "td" : "th");
      cell.textContent = text;
      tr.appendChild(cell);
    }
  });
  $("#chart-title").textContent = res.match_length ? t("Match winning chances") : t("Chances to win the game");
  $("#chart").innerHTML = res.chart;  // the server's SVG (names escaped there)
  const list = $("#marked");
  list.innerHTML = "";
  const marked = res.decisions.map((d, i) => [d, i]).filter(([d]) => d.mark);
  $("#marked-count").textContent = marked.length;
  for (const [d, i] of marked) {
    const li = document.createElement("li");
    li.dataset.index = i;
    li.className = "mark-" + d.mark.replace(" ", "-");
    li.textContent = describe(d, res);
    clickable(li, () => showDecision(i));
    list.appendChild(li);
  }
  $("#report").hidden = false;
}

function errorText(d, res) {
  const cost = res.match_length ? `${percent(d.cost, 2)} MWC` : t("{points} pts", { points: decimal(d.cost, 3) });
  return t("error {error} ({cost}), {mark}", { error: decimal(d.error, 3), cost, mark: t(d.mark) });
}

// Where a decision is: the game and the move as the match file numbers them (`3) 32: 7/4 6/4`).
function describe(d, res) {
  const where = { game: d.game, move: d.move, name: d.name, error: errorText(d, res) };
  if (d.kind === "move") {
    return t("Game {game}, move {move}: {name} {dice}: played {played}, best {best}; {error}",
             { ...where, dice: `${d.dice[0]}${d.dice[1]}`, played: d.played, best: d.best });
  }
  return t("Game {game}, move {move}: {name}: {action}, right: {best}; {error}",
           { ...where, action: cubeActionWord(d.action), best: cubeActionWord(d.best) });
}

// ---- one decision on the board -------------------------------------------------------------------
function showDecision(index) {
  const d = study.result.decisions[index];
  study.decision = index;
  study.shown = d.kind === "move" ? d.alternatives.findIndex(a => a.played) : -1;
  for (const li of document.querySelectorAll("#marked li")) {
    const current = Number(li.dataset.index) === index;
    li.classList.toggle("current", current);
    if (current) li.setAttribute("aria-current", "true"); else li.removeAttribute("aria-current");
  }
  $("#decision").hidden = $("#decision-board").hidden = false;
  $("#decision-title").textContent = describe(d, study.result);
  $("#decision-ids").innerHTML = "";
  const code = document.createElement("code");
  code.textContent = d.gnubg_id;
  $("#decision-ids").append(t("GNU Backgammon ID") + " ", code, " · ");
  const link = document.createElement("a");
  link.href = "/editor#id=" + encodeURIComponent(d.gnubg_id);
  link.textContent = t("open in the editor");
  $("#decision-ids").append(link);
  showShareId(d.gnubg_id);  // "Copy ID", "Copy image": the decision shown
  renderDecision();
  // the board and its alternatives come below the report: bring them into view
  $("#decision-board").scrollIntoView({ block: "start", behavior: "instant" });
}

// The board before the play (-1) or after alternative `i`; the rows are drawn again, and the one
// chosen with the keyboard keeps its focus.
function showAlternative(i) {
  const focused = document.activeElement && document.activeElement.closest("#alternatives");
  study.shown = i;
  renderDecision();
  if (focused) $(`#alternatives tr[data-row="${i}"]`).focus();
}

function renderDecision() {
  const d = study.result.decisions[study.decision];
  const table = $("#alternatives");
  table.innerHTML = "";
  if (d.kind === "move") {
    $("#decision-text").textContent = d.legal_plays > 1
      ? tn("{n} legal play; equities in EMG for {name}. Click a play to see the board after it.",
           "{n} legal plays; equities in EMG for {name}. Click a play to see the board after it.",
           d.legal_plays, { name: d.name })
      : t("A forced play.");
    const head = table.insertRow();
    for (const h of ["#", t("play"), t("equity"), t("diff"), t("win"), t("ply")]) head.insertCell().textContent = h;
    const before = table.insertRow();
    before.insertCell().textContent = "";
    before.insertCell().textContent = t("(before the play)");
    before.classList.toggle("shown", study.shown === -1);
    before.dataset.row = "-1";
    clickable(before, () => showAlternative(-1));
    const best = d.alternatives.length ? d.alternatives[0].equity : 0;
    d.alternatives.forEach((a, i) => {
      const tr = table.insertRow();
      tr.dataset.play = a.play;
      tr.classList.toggle("played", a.played);
      tr.classList.toggle("shown", study.shown === i);
      for (const text of [i + 1, a.play + (a.played ? "  " + t("(played)") : ""), fixed(a.equity, 3),
                          i ? fixed(a.equity - best, 3) : "", percent(a.probabilities[0], 1), a.plies]) {
        tr.insertCell().textContent = text;
      }
      tr.dataset.row = String(i);
      clickable(tr, () => showAlternative(i));
    });
  } else {
    const e = d.equities;
    $("#decision-text").textContent = t("{name}: {action}; the right action: {best}. Cubeful equities (EMG) from " +
      "the doubler's side, and each one's difference to the right action's:",
                                        { name: d.name, action: cubeActionWord(d.action), best: cubeActionWord(d.best) });
    const head = table.insertRow();
    for (const h of ["", t("cube action"), t("equity"), t("diff")]) head.insertCell().textContent = h;
    const best = Math.max(e.no_double, Math.min(e.double_take, e.double_pass));
    for (const [label, value] of [["No double", e.no_double], ["Double, take", e.double_take],
                                  ["Double, pass", e.double_pass]]) {
      const tr = table.insertRow();
      tr.dataset.action = label;
      for (const text of ["", t(label), fixed(value, 3), fixed(value - best, 3)]) tr.insertCell().textContent = text;
    }
  }
  const alt = study.shown >= 0 ? d.alternatives[study.shown] : null;
  const light = d.player === 0;
  const cube = d.match_length && d.crawford ? null
    : { value: d.cube, owner: d.cube_owner === null ? null : d.cube_owner === "you" ? "viewer" : "opponent" };
  Board.draw($("#board"), {
    board: alt ? alt.board : d.board, off: alt ? alt.off : d.off, viewerLight: light, dice: d.dice,
    diceLight: light, diceRight: true, diceUsed: alt ? [true, true] : null, cube, moverIsViewer: true,
    sources: new Set(), selected: null, dests: new Set(), onClick: () => {},
  });
}

function base64(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {  // in pieces: one call per byte would overflow
    text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
}

// ---- start ---------------------------------------------------------------------------------------
(() => {
  singleClick($("#analyse"));
  $("#upload").addEventListener("submit", async ev => {
    ev.preventDefault();
    const file = $("#mat-file").files[0];
    if (!file) { await language; showError(t("Choose a .mat, .sgf or .xg file first.")); return; }
    // one job per click: a double click started two (the second refused at the limit, or left running)
    if (study.starting) return;
    study.starting = true;
    try {
      const plies = Number($("#plies").value);
      if (/\.xg$/i.test(file.name)) {  // eXtreme Gammon's binary files travel in base64
        await start({ xg: base64(new Uint8Array(await file.arrayBuffer())), plies });
        return;
      }
      const kind = /\.sgf$/i.test(file.name) ? "sgf" : "mat";  // .mat, and .txt as the sites name it
      await start({ [kind]: await file.text(), plies });
    } finally { study.starting = false; }
  });
  cancelJobOnClick(study, showJob);
  const { id, params } = pageLink("analysis");
  if (id && params.get("token")) {
    // without a depth in the link: 2 ply, the server's and the terminal's default
    const body = { match_id: id, token: params.get("token"), plies: Number(params.get("plies") || 2) };
    if (params.get("game")) body.game = Number(params.get("game"));
    start(body);
  }
})();
