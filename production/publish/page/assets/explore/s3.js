"use strict";
// Section 3, softmax as entropy-regularised retrieval: scores (editable), weights at temperature tau,
// and H(a), k_eff, E_a[s], J_tau(a) and the regime, computed live by the AttnMath port.
Explore.register("s3", (fig, data) => {
  const { svg, label, fixed, scale } = Explore;
  const plot = fig.querySelector("svg");
  const out = Explore.parts(fig, "readout");
  const ctl = Explore.parts(fig, "control");
  const inputs = [...fig.querySelectorAll("[data-score]")];
  const scores = data.scores.slice();
  const n = scores.length;
  const col = scale(0, n, 80, 930);
  const width = 0.6 * (col(1) - col(0));
  const REGIMES = {
    argmax: "argmax: all the weight on the best item",
    intermediate: "intermediate: several items share the weight",
    uniform: "uniform: every item counts the same",
  };

  // --- layout: scores (top), weights (bottom), one column per memory item
  label(plot, 80, 18, "scores s_i", "axis-title");
  label(plot, 80, 208, "weights a_i = softmax(s / τ)_i", "axis-title weight-text");
  const zero = svg("line", { x1: 75, x2: 935, class: "axis" }, plot);
  svg("line", { x1: 75, x2: 935, y1: 350, y2: 350, class: "axis" }, plot);
  const scoreTicks = [label(plot, 70, 0, "", "tick end"), label(plot, 70, 0, "", "tick end")];
  label(plot, 70, 354, "0", "tick end");
  const scoreZero = label(plot, 70, 0, "0", "tick end");
  label(plot, 70, 234, "1", "tick end");
  svg("line", { x1: 75, x2: 935, y1: 230, y2: 230, class: "grid-line" }, plot);
  const scoreBars = [], weightBars = [], weightText = [];
  for (let i = 0; i < n; i++) {
    const cx = col(i + 0.5);
    scoreBars.push(svg("rect", { x: cx - width / 2, width, class: "score-bar" }, plot));
    weightBars.push(svg("rect", { x: cx - width / 2, width, class: "weight-bar" }, plot));
    weightText.push(label(plot, cx, 0, "", "value-text weight-text middle", { "data-weight": i }));
    label(plot, cx, 370, data.names[i], "tick middle");
  }
  label(plot, 505, 388, "memory items", "tick middle");
  const wy = scale(0, 1, 350, 230);

  let tau = data.tau;

  function drawScores() {
    const lo = Math.min(0, ...scores), hi = Math.max(0, ...scores);
    const sy = scale(lo, hi === lo ? lo + 1 : hi, 170, 30);
    zero.setAttribute("y1", sy(0)); zero.setAttribute("y2", sy(0));
    scoreZero.setAttribute("y", sy(0) + 4);
    scoreBars.forEach((bar, i) => {
      bar.setAttribute("y", Math.min(sy(0), sy(scores[i])));
      bar.setAttribute("height", Math.abs(sy(scores[i]) - sy(0)));
    });
    scoreTicks[0].textContent = fixed(hi, 1); scoreTicks[0].setAttribute("y", sy(hi) + 4);
    scoreTicks[1].textContent = lo < 0 ? fixed(lo, 1) : ""; scoreTicks[1].setAttribute("y", sy(lo) + 4);
  }

  function draw() {
    const r = AttnMath.temperatureSweep(scores, tau);
    r.weights.forEach((w, i) => {
      weightBars[i].setAttribute("y", wy(w));
      weightBars[i].setAttribute("height", 350 - wy(w));
      weightText[i].setAttribute("y", wy(w) - 5);
      weightText[i].textContent = fixed(w, 3);
    });
    out.tau.value = fixed(tau, 3);
    out.entropy.value = fixed(r.entropy, 3);
    out.keff.value = fixed(r.effectiveK, 2);
    out.expected.value = fixed(r.expectedScore, 3);
    out.objective.value = fixed(r.objective, 3);
    out.regime.value = REGIMES[AttnMath.classifyRegime(r.effectiveK, n)];
  }

  const setTau = Explore.logControl(ctl["log-tau"], ctl.tau, data.tau_range, 3, (v) => { tau = v; draw(); });

  inputs.forEach((input, i) => {
    input.addEventListener("input", () => {
      const v = Number(input.value);
      const ok = input.value !== "" && Number.isFinite(v) && Math.abs(v) <= 1e6;
      input.setAttribute("aria-invalid", String(!ok));
      if (!ok) return;
      scores[i] = v;
      drawScores();
      draw();
    });
  });
  ctl.reset.addEventListener("click", () => {
    data.scores.forEach((s, i) => { scores[i] = s; inputs[i].value = String(s); inputs[i].removeAttribute("aria-invalid"); });
    drawScores();
    draw();
  });

  drawScores();
  setTau(tau);
});
