"use strict";
// A port of the few attnmath functions the Explore figures compute while a slider moves. Each one
// mirrors attnmath's order of operations (shift by the max, 0 log 0 = 0) and
// tests/build/test_page.py compares it with attnmath on the same inputs, to 1e-9.
const AttnMath = (() => {
  const sum = (xs) => { let s = 0; for (const x of xs) s += x; return s; };
  const dot = (a, b) => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i] * b[i]; return s; };

  /** attnmath.softmax(scores, tau) for finite tau > 0; -Infinity masks an entry. */
  function softmax(scores, tau = 1) {
    if (!(tau > 0 && Number.isFinite(tau))) throw new RangeError(`tau must be finite and > 0, got ${tau}`);
    const m = Math.max(...scores);
    const z = scores.map((s) => (s === -Infinity ? -Infinity : (s - m) / tau));
    const zMax = Math.max(...z);
    const e = z.map((v) => Math.exp(v - zMax));
    const total = sum(e);
    return e.map((v) => v / total);
  }

  /** attnmath.entropy: Shannon entropy in nats, 0 log 0 = 0. */
  function entropy(w) {
    return Math.max(-sum(w.map((p) => (p > 0 ? p * Math.log(p) : 0))), 0);
  }

  const effectiveK = (w) => Math.exp(entropy(w));

  /** attnmath.classify_regime with its default thresholds. */
  function classifyRegime(k, n, low = 0.02, high = 0.95) {
    if (n === 1) return "argmax";
    const f = (k - 1) / (n - 1);
    return f < low ? "argmax" : f > high ? "uniform" : "intermediate";
  }

  /** attnmath.kernel_weights(q, keys, sigma) for scalar keys: softmax(-(q - x)^2, 2 sigma^2). */
  function kernelWeights(q, keys, sigma) {
    const d2 = keys.map((x) => (q - x) * (q - x));
    return softmax(d2.map((d) => -d), 2 * (sigma * sigma));
  }

  /** attnmath.nadaraya_watson at each query. */
  function nadarayaWatson(queries, keys, values, sigma) {
    return queries.map((q) => dot(kernelWeights(q, keys, sigma), values));
  }

  /** attnmath.kernel_profile (Gaussian, peak 1) at points around centre. */
  function kernelProfile(points, centre, sigma) {
    return points.map((p) => {
      const u = Math.sqrt((p - centre) * (p - centre)) / sigma;
      return Math.exp(-0.5 * (u * u));
    });
  }

  /** attnmath.loo_cv_error at one bandwidth: each y_j predicted from the others. */
  function looError(keys, values, sigma) {
    const tau = 2 * (sigma * sigma);
    const squares = keys.map((xj, j) => {
      const scores = keys.map((xi, i) => (i === j ? -Infinity : -((xj - xi) * (xj - xi))));
      const r = dot(softmax(scores, tau), values) - values[j];
      return r * r;
    });
    return sum(squares) / keys.length;
  }

  /** One row of attnmath.temperature_sweep (no prior). */
  function temperatureSweep(scores, tau) {
    const weights = softmax(scores, tau);
    const h = entropy(weights);
    const expected = sum(weights.map((w, i) => (w > 0 ? w * scores[i] : 0)));
    return {
      weights,
      entropy: h,
      effectiveK: Math.exp(h),
      expectedScore: expected,
      objective: expected + (h === 0 ? 0 : tau * h),
    };
  }

  const eluPlusOne = (x) => (x > 0 ? x + 1 : Math.exp(Math.min(x, 0)));

  /** attnmath.content_profiles: a unit query's weights over unit keys at these cosine similarities. */
  function contentProfiles(similarity, tau) {
    const keys = similarity.map((s) => {
      const c = Math.min(1, Math.max(-1, s));
      return [c, Math.sqrt(1 - c * c)];
    });
    const q = [1, 0];
    const soft = softmax(keys.map((k) => dot(q, k) / tau), 1);
    const root = Math.sqrt(tau);
    const phiQ = q.map((v) => eluPlusOne(v / root));
    const kernel = keys.map((k) => dot(phiQ, k.map((v) => eluPlusOne(v / root))));
    const den = sum(kernel);
    return { softmax: soft, linear: kernel.map((v) => v / den) };
  }

  return {
    softmax, entropy, effectiveK, classifyRegime, kernelWeights, nadarayaWatson, kernelProfile, looError,
    temperatureSweep, contentProfiles,
  };
})();
