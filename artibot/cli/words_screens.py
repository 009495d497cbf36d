"""The words of the screens besides the checkpoints: ``status``, ``history``, ``doctor``,
``turns``, ``demo`` and ``report cost``, in English and Korean.

Part of the one catalogue that :func:`artibot.cli.words.w` reads (merged there with the
checkpoint words). A Korean line keeps in their own form only proper names (System 1),
numbers, commands, paths, config keys, domain names and round ids.
"""

from __future__ import annotations

SCREENS: dict[str, dict[str, str]] = {
    "en": {
        # status
        "st_thresholds": "Thresholds (complexity below → System 1)", "threshold": "threshold",
        "st_cache": "System 1 cache: {n} pattern(s)",
        "st_counts": "unprocessed experiences: {n} ({full} full batch(es) of {size}); mode: {mode}; "
                     "patterns tracked: {tracked}",
        "st_price": "{said}{extra}", "st_no_round": "; no round yet",
        "st_interrupted": "interrupted turns: {n} (an API error, a turn limit, Ctrl-C or Esc; kept, and left out "
                          "of learning)",
        "st_held": "turns waiting for a resumed session: {n} (each ended session's last turn, for up to 30 min: "
                   "a correction after `claude --continue` still reaches it)",
        "st_last_round": "last round: {round}", "none_yet": "none yet",
        "st_rolled_back": ", rolled back (`artibot history`)",
        "st_review": "round {round} is waiting for review: `artibot review`",
        "st_gateway": "gateway on port {port}: {state}",
        "st_gateway_up": " (version {version}, pid {pid}; {counters})",
        "st_gateway_foreign": " — it is not this data home's gateway: Claude Code's and Codex CLI's requests must not go there",
        "gw_held_home": "another data home's artibot gateway (pid {pid})", "gw_held_home_nopid": "another data "
                        "home's artibot gateway", "gw_held_other": "another program",
        "gw_blocked": "port {port}, where Claude Code sends this home's requests, is held by {holder}: the hooks "
                      "stop every prompt until it is free (the requests, and the API key, must not go there)",
        "gw_blocked_fix": "stop {what}, or move this home's gateway to a free port: `artibot install claude-code "
                          "--gateway --port {free}`",
        "gw_stop_pid": "it (`kill {pid}`, or `artibot --home THAT-HOME uninstall claude-code`)",
        "gw_stop_other": "that program",
        "st_gateway_unrouted": "  Codex CLI on {models}: not routed, the route is context only (the model takes no "
                               "configuration_update item, so its effort cannot change without missing the cache)",
        "st_home": "home: {home}",
        "v_worse": "worse after a round: ", "v_last": "last validation: ", "v_waiting": "waiting to be validated: ",
        # hooks and pending turns (status, doctor, report cost)
        "hf_head": "hook failures since the hook last worked ({n} cause(s); turns may not be recorded):",
        "hf_once": "once, at {at}", "hf_times": "{n} times, first {first}, last {last}",
        "hf_tail": "  every line is in {log}; the record clears on the hook's next success",
        "pending": "turns pending in {sessions} session(s): {total} ({parts}); not in the log, the counts or the "
                   "costs until their session ends",
        "p_open": "{n} in progress", "p_waiting": "{n} waiting for the next prompt",
        "p_held": "{n} held for a resumed session", "p_queued": "{n} final, queued for the session's end",
        "hook_problem": "the {event} hook failed {n} time(s) since it last worked, last at {at} UTC: {cause}",
        "hook_fix": "fix the cause above (a config file it names, a folder's permissions); the next hook that "
                    "works clears this",
        # the lead of `report cost` and `status` (the HTML report words its own, from the same figures)
        "lead_saved": "saved {est} ({pct}) against every turn at System 2 (95% interval {low} to {high}, "
                      "{plow} to {phigh})",
        "lead_no_cost": "saved: no measured cost yet (the gateway measures each turn's cost: "
                        "`artibot install claude-code --gateway`)",
        "lead_no_saving": "saved against every turn at System 2: needs measured turns of both routes",
        "lead_redos": "redos per 100 turns: {extra} against System 2 alone (95% interval {low} to {high}; "
                      "routed {routed}, System 2 alone {alone})",
        "lead_no_redos": "redos per 100 turns against System 2 alone: needs judged turns of both routes",
        # costs
        "cost_route": "{route} {usd}/turn over {n} turn(s)", "cost_measured": "measured cost: ",
        "cost_saved": "; all at System 2 would have cost {all} instead of {total} (saved {est}, 95% {low} to "
                      "{high})",
        "rc_routes": "Cost per route", "route": "route", "turns": "turns", "success": "success", "total": "total",
        "per_turn": "per turn", "rc_days": "Cost per day", "day": "day", "s1_turns": "S1 turns", "s1_cost": "S1 cost",
        "s2_turns": "S2 turns", "s2_cost": "S2 cost",
        "rc_saving": "total {total}; every turn at System 2: {all}; saved {est} (95% interval {low} to {high})",
        "rc_note": "note: {note}",
        "rc_cache": "prompt cache (tokens written / read): ",
        "rc_switches": "route switches: {n} turn(s) changed the session's effort or model; their first requests "
                       "wrote {tokens} cached tokens again ({usd} over reading them), charged to System 1 above",
        "rc_net": "net saving after cache rewrites: {usd}",
        "rc_chores": "client housekeeping (compaction): {n} request(s), {usd}, not counted in any route",
        "rc_agents": "sub-agents: {n} request(s), {usd} (on {models}), counted in the turns that launched them",
        "rc_unmeasured": "{n} turn(s) without a measured cost (recorded without the gateway, or on a model with no "
                         "price: gateway.pricing.models)",
        # history
        "h_none": "no rounds yet", "h_title": "Rounds", "round": "round", "processed": "processed",
        "finished": "finished (UTC)", "status": "status", "h_rollback": "rollback", "h_undid": "undid {rounds}",
        "h_rolled_back": " (rolled back)", "h_thr_reverted": ", thresholds reverted",
        "h_thresholds": "thresholds: {changes}", "h_transfers": "transfers: {moved}",
        "h_costs": "cost per turn (turns): {costs}",
        # doctor
        "dr_checking": "checking every file of the data home", "dr_fine": "{home}: every file is fine",
        "dr_moved": " (moved to {path})",
        # turns
        "t_pending": "pending: ",
        "t_wait_open": "in progress; judged when it stops, by what the session does next",
        "t_wait_next": "waiting for the session's next prompt, which judges it (a correction, a retry); after 30 "
                       "min without one it counts as it ended",
        "t_wait_resume": "the session ended; its last turn waits until {until} UTC in case the session resumes "
                         "(`claude --continue`), so that a correction still reaches it; then the next `artibot "
                         "learn` or session start records it as it ended",
        "t_wait_queued": "judged; written to the log at the session's end or by the next `artibot learn`",
        "t_time": "prompt at (UTC)", "t_agent": "agent", "t_cx": "cx/thr", "t_gateway": "gateway", "t_outcome": "outcome",
        "t_tokens": "tokens", "t_cost": "cost", "t_why": "why {route}: {why}", "t_no_route": "no route",
        "t_none": "no turns yet", "t_none_in": "no turns yet in session {session}",
        # demo
        "demo_working": "simulating {rounds} days of sessions in both learning modes",
        "demo_kept": "in {home} (kept)", "demo_temp": "in temporary homes, removed at the end (--keep DIR keeps them)",
        "demo_head": "artibot demo — simulated coding sessions {where}",
        "demo_days": "Each day: {n} simulated turns routed with what was learned so far, then `artibot learn "
                     "--yes`; the same turns in two homes, one per learning mode. success: the share of turns that "
                     "succeeded; System 2: the share sent to System 2; $ per 100: the bill per 100 turns.",
        "demo_seed_rule": "defaults: what you get with no config (evidence mode). seed rule: the original "
                          "algorithm artibot was built to reproduce (mode \"seed\"), which moves a threshold a "
                          "fixed step per batch.",
        "demo_costs": "The bill at the costs the learner assumes before any is measured: ${s1:.2f} a System 1 "
                      "turn, ${s2:.2f} a System 2 turn, ${retry:.2f} for System 2 to redo a System 1 turn that "
                      "failed.",
        "demo_defaults_ok": "defaults\nsuccess", "demo_defaults_s2": "defaults\nSystem 2",
        "demo_defaults_usd": "defaults\n$ per 100", "demo_seed_ok": "seed rule\nsuccess",
        "demo_seed_s2": "seed rule\nSystem 2", "demo_seed_usd": "seed rule\n$ per 100",
        "demo_learned": "What the shipped defaults learned", "demo_truth": "hidden truth",
        "demo_changes": "the defaults' threshold changes, as checkpoint 2 explains them:",
        "demo_day": "  day {day}: ",
        "demo_summary": "last {late} rounds — shipped defaults: success {ev_ok:.1%}, System 2 share {ev_s2:.1%}, "
                        "${ev_usd:.2f} per 100 turns; seed rule: success {seed_ok:.1%}, System 2 share "
                        "{seed_s2:.1%}, ${seed_usd:.2f} per 100 turns.",
        "demo_more_kept": " `artibot --home {home} history` shows every round.",
        "demo_more": " `artibot demo --keep DIR` keeps the homes, to look at every round.",
    },
    "ko": {
        "st_thresholds": "임계값 (복잡도가 이보다 낮으면 → System 1)", "threshold": "임계값",
        "st_cache": "System 1 캐시: 패턴 {n}개",
        "st_counts": "미처리 경험: {n}개 ({size}개짜리 전체 배치 {full}개); 모드: {mode}; 추적 중인 패턴: {tracked}개",
        "st_price": "{said}{extra}", "st_no_round": "; 아직 라운드 없음",
        "st_interrupted": "중단된 턴: {n}개 (API 오류, 턴 한도, Ctrl-C 또는 Esc; 보관하되 학습에서는 제외)",
        "st_held": "재개될 세션을 기다리는 턴: {n}개 (끝난 세션마다 마지막 턴을 최대 30분 보관: "
                   "`claude --continue` 후의 정정도 반영됩니다)",
        "st_last_round": "마지막 라운드: {round}", "none_yet": "아직 없음",
        "st_rolled_back": ", 롤백됨 (`artibot history`)",
        "st_review": "라운드 {round}이(가) 검토를 기다립니다: `artibot review`",
        "st_gateway": "게이트웨이 (포트 {port}): {state}",
        "st_gateway_up": " (버전 {version}, pid {pid}; {counters})",
        "st_gateway_foreign": " — 이 데이터 홈의 게이트웨이가 아닙니다: Claude Code와 Codex CLI의 요청을 그쪽으로 보내면 안 됩니다",
        "gw_held_home": "다른 데이터 홈의 artibot 게이트웨이(pid {pid})", "gw_held_home_nopid": "다른 데이터 홈의 "
                        "artibot 게이트웨이", "gw_held_other": "다른 프로그램",
        "gw_blocked": "Claude Code가 이 데이터 홈의 요청을 보내는 포트 {port}을(를) {holder}이(가) 쓰고 있습니다: 포트가 "
                      "비기 전까지 훅이 모든 프롬프트를 멈춥니다 (요청과 API 키가 그쪽으로 가면 안 되니까요)",
        "gw_blocked_fix": "{what} 멈추거나, 이 데이터 홈의 게이트웨이를 빈 포트로 옮기세요: `artibot install claude-code "
                          "--gateway --port {free}`",
        "gw_stop_pid": "그 게이트웨이를 (`kill {pid}`, 또는 `artibot --home 그-데이터-홈 uninstall claude-code`)",
        "gw_stop_other": "그 프로그램을",
        "st_gateway_unrouted": "  {models}의 Codex CLI: 라우팅하지 않음, 경로는 맥락으로만 전달됩니다 (이 모델은 "
                               "configuration_update 항목을 받지 않아, 캐시를 잃지 않고는 노력 수준을 바꿀 수 없습니다)",
        "st_home": "데이터 홈: {home}",
        "v_worse": "라운드 후 더 나빠짐: ", "v_last": "마지막 검증: ", "v_waiting": "검증 대기 중: ",
        "hf_head": "훅이 마지막으로 성공한 뒤의 실패 (원인 {n}개; 턴이 기록되지 않았을 수 있음):",
        "hf_once": "1회, {at}", "hf_times": "{n}회, 처음 {first}, 마지막 {last}",
        "hf_tail": "  모든 줄은 {log}에 있습니다; 훅이 다음에 성공하면 이 기록은 지워집니다",
        "pending": "세션 {sessions}개에서 대기 중인 턴: {total}개 ({parts}); 세션이 끝날 때까지 로그, 개수, 비용에 "
                   "포함되지 않음",
        "p_open": "진행 중 {n}개", "p_waiting": "다음 프롬프트 대기 {n}개", "p_held": "재개될 세션용 보관 {n}개",
        "p_queued": "최종, 세션 종료 대기 {n}개",
        "hook_problem": "{event} 훅이 마지막 성공 후 {n}회 실패했습니다, 마지막 {at} UTC: {cause}",
        "hook_fix": "위 원인(지목된 설정 파일, 폴더 권한)을 고치세요; 다음에 훅이 성공하면 이 기록은 지워집니다",
        "lead_saved": "모든 턴을 System 2로 보냈을 때보다 {est} ({pct}) 절약 (95% 구간 {low}–{high}, "
                      "{plow}–{phigh})",
        "lead_no_cost": "절약: 아직 측정된 비용이 없습니다 (게이트웨이가 턴마다 비용을 측정합니다: "
                        "`artibot install claude-code --gateway`)",
        "lead_no_saving": "모든 턴을 System 2로 보냈을 때 대비 절약: 두 경로 모두 측정된 턴이 필요합니다",
        "lead_redos": "100턴당 재요청: System 2만 썼을 때보다 {extra} (95% 구간 {low} ~ {high}; 라우팅 {routed}, "
                      "System 2만 {alone})",
        "lead_no_redos": "100턴당 재요청, System 2만 썼을 때 대비: 두 경로 모두 판정된 턴이 필요합니다",
        "cost_route": "{route} 턴당 {usd}, 턴 {n}개", "cost_measured": "측정된 비용: ",
        "cost_saved": "; 모두 System 2였다면 {total} 대신 {all} (절약 {est}, 95% {low}–{high})",
        "rc_routes": "경로별 비용", "route": "경로", "turns": "턴", "success": "성공률", "total": "합계",
        "per_turn": "턴당", "rc_days": "일별 비용", "day": "날짜", "s1_turns": "S1 턴", "s1_cost": "S1 비용",
        "s2_turns": "S2 턴", "s2_cost": "S2 비용",
        "rc_saving": "합계 {total}; 모든 턴이 System 2라면: {all}; 절약 {est} (95% 구간 {low}–{high})",
        "rc_note": "참고: {note}",
        "rc_cache": "프롬프트 캐시 (기록 / 읽은 토큰): ",
        "rc_switches": "경로 전환: 턴 {n}개가 세션의 effort나 모델을 바꿨습니다; 그 첫 요청들이 캐시 토큰 {tokens}개를 "
                       "다시 기록했습니다 (읽기보다 {usd} 더), 위의 System 1에 포함",
        "rc_net": "캐시 재기록 후 순 절약: {usd}",
        "rc_chores": "클라이언트 정리 작업 (compaction): 요청 {n}개, {usd}, 어느 경로에도 포함 안 됨",
        "rc_agents": "하위 에이전트: 요청 {n}개, {usd} ({models}에서), 실행한 턴에 포함",
        "rc_unmeasured": "비용이 측정되지 않은 턴 {n}개 (게이트웨이 없이 기록되었거나 가격이 없는 모델: "
                         "gateway.pricing.models)",
        "h_none": "아직 라운드 없음", "h_title": "라운드", "round": "라운드", "processed": "처리",
        "finished": "완료 (UTC)", "status": "상태", "h_rollback": "롤백", "h_undid": "되돌린 라운드: {rounds}",
        "h_rolled_back": " (롤백됨)", "h_thr_reverted": ", 임계값 되돌림",
        "h_thresholds": "임계값: {changes}", "h_transfers": "이전: {moved}",
        "h_costs": "턴당 비용 (턴 수): {costs}",
        "dr_checking": "데이터 홈의 모든 파일을 검사하는 중", "dr_fine": "{home}: 모든 파일이 정상입니다",
        "dr_moved": " ({path}(으)로 옮김)",
        "t_pending": "대기 중: ",
        "t_wait_open": "진행 중; 멈추면 세션이 다음에 하는 일로 판정됩니다",
        "t_wait_next": "세션의 다음 프롬프트를 기다립니다 (정정이나 재시도가 이 턴을 판정합니다); 30분 동안 없으면 "
                       "끝난 그대로 셉니다",
        "t_wait_resume": "세션이 끝났습니다; 세션이 재개될 경우(`claude --continue`) 정정이 반영되도록 마지막 턴은 "
                         "{until} UTC까지 기다립니다; 그 뒤 다음 `artibot learn`이나 세션 시작 때 끝난 그대로 "
                         "기록됩니다",
        "t_wait_queued": "판정됨; 세션이 끝날 때나 다음 `artibot learn` 때 로그에 기록됩니다",
        "t_time": "프롬프트 시각 (UTC)", "t_agent": "에이전트", "t_cx": "복잡도/임계값", "t_gateway": "게이트웨이",
        "t_outcome": "결과", "t_tokens": "토큰", "t_cost": "비용", "t_why": "{route} 이유: {why}",
        "t_no_route": "경로 없음", "t_none": "아직 턴 없음", "t_none_in": "세션 {session}에 아직 턴 없음",
        "demo_working": "두 학습 모드로 {rounds}일간의 세션을 시뮬레이션하는 중",
        "demo_kept": "{home}에서 (보관)", "demo_temp": "임시 홈에서, 끝나면 삭제 (--keep DIR로 보관)",
        "demo_head": "artibot demo — 시뮬레이션한 코딩 세션, {where}",
        "demo_days": "매일: 지금까지 학습한 상태로 시뮬레이션한 턴 {n}개를 라우팅한 뒤 `artibot learn --yes`; "
                     "같은 턴을 학습 모드마다 하나씩, 두 홈에서 실행합니다. 성공률: 성공한 턴의 비율; System 2: System 2로 "
                     "보낸 턴의 비율; 100턴당 $: 100턴당 비용.",
        "demo_seed_rule": "기본 설정: 설정 파일 없이 쓰는 방식(evidence 모드). seed 규칙: artibot이 재현하려고 만든 "
                          "원래 알고리즘(mode \"seed\")으로, 배치마다 임계값을 정해진 폭만큼 움직입니다.",
        "demo_costs": "비용은 아직 측정된 것이 없을 때 학습기가 가정하는 값으로 계산: System 1 턴 ${s1:.2f}, "
                      "System 2 턴 ${s2:.2f}, 실패한 System 1 턴을 System 2가 다시 하는 데 ${retry:.2f}.",
        "demo_defaults_ok": "기본 설정\n성공률", "demo_defaults_s2": "기본 설정\nSystem 2",
        "demo_defaults_usd": "기본 설정\n100턴당 $", "demo_seed_ok": "seed 규칙\n성공률",
        "demo_seed_s2": "seed 규칙\nSystem 2", "demo_seed_usd": "seed 규칙\n100턴당 $",
        "demo_learned": "기본 설정이 학습한 것", "demo_truth": "숨은 정답",
        "demo_changes": "기본 설정의 임계값 변경, 체크포인트 2의 설명:",
        "demo_day": "  {day}일째: ",
        "demo_summary": "마지막 {late}개 라운드 — 기본 설정: 성공률 {ev_ok:.1%}, System 2 비중 {ev_s2:.1%}, "
                        "100턴당 ${ev_usd:.2f}; seed 규칙: 성공률 {seed_ok:.1%}, System 2 비중 {seed_s2:.1%}, "
                        "100턴당 ${seed_usd:.2f}.",
        "demo_more_kept": " `artibot --home {home} history`가 모든 라운드를 보여 줍니다.",
        "demo_more": " `artibot demo --keep DIR`로 홈을 보관하면 모든 라운드를 볼 수 있습니다.",
    },
}

VALUES: dict[str, dict[str, str]] = {
    "ko": {
        # round statuses, severities, outcomes, gateway states, finding states, price sources
        "applied": "적용됨", "deferred": "검토 대기", "reset": "초기화됨", "nothing": "없음", "dry-run": "시험 실행",
        "pending": "대기 중", "reverted": "되돌림", "warning": "경고", "error": "오류", "repaired": "복구됨",
        "ok": "정상", "success": "성공", "failed": "실패", "escalated": "상향", "interrupted": "중단됨",
        "abandoned": "포기됨", "up": "실행 중", "down": "꺼짐", "not answering": "응답 없음",
        "another program": "다른 프로그램", "estimated": "추정", "evidence": "evidence", "seed": "seed",
        "rollback": "롤백",
    },
}
"""Single values the library reports in English (a status, an outcome), by language."""
