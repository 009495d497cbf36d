"""The learned state the router reads and a round writes: one module per file, each with its
typed records and its one codec (:mod:`.state_files` names them all for the code that walks
them). This ``__init__`` imports nothing: the router cache imports one file's module alone."""
