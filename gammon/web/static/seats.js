// The seats this browser has played (their tokens, kept in localStorage), so that signing in or up
// takes its guest games into the account; a signed-in player's new seat is claimed at once.
import { call, csrfToken } from "./common.js";

const PREFIX = "seat:";
const KEEP = 200;  // the server claims at most so many at once

export function rememberSeat(matchId, token) {
  if (!matchId || !token) return;
  try {
    localStorage.setItem(PREFIX + matchId, token);
    const keys = Object.keys(localStorage).filter(k => k.startsWith(PREFIX));
    for (const k of keys.slice(0, Math.max(0, keys.length - KEEP))) localStorage.removeItem(k);
  } catch (e) { return; }  // storage off: nothing is remembered
  if (csrfToken()) call("POST", "/api/account/claim", { seat_tokens: [token] }).catch(() => {});
}

export function seatTokens() {
  try {
    return Object.keys(localStorage).filter(k => k.startsWith(PREFIX)).map(k => localStorage.getItem(k))
      .slice(-KEEP);
  } catch (e) { return []; }
}
