"use strict";
// The players: report on the body element how many videos and caption tracks have loaded (read by
// the tests), show captions, and wire each storyboard thumbnail to seek its clip to the beat's start.
(() => {
  const body = document.body;
  const bump = (key) => { body.dataset[key] = String(Number(body.dataset[key]) + 1); };
  for (const video of document.querySelectorAll("video")) {
    if (video.readyState >= 1) bump("videosLoaded");
    else video.addEventListener("loadedmetadata", () => bump("videosLoaded"));
    video.addEventListener("error", () => bump("errors"), true);
    for (const track of video.textTracks) track.mode = track.kind === "chapters" ? "hidden" : "showing";
  }
  for (const el of document.querySelectorAll("track")) {
    if (el.readyState === 2) bump("tracksLoaded");
    else {
      el.addEventListener("load", () => bump("tracksLoaded"));
      el.addEventListener("error", () => bump("errors"));
    }
  }

  // Storyboards: a click (or Enter / Space: they are buttons) seeks; the beat being played is marked.
  for (const strip of document.querySelectorAll(".storyboard")) {
    const buttons = [...strip.querySelectorAll("button.beat")];
    if (!buttons.length) continue;
    const video = document.getElementById(buttons[0].dataset.video);
    for (const button of buttons) {
      button.addEventListener("click", () => { video.currentTime = Number(button.dataset.start); });
    }
    const mark = () => {
      const t = video.currentTime;
      for (const b of buttons) {
        const on = t >= Number(b.dataset.start) && t < Number(b.dataset.end);
        if (on) b.setAttribute("aria-current", "true");
        else b.removeAttribute("aria-current");
      }
    };
    video.addEventListener("timeupdate", mark);
    video.addEventListener("seeked", mark);
  }

  if (typeof Explore !== "undefined") Explore.start();
})();
