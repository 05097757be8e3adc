"use strict";
// Section 6, the KV cache: step through decoding; the causal mask, both heads' caches and their weights
// for the newest query. Every weight is attnmath's (two real KVCache objects), embedded per step.
Explore.register("s6", (fig, data) => {
  const { svg, label, fit, fixed, scale } = Explore;
  const plot = fig.querySelector("svg");
  const out = Explore.parts(fig, "readout");
  const ctl = Explore.parts(fig, "control");
  const words = data.words, n = words.length;
  const cell = Math.min(19, 210 / n);
  const gx = scale(0, n, 100, 100 + n * cell), gy = scale(0, n, 70, 70 + n * cell);
  const colW = Math.min(54, 550 / n);
  const X0 = 350;
  const cx = scale(0, n, X0, X0 + n * colW);

  // --- the mask
  label(plot, 100, 52, "causal mask", "axis-title");
  words.forEach((w, i) => fit(label(plot, 94, gy(i + 0.5) + 4, w, "tick end"), 80));
  const cells = data.mask.map((row, i) => row.map((ok, j) =>
    svg("rect", { x: gx(j), y: gy(i), width: cell, height: cell, class: "mask-cell" }, plot)));
  const rowMark = svg("rect", { x: gx(0), width: n * cell, height: cell, class: "mask-row" }, plot);
  label(plot, 100, gy(n) + 18, "rows: queries t", "tick");
  label(plot, 100, gy(n) + 34, "columns: keys", "tick");

  // --- the tokens and both heads' caches
  const tokens = words.map((w, j) => {
    const g = svg("g", {}, plot);
    const box = svg("rect", { x: cx(j) + 2, y: 20, width: colW - 4, height: 26, rx: 3, class: "word-box" }, g);
    fit(label(g, cx(j + 0.5), 38, w, "middle value-text"), colW - 8);
    return { g, box };
  });
  const heads = data.heads.map((name, h) => {
    const top = 70 + 150 * h;
    label(plot, X0, top + 10, name, "axis-title");
    const by = scale(0, 1, top + 62, top + 20);
    svg("line", { x1: X0, x2: cx(n), y1: top + 62, y2: top + 62, class: "axis" }, plot);
    const cols = words.map((_, j) => {
      const g = svg("g", {}, plot);
      const bar = svg("rect", { x: cx(j + 0.3), width: 0.4 * colW, class: "weight-bar" }, g);
      const text = label(g, cx(j + 0.5), top + 77, "", "value-text middle weight-text", { "data-head": h, "data-weight": j });
      svg("rect", { x: cx(j) + 6, y: top + 84, width: colW - 12, height: 18, class: "key-box" }, g);
      svg("rect", { x: cx(j) + 6, y: top + 106, width: colW - 12, height: 18, class: "value-box" }, g);
      return { g, bar, text };
    });
    label(plot, cx(n) + 8, top + 98, "k_i", "key-text value-text");
    label(plot, cx(n) + 8, top + 120, "v_i", "value-role-text value-text");
    return { by, top, cols };
  });

  function draw(t) {
    cells.forEach((row, i) => row.forEach((c, j) => {
      c.setAttribute("class", `mask-cell${i <= t && data.mask[i][j] ? " allowed" : ""}`);
    }));
    rowMark.setAttribute("y", gy(t));
    tokens.forEach(({ g, box }, j) => {
      g.setAttribute("visibility", j <= t ? "visible" : "hidden");
      box.setAttribute("class", `word-box${j === t ? " query" : ""}`);
    });
    heads.forEach(({ by, top, cols }, h) => {
      const w = data.weights[t][h];
      cols.forEach(({ g, bar, text }, j) => {
        g.setAttribute("visibility", j <= t ? "visible" : "hidden");
        if (j > t) return;
        bar.setAttribute("y", by(w[j]));
        bar.setAttribute("height", top + 62 - by(w[j]));
        text.textContent = fixed(w[j], 3);
      });
    });
    const what = t < data.n_prompt ? `end of the prompt ("${words[t]}")` : `"${words[t]}" generated`;
    out.step.value = `t = ${t}: ${what}; each cache holds ${t + 1} keys and ${t + 1} values`;
    ctl.step.setAttribute("aria-valuetext", `t = ${t}, ${words[t]}`);
    // aria-disabled, not disabled: a disabled button would drop the keyboard focus at either end
    ctl.previous.setAttribute("aria-disabled", String(t <= Number(ctl.step.min)));
    ctl.next.setAttribute("aria-disabled", String(t >= Number(ctl.step.max)));
  }

  const go = (t) => {
    const v = Math.min(Number(ctl.step.max), Math.max(Number(ctl.step.min), t));
    ctl.step.value = String(v);
    draw(v);
  };
  ctl.step.addEventListener("input", () => draw(Number(ctl.step.value)));
  ctl.previous.addEventListener("click", () => go(Number(ctl.step.value) - 1));
  ctl.next.addEventListener("click", () => go(Number(ctl.step.value) + 1));
  go(Number(ctl.step.value));
});
