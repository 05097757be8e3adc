"""The render room: plan the stale clips, cut them into cached segments and shards, run manim, join.

A walk of a build (:func:`~production.render.pipeline.render_clips`):
:mod:`~production.render.inputs` says which clips are stale;
:mod:`~production.render.planning` dry-runs them for their timelines
(:mod:`~production.render.timeline`, made by :mod:`~production.render.manim_entry`
in a manim child, kept by :mod:`~production.render.plans`);
:mod:`~production.render.cut` cuts each into segments and the missing ones into
shards; :mod:`~production.render.runners` hands the shard jobs
(:mod:`~production.render.jobs`, each a manim child run by
:mod:`~production.render.manim_run` in a folder and caches of its own,
:mod:`~production.render.workspace`) to threads or a Dask cluster; the jobs'
segments are kept in :mod:`~production.render.segment_cache`, and each clip is
joined and voiced by a join job (:mod:`~production.render.join`) with the media
room's tools. :mod:`~production.render.lock`
keeps one build per media folder.
"""
