"""A round's own records: the learning log and the pending review (:mod:`.rounds`), the
snapshots a rollback restores (:mod:`.snapshots`), the rollback journal, the light reading of
the learning log that ``status`` and completion use (:mod:`.log_light`), and the decisions a
pending round keeps (:mod:`.pending_decisions`)."""
