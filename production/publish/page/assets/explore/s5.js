"use strict";
// Section 5, multi-head routing, in two views.
// Stylised: the chosen head's weights from the chosen query word, as arcs over the sentence and as bars
// with their values. Every weight is attnmath's, embedded (4 x T x T).
// Trained model: all-MiniLM-L6-v2's 72 heads as small weight maps (buttons); the chosen head as a large
// grid, a table of its weights and a readout. The word-level weights (L x H x W x K), the head scores and
// the matches are attnmath's, embedded (the weights to the 2 decimals the table prints).
// Trained decoder: SmolLM2-135M-Instruct's 270 heads on random tokens read twice, as small causal maps
// (one tab stop, arrow keys between them); the chosen head large, with its three scores. The maps
// (in hundredths, lower triangle row by row) and the scores are attnmath's, embedded.
Explore.register("s5", (fig, data) => {
  const out = Explore.parts(fig, "readout");
  stylised(fig.querySelector("[data-pane='stylised']"), data, out);
  const show = {
    model: trained(fig.querySelector("[data-pane='model']"), data.model, out),
    decoder: decoder(fig.querySelector("[data-pane='decoder']"), data.decoder, out),
  };
  fig.querySelectorAll("[data-view]").forEach((r) => r.addEventListener("change", () => {
    for (const pane of fig.querySelectorAll("[data-pane]")) pane.hidden = pane.dataset.pane !== r.value;
    show[r.value]?.();
  }));

  function stylised(pane, data, out) {
    const { svg, label, fit, fixed, scale } = Explore;
    const plot = pane.querySelector("svg");
    const words = data.words, n = words.length;
    const cx = scale(0, n, 40, 920);
    const colW = cx(1) - cx(0);
    const ROW = 170, BOX = 32, BARS = [222, 282];
    const by = scale(0, 1, BARS[1], BARS[0]);

    const title = label(plot, 480, 22, "", "name middle weight-text");
    const arcs = svg("g", {}, plot);
    const boxes = words.map((w, j) => {
      const box = svg("rect", { x: cx(j) + 3, y: ROW, width: colW - 6, height: BOX, rx: 4, class: "word-box" }, plot);
      fit(label(plot, cx(j + 0.5), ROW + 21, w, "middle"), colW - 12);
      return box;
    });
    svg("line", { x1: 40, x2: 920, y1: BARS[1], y2: BARS[1], class: "axis" }, plot);
    const bars = words.map((_, j) => svg("rect", { x: cx(j + 0.3), width: 0.4 * colW, class: "weight-bar" }, plot));
    const values = words.map((_, j) => label(plot, cx(j + 0.5), BARS[1] + 18, "", "value-text middle", { "data-weight": j }));
    label(plot, 36, BARS[0] + 4, "1", "tick end");
    label(plot, 36, BARS[1] + 4, "0", "tick end");
    label(plot, 480, 322, "weight a_j from the query word (outlined) to each word j", "tick middle");

    let head = data.head, query = data.query;

    function arc(i, j, w) {
      const style = { class: "arc", "stroke-width": 1 + 8 * w, "stroke-opacity": 0.25 + 0.75 * w };
      if (i === j) return svg("circle", { cx: cx(i + 0.5), cy: ROW - 14, r: 12, ...style }, arcs);
      const x1 = cx(i + 0.5), x2 = cx(j + 0.5);
      const h = Math.min(135, 25 + 0.45 * Math.abs(x1 - x2));
      return svg("path", { d: `M${x1},${ROW - 2}Q${(x1 + x2) / 2},${ROW - 2 - 2 * h} ${x2},${ROW - 2}`, ...style }, arcs);
    }

    function draw() {
      const row = data.weights[head][query];
      title.textContent = `H${head + 1}: ${data.names[head]}`;
      arcs.replaceChildren();
      boxes.forEach((b, j) => b.setAttribute("class", `word-box${j === query ? " query" : ""}${j > query ? " future" : ""}`));
      row.forEach((w, j) => {
        if (j <= query && w >= 0.01) arc(query, j, w);
        bars[j].setAttribute("y", by(w));
        bars[j].setAttribute("height", BARS[1] - by(w));
        values[j].textContent = j > query ? "masked" : fixed(w, 3);
        values[j].setAttribute("class", `value-text middle ${j > query ? "warning-text" : "weight-text"}`);
      });
      const best = row.indexOf(Math.max(...row));
      out.summary.value = `H${head + 1} from "${words[query]}": largest weight ${fixed(row[best], 3)} on ` +
        `${best === query ? "itself" : `"${words[best]}"`}.`;
    }

    pane.querySelectorAll("[data-head]").forEach((r) => r.addEventListener("change", () => { head = Number(r.value); draw(); }));
    pane.querySelectorAll("[data-query]").forEach((r) => r.addEventListener("change", () => { query = Number(r.value); draw(); }));
    draw();
  }

  // The trained view; returns what draws it once it is visible (SVG text is measured only when shown).
  function trained(pane, m, out) {
    const { svg, label, fit, fixed } = Explore;
    const W = m.queries.length, K = m.keys.length;
    const colour = getComputedStyle(document.documentElement).getPropertyValue("--weight").trim();
    const buttons = [...pane.querySelectorAll("[data-map]")];
    const cells = [...pane.querySelectorAll("[data-cell]")];
    const at = (el) => el.dataset.map ?? el.dataset.show;
    const name = (l, h) => `layer ${l + 1}, head ${h + 1}`;

    for (const b of buttons) {
      const [l, h] = at(b).split("-").map(Number);
      const canvas = b.querySelector("canvas");
      const ctx = canvas.getContext("2d");
      const cw = canvas.width / K, ch = canvas.height / W;
      ctx.fillStyle = colour;
      m.weights[l][h].forEach((row, i) => row.forEach((w, j) => {
        ctx.globalAlpha = w;
        ctx.fillRect(j * cw, i * ch, cw, ch);
      }));
      b.addEventListener("click", () => choose(l, h));
    }
    pane.querySelectorAll("[data-show]").forEach((b) => b.addEventListener("click", () => {
      const [l, h] = at(b).split("-").map(Number);
      choose(l, h);
      pane.querySelector(`[data-map='${l}-${h}']`).focus();
    }));

    // The large grid: rows the query words, columns the keys; dashed cells are keys after the query
    // word, which a causal head could not see.
    const plot = pane.querySelector("svg");
    const CELL = Math.min(44, Math.floor(640 / K)), LEFT = 130, TOP = 84;
    const width = LEFT + K * CELL + 16, height = TOP + W * CELL + 8;
    plot.setAttribute("viewBox", `0 0 ${width} ${height}`);
    plot.style.maxWidth = `${width}px`;
    const grid = svg("g", {}, plot);
    const rects = m.queries.map((_, i) => m.keys.map((_, j) => {
      const later = j > i + 1;  // keys: [CLS], the words, [SEP]; word i is key i + 1
      svg("rect", { x: LEFT + j * CELL, y: TOP + i * CELL, width: CELL, height: CELL, class: `grid-cell${later ? " later" : ""}` }, grid);
      return svg("rect", { x: LEFT + j * CELL + 1, y: TOP + i * CELL + 1, width: CELL - 2, height: CELL - 2, class: "weight-cell" }, grid);
    }));
    let labelled = false;

    function labels() {  // once, while visible, so that long words can be fitted
      labelled = true;
      m.queries.forEach((q, i) => fit(label(plot, LEFT - 8, TOP + (i + 0.5) * CELL + 5, q, "end query-text"), LEFT - 12));
      m.keys.forEach((k, j) => {
        const x = LEFT + (j + 0.5) * CELL + 4, y = TOP - 8;
        label(plot, x, y, k, "key-text", { transform: `rotate(-50 ${x} ${y})` });
      });
      label(plot, LEFT - 8, TOP - 8, "query ↓  key →", "tick end");
    }

    let layer = m.chosen[0], head = m.chosen[1];

    function summary(l, h) {
      const score = (place) => m.scores[place][l][h];
      const best = Object.keys(m.places).reduce((a, b) => (score(b) > score(a) ? b : a));
      const most = score(best) >= 0.5 ? "most of each word's weight goes to" : "no one place takes half; the largest share goes to";
      return `measured, ${name(l, h)}: ${most} ${m.places[best]} (${fixed(score(best), 2)} on average over the words); ` +
        `[CLS] gets ${fixed(score("cls"), 2)}.`;
    }

    function draw() {
      const w = m.weights[layer][head];
      const text = `measured: ${m.name}, ${name(layer, head)}`;
      out["model-label"].textContent = text;
      out["model-caption"].textContent = `Weights of ${m.name}, ${name(layer, head)}: from each query word (row) ` +
        "to each key (column), 2 decimals; each row sums to 1";
      plot.setAttribute("aria-label", `${text}: weight grid; the table below lists its weights`);
      rects.forEach((row, i) => row.forEach((r, j) => r.setAttribute("fill-opacity", w[i][j])));
      for (const c of cells) {
        const [i, j] = c.dataset.cell.split("-").map(Number);
        c.textContent = fixed(w[i][j], 2);
      }
      for (const b of buttons) b.setAttribute("aria-pressed", String(at(b) === `${layer}-${head}`));
      out["model-summary"].value = summary(layer, head);
    }

    function choose(l, h) {
      layer = l;
      head = h;
      draw();
    }

    draw();
    return () => { if (!labelled) labels(); };
  }

  // A T x T causal map on a canvas from its lower triangle (row i starts at i (i + 1) / 2), in hundredths;
  // `split` = [n, colour] draws lines between the first n positions and the rest, on both axes.
  function causalMap(canvas, map, T, colour, split) {
    const ctx = canvas.getContext("2d"), c = canvas.width / T;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = colour;
    for (let i = 0; i < T; i++) {
      for (let j = 0; j <= i; j++) {
        ctx.globalAlpha = map[(i * (i + 1)) / 2 + j] / 100;
        ctx.fillRect(j * c, i * c, c, c);
      }
    }
    ctx.globalAlpha = 1;
    if (!split) return;
    const [n, line] = split;
    ctx.strokeStyle = line;
    ctx.beginPath();
    ctx.moveTo(n * c, 0); ctx.lineTo(n * c, canvas.height);
    ctx.moveTo(0, n * c); ctx.lineTo(canvas.width, n * c);
    ctx.stroke();
  }

  // The decoder view; returns what draws its small maps, once, when it is first shown.
  function decoder(pane, d, out) {
    const { fixed } = Explore;
    const T = d.tokens.length, n = d.n;
    const css = getComputedStyle(document.documentElement);
    const colour = css.getPropertyValue("--weight").trim(), muted = css.getPropertyValue("--muted").trim();
    const buttons = [...pane.querySelectorAll("[data-decoder-map]")];
    const at = (b) => (b.dataset.decoderMap ?? b.dataset.decoderShow).split("-").map(Number);
    const name = (l, h) => `layer ${l + 1}, head ${h + 1}`;
    const same = (a, b) => a[0] === b[0] && a[1] === b[1];
    const large = pane.querySelector("canvas.decoder-large");
    let chosen = d.best_induction, drawn = false;

    const paint = (canvas, l, h, lines) => causalMap(canvas, d.maps[l][h], T, colour, lines ? [n, muted] : null);

    function summary(l, h) {
      const marks = [];
      if (same([l, h], d.best_induction)) marks.push(`the best induction head of ${d.layers * d.heads}`);
      if (same([l, h], d.best_previous)) marks.push(`the best previous-token head of ${d.layers * d.heads}`);
      const score = (s) => fixed(d[s][l][h], d.decimals);
      return `measured, ${name(l, h)}: induction score ${score("induction")}, previous-token score ` +
        `${score("previous")}, first-token (sink) score ${score("sink")}` +
        (marks.length ? `; ${marks.join(" and ")}.` : ".");
    }

    function choose(l, h) {
      chosen = [l, h];
      out["decoder-label"].textContent = `measured: ${d.model}, ${name(l, h)}`;
      large.setAttribute("aria-label", `Causal weight map of ${name(l, h)}; its scores are in the readout, ` +
        "every head's in the table below");
      paint(large, l, h, true);
      for (const b of buttons) b.setAttribute("aria-pressed", String(same(at(b), chosen)));
      out["decoder-summary"].value = summary(l, h);
    }

    const focusHead = Explore.gridKeys(buttons, d.layers, d.heads);
    for (const b of buttons) b.addEventListener("click", () => choose(...at(b)));
    pane.querySelectorAll("[data-decoder-show]").forEach((b) => b.addEventListener("click", () => {
      const [l, h] = at(b);
      choose(l, h);
      focusHead(l, h);
    }));

    choose(...chosen);
    return () => {
      if (drawn) return;
      drawn = true;
      for (const b of buttons) paint(b.querySelector("canvas"), ...at(b), false);
    };
  }
});
