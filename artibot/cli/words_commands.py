"""The words of the other commands' screens: ``rollback``, ``route``, ``outcome``, ``drift``,
``config``, ``install`` / ``uninstall``, ``schedule``, ``gateway`` and ``team``, in English and
Korean.

Part of the one catalogue that :func:`artibot.cli.words.w` reads (merged there). The English
lines are the ones these commands always printed; a Korean line keeps in their own form only
proper names, numbers, commands, paths, config keys, domain names and ids.
"""

from __future__ import annotations

COMMAND_WORDS: dict[str, dict[str, str]] = {
    "en": {
        # rollback
        "rb_restore": "rollback {round} would restore the learned state (thresholds, System 1 cache, pattern "
                      "statistics) from before it",
        "rb_undone": "rounds undone: {rounds}", "rb_built_on": " (the later ones were built on it)",
        "rb_back": "experiences put back in the log to learn from again: {n}",
        "rb_discards": "the round waiting for review, {round}, would be discarded (it was prepared on the state "
                       "being replaced)",
        "rb_kept": "nothing is deleted: the replaced state is kept under snapshots/",
        "rb_dry": "dry run: nothing changed", "rb_ask": "Roll back?", "rb_nothing": "nothing changed",
        "yn_again": "“{answer}” is not an answer here: type y (yes) or n (no); Enter alone means {default}",
        "yn_yes": "yes", "yn_no": "no",
        "rb_done": "restored the state from before {first}; undone: {undone}; {n} experience(s) back in the log. "
                   "The replaced state is kept in {kept}.",
        # route and outcome
        "ro_line": "{system}  complexity {complexity}  threshold {threshold}  domain {domain}  ({why})",
        "ro_cache": "System 1 cache hit", "ro_team-cache": "the team's System 1 table", "ro_forced": "explicit think flag", "ro_explore": "exploration",
        "ro_threshold": "complexity vs threshold",
        "ro_recorded": "recorded as {id}: complete it with `artibot outcome {id} {outcomes}`",
        "ro_new_domain": "artibot: warning: domain {domain!r} is new: it starts at the default threshold and learns "
                         "on its own (known: {known}){hint}",
        "ro_did_you_mean": "; did you mean {guess!r}?",
        "oc_recorded": "recorded {outcome} for {id}",
        # drift
        "dr_working": "testing each domain's recent outcomes against its history", "dr_title": "Drift check",
        "dr_system": "system", "dr_recent": "recent ok/n", "dr_history": "history ok/n", "dr_verdict": "verdict",
        "dr_drift": "DRIFT", "dr_ok": "ok", "dr_untested": "not tested",
        # config
        "cf_none": "(none: the shipped defaults, {path})",
        "cf_files": "# files, in lookup order (the first that exists is used, merged over the defaults):",
        "cf_file": "#   {path}  ({why}: {state})", "cf_in_use": "in use", "cf_not_used": "exists, not used",
        "cf_not_found": "not found", "cf_defaults": "#   defaults: {path}", "cf_warning": "# warning: {warning}",
        "cf_env": "$ARTIBOT_CONFIG", "cf_cwd": "the current directory", "cf_home": "the data home",
        # install, uninstall
        "in_dry": "dry run: nothing written", "in_already": "artibot is already installed",
        "in_nothing": "nothing to remove", "in_done": "done", "in_restart": ": {hint}",
        "in_claude_restart": "restart Claude Code (or run /hooks) to load the hooks; /learn reviews rounds",
        "in_stopped": "stopped this home's gateway on the old port (pid {pids})",
        "in_home": "experiences and learned state go to {home} (ARTIBOT_HOME as the agent sees it, else "
                   "~/.claude/artibot); only anonymized text is stored",
        "in_home_saved": "experiences and learned state go to {home}, written into the hook commands "
                         "(ARTIBOT_HOME=…) and /learn (--home), whatever the agent's environment says; only "
                         "anonymized text is stored",
        "in_change": "{action} {path}", "in_note": ": {note}", "in_backup": " (backup: {name})",
        "in_cleanup": "; remove {name}", "in_warning": "warning: {warning}",
        # schedule
        "sc_note": "note: {note}", "sc_now": "installed now:", "sc_now_unknown": "installed now: unknown (no crontab "
                                                                                 "to read)",
        "sc_none": "  (no artibot lines)", "sc_would": "`artibot schedule install` would write:",
        "sc_would_disabled": "`artibot schedule install` would write (once learning.schedule.enabled is true):",
        "sc_empty": "(empty crontab)", "sc_dry": "dry run: nothing written",
        "sc_dry_disabled": " (and install needs learning.schedule.enabled: true)",
        "sc_unchanged": "crontab unchanged", "sc_updated": "crontab updated", "sc_removed": ": artibot lines removed",
        # gateway
        "gw_start": "artibot gateway on http://127.0.0.1:{port} -> {upstream} (System 1: {s1}; System 2: {s2}); "
                    "Ctrl-C stops it",
        "gw_effort": "effort {effort}", "gw_client_effort": "client's effort", "gw_client_model": "client's model",
        "gw_left": "client left", "gw_unrouted": "not routed", "gw_agent": "sub-agent", "gw_compaction": "compaction",
        "gw_tokens": "{fresh} in + {cached} cached, {out} out", "gw_unpriced": "no price for this model",
        "gw_stopped": "stopped: {requests} request(s), {routed} of routed turns, {rewritten} rewritten, {refused} "
                      "refused, {upstream_errors} upstream error(s), {client_gone} client(s) gone, {cut} stream(s) "
                      "cut",
        # team
        "tm_not_member": "team: not a member", "tm_member": "team: member of {database}",
        "tm_left": "team: not a member (left)", "tm_queued": "  queued for push: {n}{full}",
        "tm_queue_full": " (queue full: run `artibot team push` when the database is reachable)",
        "tm_last": "  last {what} {at}: {state}: {message}", "tm_push": "push", "tm_pull": "pull",
        "tm_state": "  team state: version {version}, round {round}, {age:.1f} h old; {n} domain(s) from the team",
        "tm_patterns": "; {n} pattern(s) on System 1 by the team's review", "tm_problem": "  problem: {problem}",
        "tm_round": "  round {round} {status} by {reviewer} (rows {first}..{last})",
        "tm_no_record": "no record yet: nothing would be sent", "tm_left_now": "left the team; your own state is kept",
        "tm_not_a_member": "this home is not a team member", "tm_not_pulled": "artibot: team state not pulled: {why}",
        "tm_joined": "joined the team at {url}; free text is {text}", "tm_shared": "shared (anonymized)",
        "tm_never_sent": "never sent",
        "tm_set_aside": "set aside (rows that failed the checks), by member: {members}",
        "tm_held_out": "held out (domains new to the team beyond {per} per member and {all} per round: not learned), "
                       "by member: {members}",
        "tm_held_member": "{member} {domains} domain(s), {rows} row(s)",
        "tm_waits": "team round {round} waits for review: artibot team review --answer 1=accept --answer 2=apply "
                    "[--answer 3=auto]",
        "tm_withdraw_ask": "withdraw the team's latest published state?", "tm_nothing_rolled": "nothing rolled back",
        "tm_withdrawn": "state version {version} (round {round}) withdrawn; ",
        "tm_again": "version {version} (round {round}) is the team's state again",
        "tm_no_state": "the team has no published state now",
        "tm_push_postponed": "artibot: team push postponed: {why}",
        "tm_schema": "team schema at version {version} in {where}", "tm_current": "current",
        "tm_applied": " (applied {versions})", "tm_nothing_to_apply": " (nothing to apply)",
        "tm_no_retention": "no retention set: nothing dropped (--months N, or the team's setting retention_months)",
        "tm_drop_ask": "drop the pooled experiences of months older than {keep} month(s) before this one?",
        "tm_nothing_dropped": "nothing dropped",
        "tm_months": "months before {cutoff}: {dropped} dropped ({rows} row(s)), {kept} kept",
        # collect, report
        "co_collected": "collected {n} experience(s)", "co_one": ": {id}",
        "rp_drawing": "reading the experiences and drawing the charts",
        "rp_wrote": "wrote {target} ({kb:,} KB, no network needed to view it)",
        "rp_no_browser": "no web browser found: open {uri} yourself",
    },
    "ko": {
        "rb_restore": "롤백 {round}: 이 라운드 이전의 학습 상태(임계값, System 1 캐시, 패턴 통계)를 복원합니다",
        "rb_undone": "되돌릴 라운드: {rounds}", "rb_built_on": " (뒤의 라운드는 이 라운드 위에서 만들어졌습니다)",
        "rb_back": "다시 학습하도록 로그에 되돌려 놓을 경험: {n}개",
        "rb_discards": "검토를 기다리는 라운드 {round}은(는) 버려집니다 (교체될 상태 위에서 준비되었기 때문입니다)",
        "rb_kept": "아무것도 지우지 않습니다: 교체된 상태는 snapshots/ 아래에 보관됩니다",
        "rb_dry": "시험 실행: 바뀐 것 없음", "rb_ask": "롤백할까요?", "rb_nothing": "바뀐 것 없음",
        "yn_again": "“{answer}”은(는) 여기서 쓸 수 있는 답이 아닙니다: y(예) 또는 n(아니오)를 입력하세요; Enter만 "
                    "누르면 {default}입니다",
        "yn_yes": "예", "yn_no": "아니오",
        "rb_done": "{first} 이전의 상태를 복원했습니다; 되돌린 라운드: {undone}; 경험 {n}개를 로그에 되돌려 놓았습니다. "
                   "교체된 상태는 {kept}에 보관됩니다.",
        "ro_line": "{system}  복잡도 {complexity}  임계값 {threshold}  도메인 {domain}  ({why})",
        "ro_cache": "System 1 캐시 적중", "ro_team-cache": "팀의 System 1 표", "ro_forced": "명시적인 깊은 사고 요청", "ro_explore": "탐색",
        "ro_threshold": "복잡도와 임계값 비교",
        "ro_recorded": "{id}(으)로 기록했습니다: `artibot outcome {id} {outcomes}`로 완료하세요",
        "ro_new_domain": "artibot: 경고: 도메인 {domain!r}은(는) 새 도메인입니다: 기본 임계값에서 시작해 따로 "
                         "학습합니다 (알려진 도메인: {known}){hint}",
        "ro_did_you_mean": "; {guess!r}을(를) 뜻했나요?",
        "oc_recorded": "{id}에 결과 '{outcome}'을(를) 기록했습니다",
        "dr_working": "도메인마다 최근 결과를 이력과 비교하는 중", "dr_title": "드리프트 검사",
        "dr_system": "시스템", "dr_recent": "최근 성공/수", "dr_history": "이력 성공/수", "dr_verdict": "판정",
        "dr_drift": "드리프트", "dr_ok": "정상", "dr_untested": "검사 안 함",
        "cf_none": "(없음: 기본 설정 {path})",
        "cf_files": "# 파일, 찾는 순서대로 (처음으로 있는 파일을 기본값 위에 합쳐 씁니다):",
        "cf_file": "#   {path}  ({why}: {state})", "cf_in_use": "사용 중", "cf_not_used": "있음, 사용 안 함",
        "cf_not_found": "없음", "cf_defaults": "#   기본값: {path}", "cf_warning": "# 경고: {warning}",
        "cf_env": "$ARTIBOT_CONFIG", "cf_cwd": "현재 폴더", "cf_home": "데이터 홈",
        "in_dry": "시험 실행: 아무것도 쓰지 않음", "in_already": "artibot이 이미 설치되어 있습니다",
        "in_nothing": "지울 것 없음", "in_done": "완료", "in_restart": ": {hint}",
        "in_claude_restart": "훅을 불러오려면 Claude Code를 다시 시작하세요 (또는 /hooks 실행); /learn으로 라운드를 "
                             "검토합니다",
        "in_stopped": "이 데이터 홈의 이전 포트 게이트웨이를 멈췄습니다 (pid {pids})",
        "in_home": "경험과 학습 상태는 {home}에 저장됩니다 (에이전트가 보는 ARTIBOT_HOME, 없으면 "
                   "~/.claude/artibot); 익명화된 텍스트만 저장됩니다",
        "in_home_saved": "경험과 학습 상태는 {home}에 저장됩니다. 이 경로는 훅 명령(ARTIBOT_HOME=…)과 /learn(--home)에 "
                         "기록되어 에이전트의 환경 변수와 상관없이 쓰입니다; 익명화된 텍스트만 저장됩니다",
        "in_change": "{action} {path}", "in_note": ": {note}", "in_backup": " (백업: {name})",
        "in_cleanup": "; {name} 삭제", "in_warning": "경고: {warning}",
        "sc_note": "참고: {note}", "sc_now": "현재 설치됨:", "sc_now_unknown": "현재 설치됨: 알 수 없음 (읽을 crontab 없음)",
        "sc_none": "  (artibot 줄 없음)", "sc_would": "`artibot schedule install`이 쓸 내용:",
        "sc_would_disabled": "`artibot schedule install`이 쓸 내용 (learning.schedule.enabled가 true가 되면):",
        "sc_empty": "(빈 crontab)", "sc_dry": "시험 실행: 아무것도 쓰지 않음",
        "sc_dry_disabled": " (install에는 learning.schedule.enabled: true가 필요합니다)",
        "sc_unchanged": "crontab 변경 없음", "sc_updated": "crontab 갱신됨", "sc_removed": ": artibot 줄 삭제됨",
        "gw_start": "artibot 게이트웨이: http://127.0.0.1:{port} -> {upstream} (System 1: {s1}; System 2: {s2}); "
                    "Ctrl-C로 멈춥니다",
        "gw_effort": "effort={effort}", "gw_client_effort": "클라이언트의 effort", "gw_client_model": "클라이언트의 모델",
        "gw_left": "클라이언트가 떠남", "gw_unrouted": "라우팅 안 됨", "gw_agent": "서브 에이전트", "gw_compaction": "압축",
        "gw_tokens": "입력 {fresh} + 캐시 {cached}, 출력 {out}", "gw_unpriced": "이 모델의 가격 없음",
        "gw_stopped": "멈춤: 요청 {requests}개, 라우팅된 턴의 요청 {routed}개, 다시 쓴 요청 {rewritten}개, 거절 "
                      "{refused}개, 업스트림 오류 {upstream_errors}개, 먼저 떠난 클라이언트 {client_gone}개, 끊긴 "
                      "스트림 {cut}개",
        "tm_not_member": "팀: 멤버 아님", "tm_member": "팀: {database}의 멤버",
        "tm_left": "팀: 멤버 아님 (탈퇴함)", "tm_queued": "  전송 대기: {n}개{full}",
        "tm_queue_full": " (대기열이 가득 참: 데이터베이스에 닿을 때 `artibot team push`를 실행하세요)",
        "tm_last": "  마지막 {what} {at}: {state}: {message}", "tm_push": "전송", "tm_pull": "가져오기",
        "tm_state": "  팀 상태: 버전 {version}, 라운드 {round}, {age:.1f}시간 전; 팀에서 온 도메인 {n}개",
        "tm_patterns": "; 팀 검토로 System 1에 둔 패턴 {n}개", "tm_problem": "  문제: {problem}",
        "tm_round": "  라운드 {round} {status}, 검토자 {reviewer} (행 {first}..{last})",
        "tm_no_record": "아직 기록 없음: 보낼 것이 없습니다", "tm_left_now": "팀에서 나왔습니다; 자신의 상태는 그대로입니다",
        "tm_not_a_member": "이 홈은 팀 멤버가 아닙니다", "tm_not_pulled": "artibot: 팀 상태를 가져오지 못함: {why}",
        "tm_joined": "{url}의 팀에 가입했습니다; 자유 텍스트는 {text}", "tm_shared": "공유됩니다 (익명화)",
        "tm_never_sent": "보내지 않습니다",
        "tm_set_aside": "제외됨 (검사에 실패한 행), 멤버별: {members}",
        "tm_held_out": "보류됨 (멤버당 {per}개, 라운드당 {all}개를 넘는 팀의 새 도메인: 학습하지 않음), 멤버별: {members}",
        "tm_held_member": "{member} 도메인 {domains}개, 행 {rows}개",
        "tm_waits": "팀 라운드 {round}이(가) 검토를 기다립니다: `artibot team review --answer 1=accept --answer "
                    "2=apply [--answer 3=auto]`",
        "tm_withdraw_ask": "팀이 마지막으로 게시한 상태를 철회할까요?", "tm_nothing_rolled": "되돌린 것 없음",
        "tm_withdrawn": "상태 버전 {version} (라운드 {round}) 철회됨; ",
        "tm_again": "버전 {version} (라운드 {round})이(가) 다시 팀의 상태입니다",
        "tm_no_state": "이제 팀에 게시된 상태가 없습니다",
        "tm_push_postponed": "artibot: 팀 전송을 미룸: {why}",
        "tm_schema": "{where}의 팀 스키마 버전: {version}", "tm_current": "최신",
        "tm_applied": " (적용: {versions})", "tm_nothing_to_apply": " (적용할 것 없음)",
        "tm_no_retention": "보존 기간이 정해지지 않음: 지운 것 없음 (--months N, 또는 팀 설정 retention_months)",
        "tm_drop_ask": "이번 달 이전 {keep}개월보다 오래된 달의 모인 경험을 지울까요?",
        "tm_nothing_dropped": "지운 것 없음",
        "tm_months": "{cutoff} 이전의 달: {dropped}개 지움 (행 {rows}개), {kept}개 유지",
        "co_collected": "경험 {n}개를 모았습니다", "co_one": ": {id}",
        "rp_drawing": "경험을 읽고 차트를 그리는 중",
        "rp_wrote": "{target}에 썼습니다 ({kb:,} KB, 보는 데 네트워크가 필요 없음)",
        "rp_no_browser": "웹 브라우저를 찾지 못했습니다: {uri}을(를) 직접 여세요",
    },
}

CHANGES = {"ko": {"create": "생성", "update": "수정", "unchanged": "그대로", "remove": "삭제"}}
"""An install plan's actions, by language."""

COUNTERS = {"ko": {"requests": "요청", "routed": "라우팅된 턴의 요청", "rewritten": "다시 씀", "unattributed": "턴 미상",
                   "refused": "거절", "upstream_errors": "업스트림 오류", "client_gone": "먼저 떠난 클라이언트",
                   "cut": "끊긴 스트림", "spool_errors": "기록 오류"}}
"""The gateway's counters (``status``), by language."""


def drift_summary_ko(report: dict[str, object]) -> str:
    """``drift``'s one-line summary in Korean, from the report's rows (the learner words it in English)."""
    rows = report["domains"]
    assert isinstance(rows, list)
    days, alpha = report["days"], report["alpha"]
    tested = [r for r in rows if r.get("tested", True)]
    drifted = [r for r in rows if r["drift"]]
    if not tested:
        return f"검사할 것 없음: 이력과 최근 {days:g}일의 기록을 모두 가진 도메인이 없습니다"
    if not drifted:
        return f"드리프트 없음: 최근 {days:g}일 동안 도메인/시스템 쌍 {len(tested)}개를 검사했습니다 (Bonferroni, alpha={alpha:g})"
    names = ", ".join(f"{r['domain']}/{r['system']}" for r in drifted)
    return (f"최근 {days:g}일 동안 검사한 도메인/시스템 쌍 {len(tested)}개 중 {len(drifted)}개에서 드리프트: {names}; "
            "그 도메인들의 초기화를 제안합니다")
