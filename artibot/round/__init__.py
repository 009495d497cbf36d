"""A learning round, from its first step to its last answer.

:mod:`.cycle` runs steps 1-7 (load, batch, compare, update, transfer, persist), asking a
:class:`~.checkpoints.Checkpoints` at the three checkpoints (:mod:`.checkpoints`, their words
in :mod:`.checkpoint_texts`, their evidence in :mod:`.checkpoint_evidence`); :mod:`.review`
answers a round that waits, :mod:`.brief` is what ``/learn`` reads, :mod:`.checks` validates
applied rounds afterwards, :mod:`.rollback` undoes them, :mod:`.unattended` is the detached
learner's and cron's one job and :mod:`.params` the round's parameters. The round's files
are the store's (:mod:`artibot.store.round`, :mod:`artibot.store.learned`); its math is
:mod:`artibot.learning`'s.
"""
