// Links from the game page to the study pages: the analysis of this match's finished games, and
// the read-only link for spectators.
"use strict";

(() => {
  const m = location.pathname.match(/^\/play\/([A-Za-z0-9_-]+)$/);
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (!m || !token) return;
  const analyse = document.querySelector("#analyse-match");
  if (analyse) analyse.href = `/analysis/${m[1]}#token=${encodeURIComponent(token)}`;
  fetch(`/api/matches/${m[1]}/watch-link`, { headers: { "X-Gammon-Token": token } })
    .then(r => (r.ok ? r.json() : null)).then(link => {
      const box = document.querySelector("#watch");
      if (!link || !box) return;
      document.querySelector("#watch-url").value = link.url;
      box.hidden = false;
    }).catch(() => {});
})();
