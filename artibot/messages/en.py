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
    "round.applied": "round {round} applied: {processed} in {batches}; {thresholds}",
    "round.experiences.one": "{n} experience",
    "round.experiences.many": "{n} experiences",
    "round.batches.one": "{n} batch",
    "round.batches.many": "{n} batches",
    "round.thresholds_reverted": "thresholds kept (reverted)",
    "round.thresholds_changed.one": "{n} threshold changed",
    "round.thresholds_changed.many": "{n} thresholds changed",
    "round.thresholds_same": "no threshold changed",
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
    # a push (artibot.team.push) and what it records as the last push
    "team.nothing_to_push": "nothing to push",
    "team.pushed": "{sent} record(s) sent, {stored} new to the team ({already} already there)",
    "team.pushed_refused": "{pushed}; {refused} refused by the team's database (a name outside its alphabet, see "
                           "docs/team.md)",
    "team.push_attempt_failed": "{sent} sent, {queued} queued: {why}",
    "team.push_failed": "{why} ({sent} of {total} record(s) sent before it failed)",
    "team.not_member": "{home} is not a team member: run `artibot team join URL` first",
    "team.yes_and_unattended": "--yes and --unattended exclude each other: choose who answers the checkpoints",
    # a pull (artibot.team.member)
    "team.no_state": "the team has published no state yet",
    "team.state_unusable": "the team's state version {version} (round {round}) cannot be used ({why}); this member "
                           "keeps its previous state",
    "team.pulled": "team state version {version} (round {round}) cached; {n} domain(s) start from the team's "
                   "thresholds",
    "team.pulled_aside": "{pulled}; {n} domain name(s) outside {alphabet} set aside",
    # a published state's problems (artibot.learning.team_pool)
    "team.state_not_object": "the team state must be a JSON object, not {type}",
    "team.state_schema": "the team state's schema is {schema}; this artibot reads {reads}",
    "team.state_cells": "the team state's cells must be an object of domains",
    "team.state_cells_numbers": "the team state's cells of {domain} are not numbers",
    "team.state_cells_shape": "the team state's cells of {domain} must be {bins} rows of n1, k1, n2, k2 with "
                              "0 <= k <= n",
    "team.state_count": "the team state's {name} must be a whole number >= 0, not {value}",
    "team.pool_number": "the team round's pool has no whole number {name}",
    # a team round (artibot.team.round) and the reviewers' lock
    "team.round_busy": "another reviewer is running a team round ({holder}); only one round runs at a time: try "
                       "again when it has finished",
    "team.holder": "{user}, since {since} UTC",
    "team.holder_unknown": "held by another session",
    "team.lock_unreachable": "the team database cannot be reached for the round's lock: {why}",
    "team.state_unreadable": "the team's published state version {version} (round {round}) cannot be read: {why}; "
                             "`artibot team rollback` withdraws it",
    "team.round_waiting": "team round {round} is waiting for review: `artibot team review` shows and answers it",
    "team.too_few_even_flushed": "{n} new pooled record(s), too few to learn from even with --flush; nothing to "
                                 "learn yet",
    "team.no_new_record": "no new pooled record: nothing to learn yet",
    "team.fewer_than_batch": "{n} new pooled record(s), fewer than a batch of {batch}; nothing to learn yet "
                             "(--flush learns them anyway)",
    "team.deferred": "team round {round} prepared and saved for review (checkpoint {checkpoint} needs a human): "
                     "`artibot team review`",
    "team.reset": "team round {round} reset: nothing published; the records stay unlearned",
    "team.published": "team round {round} published as state version {version}: {records} pooled record(s); "
                      "{thresholds}; {promoted} pattern(s) promoted, {demoted} demoted",
    "team.thresholds_updated": "thresholds updated",
    "team.thresholds_kept": "thresholds kept (reverted)",
    "team.none_waiting": "no team round is waiting for review: `artibot team learn` prepares one",
    "team.proposal_unreadable": "team round {round}'s saved proposal cannot be read ({why})",
    "team.rollback_pending": "team round {round} is waiting for review and builds on the latest state: answer it "
                             "(`artibot team review`) or reset it (`--answer 1=reset`) before rolling back",
    "team.nothing_to_roll_back": "the team has no published state to roll back",
    # retention (artibot.team.retention): the settings, and each month's line of `team retention`
    "team.retention_not_whole": "the team's setting retention_months is {value}; it must be a whole number of "
                                "months (1 or more)",
    "team.retention_below_one": "the team's setting retention_months is {value}; it must be 1 or more",
    "team.months_below_one": "--months must be 1 or more, not {value}",
    "team.month": "{month} ({rows} row(s)): {reason}",
    "team.month_kept": "{n} row(s) not learned yet by the team's latest state: kept",
    "team.month_would_drop": "would be dropped (dry run)",
    "team.month_dropped": "dropped",
    # the team database (artibot.team.db): where it is, and its refusals
    "team.where": "{database} on {host}",
    "team.default_database": "the default database",
    "team.local_socket": "the local socket",
    "team.schema_lock_busy": "another session has held the schema's lock for {seconds} s (another `artibot team "
                             "init`?): try again when it has finished",
    "team.no_psycopg": "the team commands need psycopg 3, which this install lacks: pip install 'artibot[team]' "
                       "(or pip install 'psycopg[binary]')",
    "team.url_unparsed": "the team database URL {url} does not parse: {why}",
    "team.url_password": "the team database URL carries a password; artibot stores no credentials: remove it from "
                         "the URL and put it in ~/.pgpass, PGPASSWORD or a service file",
    "team.unreachable": "the team database ({where}) cannot be reached: {why}; records stay queued and are sent "
                        "later",
    "team.no_answer": "the team database ({where}) did not answer within {seconds:g} s; records stay queued and "
                      "are sent later",
    "team.went_away": "the team database ({where}) went away: {why}",
    "team.refused": "the team database refused: {why} (see docs/team.md for the roles: a member inserts "
                    "experiences and reads states, only a reviewer runs rounds)",
    "team.db_said": "the team database said: {why}",
    "team.schema_newer": "the team database's schema is version {current}, newer than this artibot knows "
                         "({newest}); upgrade artibot",
    "team.no_schema": "{where} has no artibot team schema: run `artibot team init URL` first",
    "team.schema_other": "the team database's schema is version {version}, this artibot expects {newest}: {then}",
    "team.schema_run_init": "run `artibot team init URL` to upgrade it",
    "team.schema_upgrade_artibot": "upgrade artibot",
    # --- (end: team)
    # --- doctor's findings on the data home's files (artibot.store.doctor)
    # --- (end: doctor)
    # --- a record's validation and the config's shared checks
    # --- (end: validation)
    # --- commands' arguments, collect, the installer's notes, the gateway, a turn's route reason
    # `artibot collect` (artibot.cli.cmd_collect): refused before anything is written
    "collect.refused": "{problem} (nothing was written)",
    "collect.stdin_empty": "stdin is empty: give one JSON object, a JSON array, or JSON lines",
    "collect.stdin_kind": "stdin holds a JSON {kind}; give an object, an array, or JSON lines",
    "collect.stdin_and_flag": "{option} cannot be combined with --stdin",
    # `artibot route` (artibot.cli.cmd_route)
    "route.empty": "the request text is empty: give the text to route, e.g. artibot route \"fix the login bug\"",
    # `artibot rollback` (artibot.round.rollback): a snapshot's status, as its manifest names it
    "rollback.not_applied_status": "round {round} is {status}, not applied; nothing to roll back",
    "rollback.status.applying": "applying", "rollback.status.interrupted": "interrupted",
    # commands' arguments (artibot.cli)
    "args.takes": "{command} takes {some} or {last}, not {value}",
    "args.schedule_disabled": "learning.schedule.enabled is false in the config; set it to true first",
    "args.unknown_target": "unknown target {target}: artibot installs into {clients}",
    "args.unknown_target_guess": "unknown target {target}: artibot installs into {clients}; did you mean {guess}?",
    "args.clients_or": "{some} or {last}",
    "args.model_claude": "--model is for {clients}; claude-code takes its models from {key}",
    "args.model_context": "--model is for {clients}; in {agent} the route is context only",
    "args.gateway_clients": "--gateway is for claude-code and codex-cli; {agent} takes the route as context only",
    "args.gateway_user": "--gateway goes with the user scope: the model provider is in {file}",
    "args.no_crontab": "the `{executable}` command is not installed, so artibot cannot schedule the nightly learner; "
                       "install cron (e.g. the `cron` or `cronie` package) or run `{command}` from another scheduler",
    # Codex CLI's config.toml (artibot.integrations.codex_cli.provider)
    "codex.not_toml": "{file} is not valid TOML ({error}); artibot left it untouched",
    "codex.not_utf8": "{file} is not UTF-8 text; artibot left it untouched",
    "codex.needs_url_key": "{file}: the provider {provider} needs base_url and env_key (the variable that holds its "
                           "API key) for its requests to go through the gateway",
    "codex.wire_api": "{file}: the provider {provider} speaks wire_api = {wire}; the gateway speaks the Responses API "
                      "only (wire_api = \"responses\")",
    "codex.not_provider": "{file}: model_provider {provider} is not a provider the gateway can forward to (define it "
                          "under [model_providers] with base_url and env_key)",
    "codex.already_selected": "{file}: model_provider is already {name} without artibot's block; set it back to your "
                              "own provider first",
    # the installer's notes (artibot.integrations): what a change does
    "install.parts": "{parts}",
    "install.hooks_present": "artibot hooks already installed", "install.hooks_absent": "no artibot hooks found",
    "install.no_settings": "no settings file", "install.no_hook_file": "no hook file",
    "install.add": "add {n} artibot hooks",
    "install.add_replacing": "add {n} artibot hooks, replacing {old} from an earlier install",
    "install.remove": "remove {n} artibot hooks",
    "install.kept": "{change} ({n} other hooks kept)", "install.kept_one": "{change} ({n} other hook kept)",
    "install.reserialised": "the file is re-serialised, see the diff",
    "install.restored": "restored byte for byte from {file}",
    "install.created_only": "nothing else in it, artibot created it",
    "install.learn": "the {command} command", "install.learn_none": "no {command} command",
    "install.learn_current": "{command} up to date", "install.learn_current_command": "{command} command up to date",
    "install.learn_new": "new version of {command}", "install.learn_new_command": "new version of the {command} command",
    "install.learn_foreign": "not artibot's {command}; left alone",
    "install.learn_foreign_command": "not artibot's {command} command; left alone",
    "install.claude_gateway_off": "Claude Code no longer goes through the artibot gateway (port {port})",
    "install.claude_gateway_moves": "Claude Code's gateway moves from port {old} to port {new}: env {env}",
    "install.claude_gateway_on": "Claude Code goes through the artibot gateway: env {env}",
    "install.codex_gateway_off": "Codex CLI no longer goes through the artibot gateway (port {port})",
    "install.codex_gateway_on": "Codex CLI goes through the artibot gateway: model_provider = {name}, base_url {url}, "
                                "forwarding to {upstream} with the key in {key}",
    "install.provider_kept": "model provider left as it is",
    "install.provider_absent": "no artibot model provider",
    "install.provider_present": "artibot model provider already installed",
    "install.upstream_set": "the gateway forwards Codex CLI's requests to {url}",
    "install.upstream_present": "OpenAI upstream kept already", "install.upstream_absent": "no OpenAI upstream kept",
    "install.upstream": "the OpenAI upstream the gateway kept",
    # the gateway (artibot.cli.gateway_main)
    "gateway.port_range": "--port must be from 1 to 65535, not {port}",
    # why a turn took its route (artibot.reports.turns.route_said)
    "turn.explored": "explored: {why}, sent the other way",
    "turn.compared": "complexity {complexity:.2f} {sign} threshold {threshold:.2f}",
    "turn.forced": "the request asks for deliberate thinking",
    "turn.cached": "pattern {pattern} is in the System 1 cache",
    "turn.team_cached": "pattern {pattern} is in the team's System 1 table",
    "turn.no_threshold": "no threshold recorded",
    # `artibot report` without its extra (artibot.cli.report_html)
    "report.no_matplotlib": "the report draws its charts with matplotlib, which artibot's environment lacks: {hint}",
    # what artibot adds to the parser's usage error (artibot.cli.app)
    "usage.see_help": " (see '{command} --help')",
    "usage.home_first": "; --home goes before the command: artibot --home DIR {command} …",
    # --- (end: commands)
    # --- the terminal's and the checkpoints' keyed words (artibot.cli.words.w, artibot.round.checkpoint_texts)
    # --- (end: words)
}
