// The spectators' page: the table of a match, kept up to date over a read-only WebSocket.
"use strict";

const $ = sel => document.querySelector(sel);
const watch = { state: null, ws: null, retry: 0, matchId: null, key: null };

function showError(text) { $("#error").textContent = text || ""; }

function connect() {  // the key goes as a subprotocol, never in a URL (which servers and proxies log)
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = watch.ws = new WebSocket(`${proto}//${location.host}/ws/watch/${watch.matchId}`,
                                      ["gammon", `key.${watch.key}`]);
  ws.onopen = () => { watch.retry = 0; showError(""); };
  ws.onmessage = ev => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") setState(msg.state);
    else if (msg.type === "error") showError(msg.error);
  };
  ws.onclose = ev => {
    if (ev.code === 4403 || ev.code === 4404 || ev.code === 1008) return;  // retrying cannot help
    watch.retry = Math.min(watch.retry + 1, 6);
    setTimeout(connect, 250 * 2 ** watch.retry);
  };
}

function setState(st) {
  if (watch.state && st.version < watch.state.version) return;  // a late message
  watch.state = st;
  render(st);
}

function statusText(st) {
  const names = st.names;
  if (st.match_over) return `${names[st.match_winner]} won the match ${st.score[0]}-${st.score[1]}`;
  if (st.result) {
    const r = st.result, kind = { 1: "", 2: " with a gammon", 3: " with a backgammon" }[r.kind];
    return `${names[r.winner]} won ${r.points} point${r.points === 1 ? "" : "s"}${kind}`;
  }
  const who = names[st.turn];
  return { roll: `${who} to roll`, move: `${who} to move ${st.dice ? st.dice[0] + "-" + st.dice[1] : ""}`,
           doubled: `${names[1 - st.turn]} doubles to ${st.cube_value * 2}; ${who} to answer`,
           resigned: `${names[1 - st.turn]} offers to resign; ${who} to answer` }[st.phase] || "";
}

function render(st) {
  const cube = st.match_length === 0 || !st.crawford_game ? { value: st.cube_value,
    owner: st.cube_owner === null ? null : st.cube_owner === 0 ? "viewer" : "opponent" } : null;
  Board.draw($("#board"), {
    board: st.board, off: st.off, viewerLight: true, dice: st.dice, diceLight: st.turn === 0,
    diceRight: st.turn === 0, diceUsed: null, cube, moverIsViewer: true, sources: new Set(), selected: null,
    dests: new Set(), onClick: () => {},
  });
  for (const [id, p] of [["#player-bottom", 0], ["#player-top", 1]]) {
    const box = $(id);
    box.querySelector(".name").textContent = st.names[p];
    box.querySelector(".score").textContent = st.score[p];
    box.querySelector(".pips").textContent = `pips ${st.pips[p]} · off ${st.off[p]}`;
    box.classList.toggle("on-turn", st.turn === p && !st.result);
  }
  $("#match-info").textContent = (st.match_length ? `Match to ${st.match_length}` : "Money game") +
    ` · game ${st.game_number}` + (st.crawford_game ? " · Crawford" : "") + ` · cube ${st.cube_value}`;
  $("#status").textContent = statusText(st);
  $("#position-id").textContent = st.position_id;
  const log = $("#log");
  log.innerHTML = "";
  for (const line of st.log) {
    const li = document.createElement("li");
    li.textContent = line;
    if (/^Game \d+/.test(line)) li.className = "header";
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
}

(() => {
  const m = location.pathname.match(/^\/watch\/([A-Za-z0-9_-]+)$/);
  watch.key = new URLSearchParams(location.hash.slice(1)).get("key");
  if (!m || !watch.key) { showError("This link is incomplete: it needs the match and its key."); return; }
  watch.matchId = m[1];
  connect();
})();
