// What every page shares: `$`, the page's error line, a table's row of text, JSON calls to the
// server, the link a page was opened with, and the words for a finished game or match.

export const $ = sel => document.querySelector(sel);

export function showError(text) { $("#error").textContent = text || ""; }

// A row of ``cells`` added to ``table``, as text (th cells for a head row).
export function addRow(table, cells, head = false) {
  const tr = table.insertRow();
  for (const c of cells) {
    const cell = document.createElement(head ? "th" : "td");
    cell.textContent = c;
    tr.append(cell);
  }
}

// `el` (a list's item, a table's row) acts on a click and, reached with Tab, on Enter or Space, as
// a button does: without it a player on the keyboard could not choose it.
export function clickable(el, act) {
  el.tabIndex = 0;
  el.addEventListener("click", act);
  el.addEventListener("keydown", ev => {
    if (ev.key !== "Enter" && ev.key !== " ") return;
    ev.preventDefault();  // a space would scroll the page
    act();
  });
}

// `button`'s double click acts once. A guard that holds the button while its request is out is not
// enough: a quick server answers between the two clicks, and the second posted a second invitation.
// A click with `detail` over 1 is the second (or third) of a burst; a key's "click" has detail 0.
export function singleClick(button) {
  button.addEventListener("click", ev => {
    if (ev.detail > 1) { ev.preventDefault(); ev.stopImmediatePropagation(); }
  }, true);
  return button;
}

// The CSRF value that goes with the session cookie (gammon/web/auth.py); "" when signed out.
export function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)gammon_csrf=([^;]*)/);
  return m ? decodeURIComponent(m[1]) : "";
}

// A JSON call; a refusal throws an Error with the server's message and its HTTP `status` (0: no
// answer). A change sends the CSRF value.
export async function call(method, url, body, headers = {}) {
  if (method !== "GET" && csrfToken()) headers = { ...headers, "X-CSRF-Token": csrfToken() };
  const r = await reach(url, { method, headers: body ? { ...headers, "Content-Type": "application/json" } : headers,
                               body: body ? JSON.stringify(body) : undefined });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw Object.assign(new Error(data.error || answerError(r)), { status: r.status });
  return data;
}

// fetch, a server it cannot reach said in the page's language: the browser's own words ("Failed to
// fetch") are English whatever the page's.
export async function reach(url, options) {
  try {
    return await fetch(url, options);
  } catch (e) {
    throw Object.assign(new Error(t("the server cannot be reached: check the connection and try again")), { status: 0 });
  }
}

// An error answer without gammon's message (a proxy's page while the server restarts): its status,
// not its status text, which is English ("Bad Gateway") or, over HTTP/2, empty.
export function answerError(r) {
  return t("the server answered HTTP {status}", { status: r.status });
}

// The page's link, /<page>/<id>#<key>=<secret>: its id (null when the path is another) and the
// secret and the other values after the # (which never reach the server's logs).
export function pageLink(page) {
  const m = location.pathname.match(new RegExp(`^/${page}/([A-Za-z0-9_-]+)$`));
  return { id: m ? m[1] : null, params: new URLSearchParams(location.hash.slice(1)) };
}

// Who won the match or the game just over, in words; "" while a game goes on. The page's own seat
// is spoken to ("You won"): its name "You" in a third person's words read "Ty wygrywa" in Polish.
// The winner's score comes first, as a result is said ("won 5-0", not "won 0-5").
export function outcomeText(st) {
  const names = st.names, yours = winner => st.seat !== null && st.seat !== undefined && winner === st.seat;
  if (st.match_over) {
    const w = st.match_winner, score = `${st.score[w]}-${st.score[1 - w]}`;
    return yours(w) ? t("You won the match {score}", { score })
      : t("{name} won the match {score}", { name: names[w], score });
  }
  if (st.result) {
    const r = st.result, kind = { 1: "", 2: t(" with a gammon"), 3: t(" with a backgammon") }[r.kind];
    return (yours(r.winner) ? tn("You won {n} point", "You won {n} points", r.points)
      : tn("{name} won {n} point", "{name} won {n} points", r.points, { name: names[r.winner] })) + kind;
  }
  return "";
}

// The cube is in play: never in a 1-point match (use_cube is off) nor in the Crawford game.
export function cubeInPlay(st) { return st.use_cube && !st.crawford_game; }

// The rules this match is played under, where they are not plain.
function ruleNotes(st) {
  const r = st.rules;
  if (!r) return [];
  if (st.match_length) {
    if (st.crawford_game) return [t("Crawford")];
    return [...(r.crawford || st.match_length === 1 ? [] : [t("no Crawford rule")]), ...(st.rated ? [t("rated")] : [])];
  }
  return [...(r.jacoby ? [t("Jacoby")] : []), ...(r.beavers ? [t("beavers")] : []),
          ...(r.cube_limit ? [t("cube limit {limit}", { limit: r.cube_limit })] : [])];
}

// The match line over the board (the game page's and the spectators'): the length, the game, the
// rules and the cube where it is in play.
export function matchInfo(st) {
  return [st.match_length ? t("Match to {length}", { length: st.match_length }) : t("Money game"),
    t("game {number}", { number: st.game_number }), ...ruleNotes(st),
    ...(cubeInPlay(st) ? [t("cube {value}", { value: st.cube_value })] : [])].join(" · ");
}

// --- languages (docs/i18n.md) -----------------------------------------------------------------
// A page's language is the gammon_lang cookie its language switch sets, else the browser's; its
// catalogue comes from /i18n/<lang>.json (gammon/locale/<lang>/LC_MESSAGES/gammon.po). Messages are
// English: t("...") and tn("one", "many", n) in scripts, data-i18n / data-i18n-attrs in the HTML.

export const LANGUAGES = { en: "English", pl: "Polski", cs: "Čeština", sk: "Slovenčina" };
const LANG_COOKIE = "gammon_lang";
// Which of a message's plural forms a count takes (the catalogues' Plural-Forms headers).
const PLURAL = {
  en: n => (n === 1 ? 0 : 1),
  pl: n => (n === 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? 1 : 2),
  cs: n => (n === 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2),
};
let catalogue = { lang: "en", plural: "en", messages: {}, plurals: {} };
let linePatterns = null;  // the catalogue's messages as patterns of whole English lines (tLine)

export function chosenLanguage() {
  const m = document.cookie.match(new RegExp(`(?:^|;\\s*)${LANG_COOKIE}=([^;]*)`));
  for (const tag of [m && decodeURIComponent(m[1]), ...(navigator.languages || [navigator.language])]) {
    const lang = (tag || "").toLowerCase().split(/[-_]/)[0];
    if (lang in LANGUAGES) return lang;
  }
  return "en";
}

export function currentLanguage() { return catalogue.lang; }

// A moment (an ISO time) as the page's language writes a date and time: the browser's own locale
// wrote a Czech page's "11/30/2026, 1:16:46 PM" in an English browser.
export function dateTime(iso) { return new Date(iso).toLocaleString(catalogue.lang); }

// Numbers as the page's language writes them: a decimal comma in Polish, Czech and Slovak
// ("1,51"), and a percent as each writes it ("1.51%", Polish "1,51%", Czech and Slovak "1,51 %");
// toFixed wrote the English point on every page. `digits` decimals, always shown; no thousands
// separator, so English keeps "1523.3". For the pages' text only: the API's JSON stays numbers.
const formats = new Map();
function numberFormat(digits, style) {
  const key = `${catalogue.lang} ${digits} ${style}`;
  if (!formats.has(key)) {
    formats.set(key, new Intl.NumberFormat(catalogue.lang, {
      style, minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false,
    }));
  }
  return formats.get(key);
}

// Rounded as toFixed rounds (the binary value: 1.005 is "1.00", not Intl's "1.01"), so English
// is written as it was and as Python's f"{x:.2f}" writes it.
export function decimal(x, digits) { return numberFormat(digits, "decimal").format(Number(x.toFixed(digits))); }

// With its sign always shown ("+0.123", "-0.123"; a zero is "+").
export function signedDecimal(x, digits) { return (x >= 0 ? "+" : "-") + decimal(Math.abs(x), digits); }

// A share (0.0151) as a percent ("1.51%").
export function percent(x, digits) {
  return numberFormat(digits, "percent").format(Number((100 * x).toFixed(digits)) / 100);
}

export function signedPercent(x, digits) { return (x >= 0 ? "+" : "-") + percent(Math.abs(x), digits); }

function fill(text, values) {
  return values ? text.replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all)) : text;
}

// `msgid` in the page's language, its {name} placeholders filled from `values`.
export function t(msgid, values) {
  const s = catalogue.messages[msgid];
  return fill(typeof s === "string" && s ? s : msgid, values);
}

// The form of a message for the count `n` ({n} is filled with it).
export function tn(singular, plural, n, values) {
  const forms = catalogue.messages[singular];
  const text = Array.isArray(forms) ? forms[PLURAL[catalogue.plural](n)] : n === 1 ? singular : plural;
  return fill(text, { n, ...values });
}

// `msgid` as the catalogue words it in `context` (its key "context\u0004msgid"), else as t() does.
export function ptr(context, msgid) {
  const key = `${context}\u0004${msgid}`;
  const text = t(key);
  return text === key ? t(msgid) : text;
}

// A cube action the analysis or the tutor names ("Alice: take; the right action: pass", "Better:
// take"), as a noun: the plain "take" is the terminal's command ("przyjmij" in Polish, "přijmi" in
// Czech, which speaks to the player as 'vy'), next to nouns such as "podwojenie".
export function cubeActionWord(action) {
  const words = {
    "no double": () => ptr("cube action", "no double"),
    "no double, too good": () => ptr("cube action", "no double, too good"),
    "double": () => ptr("cube action", "double"),
    "take": () => ptr("cube action", "take"),
    "pass": () => ptr("cube action", "pass"),
    "beaver": () => ptr("cube action", "beaver"),
  };
  return Object.hasOwn(words, action) ? words[action]() : action;
}

const escapeRe = s => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function pattern(english, translate) {
  const names = [];
  const source = english.split(/(\{\w+\})/).map(part => {
    if (!/^\{\w+\}$/.test(part)) return escapeRe(part);
    names.push(part.slice(1, -1));
    return part === "{n}" ? "(\\d+)" : "(.+?)";
  }).join("");
  return { re: new RegExp(`^${source}$`), names, translate, size: english.replace(/\{\w+\}/g, "").length };
}

function patterns() {
  const out = [];
  for (const [id, s] of Object.entries(catalogue.messages)) {
    if (id.includes("\u0004") || !/\{\w+\}/.test(id)) continue;
    if (typeof s === "string") out.push(pattern(id, values => fill(s, values)));
    else if (catalogue.plurals[id]) {
      for (const english of [id, catalogue.plurals[id]]) {
        out.push(pattern(english, values => fill(s[PLURAL[catalogue.plural](Number(values.n))], values)));
      }
    }
  }
  return out.sort((a, b) => b.size - a.size);  // the most words first: "{name} rolls {dice} and cannot move"
}

// `line` cut at each `sep` outside parentheses ("a (b, c), d" is two parts).
function splitOutside(line, sep) {
  const parts = [];
  let depth = 0, start = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === "(") depth++;
    else if (line[i] === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0 && line.startsWith(sep, i)) { parts.push(line.slice(start, i)); start = i + sep.length; }
  }
  parts.push(line.slice(start));
  return parts;
}

// A line the server wrote in English (a game's log) in the page's language: a whole message, one
// with its values (themselves translated where they are messages), or parts joined by ": " or ", ".
export function tLine(line) {
  if (catalogue.lang === "en" || !line) return line;
  if (typeof catalogue.messages[line] === "string") return t(line);
  linePatterns ??= patterns();
  for (const p of linePatterns) {
    const m = line.match(p.re);
    if (m) return p.translate(Object.fromEntries(p.names.map((k, i) => [k, k === "n" ? m[i + 1] : tLine(m[i + 1])])));
  }
  for (const sep of [": ", ", "]) {
    const parts = splitOutside(line, sep);
    if (parts.length > 1) {
      const done = parts.map(tLine);
      if (done.some((part, i) => part !== parts[i])) return done.join(sep);
    }
  }
  return line;
}

// The text of the page's marked elements and attributes in its language (their English kept in
// data-i18n-source, so that a page translated twice stays right).
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.dataset.i18nSource ??= el.textContent.split(/\s+/).filter(Boolean).join(" ");
    el.textContent = t(el.dataset.i18nSource);
  }
  for (const el of root.querySelectorAll("[data-i18n-attrs]")) {
    for (const name of el.dataset.i18nAttrs.split(/\s+/).filter(Boolean)) {
      const key = `i18nSource${name.replace(/(^|-)(\w)/g, (_, _dash, c) => c.toUpperCase())}`;
      el.dataset[key] ??= el.getAttribute(name) || "";
      el.setAttribute(name, t(el.dataset[key]));
    }
  }
}

// A <select> of the languages in `holder` (the page's #language): a choice is remembered in the
// cookie, for a year, and the page is shown again in it.
export function languageSwitch(holder = $("#language")) {
  if (!holder) return;
  const select = document.createElement("select");
  select.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = new Option(name, code, false, code === catalogue.lang);
    option.lang = code;
    select.appendChild(option);
  }
  select.addEventListener("change", () => {
    document.cookie = `${LANG_COOKIE}=${select.value}; path=/; max-age=31536000; SameSite=Lax`;
    location.reload();
  });
  holder.replaceChildren(select);
}

// Load the page's language (English needs no catalogue), translate the marked HTML and put the
// language switch in. A page's script awaits it before it writes any text.
export async function loadLanguage(lang = chosenLanguage()) {
  if (lang !== catalogue.lang && lang in LANGUAGES) {
    try {
      const r = await fetch(`/i18n/${lang}.json`);
      if (r.ok) { catalogue = await r.json(); linePatterns = null; }
    } catch { /* the page stays English */ }
  }
  document.documentElement.lang = catalogue.lang;
  translatePage();
  languageSwitch();
  return catalogue.lang;
}
