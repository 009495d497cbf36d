"""The Korean catalogue: every id of :mod:`artibot.messages.en`, in Korean.

Proper names (System 1, System 2), numbers, keys, paths and commands stay as they are.
"""

from __future__ import annotations

TEXTS: dict[str, str] = {
    # --- a threshold step of the evidence learner
    "threshold.reason": "{compared} → {move}",
    "threshold.gain": "{where}: System 2의 이득 {gain} ± {sd:.2f}이(가) 가격 {price}({source}){side}",
    "threshold.failure": "{where}: System 1 실패율 {gain} ± {sd:.2f}이(가) 손익분기 {price}({source}){side}",
    "threshold.gain.above": "보다 높습니다", "threshold.gain.below": "보다 낮습니다", "threshold.gain.equal": "와 같습니다",
    "threshold.yet_lower": "{compared}. 그래도 도메인의 곡선 전체로는 더 낮은 임계값이 더 이득입니다",
    "threshold.yet_higher": "{compared}. 그래도 도메인의 곡선 전체로는 더 높은 임계값이 더 이득입니다",
    "threshold.more_system2": "System 2 증가: 임계값 {old:.2f} → {new:.2f}",
    "threshold.more_system1": "System 1 증가: 임계값 {old:.2f} → {new:.2f}",
    "threshold.stays": "임계값 {old:.2f} 유지",
    "threshold.stays_unsure": "임계값 {old:.2f} 유지: 확실히 더 나은 임계값이 범위 안에 없음",
    "threshold.with_terms": "{move}; {terms}",
    "per100": "이 도메인 100턴당 {bill}, {redos}",
    "per100.bill_same": "비용은 센트 단위까지 같음",
    "per100.bill_less": "${usd:.2f} 절감", "per100.bill_more": "${usd:.2f} 증가",
    "per100.redos_same": "재요청 횟수 같음",
    "per100.redos_fewer": "재요청 {n:.1f}회 감소", "per100.redos_more": "재요청 {n:.1f}회 증가",
    "price_source.cost": "비용", "price_source.system2Cost": "system2Cost",
    "price_source.targetSystem2Share": "targetSystem2Share", "price_source.measured": "측정",
    "price_source.estimated": "추정",
    # --- a pattern's automatic decision, seed mode
    "transfer.promote": "System 2 연속 성공 {streak}회 (>= {needed}), 신뢰도 {c} > {bar}",
    "transfer.hold_streak": "승격 연속 {streak}/{needed}회",
    "transfer.hold_confidence": "신뢰도 {c}이(가) {bar} 초과가 아님",
    "transfer.demote_streak": "System 1 연속 실패 또는 상향 {streak}회 (>= {needed})",
    "transfer.demote_confidence": "신뢰도 {c}이(가) 최소값 {bar} 미만",
    "transfer.both": "{first}, {second}",
    "transfer.hold_active": "활성; System 1 연속 실패 {streak}/{needed}회, 신뢰도 {c}이(가) {bar} 미만이 아님",
    # --- evidence mode: the bounds against the bar
    "transfer.s1": "System 1 {k}/{n} (성공률 {lo}-{hi})",
    "transfer.s2": "System 2 {k}/{n} (성공률 최소 {lo})",
    "transfer.demote_bound": "{s1}: 확실히 {bar} 미만",
    "transfer.hold_active_bound": "활성; {s1}: 확실히 {bar} 미만은 아님",
    "transfer.promote_s1": "{s1}: 확실히 {bar} 이상",
    "transfer.promote_s2": "{s2}, {s1}도 이에 반하지 않음: System 1을 시험 삼아 씀",
    "transfer.hold_s1_short": "{s1}, {s2}: System 1이 확실히 {bar} 미만",
    "transfer.hold_neither": "{s1}, {s2}: 둘 다 승격에 필요한 성공률 {bar} 이상이 확실하지 않음",
    # --- a cached pattern gone stale
    "fresh.failures": "최근 {uses}번 사용 중 실패 {failures}번 (신뢰도 {c:.2f} < {floor:.2f})",
    "fresh.unused": "{days}일 동안 사용되지 않음 (신뢰도 {c:.2f} < {floor:.2f})",
    "fresh.decayed": "승격 후 {days:.0f}일 동안 신뢰도가 감소함: 성공 {successes}번, 실패 {failures}번 "
                     "(신뢰도 {c:.2f} < {floor:.2f})",
    # --- the off-policy estimate's verdict
    "offpolicy.empty": "기간 안에 기록된 경험이 없습니다",
    "offpolicy.unexplored": "추정하기에 근거가 부족합니다: 무작위로 라우팅된 결정이 기록에 없습니다(탐색이 0이거나 "
                            "기록에 성향 값이 없음). 그래서 변경이 택할 경로에 대해 기록이 알려 주는 것이 없습니다",
    "offpolicy.outside_band": "추정하기에 근거가 부족합니다: 경로가 바뀌는 요청 {changed}개 중 {unsupported}개가 탐색 "
                              "구간 밖에 있어 라우터가 제안된 경로를 시도한 적이 없습니다 (변경이 기록이 탐색한 구간보다 "
                              "큽니다)",
    "offpolicy.little_support": "추정하기에 근거가 부족합니다: 변경이 기록된 요청 {changed}개의 경로를 바꾸지만, 그중 "
                                "제안된 경로로 탐색된 것은 {proposed}개, 현재 경로로 탐색된 것은 {current}개뿐입니다 "
                                "(각각 최소 {needed}개가 필요)",
    "offpolicy.no_route": "추정하기에 근거가 부족합니다: 두 정책 중 하나가 고르는 경로를 택한 기록된 요청이 없습니다",
    "offpolicy.no_change": "제안된 임계값은 기록된 요청의 경로를 바꾸지 않습니다",
    "offpolicy.rerouted": "기록된 요청 {n:,}개 중 {changed:,}개의 경로가 바뀝니다",
    # --- the block under checkpoint 2 that shows it
    "checks.unavailable": "제안된 임계값이 기록된 요청에서 했을 일: 이 라운드에는 없습니다(계산 기능 이전에 준비된 라운드).",
    "checks.head": "제안된 임계값이 기록된 요청 {n:,}개에서 했을 일",
    "checks.head_earlier": "제안된 임계값이 기록된 요청 {n:,}개에서 했을 일(이전 라운드 {earlier:,}개 포함)",
    "checks.share": "System 2 비중 {current} -> {proposed} ({change} 포인트).",
    "checks.success_label": "성공률: ",
    "checks.unchanged": "{reason} (성공률 {success}, System 2 비중 {share}).",
    "checks.estimated": "{head}, 무작위로 라우팅된 요청에서 {level}% 구간으로 추정:",
    "checks.policy": "성공률 {success} [{lo}, {hi}]   System 2 비중 {share}",
    "checks.current": "현재", "checks.proposed": "제안", "checks.change": "변화",
    "checks.label": "{name}  ",
    "checks.difference": "성공률 {success} 포인트 [{lo}, {hi}]   System 2 비중 {share} 포인트",
    "checks.support": "{reason}; 유효 표본 크기 {ess:,.0f}; 두 경로가 다른 곳에서 새 경로로 탐색된 요청 {explored}개.",
    "checks.utility": "효용 = 성공률 − {price:.3f} × System 2 비중 (학습기가 최대화하는 값), 포인트:",
    "checks.utility_values": "현재 {current}, 제안 {proposed}, 변화 {change}",
    "checks.worse": "추정상 제안이 더 나쁩니다(변화의 구간 전체가 0 미만). 그래서 기본값은 되돌리기입니다.",
    "checks.noise": "변화는 추정의 잡음 안에 있습니다. 기본값은 적용입니다.",
    # --- errors
    "config.invalid": "설정이 잘못되었습니다: {problems}",
    "config.invalid_in": "설정이 잘못되었습니다 ({source}): {problems}",
    "config.unknown_key": "{key}은(는) 알 수 없는 키입니다 (허용: {allowed})",
    "config.unknown_key_guess": "{key}은(는) 알 수 없는 키입니다; '{guess}'을(를) 뜻했나요? (허용: {allowed})",
    "config.unknown_key_camel": "{key}은(는) 알 수 없는 키입니다; '{guess}'을(를) 뜻했나요? (설정 키는 camelCase입니다) "
                                "(허용: {allowed})",
    "config.unreadable": "파일을 읽을 수 없습니다: {reason}",
    "os.cannot": "{where}에 {doing} 수 없습니다: {reason}; {advice}",
    "os.somewhere": "데이터 홈의 파일",
    "os.doing.write": "쓸", "os.doing.read": "읽을", "os.doing.access": "접근할", "os.doing.create": "만들",
    "os.doing.open": "열", "os.doing.remove": "지울", "os.doing.move": "옮길", "os.doing.lock": "잠글",
    "os.doing.replace": "바꿀", "os.doing.rename": "이름을 바꿀", "os.doing.append": "덧붙일",
    "os.doing.create_folder": "폴더를 만들", "os.doing.sync_folder": "폴더를 동기화할",
    "os.reason.EROFS": "읽기 전용 파일 시스템", "os.reason.EACCES": "권한이 없습니다",
    "os.reason.ENOSPC": "디스크 공간이 없습니다", "os.reason.EDQUOT": "디스크 할당량 초과",
    "os.reason.EPERM": "허용되지 않는 작업", "os.reason.ENOTDIR": "폴더가 아닙니다",
    "os.reason.EISDIR": "폴더입니다", "os.reason.EIO": "입출력 오류",
    "os.reason.ENOENT": "파일이나 폴더가 없습니다", "os.reason.EMFILE": "열린 파일이 너무 많습니다",
    "os.reason.EADDRINUSE": "주소가 이미 사용 중입니다", "os.reason.EADDRNOTAVAIL": "요청한 주소를 쓸 수 없습니다",
    "os.advice.ENOSPC": "디스크가 가득 찼습니다: 공간을 비우고 명령을 다시 실행하세요 (이미 저장된 것은 그대로입니다)",
    "os.advice.EDQUOT": "디스크 할당량을 다 썼습니다: 공간을 비우고 명령을 다시 실행하세요",
    "os.advice.EROFS": "파일 시스템이 읽기 전용입니다: ARTIBOT_HOME을 쓸 수 있는 폴더로 지정하거나 다시 마운트하세요",
    "os.advice.EACCES": "권한이 없습니다: 데이터 홈과 그 파일의 소유자가 본인인지 확인하세요 (chmod u+rw)",
    "os.advice.EPERM": "허용되지 않는 작업입니다: 데이터 홈과 그 파일의 소유자가 본인인지 확인하세요",
    "os.advice.ENOTDIR": "데이터 홈의 경로 중 폴더가 있어야 할 곳에 파일이 있습니다: ARTIBOT_HOME을 폴더로 지정하거나 "
                         "그 파일을 옮기세요",
    "os.advice.EISDIR": "파일이 있어야 할 곳에 폴더가 있습니다: 그 폴더를 옮기세요 (`artibot doctor`가 보여 줍니다)",
    "os.advice.EIO": "디스크가 입출력 오류를 보고했습니다: 디스크를 점검한 뒤 `artibot doctor`를 실행하세요",
    "os.advice.EMFILE": "열린 파일이 너무 많습니다: 프로그램 몇 개를 닫고 명령을 다시 실행하세요",
    "os.advice.other": "원인을 고친 뒤 명령을 다시 실행하세요",
    "gateway.cannot_listen": "게이트웨이가 {address}에서 들을 수 없습니다: {reason} (다른 프로그램이 그 포트를 쓰나요? "
                             "--port를 써 보세요)",
    # --- doctor's findings
    "doctor.problems": "{problems}",
    # --- a round's closing line
    "round.nothing_none": "미처리 경험 없음: 아직 학습할 것 없음 (에이전트의 다음 턴들이 경험을 쌓습니다)",
    "round.nothing_flush": "미처리 경험 {n}개, --flush로도 학습하기에는 너무 적음; 아직 학습할 것 없음",
    "round.nothing_batch": "미처리 경험 {n}개, 배치 크기 {size}개보다 적음; 아직 학습할 것 없음 (--flush를 주면 그래도 처리)",
    "round.recovered": "{nothing}; 중단된 라운드를 되돌림: {rounds}",
    "round.dry_run": "시험 실행: 아무것도 기록하지 않음",
    "round.reset": "그룹 데이터 초기화: 적용된 것 없음; 경험은 미처리로 남음",
    "round.deferred": "라운드 {round}을(를) 준비해 검토용으로 저장했습니다 (체크포인트 {n}에 사람의 답이 필요): "
                      "`artibot review` 또는 Claude Code의 /learn",
    "round.waiting": "라운드 하나가 검토를 기다립니다",
    "round.already_waiting": "라운드 하나가 이미 검토를 기다립니다; 새로 준비한 것 없음",
    "review.none": "검토를 기다리는 라운드 없음",
    "review.none_ready": "검토를 기다리는 라운드 없음; 미처리 경험 {n}개, 전체 배치 {full}개 준비됨: `artibot learn`이 "
                         "라운드를 시작합니다",
    "review.none_collecting": "검토를 기다리는 라운드 없음; 미처리 경험 {n}개, 다음 배치를 위해 {size}개 중 {have}개 모음",
    "review.discarded": "라운드 {round}을(를) 버렸습니다; 그 경험은 미처리로 남습니다",
    # --- the command line's own lines
    "error.interrupted": "중단됨; 반쯤 쓰인 것은 남기지 않았습니다",
    "home.missing": "데이터 홈 {root}이(가) 없습니다: 아직 아무것도 기록되지 않았습니다. --home(명령 앞에 씁니다)이나 "
                    "ARTIBOT_HOME을 확인하세요; 첫 훅이나 `artibot collect`가 홈을 만듭니다",
    # --- the config's checks
    "config.top_level": "최상위는 JSON 객체여야 합니다",
    "config.lang": "lang은 'en', 'ko' 중 하나여야 합니다 ({value}은(는) 안 됨)",
    "config.object": "{key}은(는) 객체여야 합니다",
    "config.integer": "{key}은(는) {lo}부터 {hi}까지의 정수여야 합니다 ({value}은(는) 안 됨)",
    "config.boolean": "{key}은(는) true 또는 false여야 합니다 ({value}은(는) 안 됨)",
    "config.auto_or_boolean": "{key}은(는) true, false 또는 \"auto\"여야 합니다 ({value}은(는) 안 됨)",
    "config.domains": "{key}은(는) 도메인 이름마다 키워드 목록을 주는 객체여야 합니다",
    "config.domain_name": "{key}: 도메인 이름은 소문자, 숫자, - 또는 _ 로 씁니다 (최대 40자)",
    "config.keywords": "{key}은(는) 비어 있지 않은 문자열의 목록이어야 합니다",
    "config.url": "{key}은(는) http(s) URL이어야 합니다 ({value}은(는) 안 됨)",
    "config.url_example": "{key}은(는) http(s) URL이어야 합니다 (예: {example}) ({value}은(는) 안 됨)",
    "config.below": "{key}은(는) {other}보다 작아야 합니다 (받은 값: {got}, {other_got})",
    "config.within": "{key}은(는) {range} 안에 있어야 합니다 (받은 값: {got}, 범위 {bounds} 밖)",
    "config.not_above": "{key}은(는) {other}을(를) 넘을 수 없습니다 (받은 값: {got})",
    "config.price_twice": "learning.lifelong: system2Cost와 targetSystem2Share 중 하나만 설정하세요",
    "doctor.repair_failed": "{fix} — 복구 실패: {why}",
    "doctor.home_parent": "데이터 홈이 없고 {parent}에 쓸 수 없어서 artibot이 홈을 만들 수 없습니다",
    "doctor.home_parent_fix": "다른 홈을 고르거나 (--home 또는 ARTIBOT_HOME) {parent}에 쓸 수 있게 하세요",
    "doctor.home_not_yet": "데이터 홈이 아직 없습니다; artibot이 처음 쓸 때 만듭니다",
    "doctor.home_link": "데이터 홈이 심볼릭 링크입니다; artibot은 홈 자리에 놓인 링크를 따라가지 않습니다",
    "doctor.home_link_fix": "ARTIBOT_HOME을 실제 폴더로 지정하거나, 링크를 폴더로 바꾸세요",
    "doctor.home_not_folder": "데이터 홈이 {what}입니다. 폴더가 아닙니다: artibot은 데이터를 폴더에 보관합니다",
    "doctor.a_file": "파일", "doctor.a_special": "FIFO, 소켓 또는 장치",
    "doctor.home_not_folder_fix": "그것을 다른 곳으로 옮기거나 (artibot은 건드리지 않습니다) 다른 홈을 고르세요 (--home 또는 "
                                  "ARTIBOT_HOME)",
    "doctor.home_readonly": "데이터 홈에 쓸 수 없습니다: 경험을 기록할 수 없고 라운드를 적용할 수 없습니다",
    "doctor.home_readonly_fix": "쓸 수 있게 하거나 (chmod u+w, 또는 읽기-쓰기로 다시 마운트) 다른 홈을 고르세요 (--home 또는 "
                                "ARTIBOT_HOME)",
    "doctor.link": "심볼릭 링크입니다 (대상: {target}); artibot은 데이터 홈에 놓인 링크를 따라가지 않습니다",
    "doctor.link_fix": "링크 자체를 quarantine/로 옮깁니다; 링크의 대상은 건드리지 않습니다",
    "doctor.special": "일반 파일이 아닙니다 (FIFO, 소켓 또는 장치)",
    "doctor.mode": "{what} 권한이 {have}입니다. {wanted}이어야 합니다 (artibot의 데이터는 본인만 읽을 수 있어야 합니다)",
    "doctor.folder": "폴더", "doctor.file": "파일",
    # --- `artibot rollback`
    "rollback.none": "롤백할 적용된 라운드가 없습니다",
    "rollback.not_applied": "라운드 {round}은(는) 적용된 라운드가 아닙니다; {choices}",
    "rollback.not_applied_plain": "라운드 {round}은(는) 적용된 라운드가 아닙니다",
    "rollback.choices": "적용된 라운드(오래된 순): {rounds}, 또는 `last`",
    "rollback.choices_more": "적용된 라운드(오래된 순): {rounds} (그 이전 {n}개 더), 또는 `last`",
    "rollback.none_now": "지금 적용된 라운드가 없습니다 (적용된 라운드는 모두 롤백되었습니다; `artibot history`에 나옵니다)",
    "rollback.none_now_short": "지금 적용된 라운드가 없습니다",
    "rollback.none_yet": "아직 적용된 라운드가 없습니다",
    "rollback.rolled_back": "라운드 {round}은(는) 이미 롤백되었습니다 (`artibot history`에 나옵니다); 롤백할 것이 없습니다; "
                            "{rest}",
    "rollback.rolled_back_at": "라운드 {round}은(는) {at} UTC에 이미 롤백되었습니다 (`artibot history`에 나옵니다); 롤백할 "
                               "것이 없습니다; {rest}",
    # --- `artibot route --record` and `artibot outcome`
    "decision.bad_id": "{id}은(는) 결정 id가 아닙니다 (문자, 숫자, '.', '_', '-'만)",
    "decision.done": "결정 {id}에는 이미 결과가 있습니다",
    "decision.missing": "{folder}에 대기 중인 결정 {id}이(가) 없습니다; `{command}`로 결정을 기록하세요",
    # --- a long round's steps
    "progress.loading": "경험을 읽는 중",
    "progress.computing": "라운드 계산 중, 경험 {n:,}개",
    "progress.writing": "새 상태를 기록하는 중",
    # --- the notes under `report cost`
    "costs.saving_note": "모두 System 2일 때의 비용은 System 1의 각 턴을 System 2의 턴당 평균 비용으로 계산합니다; System 2의 "
                         "턴은 더 어려운 프롬프트이므로 절약액은 높게 나오는 편입니다; 경로 전환으로 생긴 캐시 재기록은 "
                         "System 1에 포함되므로 절약액은 그만큼을 뺀 값입니다",
    "costs.redo_note": "재요청은 실패했거나 상향된 System 1 턴, 또는 실패한 System 2 턴입니다; System 2만 썼을 때는 System "
                       "2의 실패율을 모든 턴에 적용하지만, 그 실패율은 더 어려운 프롬프트에서 측정되므로 추가 재요청은 "
                       "낮게 나오는 편입니다",
    # --- the team's sentences (artibot.team)
    # --- (end: team)
    # --- doctor's findings on the data home's files (artibot.store.doctor)
    # --- (end: doctor)
    # --- a record's validation and the config's shared checks
    "record.invalid": "{problems} (아무것도 기록하지 않았습니다)",
    "record.invalid_in": "{where}: {problems} (아무것도 기록하지 않았습니다)",
    "record.at_record": "레코드 {n}: {problem}",
    "record.at_line": "{n}번째 줄: {problem}",
    "record.at_turn": "턴 {n}: {problem}",
    "record.more": "… 외 {n}개",
    "record.twice": "id {id}이(가) 이 배치에 두 번 있습니다",
    "record.already_stored": "id {ids}은(는) 이미 저장되어 있습니다 (로그 또는 archive/); id는 고유해야 합니다: id를 빼면 "
                             "artibot이 하나를 정합니다",
    "record.stored_bad": "{line}번째 줄: 레코드 {id}: {problems}; 고치거나 다른 곳으로 옮길 때까지 학습이 멈춥니다",
    "record.stored_bad_anon": "{line}번째 줄: 레코드 하나: {problems}; 고치거나 다른 곳으로 옮길 때까지 학습이 멈춥니다",
    "record.required": "{field}이(가) 필요합니다",
    "record.required_unit": "{field}이(가) 필요합니다: 0부터 1까지의 숫자",
    "record.unit": "{field}은(는) 0부터 1까지의 숫자여야 합니다 ({value}은(는) 안 됨)",
    "record.unit_or_null": "{field}은(는) 0부터 1까지의 숫자나 null여야 합니다 ({value}은(는) 안 됨)",
    "record.open_unit": "{field}은(는) 0 초과 1 이하의 숫자여야 합니다 ({value}은(는) 안 됨)",
    "record.open_unit_or_null": "{field}은(는) 0 초과 1 이하의 숫자나 null여야 합니다 ({value}은(는) 안 됨)",
    "record.finite": "{field}은(는) 유한한 숫자여야 합니다 ({value}은(는) 안 됨)",
    "record.int64": "{field}은(는) 64비트에 들어가는 정수여야 합니다 ({value}은(는) 안 됨)",
    "record.surrogate": "{field}은(는) 올바른 유니코드 텍스트여야 합니다 (짝이 없는 서로게이트가 있습니다)",
    "record.deep": "{field}은(는) {n}단계보다 깊게 중첩되어 있습니다",
    "record.key_not_text": "{field}에 문자열이 아닌 키 {key}이(가) 있습니다",
    "record.not_data": "{field}은(는) JSON 데이터(null, true/false, 숫자, 문자열, 목록 또는 객체)여야 합니다 "
                       "({type}은(는) 안 됨)",
    "record.version_newer": "schema_version {version}은(는) 이 artibot이 아는 버전({current})보다 새롭습니다; artibot을 "
                            "업그레이드하세요",
    "record.version": "schema_version은 1부터 {current}까지의 정수여야 합니다 ({value}은(는) 안 됨)",
    "record.version_no_migration": "schema_version {version}에서 {current}(으)로 가는 마이그레이션이 없습니다",
    "record.not_object": "경험은 JSON 객체여야 합니다 ({type}은(는) 안 됨)",
    "record.field_name": "필드 이름 {key}은(는) 문자열이 아닙니다",
    "record.id": "id는 200자 이하의 비어 있지 않은 문자열이어야 합니다 ({value}은(는) 안 됨)",
    "record.timestamp_type": "timestamp는 시간대가 있는 ISO 8601 시각이어야 합니다 ({value}은(는) 안 됨)",
    "record.timestamp": "timestamp는 시간대가 있는 ISO 8601 시각이어야 합니다 (예: {example}) ({value}은(는) 안 됨)",
    "record.session_id": "session_id는 문자열이나 null이어야 합니다 ({value}은(는) 안 됨)",
    "record.input": "input은 문자열이어야 합니다 ({type}은(는) 안 됨)",
    "record.domain": "domain은 64자 이하의 비어 있지 않은 문자열이어야 합니다 (예: {examples}) ({value}은(는) 안 됨)",
    "record.latency": "latency_ms는 0 이상의 숫자여야 합니다 ({value}은(는) 안 됨)",
    "record.pattern": "pattern은 200자 이하의 비어 있지 않은 문자열이나 null이어야 합니다 ({value}은(는) 안 됨)",
    "record.text_or_null": "{field}은(는) 문자열이나 null이어야 합니다 ({value}은(는) 안 됨)",
    "record.count_or_null": "{field}은(는) 0 이상의 정수나 null이어야 합니다 ({value}은(는) 안 됨)",
    "record.flag_or_null": "{field}은(는) true, false 또는 null이어야 합니다 ({value}은(는) 안 됨)",
    "record.object_or_null": "{field}은(는) JSON 객체나 null이어야 합니다 ({value}은(는) 안 됨)",
    "value.one_of": "{key}은(는) {options} 중 하나여야 합니다 ({value}은(는) 안 됨)",
    "value.number_in": "{key}은(는) {range} 범위의 숫자여야 합니다 ({value}은(는) 안 됨)",
    "json.invalid": "올바른 JSON이 아닙니다 ({reason})",
    "json.file_invalid": "{path}은(는) 올바른 JSON이 아닙니다 ({reason}); artibot은 파일을 건드리지 않았습니다. 파일을 "
                         "고치거나 다른 곳으로 옮긴 뒤 명령을 다시 실행하세요.",
    "file.corrupt": "{path}: {problem}. 파일은 그대로 두었습니다; `artibot doctor`로 문제를 보고 `artibot doctor --repair`로 "
                    "잘못된 사본을 옮기세요.",
    "policy.invalid": "라우팅 정책이 잘못되었습니다: {problems}",
    "policy.min_max": "min_threshold와 max_threshold는 0 <= min < max <= 1을 만족해야 합니다 (받은 값: {lo}, {hi})",
    "policy.domain_threshold": "도메인 {domain}의 임계값은 [0, 1] 범위의 숫자여야 합니다 ({value}은(는) 안 됨)",
    "policy.domain_rate": "도메인 {domain}의 탐색 비율은 [0, {most}] 범위의 숫자여야 합니다 ({value}은(는) 안 됨)",
    "policy.team_key": "team_key는 16진수로 쓴 팀의 패턴 키여야 합니다",
    "config.got": "{problem} (받은 값: {value})",
    "config.cron_string": "{key}은(는) 문자열이어야 합니다",
    "config.cron_fields": "{key}에는 필드 5개(분 시 일 월 요일)가 있어야 합니다",
    "config.cron_syntax": "{key} {field} 필드의 {text}은(는) 숫자, 범위, 목록, 간격 또는 *가 아닙니다",
    "config.cron_outside": "{key} {field} 필드의 값 {value}이(가) {range} 범위 밖입니다",
    "config.cron_step": "{key} {field} 필드의 {text}은(는) 간격이 0입니다",
    "config.cron_backwards": "{key} {field} 필드의 {text}은(는) 범위가 거꾸로입니다",
    "config.profile": "{key}은(는) \"effort\"나 \"model\"(또는 둘 다)을 가진 객체여야 합니다 ({value}은(는) 안 됨)",
    "config.profile_effort": "{key}은(는) null(클라이언트의 값 유지)이나 {efforts} 중 하나여야 합니다 ({value}은(는) 안 됨)",
    "config.efforts": "`low`, `medium`, `high`, `max`",
    "config.profile_model": "{key}은(는) null(클라이언트의 값 유지)이나 모델 이름이어야 합니다 ({value}은(는) 안 됨)",
    "config.not_read": "{key}은(는) artibot이 읽는 키가 아닙니다 (알려진 키: {known}); 무시합니다",
    # --- (end: validation)
    # --- commands' arguments, collect, the installer's notes, the gateway, a turn's route reason
    # --- (end: commands)
    # --- the terminal's and the checkpoints' keyed words (artibot.cli.words.w, artibot.round.checkpoint_texts)
    # --- (end: words)
}
