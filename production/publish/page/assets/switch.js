"use strict";
// The switch between a player and its audio-described one (the whole lecture's, or a section's): the other player
// goes to the same beat, the same time after its start (the described beat is longer: the picture holds while its
// description is spoken), and plays on if this one was playing. Focus moves to the other player, unfolded if a
// section's. Each switch is announced to the page as a "lecture-switch" event ({from, left: its time, to, at: the
// other's time}).
(() => {
  const source = document.getElementById("timeline-data");
  if (!source) return;
  const beats = JSON.parse(source.textContent);

  function sameMoment(from, to, t) {
    const here = beats[from].find((b) => t >= b[1] && t < b[2]) || beats[from][beats[from].length - 1];
    const there = beats[to].find((b) => b[0] === here[0]);
    if (!there) return 0;
    return Math.min(there[1] + Math.max(0, t - here[1]), there[2] - 0.05);
  }

  for (const button of document.querySelectorAll("button.switch-video")) {
    button.addEventListener("click", () => {
      const from = document.getElementById(button.dataset.from);
      const to = document.getElementById(button.dataset.to);
      const playing = !from.paused;
      from.pause();
      const left = from.currentTime;
      to.currentTime = sameMoment(from.id, to.id, left);
      const folded = to.closest("details"); // a section's described player waits folded until asked for
      if (folded) folded.open = true;
      to.scrollIntoView({ block: "center" });
      to.focus();
      if (playing) to.play().catch(() => {});
      const detail = { from: from.id, left, to: to.id, at: to.currentTime };
      document.dispatchEvent(new CustomEvent("lecture-switch", { detail }));
    });
  }
})();
