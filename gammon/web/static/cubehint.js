// The game page's cube hint in words: the engine's cube decision for the player who decides now,
// double or not before the roll, take or pass when doubled (the server's equities are the
// doubler's: the taker's are their negation). The answers are named as the analysis names them
// (cubeActionWord): the plain "take" is the terminal's command, Czech "přijmi" said as 'ty'.
import { cubeActionWord, percent, signedDecimal, t, tLine } from "./common.js";

const signed = x => signedDecimal(x, 3);
const pct = x => percent(x, 1);

// The hint's lines (GET /api/matches/<id>/hint's answer for a cube decision).
export function cubeHintLines(data) {
  const c = data.cube, mwc = c.mwc, depth = data.plies === null ? "" : t(", {plies}-ply", { plies: data.plies });
  const unit = mwc ? t("match winning chances{depth}", { depth }) : t("cubeful equity{depth}", { depth });
  const doubler = i => mwc ? pct(mwc[i]) : signed([c.no_double, c.double_take, c.double_pass][i]);
  if (c.question === "double" && !c.available) {  // no double it can make: its equities are null
    return [t("Engine: {verdict}", { verdict: tLine(c.action) }), t("{unit}: no double {nd}", { unit, nd: doubler(0) })];
  }
  if (c.question === "double") {
    const verdict = t("{action} (if doubled, the opponent should {answer})",
                      { action: tLine(c.action), answer: cubeActionWord(c.answer) });
    return [t("Engine: {verdict}", { verdict }),
            t("{unit}: no double {nd}, double/take {dt}, double/pass {dp}",
              { unit, nd: doubler(0), dt: doubler(1), dp: doubler(2) })];
  }
  const value = i => mwc ? pct(1 - mwc[i]) : signed(-[c.double_take, c.double_pass][i - 1]);
  return [t("Engine: {verdict}", { verdict: cubeActionWord(c.answer) }),
          t("{unit}: take {take}, pass {pass}", { unit, take: value(1), pass: value(2) })];
}
