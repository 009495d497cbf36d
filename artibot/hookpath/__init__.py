"""The hook's lean floor: the small stand-ins the hook path needs to start fast.

A hook is a whole Python process per prompt or tool call, and its client waits for it. The
modules the hook path reaches (``tests/test_hook_path.py`` computes them from the entry
points) import none of :mod:`re`, :mod:`typing`, :mod:`dataclasses`, :mod:`enum`,
:mod:`pathlib` or a third-party package; what they would have taken from those lives here,
each module with the figure that justifies it (``docs/design.md``, "The hook's lean floor"):

* :mod:`.regex` — ``re.compile`` from kept programs, without importing :mod:`re`;
* :mod:`.frozen` — immutable record classes without :mod:`dataclasses`;
* :mod:`.files` — safe opens, the atomic writer and the ``flock`` lock on string paths,
  which the library's :mod:`artibot.store.fs` wraps with its errors and :class:`~pathlib.Path`,
  and the hooks' JSON codec (the C accelerator behind :mod:`json`, without :mod:`json`).

This package's ``__init__`` imports nothing: every hook loads it.
"""
