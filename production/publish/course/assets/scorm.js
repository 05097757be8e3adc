"use strict";
// SCORM 1.2 adapter, in the course package's copy of the page only. It finds the platform's run-time (the `API`
// object, in a parent frame or the opener), and reports: the section being played (cmi.core.lesson_location),
// "completed" once every section has been watched (played or sought past its last beat), the score from the
// players' questions (one point per right answer; a skipped question scores 0) and an interaction for each
// answer. What a second launch needs to resume (watched sections, answers, the player and its position) is kept
// in cmi.suspend_data. Every change is committed; when the page is hidden for good the session ends as suspended
// (cmi.core.exit), with its length (cmi.core.session_time), and LMSFinish.
(() => {
  const source = document.getElementById("course-data");
  const asking = document.getElementById("questions-data");
  if (!source) return;

  function findAPI(start) {
    for (let win = start, hops = 0; win && hops < 16; hops += 1) {
      try { if (win.API) return win.API; } catch (e) { /* a frame of another origin */ }
      if (win.parent === win) break;
      win = win.parent;
    }
    return null;
  }
  const api = findAPI(window) || (window.opener ? findAPI(window.opener) : null);
  if (!api || String(api.LMSInitialize("")) !== "true") return;  // outside a platform: the offline page

  const sections = JSON.parse(source.textContent).sections;
  const asked = asking ? JSON.parse(asking.textContent) : { questions: {} };
  const questions = asked.mode === "off" ? {} : asked.questions;  // the lecture file turned the questions off
  const LETTERS = "abcd";
  const set = (key, value) => api.LMSSetValue(key, String(value));
  const get = (key) => String(api.LMSGetValue(key) || "");
  const commit = () => api.LMSCommit("");

  // w: indices of watched sections; a: scene -> [chosen option or -1 when skipped, 1 when right]; p: [video, s]
  let state = { w: [], a: {}, p: null };
  try { Object.assign(state, JSON.parse(get("cmi.suspend_data") || "{}")); } catch (e) { /* a fresh start */ }
  let where = get("cmi.core.lesson_location");

  const save = () => { set("cmi.suspend_data", JSON.stringify(state)); commit(); };
  const score = () => Object.values(state.a).filter((a) => a[1] === 1).length;
  const clock = (d) => [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");

  if (Object.keys(questions).length) {
    set("cmi.core.score.min", 0);
    set("cmi.core.score.max", Object.keys(questions).length);
    set("cmi.core.score.raw", score());
  }
  if (get("cmi.core.lesson_status") !== "completed") set("cmi.core.lesson_status", "incomplete");
  commit();

  function watched(k) {
    if (state.w.includes(k)) return;
    state.w.push(k);
    state.w.sort((a, b) => a - b);
    if (state.w.length === sections.length) set("cmi.core.lesson_status", "completed");
    save();
  }

  function progress(video) {
    const t = video.currentTime;
    sections.forEach((section, k) => {
      const span = section.videos[video.id];
      if (!span) return;
      if (t >= span[1] - 0.1 || (video.ended && span[1] >= video.duration - 0.2)) watched(k);
      if (t >= span[0] && t < span[1] && where !== section.id) {
        where = section.id;
        set("cmi.core.lesson_location", where);
        state.p = [video.id, Math.round(t * 10) / 10];
        save();
      }
    });
  }

  document.addEventListener("lecture-answer", (event) => {
    const { scene, chosen, right, skipped } = event.detail;
    const question = questions[scene];
    const n = Number(get("cmi.interactions._count")) || 0;
    const key = `cmi.interactions.${n}`;
    set(`${key}.id`, `${scene}-q1`);
    set(`${key}.type`, "choice");
    set(`${key}.time`, clock(new Date()));
    if (question) set(`${key}.correct_responses.0.pattern`, LETTERS[question.right]);
    if (!skipped) set(`${key}.student_response`, LETTERS[chosen]);
    set(`${key}.result`, skipped ? "neutral" : right ? "correct" : "wrong");
    state.a[scene] = [skipped ? -1 : chosen, right && !skipped ? 1 : 0];
    set("cmi.core.score.raw", score());
    save();
  });

  const players = [...document.querySelectorAll("video[id]")];
  for (const video of players) {
    video.addEventListener("timeupdate", () => progress(video));
    video.addEventListener("seeked", () => progress(video));
    video.addEventListener("ended", () => progress(video));
    video.addEventListener("pause", () => { state.p = [video.id, Math.round(video.currentTime * 10) / 10]; save(); });
  }

  // A second launch: back to the player and the moment the student left.
  if (state.p) {
    const video = document.getElementById(state.p[0]);
    if (video) {
      const at = state.p[1];
      const seek = () => { video.currentTime = at; };
      if (video.readyState >= 1) seek(); else video.addEventListener("loadedmetadata", seek, { once: true });
      video.scrollIntoView({ block: "center" });
      document.body.dataset.resumed = `${state.p[0]}@${at}`;
    }
  }

  // Leaving: "suspend" asks the platform to hand this session's data back at the next launch (cmi.core.entry
  // "resume"), and the session's length is added to the student's total time.
  const started = Date.now();
  const timespan = (ms) => {
    const s = Math.floor(ms / 1000);
    const two = (n) => String(n).padStart(2, "0");
    return `${String(Math.floor(s / 3600)).padStart(4, "0")}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
  };
  let finished = false;
  window.addEventListener("pagehide", () => {
    if (finished) return;
    finished = true;
    set("cmi.core.exit", "suspend");
    set("cmi.core.session_time", timespan(Date.now() - started));
    save();
    api.LMSFinish("");
  });
})();
