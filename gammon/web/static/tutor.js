// The tutor on the game page: with it on (its level remembered in this browser), the player's own
// play or cube action is first shown to the server's tutor (POST /api/matches/<id>/tutor, which
// records nothing); a choice it flags is held back with its warning until the player takes it
// back (nothing is sent) or plays it anyway. Off in online games, as hints are.
import { $, call, cubeActionWord, decimal, percent, t, tLine } from "./common.js";

const KEY = "gammon-tutor";
const TUTORED = new Set(["play", "roll", "double", "take", "pass", "beaver"]);
const CUBE_WORDS = { "no double": () => t("Not doubling"), double: () => t("Doubling"), take: () => t("Taking"),
                     pass: () => t("Passing"), beaver: () => t("Beavering") };
let checking = false;  // one check at a time: a second click meanwhile is ignored
let answer = null;  // answers the warning on show (false: held back), while one is

export function tutorLevel() { return localStorage.getItem(KEY) || ""; }

export function setupTutor() {
  const select = $("#tutor-level");
  select.value = tutorLevel();
  select.addEventListener("change", () => localStorage.setItem(KEY, select.value));
}

export function showTutorSetting(st) { $("#tutor-setting").hidden = st.mode === "online"; }

// The warning in words: the mark, what the choice loses (in a match its match winning chances,
// with the EMG as the analysis reports them) and the better choice.
// The marks (doubtful, bad, very bad) begin with a consonant: "a" is their article.
export function warningText(w) {
  const mark = tLine(w.mark);
  const what = w.chosen in CUBE_WORDS ? t("{chosen} is a {mark} cube decision", { chosen: CUBE_WORDS[w.chosen](), mark })
    : t("{chosen} is a {mark} play", { chosen: w.chosen, mark });
  const emg = t("{error} EMG", { error: decimal(w.error, 3) });
  const loss = w.unit === "mwc" ? t("{pct} in match winning chances ({emg})", { pct: percent(w.cost, 2), emg }) : emg;
  return t("Tutor: {what}: it loses {loss}. Better: {best}.", { what, loss, best: cubeActionWord(w.best) });
}

// Resolves true when `msg` may be sent now, false when it is held back (a check under way, or the
// player took it back). A tutor that cannot answer (no engine here, too many checks) lets it go.
export async function tutorAllows(ui, msg) {
  const level = tutorLevel(), st = ui.state;
  if (!level || !st || st.mode === "online" || !TUTORED.has(msg.action)) return true;
  if (msg.action === "roll" && !st.actions.includes("double")) return true;  // no cube decision
  if (checking) return false;
  checking = true;
  try {
    const body = { action: msg.action, level, version: st.version };
    if (msg.play) body.play = msg.play;
    let answer;
    try {
      answer = await call("POST", `/api/matches/${ui.matchId}/tutor`, body, { "X-Gammon-Token": ui.token });
    } catch (e) { return true; }
    if (!answer.warning) return true;
    if (!ui.state || ui.state.version !== st.version) return false;  // the game moved on meanwhile
    return await askPlayer(answer.warning, msg.action === "play" ? t("Play it anyway") : t("Do it anyway"));
  } finally { checking = false; }
}

// The game moved on (another device of the player acted): a warning on show is of a choice no
// longer there; left open, it kept the check under way and held back every choice after it.
export function dropTutorWarning() { if (answer) answer(false); }

function askPlayer(warning, anyway) {
  const box = $("#tutor-warning");
  $("#tutor-text").textContent = warningText(warning);
  $("#tutor-anyway").textContent = anyway;
  box.hidden = false;
  return new Promise(resolve => {
    const done = go => {
      box.hidden = true;
      $("#tutor-back").onclick = $("#tutor-anyway").onclick = null;
      answer = null;
      resolve(go);
    };
    answer = done;
    $("#tutor-back").onclick = () => done(false);
    $("#tutor-anyway").onclick = () => done(true);
  });
}
