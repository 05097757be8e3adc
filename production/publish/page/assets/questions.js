"use strict";
// The player asks: at each section's pause-and-predict beat the video pauses once its options have been read,
// and the question appears under it. The student chooses an option first; the feedback says why a wrong one is
// wrong; then "Play the answer" plays the beat that shows it. "Skip" (or Escape) goes on without an answer. A
// checkbox turns the pauses off (kept in localStorage). Each answer is announced to the page as a
// "lecture-answer" event ({scene, video, chosen, right, skipped}) for a course package to record. The lecture
// file's `questions` key (data.mode) can make the questions required (no skip, no setting) or turn them off.
(() => {
  const source = document.getElementById("questions-data");
  if (!source) return;
  const data = JSON.parse(source.textContent);
  const mode = data.mode || "ask";  // "ask", "required" or "off"
  if (mode === "off") return;
  const LETTERS = "ABCD";
  const setting = document.getElementById("ask-setting");
  const KEY = "attention-lecture-ask";
  const remember = (value) => { try { localStorage.setItem(KEY, value); } catch (e) { /* private mode */ } };
  const recalled = () => { try { return localStorage.getItem(KEY); } catch (e) { return null; } };
  if (setting && mode === "ask") {
    setting.closest(".ask-setting").hidden = false;
    setting.checked = recalled() !== "off";
    setting.addEventListener("change", () => remember(setting.checked ? "on" : "off"));
  }
  const asking = () => mode === "required" || !setting || setting.checked;

  const element = (tag, props = {}, ...children) => {
    const el = Object.assign(document.createElement(tag), props);
    for (const child of children) el.append(child);
    return el;
  };

  function panelFor(video) {
    const id = `ask-${video.id}`;
    const title = element("p", { className: "ask-heading", id: `${id}-title`, textContent: "Pause and predict" });
    const prompt = element("p", { className: "ask-prompt", id: `${id}-prompt`, tabIndex: -1 });
    const options = element("div", { className: "ask-options", role: "group" });
    options.setAttribute("aria-labelledby", `${id}-prompt`);
    const feedback = element("p", { className: "ask-feedback", role: "status" });
    const play = element("button", { type: "button", className: "ask-play", textContent: "Play the answer", hidden: true });
    const skip = element("button", { type: "button", className: "ask-skip", textContent: "Skip the question (Esc)",
      hidden: mode === "required" });
    const panel = element("section", { className: "ask", id, hidden: true }, title, prompt, options, feedback,
      element("p", { className: "ask-actions" }, play, skip));
    panel.setAttribute("aria-labelledby", `${id}-title`);
    const live = element("p", { className: "visually-hidden", id: `${id}-live` });
    live.setAttribute("aria-live", "assertive");
    const band = video.nextElementSibling;  // the captions stay right under the picture (page.js)
    const under = band && band.classList.contains("caption-band") ? band : video;
    under.insertAdjacentElement("afterend", panel);
    panel.insertAdjacentElement("afterend", live);
    return { panel, prompt, options, feedback, play, skip, live };
  }

  function player(video, stops) {
    const ui = panelFor(video);
    let last = video.currentTime;
    let open = null;
    const asked = new Set();

    const announce = (detail) => document.dispatchEvent(new CustomEvent("lecture-answer", { detail }));
    const goOn = (stop) => {
      ui.panel.hidden = true;
      ui.live.textContent = "";
      open = null;
      video.currentTime = stop.resume;
      last = stop.resume;
      video.focus();
      video.play().catch(() => {});
    };
    const choose = (stop, question, k, buttons) => {
      for (const b of buttons) b.disabled = true;
      buttons[k].setAttribute("aria-pressed", "true");
      const right = k === question.right;
      const rightLetter = LETTERS[question.right];
      ui.feedback.textContent = right
        ? `Right: ${rightLetter}. The video now shows why.`
        : `Not ${LETTERS[k]}: ${question.options[k].why_not} The answer is ${rightLetter}; the video now shows why.`;
      ui.feedback.className = `ask-feedback ${right ? "right" : "wrong"}`;
      ui.play.hidden = false;
      ui.play.onclick = () => goOn(stop);
      ui.play.focus();
      announce({ scene: stop.scene, video: video.id, chosen: k, right, skipped: false });
    };
    const ask = (stop) => {
      const question = data.questions[stop.scene];
      open = stop;
      asked.add(stop);
      video.pause();
      ui.prompt.textContent = question.prompt;
      ui.feedback.textContent = "";
      ui.feedback.className = "ask-feedback";
      ui.play.hidden = true;
      const buttons = question.options.map((o, k) => element("button", {
        type: "button", className: "ask-option", textContent: `${LETTERS[k]}. ${o.text}`,
      }));
      buttons.forEach((b, k) => { b.onclick = () => choose(stop, question, k, buttons); });
      ui.options.replaceChildren(...buttons);
      ui.skip.onclick = () => {
        announce({ scene: stop.scene, video: video.id, chosen: null, right: false, skipped: true });
        goOn(stop);
      };
      ui.panel.hidden = false;
      ui.live.textContent = `Question: ${question.prompt} ${question.options.length} options follow.`;
      ui.prompt.focus();
    };
    ui.panel.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && open && mode !== "required") { event.preventDefault(); ui.skip.click(); }
    });
    video.addEventListener("timeupdate", () => {
      const t = video.currentTime;
      if (!video.paused && !open && asking() && t >= last && t - last < 1.5) {  // played through, not sought
        const stop = stops.find((s) => !asked.has(s) && last <= s.at && s.at <= t + 0.05);
        if (stop) ask(stop);
      }
      last = t;
    });
    video.addEventListener("seeked", () => { last = video.currentTime; });
  }

  for (const video of document.querySelectorAll("video[id]")) {
    const stops = data.stops.filter((s) => s.video === video.id);
    if (stops.length) player(video, stops);
  }
})();
