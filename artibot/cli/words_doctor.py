"""``doctor``'s findings in Korean: what is wrong with a file, what the repair does, and what
is lost without it (:mod:`artibot.store.doctor` words them in English).

Rules as in :mod:`artibot.cli.words_errors`, read before its general ones. A finding is said
in parts: the problem, then the fix, each through every rule in turn.
"""

from __future__ import annotations

from artibot.cli.words_sentences import Replacement

_Q = "quarantine/"


DOCTOR: list[tuple[str, Replacement]] = [
    # the data home
    # links, odd files, temp files
    (r"^is not a regular file$", "일반 파일이 아닙니다"),
    (r"^move it aside into quarantine/", f"{_Q}로 옮깁니다"),
    (r"^leftover temp file of a write interrupted by a crash \(the file it was meant to replace is intact\)$",
     "충돌로 중단된 쓰기가 남긴 임시 파일입니다 (바꾸려던 파일은 온전합니다)"),
    # documents
    (r"^was written by a newer artibot \(schema_version (?P<n>\S+); this one understands (?P<m>\S+)\)$",
     r"더 새 artibot이 쓴 파일입니다 (schema_version \g<n>; 이 artibot은 \g<m>까지 압니다)"),
    (r"^upgrade artibot; doctor leaves a newer artibot's file where it is$",
     "artibot을 업그레이드하세요; doctor는 더 새 artibot의 파일을 그대로 둡니다"),
    (r"^move the bad copy to quarantine/ so the next run starts this file fresh: ",
     f"다음 실행이 이 파일을 새로 시작하도록 손상된 사본을 {_Q}로 옮깁니다: "),
    (r"^move it to quarantine/, then run `(?P<c>[^`]+)` again$", f"{_Q}로 옮긴 뒤 `\\g<c>`을(를) 다시 실행하세요"),
    # what is lost without the file
    (r"the turn in progress of that session is forgotten \(at most one experience\)",
     "그 세션의 진행 중인 턴을 잊습니다 (경험 최대 1개)"),
    (r"that recorded decision can no longer be completed with `artibot outcome`",
     "기록된 그 결정은 더 이상 `artibot outcome`으로 완료할 수 없습니다"),
    (r"nothing the learner needs: the decision's experience is already in the log",
     "학습에 필요한 것은 없습니다: 그 결정의 경험은 이미 로그에 있습니다"),
    (r"thresholds fall back to the configured default \(cognitive\.router\.threshold\) for every domain",
     "모든 도메인의 임계값이 설정된 기본값(cognitive.router.threshold)으로 돌아갑니다"),
    (r"the System 1 cache starts empty until patterns are promoted again",
     "패턴이 다시 승격될 때까지 System 1 캐시는 비어 있습니다"),
    (r"pattern streaks, counts and confidence restart from zero", "패턴의 연속 기록, 횟수, 신뢰도가 0부터 다시 시작합니다"),
    (r"`artibot history` no longer lists the rounds so far", "`artibot history`에 지금까지의 라운드가 나오지 않습니다"),
    (r"the record of past promotions and demotions starts empty", "지난 승격과 강등의 기록이 빈 상태로 시작합니다"),
    (r"the round waiting for review is dropped; its experiences stay unprocessed, so the next `artibot learn` "
     r"prepares it again", "검토를 기다리는 라운드는 버려집니다; 그 경험은 미처리로 남으므로 다음 `artibot learn`이 "
                           "다시 준비합니다"),
    (r"; restore from snapshots/(?P<r>[^/]+)/ with `(?P<c>[^`]+)`",
     r"; `\g<c>`(으)로 snapshots/\g<r>/에서 복원할 수 있습니다"),
    (r"; no snapshot holds a copy of it", "; 사본을 가진 스냅숏이 없습니다"),
    (r"the processed experiences in it are no longer replayed \(the copy stays in quarantine/\)",
     f"그 안의 처리된 경험은 더 이상 재생되지 않습니다 (사본은 {_Q}에 남습니다)"),
    (r"`artibot rollback (?P<r>\S+)` will stop, naming the missing copy",
     r"`artibot rollback \g<r>`은(는) 빠진 사본을 밝히며 멈춥니다"),
    (r"the learner's start stamp is forgotten: the next session end may start the learner again",
     "학습기의 시작 기록을 잊습니다: 다음 세션이 끝날 때 학습기가 다시 시작될 수 있습니다"),
    (r"a fresh log starts with the next experience", "다음 경험부터 새 로그가 시작됩니다"),
    # archives, rollbacks, snapshots
    (r"^unreadable marker of an interrupted archive move or restore$", "중단된 보관 이동이나 복원의 표식을 읽을 수 없습니다"),
    (r"^move the marker to quarantine/, then run `artibot doctor` again: it shows any record left in both the log and "
     r"archive/$", f"표식을 {_Q}로 옮긴 뒤 `artibot doctor`를 다시 실행하세요: 로그와 archive/ 양쪽에 남은 레코드를 "
                   "보여 줍니다"),
    (r"^a move of processed experiences to archive/(?P<a>\S+) was interrupted$",
     r"처리된 경험을 archive/\g<a>(으)로 옮기는 작업이 중단되었습니다"),
    (r"^a rollback's restore of the experiences of archive/(?P<a>\S+) was interrupted$",
     r"롤백이 archive/\g<a>의 경험을 복원하는 작업이 중단되었습니다"),
    (r"^finish it: drop from the log the records already archived \(the next write to the log does this by itself\)$",
     "마무리합니다: 이미 보관된 레코드를 로그에서 뺍니다 (다음에 로그에 쓸 때 저절로 됩니다)"),
    (r"^finish it: put the records back into the log and retire the archive \(the next write to the log does this "
     r"by itself\)$", "마무리합니다: 레코드를 로그에 되돌리고 그 보관 파일을 정리합니다 (다음에 로그에 쓸 때 저절로 "
                      "됩니다)"),
    (r"^a rollback of round\(s\) (?P<r>.+) was interrupted$", r"라운드 \g<r>의 롤백이 중단되었습니다"),
    (r"^run `artibot learn` or `artibot rollback` \(or this repair\): it finishes the rollback$",
     "`artibot learn`이나 `artibot rollback`을 실행하세요 (또는 이 복구): 롤백을 마무리합니다"),
    (r"^this snapshot has no manifest\.json \(a round interrupted while taking it\?\); `artibot rollback` cannot use it$",
     "이 스냅숏에는 manifest.json이 없습니다 (찍는 도중 중단된 라운드?); `artibot rollback`이 쓸 수 없습니다"),
    (r"^nothing to repair; leave it or move it by hand$", "복구할 것 없음; 그대로 두거나 직접 옮기세요"),
    (r"^edit the file: each problem names the key and what is allowed \(doctor never changes your configuration\)$",
     "파일을 고치세요: 문제마다 키와 허용되는 값을 밝힙니다 (doctor는 설정을 바꾸지 않습니다)"),
    # the experience log
    (r"^could not be checked: ", "검사할 수 없었습니다: "), (r"^run `artibot doctor` again$", "`artibot doctor`를 다시 실행하세요"),
    (r"^the last append was interrupted: ", "마지막 추가가 중단되었습니다: "),
    (r"^cut the torn tail into quarantine/(?P<z> \(zero-filled runs described there, not copied\))? and restore the "
     r"closing bracket \(the next append does this by itself\); only the interrupted append is lost$",
     lambda m: f"찢어진 끝부분을 {_Q}로 잘라 내고{' (0으로 채워진 구간은 복사하지 않고 설명만 남김)' if m['z'] else ''} "
               "닫는 괄호를 되살립니다 (다음 추가가 저절로 합니다); 중단된 추가만 잃습니다"),
    (r"^is a valid JSON array but not one record per line as artibot writes it, so an interrupted append could not "
     r"be cut off cleanly$", "올바른 JSON 배열이지만 artibot이 쓰는 한 줄에 레코드 하나 형식이 아니어서, 중단된 추가를 "
                             "깔끔하게 잘라 낼 수 없습니다"),
    (r"^rewrite its (?P<n>\d+) records in artibot's layout; the original goes to quarantine/$",
     f"레코드 \\g<n>개를 artibot의 형식으로 다시 씁니다; 원본은 {_Q}로 갑니다"),
    (r"^is damaged(?: in the middle)? \((?P<d>.+)\), so it cannot be read$", r"손상되어 (\g<d>) 읽을 수 없습니다"),
    (r"^keep every complete record(?: line)? \((?P<n>\d+) records\) in a fresh log and move the damaged copy to "
     r"quarantine/", f"온전한 레코드(\\g<n>개)를 모두 새 로그에 두고 손상된 사본은 {_Q}로 옮깁니다"),
    (r", zero-filled runs described there, not copied", ", 0으로 채워진 구간은 복사하지 않고 설명만 남김"),
    (r" \(records on damaged lines stay only there\)$", " (손상된 줄의 레코드는 그곳에만 남습니다)"),
    (r"^move those records into quarantine/ \(the rest of the log stays as it is\)$",
     f"그 레코드들을 {_Q}로 옮깁니다 (로그의 나머지는 그대로)"),
    (r"^(?P<n>\d+) record\(s\) repeat an id already in the log$", r"레코드 \g<n>개가 로그에 이미 있는 id를 되풀이합니다"),
    (r"^move the later copies into quarantine/ \(the first of each id stays\)$",
     f"나중 사본을 {_Q}로 옮깁니다 (id마다 첫 번째는 남습니다)"),
    (r"^(?P<n>\d+) record\(s\) are both in the log and in a live archive, so the next round would learn them twice "
     r"\(first: (?P<f>.+)\)$", r"레코드 \g<n>개가 로그와 보관 파일 양쪽에 있어 다음 라운드가 두 번 학습합니다 (첫 번째: "
                               r"\g<f>)"),
    (r"^drop them from the log: the archived copy is the one a round processed$",
     "로그에서 뺍니다: 라운드가 처리한 것은 보관된 사본입니다"),
    (r" — the repair failed: ", " — 복구 실패: "),
]
