// Links from the game page to the study pages: the analysis of this match's finished games, and
// the read-only link for spectators.
import { $, pageLink } from "./common.js";

(() => {
  const page = pageLink("play"), token = page.params.get("token");
  if (!page.id || !token) return;
  const analyse = $("#analyse-match");
  if (analyse) analyse.href = `/analysis/${page.id}#token=${encodeURIComponent(token)}`;
  fetch(`/api/matches/${page.id}/watch-link`, { headers: { "X-Gammon-Token": token } })
    .then(r => (r.ok ? r.json() : null)).then(link => {
      const box = $("#watch");
      if (!link || !box) return;
      $("#watch-url").value = link.url;
      box.hidden = false;
    }).catch(() => {});
})();
