// What the study pages (analysis, editor) share: a background job followed to its end (progress
// bar, cancel button).
import { $, call, showError, t, tLine, tn } from "./common.js";

const POLL_MS = 400;
const RETRY_MS = 3000;  // after no answer, or a proxy's while the server restarts: the job goes on there

// Ask for `holder.job` every POLL_MS until it ends: `show(job)` each time, `done(job)` once it has
// its result. `holder` keeps the job and the timer (one job at a time on a page).
export async function pollJob(holder, show, done) {
  clearTimeout(holder.timer);
  const id = holder.job.id;
  try {
    const job = await call("GET", `/api/jobs/${id}`);
    if (!holder.job || holder.job.id !== id) return;  // forgotten while asked: the page moved on
    if (holder.lost) { holder.lost = false; showError(""); }  // the connection is back
    holder.job = job;
    show(job);
    if (job.status === "done") { done(job); return; }
    if (job.status === "failed") { showError(tLine(job.error)); return; }
    if (job.status !== "cancelled") holder.timer = setTimeout(() => pollJob(holder, show, done), POLL_MS);
  } catch (e) {
    if (!holder.job || holder.job.id !== id) return;
    showError(tLine(String(e.message || e)));
    // a lost connection or a server restarting: ask again (the line says why the bar stands still)
    if (e.status === 0 || e.status >= 500) {
      holder.lost = true;
      holder.timer = setTimeout(() => pollJob(holder, show, done), RETRY_MS);
    }
  }
}

// "about 40 s", "about 3 min": the server's estimate of a job's time left.
function aboutTime(seconds) {
  return seconds < 90 ? t("about {seconds} s", { seconds: Math.max(1, Math.round(seconds)) })
    : t("about {minutes} min", { minutes: Math.round(seconds / 60) });
}

// The job's progress bar and cancel button; `running` is the line under the bar while it runs, with
// the time left once the server can tell it; a queued job says how many start before it.
export function showJobBar(job, running) {
  const active = job.status === "queued" || job.status === "running";
  $("#job").hidden = false;
  $("#cancel").hidden = !active;
  $("#progress").max = Math.max(job.total, 1);
  $("#progress").value = job.status === "done" ? $("#progress").max : job.done;
  const ahead = job.ahead ? " " + tn("({n} job before yours)", "({n} jobs before yours)", job.ahead) : "";
  const left = job.seconds_left === undefined ? "" : t("; {time} left", { time: aboutTime(job.seconds_left) });
  $("#progress-text").textContent = job.status === "queued" ? t("waiting for a worker{ahead}...", { ahead })
    : job.status === "running" ? running + left
    : { done: t("done"), cancelled: t("cancelled"), failed: t("failed") }[job.status] || job.status;
}

// Stop following `holder.job` and cancel it on the server (its result would be for something no
// longer shown); the bar goes.
export function forgetJob(holder) {
  const job = holder.job;
  clearTimeout(holder.timer);
  holder.job = null;
  $("#job").hidden = true;
  if (job && (job.status === "queued" || job.status === "running")) {
    call("DELETE", `/api/jobs/${job.id}`).catch(() => {});  // it ends by itself if this fails
  }
}

// The cancel button stops `holder.job`, then shows it with `show`.
export function cancelJobOnClick(holder, show) {
  $("#cancel").addEventListener("click", async () => {
    if (!holder.job) return;
    const id = holder.job.id;
    try {
      const job = await call("DELETE", `/api/jobs/${id}`);
      if (holder.job && holder.job.id === id) show(job);  // not forgotten meanwhile
    } catch (e) { showError(tLine(String(e.message || e))); }
  });
}
