"""The English catalogue: every message id and its sentence (the fallback of every language).

Grouped by who says it. A parameter in braces is filled by :func:`artibot.messages.render`;
one that names a part (``{compared}``, ``{move}``) is another message of this catalogue.
"""

from __future__ import annotations

TEXTS: dict[str, str] = {
    # --- a threshold step of the evidence learner (artibot.learning.evidence_reason)
    "threshold.reason": "{compared} → {move}",
    "threshold.gain": "{where}: System 2's gain {gain} ± {sd:.2f} {side} its price {price} ({source})",
    "threshold.failure": "{where}: System 1 fails {gain} ± {sd:.2f} of these turns, which {side} the break-even "
                         "{price} ({source}: a failure costs a retry at System 2 and a redo)",
    "threshold.gain.above": "is above", "threshold.gain.below": "is below", "threshold.gain.equal": "equals",
    "threshold.yet_lower": "{compared}, yet a lower threshold pays more over the domain's whole curve",
    "threshold.yet_higher": "{compared}, yet a higher threshold pays more over the domain's whole curve",
    "threshold.more_system2": "more System 2: threshold {old:.2f} → {new:.2f}",
    "threshold.more_system1": "more System 1: threshold {old:.2f} → {new:.2f}",
    "threshold.stays": "threshold stays {old:.2f}",
    "threshold.stays_unsure": "threshold stays {old:.2f}: no threshold within reach is surely better",
    "threshold.with_terms": "{move}; {terms}",
    "per100": "per 100 of its turns: {bill}, {redos}",
    "per100.bill_same": "the same bill to the cent",
    "per100.bill_less": "${usd:.2f} less", "per100.bill_more": "${usd:.2f} more",
    "per100.redos_same": "the same redos",
    "per100.redos_fewer": "{n:.1f} fewer redos", "per100.redos_more": "{n:.1f} more redos",
    "price_source.cost": "cost", "price_source.system2Cost": "system2Cost",
    "price_source.targetSystem2Share": "targetSystem2Share", "price_source.measured": "measured",
    "price_source.estimated": "estimated",
    # --- a pattern's automatic decision, seed mode (artibot.learning.transfer)
    "transfer.promote": "{streak} consecutive System 2 successes (>= {needed}) and confidence {c} > {bar}",
    "transfer.hold_streak": "promotion streak {streak} of {needed}",
    "transfer.hold_confidence": "confidence {c} not above {bar}",
    "transfer.demote_streak": "{streak} consecutive System 1 failures or escalations (>= {needed})",
    "transfer.demote_confidence": "confidence {c} below the minimum {bar}",
    "transfer.both": "{first} and {second}",
    "transfer.hold_active": "active; System 1 failure streak {streak} of {needed} and confidence {c} not below {bar}",
    # --- evidence mode (artibot.learning.evidence_transfers): the bounds against the bar
    "transfer.s1": "System 1 {k}/{n} (success {lo}-{hi})",
    "transfer.s2": "System 2 {k}/{n} (success at least {lo})",
    "transfer.demote_bound": "{s1}: surely below {bar}",
    "transfer.hold_active_bound": "active; {s1}: not surely below {bar}",
    "transfer.promote_s1": "{s1}: surely at least {bar}",
    "transfer.promote_s2": "{s2} and {s1} not against it: System 1 tried on probation",
    "transfer.hold_s1_short": "{s1}, {s2}: System 1 is surely below {bar}",
    "transfer.hold_neither": "{s1}, {s2}: neither is surely at least {bar}, the success a promotion needs",
    # --- a cached pattern gone stale (artibot.learning.freshness)
    "fresh.failures": "{failures} failures in its last {uses} uses (confidence {c:.2f} < {floor:.2f})",
    "fresh.unused": "unused for {days} days (confidence {c:.2f} < {floor:.2f})",
    "fresh.decayed": "confidence decayed over {days:.0f} days since promotion with {successes} successes and "
                     "{failures} failures (confidence {c:.2f} < {floor:.2f})",
    # --- the off-policy estimate's verdict (artibot.learning.offpolicy)
    "offpolicy.empty": "no logged experiences in the window",
    "offpolicy.unexplored": "too thin to estimate: no logged decision was randomized (exploration is 0 or the "
                            "records carry no propensity), so the logs say nothing about the routes the change "
                            "would take",
    "offpolicy.outside_band": "too thin to estimate: {unsupported} of the {changed} rerouted requests lie outside "
                              "the exploration band, where the router never tried the proposed route (the change "
                              "is larger than the band the logs explored)",
    "offpolicy.little_support": "too thin to estimate: the change reroutes {changed} logged request(s), but only "
                                "{proposed} of them were explored on the proposed route and {current} on the "
                                "current one (at least {needed} of each are needed)",
    "offpolicy.no_route": "too thin to estimate: no logged request took the route one of the policies chooses",
    "offpolicy.no_change": "the proposed thresholds route every logged request as the current ones do",
    "offpolicy.rerouted": "{changed:,} of {n:,} logged requests would be routed differently",
    # --- the block under checkpoint 2 that shows it (artibot.cli.render_round_checks)
    "checks.unavailable": "What the proposed thresholds would have done on the logged requests: not available "
                          "for this round (prepared before artibot computed it).",
    "checks.head": "What the proposed thresholds would have done on the {n:,} logged requests",
    "checks.head_earlier": "What the proposed thresholds would have done on the {n:,} logged requests ({earlier:,} "
                           "from earlier rounds)",
    "checks.share": "System 2 share {current} -> {proposed} ({change} points).",
    "checks.success_label": "success: ",
    "checks.unchanged": "{reason} (success {success}, System 2 share {share}).",
    "checks.estimated": "{head}, estimated from the requests routed at random, with {level}% intervals:",
    "checks.policy": "success {success} [{lo}, {hi}]   System 2 share {share}",
    "checks.current": "current", "checks.proposed": "proposed", "checks.change": "change",
    "checks.label": "{name:<10} ",
    "checks.difference": "success {success} points [{lo}, {hi}]   System 2 share {share} points",
    "checks.support": "{reason}; effective sample size {ess:,.0f}; {explored} explored on the new route where "
                      "they differ.",
    "checks.utility": "utility = success − {price:.3f} × System 2 share (what the learner maximises), in points:",
    "checks.utility_values": "current {current}, proposed {proposed}, change {change}",
    "checks.worse": "The estimate says the proposal is worse (the whole interval of the change is below 0), so "
                    "the default is Revert.",
    "checks.noise": "The change is within the estimate's noise; the default stays Apply.",
    # --- errors (artibot.errors)
    "config.invalid": "invalid configuration: {problems}",
    "config.invalid_in": "invalid configuration in {source}: {problems}",
    "config.unknown_key": "{key} is not a known key (allowed: {allowed})",
    "config.unknown_key_guess": "{key} is not a known key; did you mean '{guess}'? (allowed: {allowed})",
    "config.unknown_key_camel": "{key} is not a known key; did you mean '{guess}'? (the config's keys are "
                                "camelCase) (allowed: {allowed})",
    "config.unreadable": "cannot read the file: {reason}",
    "os.cannot": "cannot {doing} {where}: {reason}; {advice}",
    "os.somewhere": "a file in the data home",
    "os.doing.write": "write", "os.doing.read": "read", "os.doing.access": "access", "os.doing.create": "create",
    "os.doing.open": "open", "os.doing.remove": "remove", "os.doing.move": "move", "os.doing.lock": "lock",
    "os.doing.replace": "replace", "os.doing.rename": "rename", "os.doing.append": "append to",
    "os.doing.create_folder": "create the folder", "os.doing.sync_folder": "sync the folder",
    # the system's reasons by errno (the glibc wording, which the English sentence has always quoted)
    "os.reason.EROFS": "Read-only file system", "os.reason.EACCES": "Permission denied",
    "os.reason.ENOSPC": "No space left on device", "os.reason.EDQUOT": "Disk quota exceeded",
    "os.reason.EPERM": "Operation not permitted", "os.reason.ENOTDIR": "Not a directory",
    "os.reason.EISDIR": "Is a directory", "os.reason.EIO": "Input/output error",
    "os.reason.ENOENT": "No such file or directory", "os.reason.EMFILE": "Too many open files",
    "os.reason.EADDRINUSE": "Address already in use", "os.reason.EADDRNOTAVAIL": "Cannot assign requested address",
    "os.advice.ENOSPC": "the disk is full: free some space and run the command again (what was already stored "
                        "is intact)",
    "os.advice.EDQUOT": "the disk quota is used up: free some space and run the command again",
    "os.advice.EROFS": "the file system is read-only: point ARTIBOT_HOME at a writable folder, or remount it",
    "os.advice.EACCES": "permission denied: check that you own the data home and its files (chmod u+rw)",
    "os.advice.EPERM": "operation not permitted: check that you own the data home and its files",
    "os.advice.ENOTDIR": "a path in the data home is a file where a folder should be: set ARTIBOT_HOME to a "
                         "folder, or move the file aside",
    "os.advice.EISDIR": "a folder stands where a file should be: move it aside (`artibot doctor` shows it)",
    "os.advice.EIO": "the disk reported an I/O error: check the disk, then run `artibot doctor`",
    "os.advice.EMFILE": "too many open files: close some programs and run the command again",
    "os.advice.other": "fix the cause and run the command again",
    "gateway.cannot_listen": "the gateway cannot listen on {address}: {reason} (another program uses the port? "
                             "try --port)",
    # --- doctor's findings (artibot.store.doctor)
    "doctor.problems": "{problems}",
    # --- a round's closing line (artibot.round.cycle, artibot.round.review)
    "round.nothing_none": "no unprocessed experience: nothing to learn yet (your agent's next turns add them)",
    "round.nothing_flush": "{n} unprocessed experience(s), too few to learn from even with --flush; nothing to "
                           "learn yet",
    "round.nothing_batch": "{n} unprocessed experience(s), fewer than a batch of {size}; nothing to learn yet "
                           "(--flush processes them anyway)",
    "round.recovered": "{nothing}; rolled back interrupted round(s) {rounds}",
    "round.dry_run": "dry run: nothing was written",
    "round.reset": "group data reset: nothing applied; the experiences stay unprocessed",
    "round.deferred": "round {round} prepared and saved for review (checkpoint {n} needs a human): run `artibot "
                      "review` or /learn in Claude Code",
    "round.waiting": "a round is waiting for review",
    "round.already_waiting": "a round is already waiting for review; nothing new was prepared",
    "review.none": "nothing is waiting for review",
    "review.none_ready": "nothing is waiting for review; {n} unprocessed experience(s), {full} full batch(es) "
                         "ready: `artibot learn` starts a round",
    "review.none_collecting": "nothing is waiting for review; {n} unprocessed experience(s), {have} of {size} "
                              "collected for the next batch",
    "review.discarded": "round {round} discarded; its experiences stay unprocessed",
    # --- the command line's own lines
    "error.interrupted": "interrupted; nothing half-written was kept",
    "home.missing": "the data home {root} does not exist: nothing has been recorded there. Check --home (it goes "
                    "before the command) or ARTIBOT_HOME; the first hook or `artibot collect` creates it",
    # --- the config's checks (artibot.config, artibot.config.validators)
    "config.top_level": "the top level must be a JSON object",
    "config.lang": "lang must be one of 'en', 'ko', not {value}",
    "config.object": "{key} must be an object",
    "config.number": "{key} must be a number in {range}, not {value}",
    "config.integer": "{key} must be a whole number from {lo} to {hi}, not {value}",
    "config.choice": "{key} must be one of {options}, not {value}",
    "config.boolean": "{key} must be true or false, not {value}",
    "config.auto_or_boolean": "{key} must be true, false or \"auto\", not {value}",
    "config.domains": "{key} must be an object mapping a domain name to a list of keywords",
    "config.domain_name": "{key}: a domain name is lower-case letters, digits, - or _ (at most 40)",
    "config.keywords": "{key} must be a list of non-empty strings",
    "config.url": "{key} must be an http(s) URL, not {value}",
    "config.url_example": "{key} must be an http(s) URL such as {example}, not {value}",
    "config.below": "{key} must be below {other} (got {got} and {other_got})",
    "config.within": "{key} must lie within {range} (got {got} outside {bounds})",
    "config.not_above": "{key} must not exceed {other} (got {got})",
    "config.price_twice": "learning.lifelong: set system2Cost or targetSystem2Share, not both",
    "doctor.repair_failed": "{fix} — the repair failed: {why}",
    "doctor.home_parent": "the data home does not exist and {parent} is not writable, so artibot cannot create it",
    "doctor.home_parent_fix": "choose another home (--home or ARTIBOT_HOME), or make {parent} writable",
    "doctor.home_not_yet": "the data home does not exist yet; artibot creates it on first use",
    "doctor.home_link": "the data home is a symbolic link; artibot never follows a link in place of it",
    "doctor.home_link_fix": "point ARTIBOT_HOME at the real directory, or replace the link with a directory",
    "doctor.home_not_folder": "the data home is {what}, not a folder: artibot keeps its data in a folder",
    "doctor.a_file": "a file", "doctor.a_special": "a FIFO, socket or device",
    "doctor.home_not_folder_fix": "move it aside (artibot never touches it), or choose another home (--home or "
                                  "ARTIBOT_HOME)",
    "doctor.home_readonly": "the data home is not writable: experiences cannot be recorded and no round can be "
                            "applied",
    "doctor.home_readonly_fix": "make it writable (chmod u+w, or remount it read-write), or choose another home "
                                "(--home or ARTIBOT_HOME)",
    "doctor.link": "is a symbolic link (to {target}); artibot never follows links planted in its data home",
    "doctor.link_fix": "move the link itself aside into quarantine/; its target is not touched",
    "doctor.special": "is not a regular file (a FIFO, socket or device)",
    "doctor.mode": "{what} mode is {have}, expected {wanted} (only you may read artibot's data)",
    "doctor.folder": "folder", "doctor.file": "file",
    # --- `artibot rollback` (artibot.round.rollback)
    "rollback.none": "no applied round to roll back",
    "rollback.not_applied": "round {round} is not an applied round; {choices}",
    "rollback.not_applied_plain": "round {round} is not an applied round",
    "rollback.choices": "the applied rounds, oldest first: {rounds}, or `last`",
    "rollback.choices_more": "the applied rounds, oldest first: {rounds} (and {n} earlier), or `last`",
    "rollback.none_now": "no round is applied now (every applied round was rolled back; `artibot history` lists them)",
    "rollback.none_now_short": "no round is applied now",
    "rollback.none_yet": "no round has been applied yet",
    "rollback.rolled_back": "round {round} was rolled back (`artibot history` shows it); nothing to roll back; {rest}",
    "rollback.rolled_back_at": "round {round} was rolled back at {at} UTC (`artibot history` shows it); nothing to roll "
                               "back; {rest}",
    # --- `artibot route --record` and `artibot outcome` (artibot.store.round.pending_decisions)
    "decision.bad_id": "{id} is not a decision id (letters, digits, '.', '_' or '-')",
    "decision.done": "decision {id} already has its outcome",
    "decision.missing": "no pending decision {id} in {folder}; `{command}` records one",
    # --- a long round's steps (artibot.round.cycle)
    "progress.loading": "loading experiences",
    "progress.computing": "computing the round over {n:,} experiences",
    "progress.writing": "writing the new state",
    # --- the notes under `report cost` (artibot.learning.route_costs)
    "costs.saving_note": "all-System-2 prices each System 1 turn at System 2's mean cost per turn; System 2 turns are "
                         "the harder prompts, so the saving leans high; cache rewrites caused by route switches are "
                         "charged to System 1, so the saving is net of them",
    "costs.redo_note": "a redo is a failed or escalated System 1 turn or a failed System 2 turn; System 2 alone "
                       "applies System 2's failure rate to every turn, but that rate is measured on the harder "
                       "prompts, so the extra redos lean low",
    # --- the team's sentences (artibot.team)
    # --- (end: team)
    # --- doctor's findings on the data home's files (artibot.store.doctor)
    # what a file is, and moving it aside
    "doctor.not_regular": "is not a regular file",
    "doctor.move_aside": "move it aside into quarantine/",
    "doctor.move_aside_lost": "move it aside into quarantine/; {lost}",
    "doctor.temp_file": "leftover temp file of a write interrupted by a crash (the file it was meant to replace is "
                        "intact)",
    "doctor.valid": "valid",
    # a document: a newer artibot's, or a bad copy
    "doctor.newer": "was written by a newer artibot (schema_version {version}; this one understands {known})",
    "doctor.newer_fix": "upgrade artibot; doctor leaves a newer artibot's file where it is",
    "doctor.bad_copy_fix": "move the bad copy to quarantine/ so the next run starts this file fresh: {lost}",
    "doctor.move_then_run": "move it to quarantine/, then run `{command}` again",
    # what is lost without the file
    "doctor.lost.session": "the turn in progress of that session is forgotten (at most one experience)",
    "doctor.lost.pending": "that recorded decision can no longer be completed with `artibot outcome`",
    "doctor.lost.done": "nothing the learner needs: the decision's experience is already in the log",
    "doctor.lost.learner_stamp": "the learner's start stamp is forgotten: the next session end may start the learner "
                                 "again",
    "doctor.lost.thresholds": "thresholds fall back to the configured default (cognitive.router.threshold) for every "
                              "domain",
    "doctor.lost.system1": "the System 1 cache starts empty until patterns are promoted again",
    "doctor.lost.pattern_stats": "pattern streaks, counts and confidence restart from zero",
    "doctor.lost.history": "`artibot history` no longer lists the rounds so far",
    "doctor.lost.transfers": "the record of past promotions and demotions starts empty",
    "doctor.lost.learner_state": "the evidence learner's counts per domain and complexity restart from zero",
    "doctor.lost.pending_review": "the round waiting for review is dropped; its experiences stay unprocessed, so the "
                                  "next `artibot learn` prepares it again",
    "doctor.lost.archive": "the processed experiences in it are no longer replayed (the copy stays in quarantine/)",
    "doctor.lost.snapshot": "`artibot rollback {round}` will stop, naming the missing copy",
    "doctor.lost.log": "a fresh log starts with the next experience",
    "doctor.lost_restore": "{lost}; restore from snapshots/{round}/ with `artibot rollback {round}`",
    "doctor.lost_no_copy": "{lost}; no snapshot holds a copy of it",
    # archives, rollbacks, a round's files, snapshots
    "doctor.marker_unreadable": "unreadable marker of an interrupted archive move or restore",
    "doctor.marker_unreadable_fix": "move the marker to quarantine/, then run `artibot doctor` again: it shows any "
                                    "record left in both the log and archive/",
    "doctor.move_interrupted": "a move of processed experiences to archive/{archive} was interrupted",
    "doctor.move_finish": "finish it: drop from the log the records already archived (the next write to the log does "
                          "this by itself)",
    "doctor.restore_interrupted": "a rollback's restore of the experiences of archive/{archive} was interrupted",
    "doctor.restore_finish": "finish it: put the records back into the log and retire the archive (the next write to "
                             "the log does this by itself)",
    "doctor.rollback_interrupted": "a rollback of round(s) {rounds} was interrupted",
    "doctor.rollback_finish": "run `artibot learn` or `artibot rollback` (or this repair): it finishes the rollback",
    "doctor.commit_unreadable_fix": "move {folder}/ to quarantine/, then run `artibot doctor` again",
    "doctor.commit_unfinished": "a round's files were committed and not all put in place",
    "doctor.commit_finish": "run `artibot learn` or `artibot rollback` (or this repair): it finishes the commit",
    "doctor.commit_interrupted": "a commit of a round's files was interrupted before its commit point (the files are "
                                 "unchanged)",
    "doctor.commit_drop": "run `artibot learn` or `artibot rollback` (or this repair): it drops the uncommitted copies",
    "doctor.no_manifest": "this snapshot has no manifest.json (a round interrupted while taking it?); `artibot "
                          "rollback` cannot use it",
    "doctor.no_manifest_fix": "nothing to repair; leave it or move it by hand",
    # the config, quarantine/
    "doctor.config_fix": "edit the file: each problem names the key and what is allowed (doctor never changes your "
                         "configuration)",
    "doctor.config_valid": "valid configuration",
    "doctor.kept_aside": "{n} item(s) kept aside (cut log tails, bad copies)",
    "doctor.kept_aside_fix": "inspect them; delete them by hand once you no longer need them",
    # the experience log (artibot.store.log.doctor_log)
    "doctor.unprocessed": "{n} unprocessed experience(s)",
    "doctor.unchecked": "could not be checked: {why}",
    "doctor.run_again": "run `artibot doctor` again",
    "doctor.torn": "the last append was interrupted: {detail}",
    "doctor.torn_fix": "cut the torn tail into quarantine/ and restore the closing bracket (the next append does this "
                       "by itself); only the interrupted append is lost",
    "doctor.torn_zeros_fix": "cut the torn tail into quarantine/ (zero-filled runs described there, not copied) and "
                             "restore the closing bracket (the next append does this by itself); only the "
                             "interrupted append is lost",
    "doctor.layout": "is a valid JSON array but not one record per line as artibot writes it, so an interrupted "
                     "append could not be cut off cleanly",
    "doctor.layout_fix": "rewrite its {n} records in artibot's layout; the original goes to quarantine/",
    "doctor.damaged_middle": "is damaged in the middle ({detail}), so it cannot be read",
    "doctor.salvage_fix": "keep every complete record line ({n} records) in a fresh log and move the damaged copy to "
                          "quarantine/ (records on damaged lines stay only there)",
    "doctor.damaged": "is damaged ({detail}), so it cannot be read",
    "doctor.salvage_zeros_fix": "keep every complete record ({n} records) in a fresh log and move the damaged copy to "
                                "quarantine/, zero-filled runs described there, not copied (records on damaged lines "
                                "stay only there)",
    "doctor.schema_broken": "{n} record(s) break the schema, so `artibot learn` stops on them (first: line {line}: "
                            "{problems})",
    "doctor.schema_broken_fix": "move those records into quarantine/ (the rest of the log stays as it is)",
    "doctor.duplicates": "{n} record(s) repeat an id already in the log",
    "doctor.duplicates_fix": "move the later copies into quarantine/ (the first of each id stays)",
    "doctor.in_archive": "{n} record(s) are both in the log and in a live archive, so the next round would learn them "
                         "twice (first: {first})",
    "doctor.in_archive_fix": "drop them from the log: the archived copy is the one a round processed",
    # where the experience log is torn or damaged (artibot.store.log.log_scan, log_zeros)
    "doctor.detail.no_header": "it does not start with the '[' line of an experience log",
    "doctor.detail.bad_line": "line {line} is not a complete record",
    "doctor.detail.not_array": "it is not a JSON array",
    "doctor.detail.after_append": "{n} bytes after the last complete append",
    "doctor.detail.after_record": "{n} bytes after the last complete record",
    "doctor.detail.after_append_at": "{n} bytes after the last complete append ({where})",
    "doctor.detail.after_record_at": "{n} bytes after the last complete record ({where})",
    "doctor.detail.holds": "it holds {where}",
    "doctor.detail.zeros": "{size} of zero bytes from byte {at}",
    "doctor.detail.zeros_regions": "{size} of zero bytes from byte {at} in {regions} regions",
    "doctor.detail.damage_from": "damage from byte {at}",
    # --- (end: doctor)
    # --- a record's validation and the config's shared checks
    # --- (end: validation)
    # --- commands' arguments, collect, the installer's notes, the gateway, a turn's route reason
    # --- (end: commands)
    # --- the terminal's and the checkpoints' keyed words (artibot.cli.words.w, artibot.round.checkpoint_texts)
    # --- (end: words)
}
