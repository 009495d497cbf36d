"""The one recovery of a round's files, run once at the start of anything that reads a
round's state to change it (``learn``, ``review``, ``rollback``, ``doctor --repair``), under
the learner lock.

In this order: a commit of a round's files that reached its commit point is finished, and
one that did not is dropped (:mod:`artibot.store.round.commit`); what killed writes left
elsewhere (temp files of dead writers, a snapshot folder without a manifest) is moved to
``quarantine/``; a rollback killed mid-way is finished (:mod:`artibot.store.round.rollback_journal`);
a round whose snapshot still says ``applying`` (killed after moving its records to the
archive, before its commit) is rolled back. The experience log's own journal and markers are
not here: hooks append without the learner lock, so every writer of the log runs them under
the log's lock (:mod:`artibot.store.log.experiences`).
"""

from __future__ import annotations

from artibot.store import quarantine
from artibot.store.home import Home
from artibot.store.round import commit, rollback_journal, snapshots


def recover(home: Home) -> list[str]:
    """Finish or undo whatever a crash interrupted among a round's files; the rounds rolled
    back (those of an interrupted rollback, then the rounds interrupted while applying)."""
    commit.recover(home)
    quarantine.sweep_leftovers(home)
    done: list[str] = []
    plan = rollback_journal.read(home)
    if plan is not None:
        rollback_journal.run(home, plan)
        done.extend(plan["rounds"])
    for rid in snapshots.list_rounds(home):
        if snapshots.load_manifest(home, rid).status == "applying":
            rollback_journal.undo(home, [rid], "interrupted while applying (crash); rolled back automatically",
                                  final="interrupted")
            done.append(rid)
    return done
