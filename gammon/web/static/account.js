// The account page: sign up, in and out; the rating and rated matches; the profile (profile.js)
// and match files added to it; the leaderboard. Everything the server sends is
// shown as text (textContent), never as markup.
import { $, addRow, call, csrfToken, decimal, loadLanguage, t, tLine } from "./common.js";
import { showProfile } from "./profile.js";
import { seatTokens } from "./seats.js";

const fmt = (x, digits = 1) => decimal(Number(x), digits);

function error(text, where = "#error") { $(where).textContent = text || ""; }

async function signIn(path) {
  error("");
  const body = { name: $("#name").value, password: $("#password").value, seat_tokens: seatTokens() };
  try {
    await call("POST", path, body);
    $("#password").value = "";
    await show();
  } catch (e) { error(tLine(String(e.message || e))); }
}

async function show() {
  let me = null;
  // signed out (no CSRF cookie): not asked, as its 401 is an error in the browser's console
  try { me = csrfToken() ? await call("GET", "/api/account") : null; } catch (e) { me = null; }
  $("#sign-in").hidden = me !== null;
  $("#me").hidden = me === null;
  if (me) {
    $("#me-name").textContent = me.name;
    $("#me-rating").textContent = fmt(me.rating);
    $("#me-experience").textContent = t("(experience {n})", { n: me.experience });
    await Promise.all([showHistory(), showProfile()]);
  }
  await showLeaders();
}

async function showHistory() {
  const table = $("#history");
  table.replaceChildren();
  const data = await call("GET", "/api/account/ratings");
  if (!data.history.length) { addRow(table, [t("none yet")]); return; }
  addRow(table, [t("date"), t("opponent"), t("length"), t("result"), t("rating")], true);
  for (const h of data.history.slice().reverse()) {
    addRow(table, [h.played_at.slice(0, 10), h.opponent ?? t("(deleted)"), h.match_length, h.won ? t("won") : t("lost"),
                `${fmt(h.rating_before)} → ${fmt(h.rating_after)}`]);
  }
}

// The leaderboard comes a page at a time (the server gives at most 100 standings a request); "more"
// asks for the next page. A page shorter than asked for is the last.
const leaders = { shown: 0, load: 0 };

async function showLeaders(more = false) {
  const table = $("#leaderboard"), button = $("#leaders-more");
  const limit = Number(table.dataset.page) || 100;
  const load = ++leaders.load;  // a newer load (the filter changed) outdates this one
  if (!more) leaders.shown = 0;
  button.disabled = true;
  const query = new URLSearchParams({ limit: String(limit), offset: String(leaders.shown) });
  if ($("#active-only").checked) query.set("active", "true");
  try {
    const board = await call("GET", "/api/leaderboard?" + query);
    if (load !== leaders.load) return;
    if (!more) {
      table.replaceChildren();
      addRow(table, ["#", t("player"), t("rating"), t("experience")], true);
    }
    for (const s of board) addRow(table, [s.rank, s.name, fmt(s.rating), s.experience]);
    leaders.shown += board.length;
    button.hidden = board.length < limit;
  } finally {
    if (load === leaders.load) button.disabled = false;
  }
}

async function upload(ev) {
  ev.preventDefault();
  const file = $("#upload-file").files[0];
  if (!file) return;
  const kind = /\.sgf$/i.test(file.name) ? "sgf" : /\.xg$/i.test(file.name) ? "xg" : "mat";
  const body = { file_name: file.name };
  if ($("#upload-player").value.trim()) body.player = $("#upload-player").value.trim();
  if (kind === "xg") {
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = "";
    for (const b of bytes) binary += String.fromCharCode(b);
    body.xg = btoa(binary);
  } else body[kind] = await file.text();
  try {
    await call("POST", "/api/account/uploads", body);
    error("", "#me-error");
    await showProfile();
  } catch (e) { error(String(e.message || e), "#me-error"); }
}

async function start() {
  await loadLanguage();
  $("#sign-in").addEventListener("submit", ev => { ev.preventDefault(); signIn("/api/account/sign-in"); });
  $("#do-sign-up").addEventListener("click", () => {
    if ($("#sign-in").reportValidity()) signIn("/api/account/sign-up");
  });
  $("#sign-out").addEventListener("click", async () => {
    try { await call("POST", "/api/account/sign-out"); } catch (e) { error(String(e.message || e), "#me-error"); }
    await show();
  });
  $("#active-only").addEventListener("change", () => showLeaders().catch(() => {}));
  $("#leaders-more").addEventListener("click", () => showLeaders(true).catch(() => {}));
  $("#upload").addEventListener("submit", upload);
  $("#password-form").addEventListener("submit", async ev => {
    ev.preventDefault();
    try {
      await call("POST", "/api/account/password",
                 { old_password: $("#old-password").value, new_password: $("#new-password").value });
      error(t("Password changed; your other sessions are signed out."), "#me-error");
    } catch (e) { error(String(e.message || e), "#me-error"); }
  });
  $("#delete-form").addEventListener("submit", async ev => {
    ev.preventDefault();
    if (!confirm(t("Delete your account? Your games stay, without your name."))) return;
    try {
      await call("POST", "/api/account/delete", { password: $("#delete-password").value });
      await show();
    } catch (e) { error(String(e.message || e), "#me-error"); }
  });
  show().catch(e => error(String(e.message || e)));
}

start();
