"use strict";
// Section 2, kernel regression: the samples, the Nadaraya-Watson estimate, the kernel at the query,
// the weights and the leave-one-out error, computed live by the AttnMath port for any (sigma, q).
Explore.register("s2", (fig, data) => {
  const { svg, label, fixed, scale, polyline } = Explore;
  const A = AttnMath;
  const plot = fig.querySelector("svg");
  const out = Explore.parts(fig, "readout");
  const ctl = Explore.parts(fig, "control");
  const { x, y } = data;
  const n = x.length;
  const REGIMES = {
    argmax: "argmax: all weight on the nearest sample, a step function",
    intermediate: "intermediate: neighbours averaged, a smooth curve",
    uniform: "uniform: every sample equal, the global mean",
  };

  // --- layout: estimate (top left), weights (below it), leave-one-out error (right)
  const lo = Math.min(...y), hi = Math.max(...y), pad = 0.15 * (hi - lo);
  const sx = scale(0, 1, 70, 600);
  const sy = scale(lo - pad, hi + pad, 250, 30);
  const wy = scale(0, 1, 350, 290);
  const [logLo, logHi] = data.sigma_range.map(Math.log10);
  const lx = scale(logLo, logHi, 700, 930);
  const sigmas = Array.from({ length: data.grid_size }, (_, i) => 10 ** (logLo + ((logHi - logLo) * i) / (data.grid_size - 1)));
  const loo = sigmas.map((s) => A.looError(x, y, s));
  const ly = scale(0, 1.1 * Math.max(...loo), 250, 60);
  const xs = Array.from({ length: data.curve_points }, (_, i) => i / (data.curve_points - 1));

  function axes() {
    svg("line", { x1: 70, y1: 250, x2: 600, y2: 250, class: "axis" }, plot);
    svg("line", { x1: 70, y1: 30, x2: 70, y2: 250, class: "axis" }, plot);
    for (const t of [0, 0.25, 0.5, 0.75, 1]) label(plot, sx(t), 268, fixed(t, 2), "tick middle");
    for (const t of [-1, 0, 1]) if (t > lo - pad && t < hi + pad) label(plot, 62, sy(t) + 4, String(t), "tick end");
    label(plot, 335, 382, "position x (samples x_i, query q)", "axis-title middle");
    label(plot, 22, 140, "value y", "axis-title middle", { transform: "rotate(-90 22 140)" });
    svg("line", { x1: 70, y1: 350, x2: 600, y2: 350, class: "axis" }, plot);
    label(plot, 62, 300, "w_i(q)", "tick end weight-text");
    svg("line", { x1: 700, y1: 250, x2: 930, y2: 250, class: "axis" }, plot);
    for (let e = Math.ceil(logLo); e <= Math.floor(logHi); e++) label(plot, lx(e), 268, String(10 ** e), "tick middle");
    label(plot, 815, 290, "bandwidth σ (log scale)", "axis-title middle");
    label(plot, 815, 40, "leave-one-out error", "axis-title middle");
    svg("path", { d: polyline(sigmas.map((s) => lx(Math.log10(s))), loo.map(ly)), class: "curve text-curve" }, plot);
    const bx = lx(Math.log10(data.sigma_best)), by = ly(data.loo_best);
    svg("circle", { cx: bx, cy: by, r: 8, class: "min-ring" }, plot);
    label(plot, 815, 312, `ring: minimum at σ = ${fixed(data.sigma_best, 3)}`, "tick middle", {
      "data-readout": "sigma-best",
    });
  }

  axes();
  const bump = svg("path", { class: "curve temperature-curve" }, plot);
  const estimate = svg("path", { class: "curve text-curve thick" }, plot);
  for (let i = 0; i < n; i++) svg("circle", { cx: sx(x[i]), cy: sy(y[i]), r: 4, class: "value-dot" }, plot);
  const stems = x.map((xi) => svg("line", { x1: sx(xi), x2: sx(xi), y1: 350, y2: 350, class: "stem" }, plot));
  const maxLabel = label(plot, 608, 294, "", "tick weight-text", { "data-readout": "max-weight" });
  const qLine = svg("line", { y1: 30, y2: 350, class: "query-line" }, plot);
  const qDot = svg("circle", { r: 6, class: "query-dot" }, plot);
  const qHandle = svg("path", { class: "query-dot" }, plot);
  const looLine = svg("line", { y1: 60, y2: 250, class: "temperature-line" }, plot);
  const looDot = svg("circle", { r: 5, class: "temperature-dot" }, plot);
  const hit = svg("rect", { x: 60, y: 20, width: 550, height: 340, class: "drag-area" }, plot);

  let sigma = data.sigma_best;
  let q = data.query;

  function draw() {
    const w = A.kernelWeights(q, x, sigma);
    const fq = w.reduce((s, wi, i) => s + wi * y[i], 0);
    const h = A.entropy(w), k = Math.exp(h), err = A.looError(x, y, sigma);
    const top = Math.max(...w);
    estimate.setAttribute("d", polyline(xs.map(sx), A.nadarayaWatson(xs, x, y, sigma).map(sy)));
    const prof = A.kernelProfile(xs, q, sigma);
    bump.setAttribute("d", polyline(xs.map(sx), prof.map((p) => sy(lo - pad + 0.22 * (hi - lo + 2 * pad) * p))));
    stems.forEach((s, i) => s.setAttribute("y2", wy(w[i] / top)));
    maxLabel.textContent = `max w_i = ${fixed(top, 3)}`;
    qLine.setAttribute("x1", sx(q)); qLine.setAttribute("x2", sx(q));
    qDot.setAttribute("cx", sx(q)); qDot.setAttribute("cy", sy(fq));
    qHandle.setAttribute("d", `M${sx(q)},252l-8,14h16z`);
    const at = lx(Math.log10(sigma));
    looLine.setAttribute("x1", at); looLine.setAttribute("x2", at);
    looDot.setAttribute("cx", at); looDot.setAttribute("cy", ly(err));
    out.sigma.value = fixed(sigma, 3);
    out.query.value = fixed(q, 3);
    out.estimate.value = fixed(fq, 3);
    out.entropy.value = fixed(h, 3);
    out.keff.value = fixed(k, 2);
    out.loo.value = fixed(err, 4);
    out.regime.value = REGIMES[A.classifyRegime(k, n)];
  }

  const setSigma = Explore.logControl(ctl["log-sigma"], ctl.sigma, data.sigma_range, 3, (v) => { sigma = v; draw(); });

  function setQuery(v, from) {
    q = Math.min(1, Math.max(0, v));
    if (from !== ctl.query) ctl.query.value = String(q);
    if (from !== ctl["query-value"]) ctl["query-value"].value = fixed(q, 3);
    ctl.query.setAttribute("aria-valuetext", fixed(q, 3));
    draw();
  }
  ctl.query.addEventListener("input", () => setQuery(Number(ctl.query.value), ctl.query));
  ctl["query-value"].addEventListener("input", () => {
    const v = Number(ctl["query-value"].value);
    if (ctl["query-value"].value !== "" && v >= 0 && v <= 1) setQuery(v, ctl["query-value"]);
  });

  // Dragging anywhere over the estimate or the weights moves the query (pointer capture keeps it).
  const toX = (event) => {
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(plot.getScreenCTM().inverse());
    return sx.invert(p.x);
  };
  hit.addEventListener("pointerdown", (event) => { hit.setPointerCapture(event.pointerId); setQuery(toX(event)); });
  hit.addEventListener("pointermove", (event) => { if (hit.hasPointerCapture(event.pointerId)) setQuery(toX(event)); });

  setSigma(sigma);
  setQuery(q);
});
