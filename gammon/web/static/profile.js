// The profile on the account page: the analysed matches with their PR, error rates and luck, PR
// over time with its moving average (an SVG drawn here), the record against each opponent, luck,
// and the worst decisions with their boards. Everything the server sends is shown as text.
import { Board } from "./board.js";
import { $, addRow, call, decimal, signedDecimal, t, tLine, tn } from "./common.js";

const NS = "http://www.w3.org/2000/svg";
// Numbers read as text, in the page's language (a decimal comma in Polish, Czech and Slovak); the
// SVG's coordinates are not text and keep the point (`coord`).
const fmt = (x, digits = 1) => decimal(Number(x), digits);
const signed = (x, digits = 2) => signedDecimal(x, digits);
const coord = x => x.toFixed(1);

function svgEl(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

// PR of each match (dots) and the moving average (a line), oldest left; a lower PR is better.
export function drawTrend(svg, points) {
  svg.replaceChildren();
  svg.hidden = points.length === 0;
  if (!points.length) return;
  const W = 600, H = 200, L = 40, R = 10, T = 10, B = 24;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const top = Math.max(5, ...points.map(p => Math.max(p.pr, p.average))) * 1.1;
  const x = i => L + (points.length === 1 ? (W - L - R) / 2 : i * (W - L - R) / (points.length - 1));
  const y = v => T + (1 - v / top) * (H - T - B);
  for (const v of [0, top / 2, top]) {
    svgEl("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }, svg);
    svgEl("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "axis" }, svg).textContent = fmt(v, 0);
  }
  const first = points[0].played_at.slice(0, 10), last = points[points.length - 1].played_at.slice(0, 10);
  svgEl("text", { x: L, y: H - 6, class: "axis" }, svg).textContent = first;
  svgEl("text", { x: W - R, y: H - 6, "text-anchor": "end", class: "axis" }, svg).textContent = last;
  const line = points.map((p, i) => `${i ? "L" : "M"}${coord(x(i))},${coord(y(p.average))}`).join(" ");
  svgEl("path", { d: line, class: "average" }, svg);
  points.forEach((p, i) => {
    const dot = svgEl("circle", { cx: x(i), cy: y(p.pr), r: 4, class: "pr" }, svg);
    svgEl("title", {}, dot).textContent = t("{date}: PR {pr} (average {average})",
      { date: p.played_at.slice(0, 10), pr: fmt(p.pr, 2), average: fmt(p.average, 2) });
  });
}

function decisionText(d) {
  const dice = d.dice ? `${d.dice[0]}-${d.dice[1]}` : "";
  const played = tLine(d.played), best = tLine(d.best);
  const what = d.kind === "cube" ? t("{played} (best: {best})", { played, best })
    : t("{dice}: {played} (best: {best})", { dice, played, best });
  return `${what}, -${fmt(d.error, 3)} EMG, ${tLine(d.mark)}`;
}

// A decision's board as the decider saw it (the server sends it from that side).
export function drawDecision(svg, d, message = null) {
  if (!d.board) return;
  Board.draw(svg, {
    message,
    board: d.board, off: d.off, viewerLight: true, dice: d.dice, diceLight: true, diceRight: true,
    diceUsed: null, moverIsViewer: true, sources: new Set(), selected: null, dests: new Set(),
    onClick: () => {}, cube: d.match_length === 1 ? null : d.cube,
  });
}

function showWorst(list, worst) {
  list.replaceChildren();
  for (const d of worst) {
    const li = document.createElement("li");
    const svg = svgEl("svg", { viewBox: "0 0 900 640", class: "mini-board", role: "img",
                               "aria-label": t("the position") });
    const text = document.createElement("p");
    text.textContent = decisionText(d) + " ";
    const link = document.createElement("a");
    link.href = "/editor#id=" + encodeURIComponent(d.xgid);
    link.textContent = t("open in the editor");
    text.append(link);
    li.append(text, svg);
    list.append(li);
    drawDecision(svg, d);
  }
}

const WAIT_MS = 3000;  // while analyses wait, the profile is asked again this often
let again = null;

export async function showProfile() {
  clearTimeout(again);
  const p = await call("GET", "/api/account/profile");
  if (p.pending) again = setTimeout(() => showProfile().catch(() => {}), WAIT_MS);
  const n = p.matches.length;
  $("#pr").textContent = n ? tn("PR {pr} over {n} match", "PR {pr} over {n} matches", n, { pr: fmt(p.pr, 2) }) : "";
  $("#pending").textContent = p.pending ? tn("{n} analysis waiting", "{n} analyses waiting", p.pending) : "";
  $("#luck").textContent = n ? t("Luck: {total} EMG in all, {rate} mEMG a move",
                                          { total: signed(p.luck_total), rate: signed(p.luck_rate, 1) }) : "";
  const table = $("#matches");
  table.replaceChildren();
  if (n) addRow(table, [t("date"), t("opponent"), t("length"), t("score"), t("result"), "PR", t("checker"), t("cube"),
                     t("luck")], true);
  for (const m of p.matches.slice().reverse()) {
    addRow(table, [m.played_at.slice(0, 10), m.opponent, m.match_length || t("money"), `${m.score[0]}-${m.score[1]}`,
                tLine(m.result), fmt(m.pr, 2), fmt(m.checker_error_rate, 1), fmt(m.cube_error_rate, 1),
                signed(m.luck_rate, 1)]);
  }
  drawTrend($("#pr-chart"), p.pr_trend);
  const opponents = $("#opponents");
  opponents.replaceChildren();
  if (p.opponents.length) addRow(opponents, [t("opponent"), t("played"), t("won"), t("lost")], true);
  for (const o of p.opponents) addRow(opponents, [o.name, o.played, o.won, o.lost]);
  showWorst($("#worst"), p.worst);
  return p;
}
