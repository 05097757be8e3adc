"use strict";
// Section 6, the KV cache, in two views.
// Stylised: step through decoding; the causal mask, both heads' caches and their weights for the newest
// query. Every weight is attnmath's (two real KVCache objects), embedded per step.
// Trained decoder: SmolLM2-135M-Instruct's loss on the lecture's passage under three caches (full, a window,
// sinks + the window), drawn as trailing means, with one prediction chosen by a slider. Every loss and
// trailing mean is attnmath's, embedded.
Explore.register("s6", (fig, data) => {
  stylised(fig.querySelector("[data-pane='stylised']"), data);
  const pane = fig.querySelector("[data-pane='decoder']");
  const drawEviction = decoder(pane, data.decoder.eviction);
  const show = { decoder: () => { sinks(pane.querySelector("svg.sink-grid"), data.decoder); drawEviction(); } };
  fig.querySelectorAll("[data-view]").forEach((r) => r.addEventListener("change", () => {
    for (const pane of fig.querySelectorAll("[data-pane]")) pane.hidden = pane.dataset.pane !== r.value;
    show[r.value]?.();
  }));

  function stylised(pane, data) {
    const { svg, label, fit, fixed, scale } = Explore;
    const plot = pane.querySelector("svg");
    const out = Explore.parts(pane, "readout");
    const ctl = Explore.parts(pane, "control");
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
    }

    Explore.stepper(ctl.step, ctl.previous, ctl.next, draw);
  }

  // The sink grid: a cell a head, layers across, its share of weight on the first token as its opacity.
  function sinks(plot, d) {
    if (plot.childElementCount) return;
    const { svg, label, scale } = Explore;
    const x = scale(0, d.layers, 80, 920), y = scale(0, d.query_heads, 20, 200);
    d.sink_share.forEach((row, l) => row.forEach((share, h) => {
      const sink = share > d.sink_threshold;
      svg("rect", { x: x(l) + 1, y: y(h) + 1, width: x(1) - x(0) - 2, height: y(1) - y(0) - 2,
        class: `sink-cell${sink ? " sink" : ""}`, "fill-opacity": share.toFixed(3), "data-head": `${l}-${h}` }, plot);
    }));
    for (let h = 0; h < d.query_heads; h++) label(plot, x(0) - 8, y(h + 0.5) + 5, String(h + 1), "tick end");
    for (let l = 0; l < d.layers; l += 5) label(plot, x(l + 0.5), y(d.query_heads) + 18, String(l + 1), "tick middle");
    label(plot, 24, y(d.query_heads / 2) + 5, "head", "axis-title middle");
    label(plot, 500, y(d.query_heads) + 40, `layer; outlined: over ${d.sink_threshold * 100}% on the first token`,
      "axis-title middle");
  }

  // The decoder view; returns what draws its plot, once, when it is first shown.
  function decoder(pane, e) {
    const { svg, label, fixed, scale, polyline } = Explore;
    const plot = pane.querySelector("svg.eviction-plot");
    const out = Explore.parts(pane, "readout");
    const ctl = Explore.parts(pane, "control");
    const CACHES = [["full", "full cache", "text"], ["window", `window of ${e.window}`, "warning"],
      ["sinks_window", `${e.sinks} sinks + window`, "value"]];
    const n = e.tokens - 1, w = e.trailing_width;
    const top = Math.ceil(Math.max(...CACHES.map(([c]) => Math.max(...e.trailing[c]))));
    const x = scale(0, n - 1, 70, 830), y = scale(0, top, 280, 30);
    let cursor = null, dots = [], drawn = false;

    function draw() {
      svg("rect", { x: x(0), y: y(top), width: x(e.start) - x(0), height: y(0) - y(top), class: "uncounted" }, plot);
      label(plot, (x(0) + x(e.start)) / 2, y(top) + 16, "not in the means", "tick middle");
      for (let v = 0; v <= top; v++) {
        svg("line", { x1: x(0), x2: x(n - 1), y1: y(v), y2: y(v), class: "grid-line" }, plot);
        label(plot, x(0) - 8, y(v) + 5, String(v), "tick end");
      }
      for (let t = 0; t < n; t += 50) label(plot, x(t), y(0) + 20, String(t + 1), "tick middle");
      svg("line", { x1: x(0), x2: x(n - 1), y1: y(0), y2: y(0), class: "axis" }, plot);
      label(plot, 450, y(0) + 42, "after token", "axis-title middle");
      label(plot, 18, 155, `loss (nats), mean of the last ${w}`, "axis-title middle", { transform: "rotate(-90 18 155)" });
      svg("line", { x1: x(e.window), x2: x(e.window), y1: y(0), y2: y(top), class: "evict-line" }, plot);
      label(plot, x(e.window) + 6, y(top) + 34, "token 1 leaves the window", "tick warning-text");
      const xs = e.trailing.full.map((_, k) => x(k + w - 1));
      const ends = CACHES.map(([c]) => y(e.trailing[c][e.trailing[c].length - 1]));
      const order = [...ends.keys()].sort((a, b) => ends[a] - ends[b]);
      order.forEach((k, r) => { if (r) ends[k] = Math.max(ends[k], ends[order[r - 1]] + 16); });  // no overlap
      CACHES.forEach(([c, name, role], k) => {
        svg("path", { d: polyline(xs, e.trailing[c].map(y)), class: `curve ${role}-curve`, "data-curve": c }, plot);
        label(plot, 840, ends[k] + 5, name, `value-text ${role}-text`);
      });
      cursor = svg("line", { y1: y(0), y2: y(top), class: "cursor-line" }, plot);
      dots = CACHES.map(([, , role]) => svg("circle", { r: 4.5, class: `${role}-dot` }, plot));
    }

    function choose(i) {
      const losses = CACHES.map(([c]) => fixed(e.losses[c][i], 3)).join(", ");
      let text = `after token ${i + 1}, predicting token ${i + 2}, ${e.texts[i + 1]}: loss ${losses} nats ` +
        "(full cache, window, sinks + window)";
      if (i >= w - 1) {
        text += `; mean of the last ${w}: ${CACHES.map(([c]) => fixed(e.trailing[c][i - w + 1], 3)).join(", ")}`;
      }
      out.position.value = `${text}.`;
      ctl.position.setAttribute("aria-valuetext", `after token ${i + 1}, predicting ${e.texts[i + 1]}`);
      if (!cursor) return;
      cursor.setAttribute("x1", x(i));
      cursor.setAttribute("x2", x(i));
      CACHES.forEach(([c], k) => {
        const shown = i >= w - 1;
        dots[k].setAttribute("visibility", shown ? "visible" : "hidden");
        dots[k].setAttribute("cx", x(i));
        dots[k].setAttribute("cy", shown ? y(e.trailing[c][i - w + 1]) : y(0));
      });
    }

    Explore.stepper(ctl.position, ctl.earlier, ctl.later, choose);
    return () => {
      if (drawn) return;
      drawn = true;
      draw();
      choose(Number(ctl.position.value));
    };
  }
});
