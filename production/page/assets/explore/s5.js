"use strict";
// Section 5, multi-head routing: the chosen head's weights from the chosen query word, as arcs over
// the sentence and as bars with their values. Every weight is attnmath's, embedded (4 x T x T).
Explore.register("s5", (fig, data) => {
  const { svg, label, fit, fixed, scale } = Explore;
  const plot = fig.querySelector("svg");
  const out = Explore.parts(fig, "readout");
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

  fig.querySelectorAll("[data-head]").forEach((r) => r.addEventListener("change", () => { head = Number(r.value); draw(); }));
  fig.querySelectorAll("[data-query]").forEach((r) => r.addEventListener("change", () => { query = Number(r.value); draw(); }));
  draw();
});
