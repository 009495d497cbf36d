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
    "config.integer": "{key} must be a whole number from {lo} to {hi}, not {value}",
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
    # --- (end: doctor)
    # --- a record's validation and the config's shared checks
    "record.invalid": "{problems} (nothing was written)",
    "record.invalid_in": "{where}: {problems} (nothing was written)",
    "record.at_record": "record {n}: {problem}",
    "record.at_line": "line {n}: {problem}",
    "record.at_turn": "turn {n}: {problem}",
    "record.more": "… and {n} more",
    "record.twice": "id {id} appears twice in this batch",
    "record.already_stored": "id {ids} is already stored (in the log or archive/); ids must be unique: leave the id "
                             "out and artibot assigns one",
    "record.stored_bad": "line {line}: record {id}: {problems}; learning stops until it is fixed or moved aside",
    "record.stored_bad_anon": "line {line}: a record: {problems}; learning stops until it is fixed or moved aside",
    "record.required": "{field} is required",
    "record.required_unit": "{field} is required: a number from 0 to 1",
    "record.unit": "{field} must be a number from 0 to 1, not {value}",
    "record.unit_or_null": "{field} must be a number from 0 to 1 or null, not {value}",
    "record.open_unit": "{field} must be a number in (0, 1], not {value}",
    "record.open_unit_or_null": "{field} must be a number in (0, 1] or null, not {value}",
    "record.finite": "{field} must be a finite number, not {value}",
    "record.int64": "{field} must be an integer that fits in 64 bits, not {value}",
    "record.surrogate": "{field} must be valid Unicode text (it contains a lone surrogate)",
    "record.deep": "{field} nests deeper than {n} levels",
    "record.key_not_text": "{field} has a key {key} that is not a string",
    "record.not_data": "{field} must be JSON data (null, true/false, a number, a string, a list or an object), not "
                       "{type}",
    "record.version_newer": "schema_version {version} is newer than this artibot understands ({current}); upgrade "
                            "artibot",
    "record.version": "schema_version must be an integer from 1 to {current}, not {value}",
    "record.version_no_migration": "schema_version {version} has no migration to {current}",
    "record.not_object": "an experience must be a JSON object, not {type}",
    "record.field_name": "field name {key} is not a string",
    "record.id": "id must be a non-empty string of at most 200 characters, not {value}",
    "record.timestamp_type": "timestamp must be an ISO 8601 string with a timezone, not {value}",
    "record.timestamp": "timestamp must be ISO 8601 with a timezone (e.g. {example}), not {value}",
    "record.session_id": "session_id must be a string or null, not {value}",
    "record.input": "input must be a string, not {type}",
    "record.domain": "domain must be a non-empty string of at most 64 characters (e.g. {examples}), not {value}",
    "record.latency": "latency_ms must be a number >= 0, not {value}",
    "record.pattern": "pattern must be a non-empty string of at most 200 characters or null, not {value}",
    "record.text_or_null": "{field} must be a string or null, not {value}",
    "record.count_or_null": "{field} must be an integer >= 0 or null, not {value}",
    "record.flag_or_null": "{field} must be true, false or null, not {value}",
    "record.object_or_null": "{field} must be a JSON object or null, not {value}",
    "value.one_of": "{key} must be one of {options}, not {value}",
    "value.number_in": "{key} must be a number in {range}, not {value}",
    "json.invalid": "not valid JSON ({reason})",
    "json.file_invalid": "{path} is not valid JSON ({reason}); it was left untouched. Fix the file (or move it "
                         "aside), then run the command again.",
    "file.corrupt": "{path}: {problem}. The file was left untouched; run `artibot doctor` to see the problem and "
                    "`artibot doctor --repair` to move the bad copy aside.",
    "policy.invalid": "invalid routing policy: {problems}",
    "policy.min_max": "min_threshold and max_threshold must satisfy 0 <= min < max <= 1 (got {lo} and {hi})",
    "policy.domain_threshold": "the threshold of domain {domain} must be a number in [0, 1], not {value}",
    "policy.domain_rate": "the exploration rate of domain {domain} must be a number in [0, {most}], not {value}",
    "policy.team_key": "team_key must be the team's pattern key in hex digits",
    "config.got": "{problem} (got {value})",
    "config.cron_string": "{key} must be a string",
    "config.cron_fields": "{key} must have 5 fields (minute hour day-of-month month day-of-week)",
    "config.cron_syntax": "{key} field {field} {text} is not a number, range, list, step or *",
    "config.cron_outside": "{key} field {field} value {value} is outside {range}",
    "config.cron_step": "{key} field {field} {text} has a step of 0",
    "config.cron_backwards": "{key} field {field} {text} has a range that runs backwards",
    "config.profile": "{key} must be an object with \"effort\" and/or \"model\", not {value}",
    "config.profile_effort": "{key} must be null (keep the client's) or one of {efforts}, not {value}",
    "config.efforts": "low, medium, high, max",
    "config.profile_model": "{key} must be null (keep the client's) or a model name, not {value}",
    "config.not_read": "{key} is not a key artibot reads (known: {known}); it is ignored",
    # --- (end: validation)
    # --- commands' arguments, collect, the installer's notes, the gateway, a turn's route reason
    # --- (end: commands)
    # --- the terminal's and the checkpoints' keyed words (artibot.cli.words.w, artibot.round.checkpoint_texts)
    # --- (end: words)
}
