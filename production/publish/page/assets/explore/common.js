"use strict";
// Shared helpers of the Explore figures: SVG elements, scales, fixed-precision numbers, synced
// slider + number controls, a grid of buttons with one tab stop, and the registry that starts each figure with its embedded data.
const Explore = (() => {
  const SVG_NS = "http://www.w3.org/2000/svg";
  const figures = {};

  /** A new SVG element with attributes, appended to parent when given. */
  function svg(tag, attrs = {}, parent = null) {
    const el = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (parent) parent.appendChild(el);
    return el;
  }

  /** SVG text; `cls` is a class list (the colours and sizes live in explore.css). */
  function label(parent, x, y, str, cls = "", attrs = {}) {
    const el = svg("text", { x, y, class: cls, ...attrs }, parent);
    el.textContent = str;
    return el;
  }

  /** Shrink an SVG text horizontally (never grow it) so that it fits `width` user units. */
  function fit(el, width) {
    if (el.getComputedTextLength() > width) {
      el.setAttribute("textLength", width);
      el.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
    return el;
  }

  /** `x` with exactly `digits` decimals (never "-0.000"). */
  function fixed(x, digits) {
    const s = x.toFixed(digits);
    return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
  }

  /** A linear map from [d0, d1] to [r0, r1], with its inverse. */
  function scale(d0, d1, r0, r1) {
    const f = (v) => r0 + ((v - d0) * (r1 - r0)) / (d1 - d0);
    f.invert = (p) => d0 + ((p - r0) * (d1 - d0)) / (r1 - r0);
    return f;
  }

  /** SVG path data through the points (xs[i], ys[i]) already in SVG units. */
  function polyline(xs, ys) {
    return xs.map((x, i) => `${i ? "L" : "M"}${x.toFixed(2)},${ys[i].toFixed(2)}`).join("");
  }

  /** Path data of a stepped area: bars of width `w` centred on xs, heights down to `base`. */
  function steps(xs, ys, w, base) {
    let d = `M${(xs[0] - w / 2).toFixed(2)},${base}`;
    xs.forEach((x, i) => { d += `L${(x - w / 2).toFixed(2)},${ys[i].toFixed(2)}L${(x + w / 2).toFixed(2)},${ys[i].toFixed(2)}`; });
    return `${d}L${(xs[xs.length - 1] + w / 2).toFixed(2)},${base}Z`;
  }

  /** The elements of a figure carrying data-readout / data-control, by name. */
  function parts(fig, attr) {
    const out = {};
    for (const el of fig.querySelectorAll(`[data-${attr}]`)) out[el.dataset[attr]] = el;
    return out;
  }

  /**
   * A log-scale range input synced with a number input for the value itself.
   * onChange(value) runs on every change; returns set(value) for the figure's own use.
   */
  function logControl(range, number, [lo, hi], digits, onChange) {
    const clamp = (v) => Math.min(hi, Math.max(lo, v));
    const show = (v) => { range.setAttribute("aria-valuetext", fixed(v, digits)); };
    range.addEventListener("input", () => {
      const v = clamp(10 ** Number(range.value));
      number.value = fixed(v, digits);
      show(v);
      onChange(v);
    });
    number.addEventListener("input", () => {
      const typed = Number(number.value);
      const ok = number.value !== "" && Number.isFinite(typed) && typed >= lo && typed <= hi;
      number.setAttribute("aria-invalid", String(!ok));
      if (!ok) return;
      range.value = String(Math.log10(typed));
      show(typed);
      onChange(typed);
    });
    return (v) => {
      range.value = String(Math.log10(v));
      number.value = fixed(v, digits);
      show(v);
      onChange(v);
    };
  }

  /**
   * One tab stop for a grid of `rows` x `cols` buttons (row by row): the arrow keys move the focus,
   * Home and End to the row's first and last. Returns focus(r, c), which also makes (r, c) the tab stop.
   */
  function gridKeys(buttons, rows, cols) {
    const MOVES = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const clamp = (v, n) => Math.min(n - 1, Math.max(0, v));
    function focus(r, c) {
      const b = buttons[r * cols + c];
      for (const other of buttons) other.tabIndex = other === b ? 0 : -1;
      b.focus();
    }
    buttons.forEach((b, k) => b.addEventListener("keydown", (e) => {
      const r = Math.floor(k / cols), c = k % cols, move = MOVES[e.key];
      const to = move ? [clamp(r + move[0], rows), clamp(c + move[1], cols)]
        : e.key === "Home" ? [r, 0] : e.key === "End" ? [r, cols - 1] : null;
      if (!to) return;
      e.preventDefault();
      focus(...to);
    }));
    return focus;
  }

  /**
   * A range input stepped by two buttons: `show(v)` on every change; the buttons are aria-disabled at the
   * ends (not disabled, which would drop the keyboard focus). Returns go(v), which clamps, sets and shows.
   */
  function stepper(range, back, forward, show) {
    const at = () => Number(range.value);
    const update = () => {
      show(at());
      back.setAttribute("aria-disabled", String(at() <= Number(range.min)));
      forward.setAttribute("aria-disabled", String(at() >= Number(range.max)));
    };
    const go = (v) => {
      range.value = String(Math.min(Number(range.max), Math.max(Number(range.min), v)));
      update();
    };
    range.addEventListener("input", update);
    back.addEventListener("click", () => go(at() - 1));
    forward.addEventListener("click", () => go(at() + 1));
    go(at());
    return go;
  }

  function register(name, init) { figures[name] = init; }

  function start() {
    const data = JSON.parse(document.getElementById("explore-data").textContent);
    for (const fig of document.querySelectorAll("[data-explore]")) {
      const name = fig.dataset.explore;
      try {
        figures[name](fig, data[name]);
        fig.dataset.ready = "true";
      } catch (err) {
        console.error(`Explore figure ${name} failed:`, err);
      }
    }
  }

  return { svg, label, fit, fixed, scale, polyline, steps, parts, logControl, gridKeys, stepper, register, start };
})();
