"""The experience log, ``daily-experiences.json``: its layout, reading, appending, the
id index, the journal of moves to the archive, tail repair, and what ``doctor`` checks of it."""
