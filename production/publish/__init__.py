"""The publish room: what a lecturer and a student are handed, made from rendered clips.

:mod:`~production.publish.assemble` joins the clips into the lecture, its
captions, chapters, notes and page (:mod:`~production.publish.page`);
:mod:`~production.publish.described` makes the audio-described version;
:mod:`~production.publish.deck` and :mod:`~production.publish.slides` the
step-through decks; :mod:`~production.publish.script` the narration script. One beat at a
time, and the watch loop, are the watch room's (:mod:`production.watch`).
"""
