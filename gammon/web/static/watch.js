// The spectators' page: the table of a match, kept up to date over a read-only WebSocket.
import { Board } from "./board.js";
import { $, cubeInPlay, loadLanguage, matchInfo, outcomeText, pageLink, showError, t, tLine } from "./common.js";
import { isGameHeader } from "./logwords.js";
import { liveSocket } from "./socket.js";

const watch = { state: null, ws: null, retry: 0, matchId: null, key: null };
window.watch = watch;  // for the browser tests and the console

function connect() {
  liveSocket(watch, `/ws/watch/${watch.matchId}`, `key.${watch.key}`, {
    stopCodes: [4403, 4404, 1008], maxRetry: 6,
    on: { open: () => showError(""), state: setState, error: text => showError(tLine(text)) },
  });
}

function setState(st) {
  if (watch.state && st.version < watch.state.version) return;  // a late message
  watch.state = st;
  render({ ...st, names: st.names.map(tLine) });  // "White", "Black": the server's default names
}

function statusText(st) {
  if (st.match_over || st.result) return outcomeText(st);
  const names = st.names;
  const who = names[st.turn];
  const dice = st.dice ? `${st.dice[0]}-${st.dice[1]}` : "";
  return { roll: t("{name} to roll", { name: who }), move: t("{name} to move {dice}", { name: who, dice }).trim(),
           doubled: t("{doubler} doubles to {value}; {name} to answer",
                      { doubler: names[1 - st.turn], value: st.cube_value * 2, name: who }),
           resigned: t("{resigner} offers to resign; {name} to answer", { resigner: names[1 - st.turn], name: who }),
  }[st.phase] || "";
}

function render(st) {
  const cube = cubeInPlay(st) ? { value: st.cube_value,
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
    box.querySelector(".pips").textContent = t("pips {pips} · off {off}", { pips: st.pips[p], off: st.off[p] });
    box.classList.toggle("on-turn", st.turn === p && !st.result);
  }
  $("#match-info").textContent = matchInfo(st);  // as the players' page has it
  $("#status").textContent = statusText(st);
  $("#position-id").textContent = st.position_id;
  const log = $("#log");
  log.innerHTML = "";
  for (const line of st.log) {
    const li = document.createElement("li");
    li.textContent = line;  // worded by the server in the page's language
    if (isGameHeader(line)) li.className = "header";
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
}

(async () => {
  await loadLanguage();
  const link = pageLink("watch");
  watch.key = link.params.get("key");
  if (!link.id || !watch.key) { showError(t("This link is incomplete: it needs the match and its key.")); return; }
  watch.matchId = link.id;
  connect();
})();
