"""The media room: sound, AAC, the one packet-copy join, captions, and the frame audits.

Nothing here knows about scenes, plans or builds: each function takes files
or arrays and gives files or arrays. :mod:`~production.media.audio` lays and
masters the voice, :mod:`~production.media.aac` encodes and muxes it,
:mod:`~production.media.soundtrack` does both for a clip,
:mod:`~production.media.video` probes videos and joins them,
:mod:`~production.media.captions` reads and writes SRT and WebVTT, and
:mod:`~production.media.motion` and :mod:`~production.media.flashes` audit a
rendered clip's frames (``python -m production.media.motion media/lecture/480p15``).
"""
