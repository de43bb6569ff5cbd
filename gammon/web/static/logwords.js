// The game log: the server words its lines (and the replay's and the latest play's) in the page's
// language, the one the gammon_lang cookie or Accept-Language names, so a page shows them as they
// come (no tLine). What it still needs to know is which lines head a game.
import { t } from "./common.js";

const escape = s => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
let headers = null;  // made after loadLanguage, once

// Whether `line` of the log heads a game ("Game 2", "Gra 2 (Crawford)").
export function isGameHeader(line) {
  headers ??= [t("Game {number} (Crawford)"), t("Game {number}")].map(message =>
    new RegExp("^" + message.split("{number}").map(escape).join("\\d+") + "$"));
  return headers.some(re => re.test(line));
}
