// Links from the game page to the study pages: the analysis of this match's finished games.
"use strict";

(() => {
  const m = location.pathname.match(/^\/play\/([A-Za-z0-9_-]+)$/);
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  const analyse = document.querySelector("#analyse-match");
  if (m && token && analyse) analyse.href = `/analysis/${m[1]}#token=${encodeURIComponent(token)}`;
})();
