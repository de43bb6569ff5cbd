// A match's live WebSocket, reconnecting with growing waits. The secret (a seat token, a watch key)
// goes as a subprotocol beside "gammon", never in a URL (which servers and proxies log).

// Open `path` for `holder` (which keeps the socket in `ws` and the tries in `retry`): `on.state(state)`
// and `on.error(text)` for the server's messages, `on.open()` once connected, `on.lost()` when the
// connection drops and a retry is due. A close with one of `stopCodes` (a wrong link) is not retried;
// `on.stop(code)`, if given, hears of it.
export function liveSocket(holder, path, secret, { stopCodes, maxRetry, on }) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = holder.ws = new WebSocket(`${proto}//${location.host}${path}`, ["gammon", secret]);
  ws.onopen = () => { holder.retry = 0; on.open(); };
  ws.onmessage = ev => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") on.state(msg.state);
    else if (msg.type === "error") on.error(msg.error);
  };
  ws.onclose = ev => {
    if (stopCodes.includes(ev.code)) { if (on.stop) on.stop(ev.code); return; }  // retrying cannot help
    if (on.lost) on.lost();
    holder.retry = Math.min(holder.retry + 1, maxRetry);
    setTimeout(() => liveSocket(holder, path, secret, { stopCodes, maxRetry, on }), 250 * 2 ** holder.retry);
  };
  return ws;
}

// Send `msg` if the socket is open; false if not.
export function sendJson(ws, msg) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(JSON.stringify(msg));
  return true;
}
