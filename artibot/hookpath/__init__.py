"""The hook path: every module a hook process imports, and the rules they keep.

A hook is a whole Python process per prompt or tool call, and its client waits for it. So
the modules in this folder (and only they, with the entry points and each client's
``integrations/<client>/events.py``) are what a hook may import: ``tests/test_hook_path.py``
computes the path from the hook entry points, and ruff's configuration bans :mod:`re`,
:mod:`typing`, :mod:`dataclasses`, :mod:`enum`, :mod:`pathlib`, :mod:`json` and every
third-party package at module level in this folder by one glob (``docs/design.md``, "The
hook's lean floor", says what each would cost). What they would have taken from those lives
here:

* :mod:`.regex` — ``re.compile`` from kept programs, without importing :mod:`re`;
* :mod:`.frozen` — immutable record classes without :mod:`dataclasses`;
* :mod:`.store.files` — safe opens, the atomic writer and the ``flock`` lock on string paths,
  which the library's :mod:`artibot.store.fs` wraps with its errors and :class:`~pathlib.Path`,
  and the hooks' JSON codec (the C accelerator behind :mod:`json`, without :mod:`json`).

The rest, by concept: the names both sides share (:mod:`.names`), the record's one
constructor (:mod:`.record`), names from elsewhere as data (:mod:`.inert`), the client
registry (:mod:`.clients`) and the other clients' entry (:mod:`.adapter`); the files the
hooks read and write (:mod:`.store`, the only folder besides :mod:`artibot.store` that
touches files); the routing decision (:mod:`.router`), the anonymizer (:mod:`.privacy`) and
the turn engine (:mod:`.turns`).

This package's ``__init__`` imports nothing: every hook loads it.
"""
