"use strict";
// Section 4, kernel variants: each kernel's weights over content similarity (computed live by the
// AttnMath port at the slider's tau) and over position (embedded from attnmath: no tau changes them).
Explore.register("s4", (fig, data) => {
  const { svg, label, fit, fixed, scale, polyline, steps } = Explore;
  const plot = fig.querySelector("svg");
  const out = Explore.parts(fig, "readout");
  const ctl = Explore.parts(fig, "control");
  const sim = data.similarity, offsets = data.offsets;
  const CONTENT = [40, 150], POSITION = [228, 338];
  const column = (j) => 100 + 172 * j;
  const top = (ys) => Math.max(...ys);

  label(plot, 22, 95, "content", "axis-title middle", { transform: "rotate(-90 22 95)" });
  label(plot, 22, 283, "position", "axis-title middle", { transform: "rotate(-90 22 283)" });
  label(plot, 530, 416, "top: cosine similarity of key and query · bottom: key position relative to the query",
    "tick middle");
  const curves = {}, readouts = {};
  data.variants.forEach((name, j) => {
    const x0 = column(j), x1 = x0 + 140;
    fit(label(plot, x0 + 70, 24, name, "name middle"), 165);
    const cx = scale(-1, 1, x0, x1), cy = scale(0, 1.05, CONTENT[1], CONTENT[0]);
    svg("line", { x1: x0, x2: x1, y1: CONTENT[1], y2: CONTENT[1], class: "axis" }, plot);
    for (const [v, t] of [[-1, "−1"], [0, "0"], [1, "+1"]]) label(plot, cx(v), CONTENT[1] + 15, t, "tick middle");
    curves[name] = { path: svg("path", { class: "curve weight-curve thick" }, plot), cx, cy };
    readouts[name] = {
      keff: label(plot, x0 + 70, 187, "", "value-text middle", { "data-readout": `content-keff-${j}` }),
      peak: label(plot, x0 + 70, 203, "", "value-text middle weight-text", { "data-readout": `content-peak-${j}` }),
    };
    const pos = data.position[name];
    const n = offsets.length;
    const px = scale(offsets[0] - 0.5, offsets[n - 1] + 0.5, x0, x1), py = scale(0, 1.05, POSITION[1], POSITION[0]);
    const peak = top(pos);
    svg("path", { d: steps(offsets.map(px), pos.map((w) => py(w / peak)), (x1 - x0) / n, POSITION[1]), class: "weight-area" }, plot);
    svg("line", { x1: x0, x2: x1, y1: POSITION[1], y2: POSITION[1], class: "axis" }, plot);
    label(plot, px(offsets[0]), POSITION[1] + 15, String(offsets[0]), "tick middle");
    label(plot, px(0), POSITION[1] + 15, "0", "tick middle");
    label(plot, x0 + 70, 375, `k_eff ${fixed(data.position_keff[name], 2)}`, "value-text middle",
      { "data-readout": `position-keff-${j}` });
    label(plot, x0 + 70, 391, `max a_i ${fixed(peak, 3)}`, "value-text middle weight-text",
      { "data-readout": `position-peak-${j}` });
  });

  function draw(tau) {
    const profiles = AttnMath.contentProfiles(sim, tau);
    for (const name of data.variants) {
      const w = profiles[data.kinds[name]];
      const { path, cx, cy } = curves[name];
      const peak = top(w);
      path.setAttribute("d", polyline(sim.map(cx), w.map((v) => cy(v / peak))));
      readouts[name].keff.textContent = `k_eff ${fixed(AttnMath.effectiveK(w), 2)}`;
      readouts[name].peak.textContent = `max a_i ${fixed(peak, 3)}`;
    }
    out.tau.value = fixed(tau, 3);
  }

  const setTau = Explore.logControl(ctl["log-tau"], ctl.tau, data.tau_range, 3, draw);
  setTau(data.tau);
});
