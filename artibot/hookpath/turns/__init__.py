"""The turn engine every client's hooks run: the hook call, the handlers, the turn model,
settling turns into log records, the router cache and the learner's start.

Imported on every hook: nothing here, so that a hook loads only the modules it uses."""
