// What every page shares: `$`, the page's error line, JSON calls to the server, the link a page was
// opened with, and the words for a finished game or match.

export const $ = sel => document.querySelector(sel);

export function showError(text) { $("#error").textContent = text || ""; }

// The CSRF value that goes with the session cookie (gammon/web/auth.py); "" when signed out.
export function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)gammon_csrf=([^;]*)/);
  return m ? decodeURIComponent(m[1]) : "";
}

// A JSON call; a refusal throws an Error with the server's message. A change sends the CSRF value.
export async function call(method, url, body, headers = {}) {
  if (method !== "GET" && csrfToken()) headers = { ...headers, "X-CSRF-Token": csrfToken() };
  const r = await fetch(url, { method, headers: body ? { ...headers, "Content-Type": "application/json" } : headers,
                               body: body ? JSON.stringify(body) : undefined });
  const data = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

// The page's link, /<page>/<id>#<key>=<secret>: its id (null when the path is another) and the
// secret and the other values after the # (which never reach the server's logs).
export function pageLink(page) {
  const m = location.pathname.match(new RegExp(`^/${page}/([A-Za-z0-9_-]+)$`));
  return { id: m ? m[1] : null, params: new URLSearchParams(location.hash.slice(1)) };
}

// Who won the match or the game just over, in words; "" while a game goes on.
export function outcomeText(st) {
  const names = st.names;
  if (st.match_over) return `${names[st.match_winner]} won the match ${st.score[0]}-${st.score[1]}`;
  if (st.result) {
    const r = st.result, kind = { 1: "", 2: " with a gammon", 3: " with a backgammon" }[r.kind];
    return `${names[r.winner]} won ${r.points} point${r.points === 1 ? "" : "s"}${kind}`;
  }
  return "";
}
