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

// Seats the lobby took and no game page has opened yet (the lobby lists them): a seat's token is its
// only key, and a poster's browser may take several at once but opens one match.
const TO_OPEN = "to-open:";

export function keepToOpen(matchId, token) {
  try { localStorage.setItem(TO_OPEN + matchId, token); } catch (e) { return; }  // storage off
}

export function seatsToOpen() {
  try {
    return Object.keys(localStorage).filter(k => k.startsWith(TO_OPEN))
      .map(k => ({ match_id: k.slice(TO_OPEN.length), token: localStorage.getItem(k) }));
  } catch (e) { return []; }
}

export function openedSeat(matchId) {
  try { localStorage.removeItem(TO_OPEN + matchId); } catch (e) { return; }
}
