"""Independent references for every number the narration speaks, one module per scene module.

Each module ``tests/scenes/spoken/<scene module>.py`` defines ``EXPECTED``: a
mapping from a beat's slug (the part of its id after ``NN-``) to a function
that returns the numbers that beat must speak, as written in its text, in
order. The function computes them *independently* of the scene (closed form,
scipy, a naive loop), never by calling the scene's own code. A beat whose slug
is not listed must speak no digits. ``tests/scenes/test_script.py`` checks
every beat of the default lecture against these.
"""
