"""The watch room: a lecturer's edit rendered one beat at a time, the watch loop kept warm.

:mod:`~production.watch.preview` renders the named beats of one scene (and
``preview --watch`` again after every save); :mod:`~production.watch.warm`,
with its child :mod:`~production.watch.warm_child`, keeps a copy of the scene
paused at each watched beat's start; :mod:`~production.watch.beats` publishes a
rendered beat and stamps it. A render loop, so it sits beside publish, above
render (pyproject.toml's rooms contract): it plans and renders through
:mod:`production.render` and publishes nothing of the lecture's.
"""
