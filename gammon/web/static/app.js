// The browser client: a lobby to start a match, then the board kept in sync over a WebSocket.
// The server is the authority; the client only offers the steps of the legal plays it was sent.
import { Board } from "./board.js";
import { cubeHintLines } from "./cubehint.js";
import { isGameHeader } from "./logwords.js";
import { $, answerError, call, clickable, csrfToken, cubeInPlay, loadLanguage, matchInfo, outcomeText, pageLink, percent, reach,
  showError, signedDecimal, signedPercent, singleClick, t, tLine, tn } from "./common.js";
import { openedSeat, rememberSeat } from "./seats.js";
import { showShareId } from "./share.js";
import { liveSocket, sendJson } from "./socket.js";
import { dropTutorWarning, setupTutor, showTutorSetting, tutorAllows } from "./tutor.js";

const ui = { state: null, partial: [], chunks: [], selected: null, ws: null, token: null, matchId: null,
             retry: 0, replay: null, claimTimer: null, anim: null, shownPlay: null, myTurn: undefined,
             audio: null, account: null, acted: null, letGo: false, refused: false };
const STEP_MS = 450;  // a checker of the other side's play moves every STEP_MS, then the play rests

// ---- lobby ---------------------------------------------------------------------------------------
function startLobby() {
  $("#lobby").hidden = false;
  const given = new URLSearchParams(location.search);  // "New match" comes back set as the last one
  const mode = $(`input[name=mode][value="${CSS.escape(given.get("mode") || "")}"]`);
  if (mode) mode.checked = true;
  const length = $("select[name=match_length]");
  const wanted = given.get("match_length");
  if ([...length.options].some(o => o.value === wanted)) length.value = wanted;
  for (const name of ["name", "opponent_name"]) $(`input[name=${name}]`).value = given.get(name) || "";
  for (const o of length.options) if (o.value !== "0") o.textContent = tn("{n} point", "{n} points", Number(o.value));
  // A level the player chose before the server's levels came stays chosen (the list used to be
  // rebuilt on the default, the strongest: a beginner's quick pick became the engine).
  const select = $("select[name=level]");
  let picked = false;
  select.addEventListener("change", () => { picked = true; });
  fetch("/api/levels").then(r => r.json()).then(levels => {
    const names = { random: t("Random (beginner)"), pubeval: t("Pubeval (intermediate)"),
                    "engine-0ply": t("Engine, fast"), engine: t("Engine (strongest)") };
    const chosen = picked && levels.includes(select.value) ? select.value
      : levels.includes(given.get("level")) ? given.get("level")
      : levels.includes("engine") ? "engine" : select.value;
    select.innerHTML = "";
    for (const l of levels) select.add(new Option(names[l] || l, l, false, l === chosen));
  }).catch(() => {});
  const form = $("#new-match");
  form.addEventListener("change", () => showLobbyOptions(form));
  showLobbyOptions(form);
  // a rated match is made signed in: the account's name, once known, enables the choice (signed out,
  // no CSRF cookie: not asked, as its 401 is an error in the browser's console on every visit)
  if (csrfToken()) call("GET", "/api/account").then(me => { ui.account = me.name; showLobbyOptions(form); }).catch(() => {});
  // One match per click: a double click on Start made two, one of them never opened. The button
  // stays off while the page leaves, and comes back on when the browser shows it again (Back).
  const startButton = singleClick($("#start"));
  window.addEventListener("pageshow", () => { startButton.disabled = false; });
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    if (startButton.disabled) return;
    const f = new FormData(form), body = { mode: f.get("mode"), match_length: Number(f.get("match_length")) };
    // only what applies to the chosen mode and length; the server's defaults stand for the rest
    const applies = name => { const box = form.elements[name].closest("[data-for]"); return !box || !box.hidden; };
    if (applies("level")) body.level = f.get("level");
    for (const rule of ["crawford", "jacoby", "beavers"]) {
      if (applies(rule)) body[rule] = form.elements[rule].checked;
    }
    if (applies("cube_limit") && f.get("cube_limit")) body.cube_limit = Number(f.get("cube_limit"));
    if (applies("rated") && !form.elements.rated.disabled && form.elements.rated.checked) body.rated = true;
    for (const name of ["name", "opponent_name"]) {
      if (applies(name) && f.get(name).trim()) body[name] = f.get(name);
    }
    startButton.disabled = true;
    try {
      const data = await call("POST", "/api/matches", body);
      if (data.invite_url) localStorage.setItem("invite:" + data.match_id, data.invite_url);
      location.href = data.url;
    } catch (e) {
      $("#lobby-error").textContent = String(e.message || e);
      startButton.disabled = false;
    }
  });
}

// The lobby shows only the options of the chosen opponent and length (data-for: the modes and
// lengths an element is for; with none of a kind, it is for all of that kind).
function showLobbyOptions(form) {
  const mode = form.elements.mode.value, length = Number(form.elements.match_length.value);
  const lengths = { money: length === 0, match: length > 0, "long-match": length > 1, cube: length !== 1,
                    "no-cube": length === 1 };
  for (const el of form.querySelectorAll("[data-for]")) {
    const words = el.dataset.for.split(" ");
    const modes = words.filter(w => !(w in lengths)), kinds = words.filter(w => w in lengths);
    el.hidden = (modes.length > 0 && !modes.includes(mode)) || (kinds.length > 0 && !kinds.some(k => lengths[k]));
  }
  form.elements.name.placeholder = mode === "computer" ? t("You") : t("White");
  // rated: only a match to a length, made signed in; the label's title says why it is not offered
  const why = !ui.account ? t("Sign in (Account) to play a rated match")
    : length === 0 ? t("Only a match to a length is rated") : "";
  form.elements.rated.disabled = why !== "";
  if (why) form.elements.rated.checked = false;
  $("#rated-label").title = why;
}

// ---- live game ----------------------------------------------------------------------------------
function startGame(matchId, token) {
  ui.matchId = matchId; ui.token = token;
  rememberSeat(matchId, token);  // signing in takes the guest's games into the account
  openedSeat(matchId);  // the lobby lists it no more
  $("#game").hidden = false;
  const invite = localStorage.getItem("invite:" + matchId);
  if (invite) { $("#invite").hidden = false; $("#invite-url").value = invite; }
  for (const which of ["invite", "watch"]) {
    $(`#copy-${which}`).addEventListener("click", () => {
      const box = $(`#${which}-url`);
      box.select(); if (navigator.clipboard) navigator.clipboard.writeText(box.value).catch(() => {});
    });
  }
  // A double click on Done or Roll: the server's answer may come between its clicks and put another
  // button (the other side's Roll, in a local game) under the second. The button rows take one.
  for (const row of ["#buttons", "#buttons2"]) singleClick($(row));
  for (const b of document.querySelectorAll("button[data-action]")) {
    b.addEventListener("click", () => {
      const action = b.dataset.action;
      if (action === "abandon" && !confirm(t("Leave the game? Leaving loses a backgammon."))) return;
      if (action === "resign" && !confirm(t("Resign {what}? The other side may accept or refuse.",
                                                                { what: t(KINDS[$("#resign-kind").value]) }))) return;
      if (action === "claim" && !confirm(claimQuestion(ui.state))) return;
      const msg = { action };
      if (action === "resign") msg.kind = Number($("#resign-kind").value);
      send(msg);
    });
  }
  // A rated seat claimed through another server process is not pushed to this page: coming back to
  // it (from the account page, where signing in claims the seat) asks the server again.
  const recheck = () => {
    if (document.visibilityState === "visible" && ui.state && unheldRatedSeat(ui.state)) api("").then(setState).catch(() => {});
  };
  window.addEventListener("focus", recheck);
  document.addEventListener("visibilitychange", recheck);
  $('button[data-local="done"]').addEventListener("click", submitPlay);
  $('button[data-local="hint"]').addEventListener("click", showHints);
  $("#hints-more").addEventListener("click", () => {
    const all = $("#hints").classList.toggle("all");
    $("#hints-more").textContent = all ? t("fewer") : tn("{n} more", "{n} more", $("#hints li.more").length);
  });
  $('button[data-local="replay"]').addEventListener("click", () => startReplay());
  $("#replay-game").addEventListener("change", ev => startReplay(Number(ev.target.value)));
  for (const b of document.querySelectorAll("button[data-replay]")) {
    b.addEventListener("click", () => stepReplay(b.dataset.replay));
  }
  $("#download-mat").addEventListener("click", ev => { ev.preventDefault(); downloadMat(); });
  ui.flip = !!localStorage.getItem("gammon-flip");
  $("#flip").checked = ui.flip;
  $("#flip").addEventListener("change", ev => setFlip(ev.target.checked));
  $('button[data-local="undo"]').addEventListener("click", undoStep);
  setupTutor();
  $('button[data-local="new-match"]').addEventListener("click", () => {  // the lobby, set as for this one
    const st = ui.state;
    // The server's default names stay out of the form: given, they would be kept as chosen names,
    // in English, where the next match would otherwise show them in the page's language.
    const defaults = st.mode === "computer" ? ["You", null] : ["White", "Black"];
    // the form's own name is this seat's: the invited friend's page offers their name, not the host's
    const me = st.seat === null ? 0 : st.seat, them = 1 - me;
    const same = { mode: st.mode, match_length: st.match_length };
    if (st.names[me] !== defaults[me]) same.name = st.names[me];
    if (st.level) same.level = st.level; else if (st.names[them] !== defaults[them]) same.opponent_name = st.names[them];
    location.href = "/?" + new URLSearchParams(same);
  });
  // browsers start sound only after a gesture: open the audio for the turn chime on the first one
  document.addEventListener("pointerdown", () => {
    try { ui.audio = ui.audio || new AudioContext(); } catch (e) { /* no audio: the title says it */ }
  }, { once: true });
  connect();
}

// An online seat's link is its key: a seat connected in another browser is taken over only when the
// user says so here, and the other browser is then told (the server's close codes).
const SEAT_IN_USE = 4409, TAKEN_OVER = 4410;

function tabId() {  // this tab's name for itself, kept over a reload: the same browser is not asked
  let id = sessionStorage.getItem("gammon-tab");
  if (!id) { id = Math.random().toString(36).slice(2, 12); sessionStorage.setItem("gammon-tab", id); }
  return id;
}

function connect(takeover = false) {
  const path = `/ws/matches/${ui.matchId}?steps=true&tab=${tabId()}` + (takeover ? "&takeover=true" : "");
  liveSocket(ui, path, `token.${ui.token}`, {
    stopCodes: [4403, 4404, SEAT_IN_USE, TAKEN_OVER], maxRetry: 5,  // retrying cannot help
    on: {
      open: () => {
        ui.acted = null; showError(""); $("#offline").hidden = true; ui.firstState = true;
        if (ui.queued) { const msg = ui.queued; ui.queued = null; ui.acted = msg.version; sendJson(ui.ws, msg); }
      },
      state: st => {
        if (ui.firstState) ui.guestSocket = unheldRatedSeat(st);  // opened before an account held the seat
        ui.firstState = false;
        setState(st);
      },
      error: text => { ui.acted = null; showError(tLine(text)); render(); },
      lost: () => { $("#offline").hidden = false; },  // at once: a move made now would not reach the server
      stop: code => {
        if (code === SEAT_IN_USE) {
          if (confirm(t("This seat is in use in another browser - take it over here?"))) { connect(true); return; }
          letGo(t("This seat is in use in another browser: reload this page to take it over here."));
        } else if (code === TAKEN_OVER) {
          letGo(t("This seat was taken over in another browser: reload this page to take it back."));
        }
      },
    },
  });
}

// The socket closed and opened again at once, `msg` sent once it is (not retried: its own close
// must not open a second).
function reconnect(msg) {
  ui.queued = msg;
  if (ui.ws) { ui.ws.onclose = null; ui.ws.close(); }
  connect();
}

// The seat is another browser's: this page, whose socket is closed for good, offers nothing more.
// A state asked for over HTTP (the claim's timer) would bring back buttons that could not send.
function letGo(text) {
  ui.letGo = true;
  clearTimeout(ui.claimTimer);
  ui.state = null; $("#buttons").hidden = $("#buttons2").hidden = true;
  $("#status").textContent = "";
  document.title = "gammon";  // not "Your turn": the turn is the other page's now
  showError(text);
}

// One action per state: a second click before the server's answer (a double click) would act on
// the version already acted on, and come back refused as "the game has moved on". The server's
// new state, its refusal or a new connection (the action may have been lost) frees the next one.
async function send(msg) {
  const version = ui.state ? ui.state.version : undefined;
  if (version !== undefined && ui.acted === version) return;  // on its way, or with the tutor
  ui.acted = version;
  const free = () => { if (ui.acted === version) ui.acted = null; };
  if (!(await tutorAllows(ui, msg))) {  // held back: the player chooses again
    free();
    if (msg.action === "play") { ui.partial = []; ui.chunks = []; ui.selected = null; render(); }
    return;
  }
  msg.version = version;  // the state the player acted on
  // The seat became an account's since this socket opened (signed in in another tab): the server
  // would refuse the action and close it, the move lost. The socket opens again, signed in, first.
  if (ui.guestSocket && ui.state && !unheldRatedSeat(ui.state)) { reconnect(msg); return; }
  const sent = sendJson(ui.ws, msg);
  if (!sent) free();
  showError(sent ? "" : t("Not connected; reconnecting..."));
}

function setState(state) {
  if (ui.letGo) return;
  if (ui.state && ui.state.match_id === state.match_id && state.version < ui.state.version) return;  // late
  const changed = !ui.state || ui.state.version !== state.version;
  ui.served = state;
  state = turned(state);
  ui.state = state;
  if (changed) { ui.partial = []; ui.chunks = []; ui.selected = null; ui.acted = null; hideHints(); dropTutorWarning(); }
  showOtherSidesPlay(state);
  announceTurn(state);
  // An absent online opponent: ask again when the game may be claimed (no event says so).
  clearTimeout(ui.claimTimer);
  if (state.claim_in > 0) {
    ui.claimTimer = setTimeout(() => api("").then(setState).catch(() => {}), state.claim_in * 1000 + 250);
  }
  render();
}

// ---- two players at one device: the board stays put unless the setting turns it to the one to act --
const flipBoard = b => b.map((_, p) => -b[25 - p] || 0);  // the other side's numbering, and its signs
const flipPoint = p => (typeof p === "number" ? 25 - p : p);
const flipSteps = steps => steps.map(([from, to]) => [flipPoint(from), flipPoint(to)]);

function turned(st) {  // the state as the player to act sees it, where the setting asks for it
  const side = st.turn;
  if (st.mode !== "local" || !ui.flip || side === null || side === st.viewer || st.result) return st;
  const lp = st.last_play;
  return { ...st, viewer: side, board: flipBoard(st.board), off: [st.off[1], st.off[0]],
           pips: [st.pips[1], st.pips[0]],
           sequences: st.sequences.map(s => ({ ...s, steps: flipSteps(s.steps) })),
           last_play: lp && { ...lp, board: flipBoard(lp.board), off: [lp.off[1], lp.off[0]],
                              steps: flipSteps(lp.steps) } };
}

function setFlip(on) {
  ui.flip = on;
  localStorage.setItem("gammon-flip", on ? "1" : "");
  if (!ui.served) return;
  ui.state = turned(ui.served); ui.partial = []; ui.chunks = []; ui.selected = null;
  render();
}

// ---- online: the tab's title and a short chime say when it is your turn -------------------------
function myTurn(st) { return st.actions.some(a => a !== "abandon" && a !== "claim"); }

function announceTurn(st) {
  const mine = st.mode === "online" && myTurn(st), was = ui.myTurn;
  ui.myTurn = mine;
  document.title = mine ? t("Your turn · gammon") : "gammon";
  if (mine && was === false) chime();  // a change of turn, not the page's first state
}

function chime() {  // two soft tones, made here: no sound file to load
  try {
    const ctx = ui.audio || (ui.audio = new AudioContext());
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    [[660, 0], [880, 0.16]].forEach(([freq, delay]) => {
      const t = ctx.currentTime + delay, osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.2, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.3);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t); osc.stop(t + 0.32);
    });
  } catch (e) { /* no audio here: the title still says it */ }
}

// The .mat comes with the token in a header (a link would carry it in its URL), then is saved.
async function downloadMat() {
  try {
    const r = await reach(`/api/matches/${ui.matchId}/match.mat`, { headers: { "X-Gammon-Token": ui.token } });
    if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error || answerError(r));
    const url = URL.createObjectURL(await r.blob()), a = document.createElement("a");
    a.href = url; a.download = `gammon-${ui.matchId}.mat`;
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (e) { showError(String(e.message || e)); }
}

function api(path) {
  return call("GET", `/api/matches/${ui.matchId}${path}`, undefined, { "X-Gammon-Token": ui.token });
}

// ---- hints: the judge's best plays, as players read them: the best play's equity, then how much
// each other play gives up; clicking one moves its checkers ---------------------------------------
const signed = x => signedDecimal(x, 3);

const pct = x => percent(x, 1);
const signedPct = x => signedPercent(x, 1);
const HINTS_SHOWN = 3;  // the rest behind "more"

async function showHints() {
  try {
    const asked = ui.state.version, data = await api("/hint?n=5"), list = $("#hints");
    if (!ui.state || ui.state.version !== asked) return;  // advice on a decision already made
    hideHints();
    if (data.kind === "cube") { showCubeHint(data); return; }
    const scored = data.unit !== "pubeval", mwc = data.unit === "mwc";
    const depth = data.plies === null ? "" : t(", {plies}-ply", { plies: data.plies });
    list.innerHTML = "";
    const best = data.hints.length ? data.hints[0].score : 0;
    list.dataset.source = { equity: t("Equity (cubeless{depth}), best play first", { depth }),
      mwc: t("Match winning chances at this score{depth}, best play first", { depth }),
      pubeval: t("Pubeval's ranking (no equities without the engine)") }[data.unit];
    data.hints.forEach((h, i) => {
      const li = document.createElement("li");
      if (i >= HINTS_SHOWN) li.className = "more";
      const score = mwc ? pct : signed, diff = mwc ? signedPct : signed;
      const cells = [["play", h.play], ["eq", scored ? score(h.score) : ""],
                     ["diff", scored && i > 0 ? `(${diff(h.score - best)})` : ""]];
      for (const [cls, text] of cells) {
        const span = document.createElement("span");
        span.className = cls; span.textContent = text; li.appendChild(span);
      }
      li.title = t("show this play on the board");
      clickable(li, () => {
        const index = ui.state.plays.indexOf(h.play);
        const seq = ui.state.sequences.find(s => s.play === index);
        if (!seq) return;
        ui.partial = seq.steps.slice(); ui.chunks = seq.steps.map(() => 1); ui.selected = null; render();
      });
      list.appendChild(li);
    });
    list.classList.remove("all");
    list.hidden = false;
    const more = $("#hints-more");
    more.hidden = data.hints.length <= HINTS_SHOWN;
    more.textContent = tn("{n} more", "{n} more", data.hints.length - HINTS_SHOWN);
  } catch (e) { showError(String(e.message || e)); }
}

function hideHints() { $("#hints").hidden = $("#hints-more").hidden = $("#cube-hint").hidden = true; }

// The engine's cube decision, for the player who decides now (cubehint.js words it).
function showCubeHint(data) {
  const box = $("#cube-hint");
  box.innerHTML = "";
  for (const line of cubeHintLines(data)) { const p = document.createElement("p"); p.textContent = line; box.appendChild(p); }
  box.hidden = false;
}

// ---- replay of a finished game, move by move; the side panel follows the board ----------------------
function replayableGames(st) { return st.result ? st.game_number : st.game_number - 1; }

async function startReplay(number) {
  try {
    const game = number || replayableGames(ui.state);
    ui.replay = { game, frames: await api(`/games/${game}/frames`), index: 0 };
    render();
  } catch (e) { showError(String(e.message || e)); }
}

function stepReplay(how) {
  const r = ui.replay;
  if (!r) return;
  if (how === "exit") ui.replay = null;
  else r.index = Math.max(0, Math.min(r.frames.length - 1,
    { first: 0, prev: r.index - 1, next: r.index + 1, last: r.frames.length - 1 }[how] ?? Number(how)));
  render();
}

function renderReplay(st) {
  // the frames are seen from the seat (seat 0's side on one device, whichever way the board is turned)
  const r = ui.replay, f = r.frames[r.index], viewer = st.seat === null ? 0 : st.seat;
  const offered = f.cube_offered ? (f.mover === viewer ? "viewer" : "opponent") : undefined;
  const cube = st.use_cube && !f.crawford_game ? { value: offered ? f.cube_value / 2 : f.cube_value,
    owner: f.cube_owner === null ? null : f.cube_owner === viewer ? "viewer" : "opponent", offered } : null;
  Board.draw($("#board"), {
    board: f.board, off: f.off, viewerLight: viewer === 0, dice: f.dice, diceLight: f.mover === 0,
    diceRight: f.mover === viewer, diceUsed: null, moverIsViewer: true, sources: new Set(), selected: null,
    dests: new Set(), onClick: () => {}, cube,
  });
  // the boxes and the sides' labels as the board is drawn here, not as the live board is turned
  const seen = { ...st, viewer };
  renderPlayers(seen, f.score, pipCounts(f.board), f.off, f.mover);
  renderSides(seen);
  $("#match-info").textContent = [t("Replay of game {number}", { number: r.game }),
    ...(f.crawford_game ? [t("Crawford")] : []), ...(cube ? [t("cube {value}", { value: f.cube_value })] : [])].join(" · ");
  $("#status").textContent = t("Replay: {text}", { text: f.text });
  $("#position-id").textContent = f.position_id;
  showShareId(f.gnubg_id);
  $("#replay-pos").textContent = `${r.index + 1} / ${r.frames.length}`;
  const games = $("#replay-game"), count = replayableGames(st);
  if (games.options.length !== count) {
    games.innerHTML = "";
    for (let n = 1; n <= count; n++) games.add(new Option(t("Game {number}", { number: n }), String(n)));
  }
  games.value = String(r.game);
  // the log lists the game's frames, the one on the board marked; a click shows that one
  renderLog(r.frames.map(fr => fr.text), (li, i) => {
    li.className = i === r.index ? "frame current" : "frame";
    clickable(li, () => {
      const focused = document.activeElement === li;
      stepReplay(String(i));
      if (focused) $("#log li.current").focus();  // drawn again: the keyboard keeps its place
    });
  });
  const current = $("#log li.current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

// ---- moving checkers step by step --------------------------------------------------------------
const same = (a, b) => a[0] === b[0] && a[1] === b[1];

function candidates() {  // the step orders that begin with what was moved so far
  const n = ui.partial.length;
  return ui.state.sequences.filter(s => s.steps.length >= n && ui.partial.every((st, i) => same(st, s.steps[i])));
}

function complete() { return candidates().find(s => s.steps.length === ui.partial.length); }

function sources() {
  const n = ui.partial.length, out = new Set();
  for (const s of candidates()) if (s.steps.length > n) out.add(s.steps[n][0]);
  return out;
}

// target -> the steps that take one checker there: the fewest, and of as many the ones that hit
// the fewest blots on the way (24/21 rather than 24/23*/21: a hit is chosen by moving to it).
function destinations(from) {
  const n = ui.partial.length, out = new Map();
  for (const s of candidates()) {
    let at = from;
    for (let k = n; k < s.steps.length && s.steps[k][0] === at; k++) {
      at = s.steps[k][1];
      const chain = s.steps.slice(n, k + 1), had = out.get(at);
      if (!had || had.length > chain.length || (had.length === chain.length && hits(chain) < hits(had))) {
        out.set(at, chain);
      }
      if (at === "off") break;
    }
  }
  return out;
}

function hits(chain) {  // the blots the steps of `chain` hit, moved on from the board shown
  const mine = moverIsViewer(), { b } = shownBoard(), after = applySteps(b, [0, 0], chain, mine).b;
  return mine ? b[0] - after[0] : after[25] - b[25];
}

function moverIsViewer() { return ui.state.turn === ui.state.viewer; }

function applySteps(board, off, steps, mine) {  // steps of one side, viewer's numbering
  const b = board.slice(), o = off.slice(), s = mine ? 1 : -1;
  for (const [from, to] of steps) {
    if (from === "bar") { if (mine) b[25] -= 1; else b[0] += 1; } else b[from] -= s;
    if (to === "off") { o[mine ? 0 : 1] += 1; continue; }
    if (b[to] === -s) { b[to] = 0; if (mine) b[0] -= 1; else b[25] += 1; }  // a hit blot goes to the bar
    b[to] += s;
  }
  return { b, off: o };
}

function shownBoard() {  // the board with the steps moved so far
  return applySteps(ui.state.board, ui.state.off, ui.partial, moverIsViewer());
}

// ---- the other side's play, checker by checker ---------------------------------------------------
// The computer's or the online opponent's play arrives whole; show it from the board before it, one
// step at a time, unless the user asks for reduced motion. A click on the board skips to the end.
function showOtherSidesPlay(state) {
  const lp = state.last_play;
  if (!lp || lp.key === ui.shownPlay) return;
  ui.shownPlay = lp.key;
  const others = state.seat !== null && lp.player !== state.seat;  // one device: both sides are local
  if (!others || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  endAnimation(false);
  ui.anim = { play: lp, shown: 0, timer: setInterval(() => {
    const a = ui.anim;
    if (a.shown < a.play.steps.length) { a.shown += 1; render(); } else endAnimation(true);
  }, STEP_MS) };
}

function endAnimation(draw) {
  if (!ui.anim) return;
  clearInterval(ui.anim.timer);
  ui.anim = null;
  if (draw) render();
}

function animationFrame(st) {  // the board part-way through the play being shown
  const lp = ui.anim.play;
  return { ...applySteps(lp.board, lp.off, lp.steps.slice(0, ui.anim.shown), lp.player === st.viewer),
           player: lp.player, dice: lp.dice, text: lp.text };
}

function onClick(target) {
  const st = ui.state;
  if (!st || !st.sequences.length) return;
  if (target === "dice") { if (complete()) submitPlay(); return; }
  refuse("");
  if (ui.selected !== null) {
    const chain = destinations(ui.selected).get(target);
    if (chain) {
      ui.partial.push(...chain); ui.chunks.push(chain.length); ui.selected = null;
      render(); return;
    }
  }
  ui.selected = sources().has(target) && ui.selected !== target ? target : null;
  render();
}

// A checker dragged (or taken with the keyboard) to `to`: the steps a click there would make, or
// back to its place with a word when no legal play takes it there.
function onDrop(from, to) {
  const chain = to === from ? null : destinations(from).get(to);
  ui.selected = null;
  refuse(chain || to === from ? "" : t("That checker cannot go there"));
  if (chain) { ui.partial.push(...chain); ui.chunks.push(chain.length); }
  render();
}

// A drag begun picks its checker; a click there could instead move the checker picked before.
function onPick(from) { ui.selected = from; refuse(""); render(); }

function onCancel() { ui.selected = null; refuse(""); render(); }

function refuse(text) {  // the input's own word under the board, gone with the next move
  if (text || ui.refused) showError(text);
  ui.refused = !!text;
}

function undoStep() {
  const n = ui.chunks.pop();
  if (n) ui.partial.splice(ui.partial.length - n, n);
  ui.selected = null; render();
}

function submitPlay() {
  const done = complete();
  if (!done) return;
  send({ action: "play", play: ui.state.plays[done.play] });
}

// ---- drawing -------------------------------------------------------------------------------------
const KINDS = { 1: "a single game", 2: "a gammon", 3: "a backgammon" };

// A seat of a rated match that no account holds: the server refuses its actions until one does.
function unheldRatedSeat(st) { return st.rated && st.seat !== null && !st.accounts[st.seat] && !st.match_over; }

// The opponent to act has left the game (disconnected): how long ago.
function awayWords(st) {
  const who = tLine(st.names[st.turn]), minutes = Math.floor(st.opponent_away / 60);
  return minutes ? tn("{name} has left ({n} min)", "{name} has left ({n} min)", minutes, { name: who })
    : t("{name} has left (just now)", { name: who });
}

// The opponent to act is connected but has not acted on its decision: for how long.
function idleWords(st) {
  const who = tLine(st.names[st.turn]), seconds = Math.floor(st.opponent_idle || 0);
  return seconds >= 60
    ? tn("{name} has not acted for {n} min", "{name} has not acted for {n} min", Math.floor(seconds / 60), { name: who })
    : tn("{name} has not acted for {n} s", "{name} has not acted for {n} s", seconds, { name: who });
}

// The claim's confirmation: the opponent left, or sits at the table without acting.
function claimQuestion(st) {
  return st.opponent_away > 0
    ? t("{name} has left. Claim the game? They lose a backgammon.", { name: tLine(st.names[st.turn]) })
    : t("{idle}. Claim the game? They lose a backgammon.", { idle: idleWords(st) });
}

function statusText(st) {
  if (st.match_over || st.result) return outcomeText(st);
  if (unheldRatedSeat(st)) return t("Sign in to play this rated match");
  const names = st.names, me = st.seat;
  const who = names[st.turn];
  const mine = myTurn(st);
  const you = me === null ? who : t("You");
  if (st.opponent_joined === false) {
    if ($("#invite").hidden) {  // no link to send: the lobby's poster, whose page comes by itself
      const them = names[1 - me];
      return mine ? t("Waiting for {name} to join (you may play meanwhile)", { name: them })
        : t("Waiting for {name} to join", { name: them });
    }
    return mine ? t("Waiting for your friend to join: send them the link below (you may play meanwhile)")
      : t("Waiting for your friend to join: send them the link below");
  }
  if (!mine && st.opponent_away > 0) {
    const away = awayWords(st);
    return st.actions.includes("claim") ? t("{away}: you may claim the game", { away })
      : t("{away}; waiting for them to come back", { away });
  }
  // Connected, but over its decision past the server's idle limit: the claim is offered, so say why.
  if (!mine && st.actions.includes("claim")) return t("{idle}: you may claim the game", { idle: idleWords(st) });
  switch (st.phase) {
    case "roll": return mine ? t("{name}: roll or double", { name: you }) : t("Waiting for {name} to roll", { name: who });
    case "move":
      if (!mine) return t("{name} is moving", { name: who });
      return complete() && !sources().size ? t("{name}: press Done (or click the dice)", { name: you })
        : t("{name}: move {dice}", { name: you, dice: `${st.dice[0]}-${st.dice[1]}` });
    case "doubled": return mine ? t("{name} doubles to {value}: take or pass?", { name: names[1 - st.turn], value: st.cube_value * 2 })
                                : t("Waiting for {name} to answer the double", { name: who });
    case "resigned": return mine ? t("{name} offers to resign {what}", { name: names[1 - st.turn], what: t(KINDS[st.offered_resignation]) })
                                 : t("Waiting for {name} to answer the resignation", { name: who });
    default: return "";
  }
}

function render() {
  if (!ui.state) return;
  // "You", "Computer (...)", "White", "Black": the server's default names, shown in the page's language
  const st = { ...ui.state, names: ui.state.names.map(tLine) };
  $("#replay-controls").hidden = !ui.replay;
  $("#buttons").hidden = $("#buttons2").hidden = !!(ui.replay || ui.anim);
  if (ui.replay) { renderReplay(st); return; }
  const viewer = st.viewer, opp = 1 - viewer;
  const anim = ui.anim && animationFrame(st);
  const moving = !anim && st.phase === "move" && st.sequences.length > 0;
  const { b, off } = anim || (moving ? shownBoard() : { b: st.board, off: st.off });
  const doubler = st.phase === "doubled" ? 1 - st.turn : null;
  const cube = cubeInPlay(st) ? { value: st.cube_value,
    owner: st.cube_owner === null ? null : st.cube_owner === viewer ? "viewer" : "opponent",
    offered: doubler === null ? undefined : doubler === viewer ? "viewer" : "opponent" } : null;
  const roller = anim ? anim.player : st.turn, dice = anim ? anim.dice : st.dice;
  Board.draw($("#board"), {
    board: b, off, viewerLight: viewer === 0, dice, diceLight: roller === 0, diceRight: roller === viewer,
    diceUsed: !anim && dice ? usedDice(dice) : null, cube,
    ...(moving ? { moverIsViewer: moverIsViewer(), sources: sources(), selected: ui.selected,
                   dests: ui.selected !== null ? new Set(destinations(ui.selected).keys()) : new Set() }
               : { moverIsViewer: true, sources: new Set(), selected: null, dests: new Set() }),
    onClick: anim ? () => endAnimation(true) : onClick,
    ...(anim ? {} : { onPick, onDrop, onCancel }),  // the keyboard reads the board whoever's turn it is
    message: !anim && !st.dice && st.result ? resultMessage(st) : null,
  });
  renderPlayers(st, st.score, moving || anim ? pipCounts(b) : st.pips, off,
                anim ? anim.player : st.result ? null : st.turn);
  renderSides(st);
  $("#match-info").textContent = matchInfo(st);
  $("#status").textContent = anim ? anim.text : statusText(st);
  $("#rated-guest").hidden = !unheldRatedSeat(st);
  $("#position-id").textContent = st.position_id;
  showShareId(st.gnubg_id);
  $("#subtitle").textContent = { computer: t("against the computer"), local: t("two players"), online: t("online") }[st.mode];
  const allowed = new Set(st.actions);
  for (const btn of document.querySelectorAll("button[data-action]")) btn.hidden = !allowed.has(btn.dataset.action);
  $("#resign-kind").hidden = !allowed.has("resign");
  $('button[data-local="done"]').hidden = !(moving && complete());
  $('button[data-local="undo"]').hidden = !(moving && ui.partial.length);
  // hints: the plays to move, and the cube before a roll the player may double on, or when doubled
  const cubeQuestion = allowed.has("double") || allowed.has("take");
  $('button[data-local="hint"]').hidden = !((moving || cubeQuestion) && st.mode !== "online");
  $('button[data-local="replay"]').hidden = replayableGames(st) < 1;
  $('button[data-local="new-match"]').hidden = !st.match_over;
  // the server gives an online match's .mat once it is over (posted for analysis, it was help)
  $("#mat-link").hidden = st.mode === "online" && !st.match_over;
  // the server words the log in this page's language (the gammon_lang cookie, else Accept-Language)
  renderLog(st.log, (li, i) => { if (isGameHeader(st.log[i])) li.className = "header"; });
  $("#log").scrollTop = $("#log").scrollHeight;
}

// On the board once a game is over: one device for both players names the winner.
function resultMessage(st) {
  const w = st.match_over ? st.match_winner : st.result.winner, what = st.match_over ? "match" : "game";
  const name = st.names[w], won = w === st.viewer;
  if (what === "match") return st.seat === null ? t("{name} wins the match", { name }) : won ? t("Match won") : t("Match lost");
  return st.seat === null ? t("{name} wins the game", { name }) : won ? t("Game won") : t("Game lost");
}

// The two players' boxes: the viewer's at the bottom, like its side of the board.
function renderPlayers(st, score, pips, off, onTurn) {
  const viewer = st.viewer;
  for (const [id, p, idx] of [["#player-bottom", viewer, 0], ["#player-top", 1 - viewer, 1]]) {
    const box = $(id);
    box.querySelector(".swatch").className = "swatch " + (p === 0 ? "light" : "dark");
    box.querySelector(".name").textContent = st.seat === p && st.mode === "online" ? t("{name} (you)", { name: st.names[p] }) : st.names[p];
    box.querySelector(".score").textContent = score[p];
    box.querySelector(".pips").textContent = t("pips {pips} · off {off}", { pips: pips[idx], off: off[idx] });
    box.classList.toggle("on-turn", onTurn === p);
  }
}

// Beside the board, which side is whose: the checkers' colour and the way they go home.
function renderSides(st) {
  for (const [id, p, where] of [["#side-bottom", st.viewer, "bottom"], ["#side-top", 1 - st.viewer, "top"]]) {
    const box = $(id);
    box.querySelector(".swatch").className = "swatch " + (p === 0 ? "light" : "dark");
    const name = st.names[p], light = p === 0, bottom = where === "bottom";
    box.querySelector(".side-text").textContent = light
      ? (bottom ? t("{name}: light checkers, home board bottom right", { name })
        : t("{name}: light checkers, home board top right", { name }))
      : bottom ? t("{name}: dark checkers, home board bottom right", { name })
        : t("{name}: dark checkers, home board top right", { name });
  }
  $("#flip-setting").hidden = st.mode !== "local";
  showTutorSetting(st);
}

function renderLog(lines, decorate) {
  const log = $("#log");
  log.innerHTML = "";
  lines.forEach((line, i) => {
    const li = document.createElement("li");
    li.textContent = line;
    decorate(li, i, line);
    log.appendChild(li);
  });
}


// No cube where nobody may double: rules without it (a 1-point match) and the Crawford game.
function usedDice(dice) {  // grey out the dice the steps moved so far have used
  const n = ui.partial.length;
  if (dice[0] === dice[1]) return [n >= 1, n >= 2, n >= 3, n >= 4];
  const used = [false, false];
  for (const [from, to] of ui.partial) {
    const a = from === "bar" ? (moverIsViewer() ? 25 : 0) : from;
    const z = to === "off" ? (moverIsViewer() ? 0 : 25) : to;
    const d = Math.abs(a - z);
    const i = !used[0] && dice[0] === d ? 0 : !used[1] && dice[1] === d ? 1 : (!used[0] && dice[0] > d ? 0 : 1);
    used[i] = true;
  }
  return used;
}

function pipCounts(b) {
  let mine = b[25] * 25, theirs = -b[0] * 25;
  for (let p = 1; p <= 24; p++) { if (b[p] > 0) mine += b[p] * p; else theirs += -b[p] * (25 - p); }
  return [mine, theirs];
}

// ---- start ---------------------------------------------------------------------------------------
Object.assign(window, { ui, api, $, render });  // for the browser tests and the console

(async () => {
  await loadLanguage();
  const page = pageLink("play"), token = page.params.get("token");
  if (page.id && token) { startGame(page.id, token); return; }
  startLobby();
  // a game's address without its seat's key (the part after # cut off on its way): say so
  if (page.id) $("#lobby-error").textContent = t("This link is incomplete: it needs the match and its key.");
})();
