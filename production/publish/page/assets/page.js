"use strict";
// The players: report on the body element how many videos and caption tracks have loaded (read by
// the tests), show captions under the picture, and wire each storyboard thumbnail to seek its clip to
// the beat's start.
(() => {
  const body = document.body;
  const bump = (key) => { body.dataset[key] = String(Number(body.dataset[key]) + 1); };
  for (const video of document.querySelectorAll("video")) {
    if (video.readyState >= 1) bump("videosLoaded");
    else video.addEventListener("loadedmetadata", () => bump("videosLoaded"));
    video.addEventListener("error", () => bump("errors"), true);
    for (const track of video.textTracks) track.mode = track.kind === "chapters" ? "hidden" : "showing";
    captionsBelow(video);
  }
  for (const el of document.querySelectorAll("track")) {
    if (el.readyState === 2) bump("tracksLoaded");
    else {
      el.addEventListener("load", () => bump("tracksLoaded"));
      el.addEventListener("error", () => bump("errors"));
    }
  }

  // Captions under the picture, never over it: the browser would draw them on the video, over readouts
  // and labels near its foot. The captions track stays on ("hidden": its cues still fire) and its active
  // cue is written into a band of two lines below the video. In full screen the browser draws them.
  function captionsBelow(video) {
    const track = [...video.textTracks].find((t) => t.kind === "captions");
    if (!track) return;
    const band = document.createElement("div");
    band.className = "caption-band";
    if (video.id) band.dataset.for = video.id;
    band.setAttribute("aria-hidden", "true");  // screen readers have the transcript and the description track
    video.after(band);
    const show = () => { band.textContent = [...(track.activeCues || [])].map((c) => c.text).join("\n"); };
    const place = () => {
      track.mode = document.fullscreenElement === video ? "showing" : "hidden";
      show();
    };
    track.addEventListener("cuechange", show);
    document.addEventListener("fullscreenchange", place);
    place();
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
