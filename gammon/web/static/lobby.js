// The lobby: who is online and the open invitations, live over /ws/lobby (docs/accounts.md, "The
// lobby"); posting, accepting, cancelling and declining over the API. Everything the server sends
// is shown as text (textContent), never as markup: names are the players' own.
import { $, call, decimal, loadLanguage, showError, singleClick, t, tLine, tn } from "./common.js";
import { keepToOpen, rememberSeat, seatsToOpen } from "./seats.js";

const lobby = window.lobby = { you: null, players: new Map(), guests: 0, invitations: new Map(), ws: null,
                               retry: 0, taking: new Set(), asking: 0, next: null, leaving: false,
                               withdrawing: new Set() };
const fmt = x => decimal(Number(x), 1);

function el(tag, cls = "", text = "") {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  e.textContent = text;
  return e;
}

function button(label, cls, onclick) {
  const b = el("button", cls, label);
  b.type = "button";
  b.onclick = onclick;
  return singleClick(b);
}

// The terms of an invitation, in words.
function terms(inv) {
  const parts = [inv.match_length ? tn("{n}-point match", "{n}-point match", inv.match_length) : t("money game")];
  if (inv.match_length > 1 && inv.crawford) parts.push(t("Crawford"));
  if (!inv.match_length && inv.jacoby) parts.push(t("Jacoby"));
  if (!inv.match_length && inv.beavers) parts.push(t("beavers"));
  parts.push(inv.rated ? t("rated") : t("unrated"));
  return parts.join(", ");
}

function showInvitations() {
  const list = $("#invitations");
  list.replaceChildren();
  for (const inv of lobby.invitations.values()) {
    const li = el("li", inv.for_you ? "for-you" : "");
    li.dataset.id = inv.id;
    const who = inv.mine ? (inv.to ? t("You invite {name}", { name: inv.to }) : t("Your invitation"))
      : inv.for_you ? t("{name} invites you", { name: inv.poster }) : inv.poster;
    li.append(el("span", "who", who),
              el("span", "terms", inv.mine ? terms(inv) : t("{terms} · rating {rating}", { terms: terms(inv), rating: fmt(inv.poster_rating) })));
    if (inv.mine) li.append(button(t("Cancel"), "", () => withdraw(inv.id, "cancel")));
    else if (lobby.you) {
      li.append(button(t("Accept"), "primary", () => accept(inv.id)));
      if (inv.for_you) li.append(button(t("Decline"), "", () => withdraw(inv.id, "decline")));
    }
    list.append(li);
  }
  $("#no-invitations").hidden = lobby.invitations.size > 0;
}

function showPlayers() {
  const list = $("#players");
  list.replaceChildren();
  const key = p => p.name.toLowerCase();
  for (const p of [...lobby.players.values()].sort((a, b) => key(a).localeCompare(key(b)))) {
    const li = el("li");
    li.dataset.name = p.name;
    li.append(el("span", "who", p.name), el("span", "terms", p.playing ? t("{rating} · playing", { rating: fmt(p.rating) }) : fmt(p.rating)));
    if (lobby.you && p.name !== lobby.you.name) {
      li.append(button(t("Invite"), "", () => { $("#to").value = p.name; $("#to").focus(); }));
    }
    list.append(li);
  }
  const g = lobby.guests;
  const signed = tn("{n} signed in", "{n} signed in", lobby.players.size), guests = tn("{n} guest", "{n} guests", g);
  $("#counts").textContent = t("{signed}, {guests}", { signed, guests });
}

function apply(msg) {
  if (msg.type === "hello") {
    lobby.you = msg.you;
    lobby.players = new Map(msg.players.map(p => [p.name, p]));
    lobby.guests = msg.guests;
    lobby.invitations = new Map(msg.invitations.map(i => [i.id, i]));
    $("#guest-note").hidden = msg.you !== null;
    $("#post").hidden = msg.you === null;
  } else if (msg.type === "update") {
    for (const p of msg.players || []) lobby.players.set(p.name, p);
    for (const name of msg.left || []) lobby.players.delete(name);
    if (msg.guests !== undefined) lobby.guests = msg.guests;
    for (const i of msg.invitations || []) lobby.invitations.set(i.id, i);
    for (const id of msg.gone || []) lobby.invitations.delete(id);
  } else {
    if (msg.type === "error") showError(msg.error);
    return;
  }
  for (const s of msg.started || []) takeSeat(s.id);
  showInvitations();
  showPlayers();
}

// To the game page with this seat's token (after the # : it never reaches a server's logs).
const playUrl = seat => `/play/${seat.match_id}#token=${encodeURIComponent(seat.token)}`;

// A seat's token is the only key to its seat, and the server answers it once: each is kept in
// localStorage as it comes, and the page leaves for a match only when no other seat's answer is on
// its way (leaving would drop it). Seats taken but not opened are listed (#to-open).
async function takeAndGo(ask, chosen) {
  if (lobby.leaving) return false;
  let taken = false;
  lobby.asking += 1;
  try {
    const seat = await ask();
    keepToOpen(seat.match_id, seat.token);
    rememberSeat(seat.match_id, seat.token);
    if (chosen || !lobby.next) lobby.next = seat;  // the one accepted here, else the first taken
    taken = true;
  } catch (e) {
    if (chosen) showError(String(e.message || e));  // a seat another tab of ours took: nothing to say
  } finally { lobby.asking -= 1; }
  if (lobby.asking === 0 && lobby.next && !lobby.leaving) {
    lobby.leaving = true;
    location.href = playUrl(lobby.next);
  } else showToOpen();
  return taken;
}

async function accept(id) {
  showError("");
  await takeAndGo(() => call("POST", `/api/lobby/invitations/${id}/accept`), true);
}

// Our invitation was accepted: take our seat (once: another tab of ours may have taken it). Not
// taken (the connection dropped on the way), it is tried again when the server tells of it again
// (the hello of a reconnected lobby).
async function takeSeat(id) {
  if (lobby.taking.has(id)) return;
  lobby.taking.add(id);
  if (!(await takeAndGo(() => call("POST", `/api/lobby/invitations/${id}/seat`), false))) lobby.taking.delete(id);
}

function showToOpen() {
  const seats = seatsToOpen(), list = $("#to-open ul");
  list.replaceChildren();
  for (const seat of seats) {
    const a = el("a", "", t("Match {id}", { id: seat.match_id }));
    a.href = playUrl(seat);
    const li = el("li");
    li.append(a);
    list.append(li);
  }
  $("#to-open").hidden = seats.length === 0;
}

async function withdraw(id, how) {
  // once: a double click's second would find the invitation gone and say so, though it went
  if (lobby.withdrawing.has(id)) return;
  lobby.withdrawing.add(id);
  showError("");
  try { await call("POST", `/api/lobby/invitations/${id}/${how}`); }
  catch (e) { showError(String(e.message || e)); }
  finally { lobby.withdrawing.delete(id); }
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = lobby.ws = new WebSocket(`${proto}//${location.host}/ws/lobby`, ["gammon"]);
  ws.onopen = () => { lobby.retry = 0; $("#offline").hidden = true; };
  ws.onmessage = ev => apply(JSON.parse(ev.data));
  ws.onclose = ev => {
    if (ev.code === 1008) { showError(ev.reason ? tLine(ev.reason) : t("the lobby refused the connection")); return; }
    $("#offline").hidden = false;
    lobby.retry = Math.min(lobby.retry + 1, 6);
    setTimeout(connect, 250 * 2 ** lobby.retry);
  };
}

function ratedAllowed() {
  const money = $("#match_length").value === "0";
  $("#rated").disabled = money;
  if (money) $("#rated").checked = false;
}

$("#match_length").onchange = ratedAllowed;
$("#post").onsubmit = async ev => {
  ev.preventDefault();
  const submit = $("#do-post");
  if (submit.disabled) return;  // one on its way: a double click would post the invitation twice
  submit.disabled = true;
  showError("");
  const body = { match_length: Number($("#match_length").value), crawford: $("#crawford").checked,
                 jacoby: $("#jacoby").checked, beavers: $("#beavers").checked, rated: $("#rated").checked };
  const to = $("#to").value.trim();
  if (to) body.to = to;
  try {
    await call("POST", "/api/lobby/invitations", body);
    $("#to").value = "";
  } catch (e) { showError(tLine(String(e.message || e))); } finally { submit.disabled = false; }
};
singleClick($("#do-post"));
ratedAllowed();
loadLanguage().then(() => {
  for (const o of $("#match_length").options) if (o.value !== "0") o.textContent = tn("{n} point", "{n} points", Number(o.value));
  showToOpen();
  connect();
});
