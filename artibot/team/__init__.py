"""The team's pooled store on PostgreSQL and the team round; the hooks never wait on it.

:mod:`~artibot.team.schema` (migrations, roles), :mod:`~artibot.team.db` (connections,
credentials, TLS), :mod:`~artibot.team.outbound` (what leaves a machine),
:mod:`~artibot.team.push` (the queue and the idempotent insert),
:mod:`~artibot.team.round` (the round: statistics in SQL, checkpoints, publishing,
rollback), :mod:`~artibot.team.member` (join, leave, pull, status) and
:mod:`~artibot.team.prior` (the cached team state as a prior in a member's round).
The learning itself is :mod:`artibot.learning.team_pool`, pure like the rest of learning/.
This package imports ``psycopg`` only in the modules that talk to the database.
"""
