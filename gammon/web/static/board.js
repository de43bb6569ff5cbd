// The backgammon board in SVG, drawn from the viewer's side: its home board bottom right,
// points 1-6 right to left along the bottom, 13-24 left to right along the top.
import { t, tn } from "./common.js";

export const Board = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const W = 60, R = 27, TOP = 30, BOTTOM = 610, POINT_H = 240;
  const BAR_X = 390, BAR_W = 60, TRAY_X = 830, TRAY_W = 50;

  function el(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  }

  function pointX(p) {  // left edge of point p (1-24, viewer's numbering)
    if (p <= 6) return 450 + (6 - p) * W;
    if (p <= 12) return 30 + (12 - p) * W;
    if (p <= 18) return 30 + (p - 13) * W;
    return 450 + (p - 19) * W;
  }
  const isTop = p => p >= 13;

  function stackY(p, i) { return isTop(p) ? TOP + R + i * 2 * R : BOTTOM - R - i * 2 * R; }

  function checker(g, cx, cy, light, attrs) {
    const c = el("g", Object.assign({ class: "checker" }, attrs || {}), g);
    el("circle", { cx, cy, r: R - 1, fill: light ? "url(#light)" : "url(#dark)",
                   stroke: light ? "#9b8f78" : "#000", "stroke-width": 1.5 }, c);
    el("circle", { cx, cy, r: R - 8, fill: "none", stroke: light ? "#d8cfbb" : "#3d3d3d",
                   "stroke-width": 1.5 }, c);
    return c;
  }

  function label(g, x, y, text, attrs) {
    const t = el("text", Object.assign({ x, y, "text-anchor": "middle", "dominant-baseline": "central" },
                                       attrs || {}), g);
    t.textContent = text;
    return t;
  }

  function defs(svg) {
    const d = el("defs", {}, svg);
    const grad = (id, c1, c2) => {
      const r = el("radialGradient", { id, cx: "40%", cy: "35%", r: "65%" }, d);
      el("stop", { offset: "0%", "stop-color": c1 }, r);
      el("stop", { offset: "100%", "stop-color": c2 }, r);
    };
    grad("light", "#fffdf6", "#e2d9c3");
    grad("dark", "#5a5a5a", "#161616");
    const wood = el("linearGradient", { id: "wood", x1: 0, y1: 0, x2: 1, y2: 1 }, d);
    el("stop", { offset: "0%", "stop-color": "#6d4424" }, wood);
    el("stop", { offset: "100%", "stop-color": "#4a2c16" }, wood);
    const shadow = el("filter", { id: "shadow", x: "-20%", y: "-20%", width: "140%", height: "140%" }, d);
    el("feDropShadow", { dx: 1.5, dy: 2, stdDeviation: 1.5, "flood-opacity": 0.45 }, shadow);
  }

  function die(g, x, y, value, light, used) {
    const s = DIE;
    const d = el("g", { class: "die", opacity: used ? 0.35 : 1, filter: "url(#shadow)" }, g);
    el("rect", { x, y, width: s, height: s, rx: 8, fill: light ? "#fbf8f0" : "#262626",
                 stroke: light ? "#a89f8a" : "#000" }, d);
    const pip = light ? "#222" : "#f2f2f2";
    const spots = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
                    4: [[1, 1], [1, 3], [3, 1], [3, 3]], 5: [[1, 1], [1, 3], [2, 2], [3, 1], [3, 3]],
                    6: [[1, 1], [1, 2], [1, 3], [3, 1], [3, 2], [3, 3]] }[value];
    for (const [cx, cy] of spots) el("circle", { cx: x + cx * s / 4, cy: y + cy * s / 4, r: 4.6, fill: pip }, d);
    return d;
  }

  const DIE = 48, DIE_STEP = 62;
  const diceCentre = right => right ? 630 : 210;  // the middle of the roller's half of the board

  function diceRow(m) {  // doubles are played four times: four dice
    const values = !m.dice ? [] : m.dice[0] === m.dice[1] ? [m.dice[0], m.dice[0], m.dice[0], m.dice[0]] : m.dice;
    const width = values.length ? values.length * DIE_STEP - (DIE_STEP - DIE) : 0;
    return { values, width, x: diceCentre(m.diceRight) - width / 2 };
  }

  // model: { board[26], off[2], viewerLight, dice, diceLight, diceRight, diceUsed[],
  //          cube {value, owner: "viewer"|"opponent"|null,
  //                offered: the doubler's side while a double waits, "viewer"|"opponent"|undefined},
  //          moverIsViewer, sources: Set, selected, dests: Set, onClick(target),
  //          and for the live game's input: onPick(from), onDrop(from, to), onCancel() }
  function draw(svg, m) {
    const input = inputOf(svg);
    input.m = m;
    const hadFocus = svg.contains(document.activeElement);  // a redraw keeps the keyboard's place
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    defs(svg);
    el("rect", { x: 0, y: 0, width: 900, height: 640, rx: 14, fill: "url(#wood)" }, svg);
    for (const x of [30, 450]) el("rect", { x, y: TOP, width: 360, height: BOTTOM - TOP, fill: "#1f5a36" }, svg);
    el("rect", { x: BAR_X, y: TOP - 8, width: BAR_W, height: BOTTOM - TOP + 16, fill: "#3e2412" }, svg);
    el("rect", { x: TRAY_X, y: TOP, width: TRAY_W, height: BOTTOM - TOP, rx: 4, fill: "#2d1a0c" }, svg);
    el("line", { x1: TRAY_X, x2: TRAY_X + TRAY_W, y1: 320, y2: 320, stroke: "#6d4424", "stroke-width": 2 }, svg);

    const sign = m.moverIsViewer ? 1 : -1;
    const targets = el("g", {}, svg);
    for (let p = 1; p <= 24; p++) {
      const x = pointX(p), top = isTop(p);
      const tipY = top ? TOP + POINT_H : BOTTOM - POINT_H, baseY = top ? TOP : BOTTOM;
      const fill = p % 2 ? "#b5382f" : "#eadfc4";
      el("polygon", { points: `${x + 2},${baseY} ${x + W - 2},${baseY} ${x + W / 2},${tipY}`, fill,
                      stroke: "#00000033" }, svg);
      // the number's size is set in style.css (larger on phones); a destination's number lights up
      label(svg, x + W / 2, top ? 16 : 625, String(p),
            { class: m.dests.has(p) ? "point-number dest-number" : "point-number" });
      if (m.dests.has(p)) {
        el("polygon", { points: `${x + 2},${baseY} ${x + W - 2},${baseY} ${x + W / 2},${tipY}`,
                        fill: "#7dff7a", opacity: 0.5, class: "dest" }, svg);
      }
    }
    // checkers on the points
    for (let p = 1; p <= 24; p++) {
      const n = m.board[p];
      if (!n) continue;
      const light = (n > 0) === m.viewerLight, count = Math.abs(n), shown = Math.min(count, 5);
      for (let i = 0; i < shown; i++) {
        const c = checker(svg, pointX(p) + W / 2, stackY(p, i), light);
        if (i === shown - 1 && input.drag && input.drag.moved && input.drag.from === p) c.classList.add("lifted");
        if (i === shown - 1) {
          const mine = Math.sign(n) === sign;
          if (mine && m.sources.has(p)) c.classList.add("movable");
          if (m.selected === p) el("circle", { cx: pointX(p) + W / 2, cy: stackY(p, i), r: R + 2, fill: "none",
                                              stroke: "#ffd54a", "stroke-width": 4 }, svg);
          else if (mine && m.sources.has(p)) el("circle", { cx: pointX(p) + W / 2, cy: stackY(p, i), r: R,
                                                    fill: "none", stroke: "#ffd54a", "stroke-width": 2,
                                                    "stroke-dasharray": "5 4" }, svg);
          if (count > 5) label(svg, pointX(p) + W / 2, stackY(p, i), String(count),
                               { "font-size": 20, "font-weight": 700, fill: light ? "#333" : "#eee" });
        }
      }
    }
    // where a picked checker can land: a ring on the next free place of the stack, beside a blot
    // it would hit; none on a full stack (the lit point and its number show it), so no mark covers
    // a checker
    for (const p of m.dests) {
      if (typeof p !== "number") continue;
      const n = m.board[p], i = Math.sign(n) === sign ? Math.abs(n) : Math.abs(n) === 1 ? 1 : 0;
      if (i >= 5) continue;
      el("circle", { cx: pointX(p) + W / 2, cy: stackY(p, i), r: R - 2, fill: "#7dff7a", "fill-opacity": 0.35,
                     stroke: "#c8ffb0", "stroke-width": 3, "stroke-dasharray": "6 4", class: "dest-mark" }, svg);
    }
    // the bar: the viewer's checkers below the middle, the opponent's above
    const bars = [[m.board[25], true], [-m.board[0], false]];
    for (const [n, viewerSide] of bars) {
      for (let i = 0; i < Math.min(n, 4); i++) {
        const cy = viewerSide ? 380 + R + i * 2 * R : 260 - R - i * 2 * R;
        checker(svg, BAR_X + BAR_W / 2, cy, viewerSide === m.viewerLight);
        if (i === Math.min(n, 4) - 1 && n > 1) label(svg, BAR_X + BAR_W / 2, cy, String(n),
                                                   { "font-size": 18, "font-weight": 700,
                                                     fill: viewerSide === m.viewerLight ? "#333" : "#eee" });
      }
    }
    const barMover = m.moverIsViewer ? 380 : 60;  // the mover's half of the bar
    if (m.sources.has("bar")) {
      el("rect", { x: BAR_X + 3, y: barMover, width: BAR_W - 6, height: 200, rx: 6, fill: "none",
                   stroke: "#ffd54a", "stroke-width": m.selected === "bar" ? 4 : 2,
                   "stroke-dasharray": m.selected === "bar" ? "" : "5 4" }, svg);
    }
    // borne-off checkers, seen edge on
    for (const [n, viewerSide] of [[m.off[0], true], [m.off[1], false]]) {
      for (let i = 0; i < n; i++) {
        const y = viewerSide ? BOTTOM - 4 - (i + 1) * 12 : TOP + 4 + i * 12, light = viewerSide === m.viewerLight;
        el("rect", { x: TRAY_X + 5, y, width: TRAY_W - 10, height: 10, rx: 3,
                     fill: light ? "#efe7d4" : "#262626", stroke: light ? "#9b8f78" : "#000" }, svg);
      }
    }
    if (m.dests.has("off")) {
      // an outline round the mover's half of the tray, clear of the checkers borne off inside it
      el("rect", { x: TRAY_X + 1.5, y: m.moverIsViewer ? 322 : TOP + 1.5, width: TRAY_W - 3, height: 285,
                   rx: 4, fill: "none", stroke: "#7dff7a", "stroke-width": 3, class: "dest" }, svg);
    }
    // the cube: in the middle of the tray while centred, else on its owner's side; a cube being
    // offered lies on the doubler's half of the board, at the value offered
    if (m.cube) {
      const offered = m.cube.offered;
      const x = offered ? diceCentre(offered === "viewer") - 24 : TRAY_X + 1;
      const y = offered ? 296 : m.cube.owner === "viewer" ? 360 : m.cube.owner === "opponent" ? 232 : 296;
      // centred at 1 the cube shows 1, as players expect (a physical cube's 64 face reads as a value)
      const value = offered ? 2 * m.cube.value : m.cube.value;
      const g = el("g", { class: "cube", filter: "url(#shadow)", "data-value": value,
                         "data-where": offered ? "offered" : m.cube.owner || "centre" }, svg);
      el("rect", { x, y, width: 48, height: 48, rx: 7, fill: "#fafafa", stroke: "#888" }, g);
      label(g, x + 24, y + 24, String(value), { "font-size": 22, "font-weight": 700, fill: "#222" });
    }
    const dice = diceRow(m);
    dice.values.forEach((v, i) => die(svg, dice.x + i * DIE_STEP, 296, v, m.diceLight,
                                      m.diceUsed && m.diceUsed[i]));
    if (m.message) {
      // in the band between the top and the bottom stacks (five checkers drawn on a point at most):
      // it covers no checker and no stack count
      const g = el("g", { class: "message" }, svg);
      const y = TOP + 10 * R + 2, h = BOTTOM - TOP - 20 * R - 4;
      el("rect", { x: 50, y, width: 320, height: h, rx: 8, fill: "#000000aa" }, g);
      label(g, 210, y + h / 2, m.message, { fill: "#fff", "font-size": 20, "font-weight": 600 });
    }
    // click targets on top of everything: points, the bar, the tray
    const hit = (target, x, y, w, h) => {
      const r = el("rect", { x, y, width: w, height: h, fill: "transparent", "data-target": String(target),
                             class: m.sources.has(target) ? "target movable" : "target" }, targets);
      r.addEventListener("click", () => m.onClick(target));
      if (m.onDrop && target !== "dice") {
        Object.assign(r.dataset, { key: String(target) });
        r.setAttribute("role", "button");
        r.setAttribute("aria-label", targetName(m, target));
        r.setAttribute("tabindex", target === focusTarget(input) ? "0" : "-1");
      }
      // the shape a drag began on stays: a touch's events go on to it, and would not reach the board
      // from a shape taken out of it
      const pressed = input.drag && input.drag.shape;
      if (pressed && pressed.dataset.target === String(target)) {
        for (const a of ["aria-label", "tabindex"]) if (r.hasAttribute(a)) pressed.setAttribute(a, r.getAttribute(a));
        targets.replaceChild(pressed, r);
        return pressed;
      }
      return r;
    };
    svg.appendChild(targets);
    for (let p = 1; p <= 24; p++) hit(p, pointX(p), isTop(p) ? TOP : BOTTOM - 290, W, 290);
    hit("bar", BAR_X, m.moverIsViewer ? 320 : TOP, BAR_W, 290);
    hit("off", TRAY_X, m.moverIsViewer ? 320 : TOP, TRAY_W, 290);
    if (dice.values.length) hit("dice", dice.x, 296, dice.width, 48);
    if (m.onDrop) svg.setAttribute("role", "group");  // its points are controls: not a picture
    if (input.drag && input.drag.moved) ghost(svg, input);
    if (hadFocus && m.onDrop) focusOn(svg, focusTarget(input), { preventScroll: true });
  }

  // ---- the live game's input: drag and drop (mouse, pen, touch) and the keyboard ------------------
  // One state per board, kept over redraws: the listeners sit on the <svg>, which draw() keeps.
  const inputs = new WeakMap();
  const DRAG_PX = 6;  // a press that moves less is a click
  // the keyboard's rows as seen: the top from 13 to 24, the bottom from 12 to 1, the bar and the
  // tray in both
  const ROWS = [[13, 14, 15, 16, 17, 18, "bar", 19, 20, 21, 22, 23, 24, "off"],
                [12, 11, 10, 9, 8, 7, "bar", 6, 5, 4, 3, 2, 1, "off"]];

  function inputOf(svg) {
    let s = inputs.get(svg);
    if (s) return s;
    s = { m: null, drag: null, focus: null, row: 1, swallowClick: false };
    inputs.set(svg, s);
    svg.addEventListener("pointerdown", ev => press(svg, s, ev));
    svg.addEventListener("pointermove", ev => drag(svg, s, ev));
    svg.addEventListener("pointerup", ev => release(svg, s, ev));
    svg.addEventListener("pointercancel", () => endDrag(svg, s, null));
    // A finger on a checker to move drags it: the page does not scroll under it (Chromium heeds no
    // touch-action on an SVG shape, so the touch's moves are held back instead)
    svg.addEventListener("touchmove", ev => { if (s.drag && ev.cancelable) ev.preventDefault(); }, { passive: false });
    // the click the browser sends after a drag's release is not a click on the board
    svg.addEventListener("click", ev => {
      if (s.swallowClick) { s.swallowClick = false; ev.stopPropagation(); }
    }, true);
    svg.addEventListener("keydown", ev => key(svg, s, ev));
    return s;
  }

  const parseTarget = v => (/^\d+$/.test(v) ? Number(v) : v);

  function targetAt(svg, x, y) {
    const under = document.elementFromPoint(x, y);
    const shape = under && svg.contains(under) && under.closest("rect.target");
    return shape ? parseTarget(shape.dataset.target) : null;
  }

  function press(svg, s, ev) {
    s.swallowClick = false;
    const m = s.m, r = ev.target.closest && ev.target.closest("rect.target");
    if (!m || !m.onDrop || !r || ev.button !== 0 || s.drag) return;
    const from = parseTarget(r.dataset.target);
    if (r.dataset.key) s.focus = from;
    if (!m.sources.has(from)) return;
    s.drag = { from, shape: r, id: ev.pointerId, x0: ev.clientX, y0: ev.clientY, x: ev.clientX, y: ev.clientY,
               moved: false };
  }

  function drag(svg, s, ev) {
    const d = s.drag;
    if (!d || ev.pointerId !== d.id) return;
    d.x = ev.clientX; d.y = ev.clientY;
    if (!d.moved) {
      if (Math.hypot(d.x - d.x0, d.y - d.y0) < DRAG_PX) return;
      d.moved = true;
      svg.setPointerCapture(d.id);  // the <svg> stays while the board is drawn anew under the checker
      if (s.m.onPick) s.m.onPick(d.from); else draw(svg, s.m);  // it shows where it may go, as a click does
      return;
    }
    const g = svg.querySelector("g.dragged");
    if (g) place(svg, g, d);
  }

  function release(svg, s, ev) {
    const d = s.drag;
    if (!d || ev.pointerId !== d.id) return;
    if (!d.moved) { s.drag = null; return; }  // a click: the browser's click event follows
    s.swallowClick = true;
    endDrag(svg, s, targetAt(svg, ev.clientX, ev.clientY));
  }

  function endDrag(svg, s, to) {  // to: where it was let go, null when the drag was called off
    const d = s.drag;
    s.drag = null;
    if (!d || !d.moved) return;
    if (svg.hasPointerCapture(d.id)) svg.releasePointerCapture(d.id);
    // the board may have stopped taking moves meanwhile (the other side's play being shown)
    if (!s.m.onDrop) draw(svg, s.m); else if (to === null) s.m.onCancel(); else s.m.onDrop(d.from, to);
  }

  function place(svg, g, d) {  // the dragged checker under the pointer, in the board's units
    const ctm = svg.getScreenCTM();
    if (!ctm) return;
    const p = new DOMPoint(d.x, d.y).matrixTransform(ctm.inverse());
    g.setAttribute("transform", `translate(${p.x} ${p.y})`);
  }

  function ghost(svg, s) {
    const m = s.m, n = m.board[s.drag.from === "bar" ? (m.moverIsViewer ? 25 : 0) : s.drag.from] || 0;
    const viewers = s.drag.from === "bar" ? m.moverIsViewer : n > 0;
    const g = el("g", { class: "dragged" }, svg);
    checker(g, 0, 0, viewers === m.viewerLight);
    place(svg, g, s.drag);
  }

  function focusTarget(s) {
    if (s.focus !== null) return s.focus;
    const m = s.m;
    if (m.selected !== null && m.selected !== undefined) return m.selected;
    const first = [...m.sources][0];
    return first !== undefined ? first : m.moverIsViewer ? 1 : 24;
  }

  function focusOn(svg, target, options) {
    const r = svg.querySelector(`rect.target[data-key="${target}"]`);
    if (r) r.focus(options);
  }

  // what a screen reader says of a point, the bar or the tray: what is on it, and what it offers now
  function targetName(m, target) {
    const parts = [];
    if (target === "bar" || target === "off") {
      const own = target === "bar" ? m.board[25] : m.off[0], other = target === "bar" ? -m.board[0] : m.off[1];
      const [light, dark] = m.viewerLight ? [own, other] : [other, own];
      parts.push(target === "bar" ? t("bar: {light} light, {dark} dark", { light, dark })
        : t("borne off: {light} light, {dark} dark", { light, dark }));
    } else {
      const n = m.board[target] || 0, count = Math.abs(n), p = target;
      parts.push(!n ? t("point {p}, empty", { p })
        : (n > 0) === m.viewerLight ? tn("point {p}, {n} light checker", "point {p}, {n} light checkers", count, { p })
          : tn("point {p}, {n} dark checker", "point {p}, {n} dark checkers", count, { p }));
    }
    if (m.selected === target) parts.push(t("picked"));
    else if (m.dests.has(target)) parts.push(t("a checker can go here"));
    else if (m.sources.has(target)) parts.push(t("a checker to move"));
    return parts.join("; ");
  }

  function key(svg, s, ev) {
    const m = s.m, r = ev.target.closest && ev.target.closest("rect.target");
    if (!m || !m.onDrop || !r) return;
    const at = parseTarget(r.dataset.target);
    if (!ROWS[s.row].includes(at)) s.row = ROWS[0].includes(at) ? 0 : 1;
    const i = ROWS[s.row].indexOf(at), last = ROWS[0].length - 1;
    const to = { ArrowLeft: [s.row, i - 1], ArrowRight: [s.row, i + 1], ArrowUp: [0, i], ArrowDown: [1, i],
                 Home: [s.row, 0], End: [s.row, last] }[ev.key];
    if (to) {
      s.row = to[0]; s.focus = ROWS[s.row][Math.max(0, Math.min(last, to[1]))];
      draw(svg, m);  // the roving tabindex moves with the focus
      focusOn(svg, s.focus);
    } else if (ev.key === "Enter" || ev.key === " ") {
      s.focus = at;
      const picked = m.selected !== null && m.selected !== undefined;
      if (picked && (m.dests.has(at) || !m.sources.has(at))) m.onDrop(m.selected, at);
      else m.onClick(at);
    } else if (ev.key === "Escape") {
      if (s.drag) endDrag(svg, s, null); else if (m.selected !== null && m.selected !== undefined) m.onCancel();
      else return;
    } else return;
    ev.preventDefault();
  }

  return { draw };
})();
