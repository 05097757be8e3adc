"""The production application, in rooms: each imports only the rooms below it (``lint-imports``).

- :mod:`production.cli`: the command line (``attention-lecture``, ``python -m scenes``);
- :mod:`production.publish`: the lecture, page, notes, decks, script, previews and the watch;
- :mod:`production.render`: plan, cut, shards, the manim children, the segment cache;
- :mod:`production.media`: sound, AAC, the one join, captions, frame audits;
- :mod:`production.progress` and :mod:`production.options`: the build's typed records.
"""
