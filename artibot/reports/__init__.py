"""What the reading commands compute from the store: ``status``, ``report``, ``turns`` and
``drift``. Nothing here writes; the CLI renders what these return."""
