"""One module per section of the lecture, each declaring its :class:`lecture.section.Section`.

A section's module holds what the lecture knows of it outside its scene: the
model of its data and the lecturer's keys, its questions, its Explore figure's
data and its key equations. :data:`lecture.clips.LECTURE` lists them in order.
"""
