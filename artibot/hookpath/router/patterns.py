"""Pattern keys: one stable name for one routine task, however it is phrased.

The System 1 cache and knowledge transfer count successes per pattern key, so two
phrasings of the same task must give the same key and different tasks different keys.
The key is ``"{domain}:{verb}:{object}+{object}..."`` (``"{domain}:{verb}"`` when there
is no object), e.g. ``"docs:fix:doc+typo"``, built from the already anonymized text:

1. NFC; anonymization placeholders (``<EMAIL>``, ``<TOKEN_2>``, ``[SECRET]``) are
   dropped, so the key never depends on which email or key was in the request.
2. Dropped: fenced and inline code, quoted strings (``"..."``, ``'...'``, ``“...”``,
   ``「...」``), URLs, e-mail addresses, ``snake_case`` and ``camelCase`` identifiers and
   ``calls()`` (``PascalCase`` is kept: it is as often a product name as a class).
3. Paths and file names become the class of their extension: ``doc`` (``.md``,
   ``.rst``, ``.txt``, ``README`` ...), ``code``, ``test`` (``test_x.py``,
   ``x.test.ts``, ``x_test.go``, ``x.spec.js``), ``style``, ``config``, ``data``,
   ``markup``, ``image``; an unknown extension or a bare directory is dropped. So
   ``README.md`` and ``docs/intro.md`` both say ``doc``.
4. Lower case; tokens as in :mod:`artibot.hookpath.router.domains`; numbers, versions
   (``v2``) and hex ids are dropped.
5. Korean words lose one trailing particle or verb ending (``오타를`` -> ``오타``,
   ``수정해줘`` -> ``수정``; a one-syllable particle only when two syllables remain,
   so ``회의`` stays whole). English words lose a plural ending (``typos`` -> ``typo``).
6. Stopwords go (English function words and fillers such as ``please``, ``file``,
   ``line``, ``new``; Korean ``좀``, ``이거``, ``파일``, ``부분``, and particles left
   standing alone, as in ``README.md의``).
7. Verbs map to a canonical verb (``correct``/``repair``/``고치``/``수정`` -> ``fix``,
   ``delete``/``삭제``/``제거`` -> ``remove``, ``change``/``modify``/``변경``/``바꾸`` ->
   ``update`` ...); the verb of the key is the first primary verb of an English
   request and the last of a Korean one (Korean puts the verb last); verbs that are
   also nouns (``test``, ``format``, ``lint``, ``document``, ``comment``) are the verb
   only when no primary verb is present; otherwise ``do``. ``update`` + ``name`` is
   ``rename``. Common nouns map across languages (``오타`` -> ``typo``, ``주석`` ->
   ``comment``, ``로그인`` -> ``login``, ``컴포넌트`` -> ``component`` ...), so a Korean
   and an English request for the same task share a key.
8. The objects are the remaining words (cut to 24 characters), de-duplicated and
   sorted (word order does not matter). Beyond four, the key keeps the first four and
   a short hash of all of them (``+~1a2b3c``): long requests are unique anyway, and
   keys stay short.

A text with no verb and no object (only stopwords, numbers, placeholders) has no key.

>>> pattern_key("fix the typo in README.md", "docs")
'docs:fix:doc+typo'
>>> pattern_key("Fix typo in docs/intro.md", "docs")
'docs:fix:doc+typo'
>>> pattern_key("README.md의 오타를 고쳐줘", "docs")
'docs:fix:doc+typo'
>>> pattern_key("email <EMAIL> about the bug", "general")
'general:do:bug+email'
>>> pattern_key("thanks!", "general") is None
True
"""

from __future__ import annotations

import unicodedata

from artibot.hookpath import regex

TYPE_CHECKING = False  # not typing's own: the prompt hook imports this module
if TYPE_CHECKING:
    import re

from artibot.hookpath.router.domains import PLACEHOLDER, inflections, is_hangul, tokenize

MAX_OBJECTS = 4
MAX_WORD = 24  # longer words (a pasted hash, a long Korean run) are cut

_CODE = regex.compile(r"```.*?(?:```|$)|`[^`\n]*`", regex.DOTALL)
# every branch starts with its opening quote, so ``re`` can skip ahead to one; the
# single quote is not an apostrophe (don't, it's) thanks to the look-behind after it
_QUOTED = regex.compile(
    r'"[^"\n]*"|\'(?<![A-Za-z0-9]\')[^\'\n]*\'(?![A-Za-z0-9])|\u201c[^\u201d\n]*\u201d'
    r"|\u2018[^\u2019\n]*\u2019|\u300c[^\u300d\n]*\u300d|\u300e[^\u300f\n]*\u300f"
)
_URL = regex.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]*://\S+|\bwww\.\S+")
_EMAIL = regex.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_IDENT = regex.compile(
    r"\b[A-Za-z_][A-Za-z0-9]*_[A-Za-z0-9_]*\b"  # snake_case
    r"|\b[a-z]+[A-Z][A-Za-z0-9]*\b"  # camelCase (PascalCase may be a product name: kept)
    r"|\b[A-Za-z_][\w.]*\(\)"  # calls()
)
_PATH = regex.compile(
    r"(?:[\w.~+@-]*[/\\])+[\w.+@-]*"
    r"|(?<![\w.])[\w+-]+(?:\.[\w+-]+)*\.[A-Za-z][A-Za-z0-9]{0,5}(?![A-Za-z0-9])"
)
# a whitespace-separated chunk needs the regexes above only if it has one of these
# (or is camelCase); checking chunks first keeps a 2 KB prompt well under a millisecond
_SPECIAL_CHARS = frozenset("/\\.@_(:")
_NUMBERISH = regex.compile(r"v?\d+[a-z]{0,2}|[0-9a-f]*\d[0-9a-f]*")

_EXT_CLASS = {
    **dict.fromkeys(("md", "markdown", "rst", "txt", "adoc", "org", "tex"), "doc"),
    **dict.fromkeys(("py", "pyi", "js", "mjs", "cjs", "ts", "tsx", "jsx", "go", "rs", "java",
                     "kt", "kts", "swift", "c", "h", "cc", "cpp", "hpp", "cs", "rb", "php",
                     "scala", "sh", "bash", "zsh", "ps1", "lua", "dart", "ex", "exs", "vue",
                     "svelte", "m", "r", "jl", "sql"), "code"),
    **dict.fromkeys(("css", "scss", "sass", "less", "styl"), "style"),
    **dict.fromkeys(("json", "yaml", "yml", "toml", "ini", "cfg", "conf", "env", "lock",
                     "properties", "xml", "gradle", "mk", "dockerfile"), "config"),
    **dict.fromkeys(("csv", "tsv", "parquet", "jsonl", "ndjson", "db", "sqlite", "xlsx",
                     "xls", "avro", "arrow", "pkl", "npy"), "data"),
    **dict.fromkeys(("html", "htm", "xhtml", "hbs", "jinja", "j2", "ejs"), "markup"),
    **dict.fromkeys(("png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp"), "image"),
}
_BARE_FILES = {
    **dict.fromkeys(("readme", "changelog", "license", "contributing", "authors", "notice"), "doc"),
    **dict.fromkeys(("makefile", "dockerfile", "justfile", "procfile", "gemfile", "rakefile",
                     "jenkinsfile", "vagrantfile"), "config"),
}
_TEST_FILE = regex.compile(r"(?:^|[/\\])(?:test_[^/\\]*|[^/\\]*(?:_test|\.test|\.spec|_spec)\.[a-z0-9]+)$")

_EN_STOP = frozenset("""
a an the this that these those it its to in on at of for from by with about into onto over
under and or but nor so if then than as is are was were be been being am do does did done
doing can could should would will shall may might must have has had having i me my mine we
us our you your he she they them their his her please pls plz kindly just also too very
really quite some any all each every there here what which who whom whose when where how
why let lets want wants wanted need needs needed like get got go going make sure hi hey
hello thanks thank up out now again still already only even bit little one ones something
anything thing things file files line lines way stuff etc eg ie via using use new
old current existing not no don doesn didn isn aren wasn won t s d ll ve re m okay ok yes
same another other more most such while after before because since until once per
""".split())
_KO_STOP = frozenset("""
좀 이 그 저 이거 이것 그거 그것 저거 저것 여기 거기 것 거 수 등 및 또 또는 그리고 다시 지금
현재 부탁 부탁해 부탁드려요 부탁드립니다 주세요 줘 해줘 해주세요 해 하 해요 합니다 제발 우리
내 제 너 있는 없는 있어 같아 같은 파일 부분 내용 한번 해봐 해볼래 하는 할 한 된 되는 좀더
더 잘 것들 거기서 여기서 새 새로운 기존
""".split())
_KO_SUFFIXES_LONG = tuple(sorted("""
에서는 에서도 으로는 으로도 이라고 라고 에서 으로 에게 한테 까지 부터 처럼 보다 이랑 에는 에도
와는 과는 이나 만큼 해줘요 해줘 해주세요 해주 해줄래 해봐 하기 하는 하고 해서 하다 합니다 해요
했어 했다 하면 하자 되는 되게 된 돼 됨 시켜 시키
""".split(), key=len, reverse=True))
_KO_SUFFIXES_SHORT = tuple("을 를 이 가 은 는 에 의 도 만 로 와 과 랑 한 할 해 요".split())
# a particle standing alone: "README.md의", "API에" tokenize as "readme md 의", "api 에"
_KO_STOP = _KO_STOP | set(_KO_SUFFIXES_LONG) | set(_KO_SUFFIXES_SHORT)

# canonical verb <- English forms (inflections are stripped by _en_word)
_EN_VERBS = {
    "fix": "fix correct repair resolve patch",
    "add": "add insert append introduce",
    "remove": "remove delete drop eliminate strip",
    "update": "update change modify edit adjust tweak alter",
    "rename": "rename",
    "create": "create make generate scaffold",
    "write": "write",
    "implement": "implement",
    "refactor": "refactor restructure rework",
    "rewrite": "rewrite",
    "migrate": "migrate port",
    "deploy": "deploy ship",
    "release": "release",
    "explain": "explain describe clarify",
    "review": "review audit",
    "optimize": "optimize optimise speed",
    "improve": "improve",
    "upgrade": "upgrade bump",
    "install": "install",
    "configure": "configure setup",
    "move": "move relocate",
    "convert": "convert transform",
    "translate": "translate",
    "revert": "revert undo",
    "merge": "merge",
    "investigate": "investigate diagnose troubleshoot",
    "debug": "debug",
    "clean": "clean cleanup tidy",
    "split": "split",
    "replace": "replace swap",
    "sort": "sort",
    "check": "check verify validate",
    "summarize": "summarize summarise",
}
_SECONDARY_VERBS = {"test": "test", "format": "format", "lint": "lint", "document": "document",
                    "comment": "comment"}
# canonical verb <- Korean stems, matched at the start of a Hangul word
_KO_VERBS = {
    "fix": "수정 고치 고쳐 해결",
    "add": "추가 넣어 넣기 넣고",
    "remove": "삭제 제거 지워 지우",
    "update": "변경 바꾸 바꿔 업데이트 갱신 편집",
    "rename": "이름변경 개명",
    "create": "만들 만드 생성",
    "write": "작성",
    "implement": "구현",
    "refactor": "리팩터링 리팩토링",
    "migrate": "마이그레이션 이관",
    "deploy": "배포",
    "explain": "설명",
    "review": "검토 리뷰",
    "optimize": "최적화",
    "upgrade": "업그레이드",
    "install": "설치",
    "configure": "설정",
    "move": "이동 옮기 옮겨",
    "convert": "변환",
    "translate": "번역",
    "revert": "되돌리 되돌려",
    "investigate": "조사 분석",
    "debug": "디버깅 디버그",
    "clean": "정리",
    "check": "확인 점검 검증",
    "summarize": "요약",
}
_KO_SECONDARY = {"테스트": "test", "포맷": "format", "린트": "lint", "문서화": "document"}
_SYNONYMS = {
    "misspelling": "typo", "spelling": "typo", "오타": "typo", "오탈자": "typo", "맞춤법": "typo",
    "주석": "comment", "버그": "bug", "문서": "doc", "doc": "doc", "documentation": "doc",
    "함수": "function", "변수": "variable", "이름": "name", "들여쓰기": "indentation",
    "indent": "indentation", "에러": "error", "오류": "error", "로그": "log", "버전": "version",
    "의존성": "dependency", "타입": "type", "링크": "link", "버튼": "button",
    "컴포넌트": "component", "페이지": "page", "엔드포인트": "endpoint", "쿼리": "query",
    "스타일": "style", "색상": "color", "colour": "color", "경고": "warning",
    "메시지": "message", "테이블": "table", "클래스": "class", "메서드": "method",
    "메소드": "method", "임포트": "import", "패키지": "package", "코드": "code",
    "로그인": "login", "로그아웃": "logout", "회원가입": "signup", "사용자": "user", "유저": "user",
    "데이터베이스": "database", "서버": "server", "캐시": "cache", "검색": "search", "모달": "modal",
    "헤더": "header", "푸터": "footer", "이미지": "image", "아이콘": "icon", "레이아웃": "layout",
    "토글": "toggle", "다크": "dark", "모드": "mode", "페이지네이션": "pagination", "폼": "form",
    "스피너": "spinner", "라우트": "route", "세션": "session", "토큰": "token", "권한": "permission",
    "경로": "path", "환경변수": "env", "리드미": "doc", "위키": "wiki",
}


def _verb_forms() -> dict[str, str]:
    out: dict[str, str] = {}
    for table in (_EN_VERBS, {k: k for k in _SECONDARY_VERBS}):
        for canon, words in table.items():
            for word in words.split():
                for form in inflections(word):
                    out.setdefault(form, canon)
    for word, canon in (("made", "create"), ("wrote", "write"), ("written", "write"),
                        ("rewrote", "rewrite"), ("rewritten", "rewrite"), ("set", "configure")):
        out[word] = canon
    return out


_EN_VERB_FORMS = _verb_forms()
_KO_VERB_MAP = {stem: canon for canon, stems in _KO_VERBS.items() for stem in stems.split()}
_KO_VERB_LENGTHS = sorted({len(stem) for stem in _KO_VERB_MAP}, reverse=True)
_KO_SUFFIX_SET = frozenset(_KO_SUFFIXES_LONG)
_KO_SUFFIX_LENGTHS = sorted({len(x) for x in _KO_SUFFIXES_LONG}, reverse=True)
_KO_SHORT_SET = frozenset(_KO_SUFFIXES_SHORT)


def _file_class(match: re.Match[str]) -> str:
    path = match.group(0).rstrip("/\\.")
    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if _TEST_FILE.search(name):
        return " test "
    if "." in name:
        return f" {_EXT_CLASS.get(name.rsplit('.', 1)[1], '')} "
    return f" {_BARE_FILES.get(name, '')} "


def _scrub_chunk(chunk: str) -> str:
    """URLs, e-mails and identifiers dropped, paths replaced by their class (steps 2-3)."""
    for pattern in (_URL, _EMAIL):
        chunk = pattern.sub(" ", chunk)
    return _IDENT.sub(" ", _PATH.sub(_file_class, chunk))


def _en_word(token: str) -> str:
    """A plural-free form of an English token (``typos`` -> ``typo``, ``queries`` -> ``query``)."""
    if len(token) <= 3 or not token.isalpha():
        return token
    if token.endswith("ies") and len(token) > 4:
        return token[:-3] + "y"
    if token.endswith(("sses", "xes", "ches", "shes")):
        return token[:-2]
    if token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token


def _ko_word(token: str) -> str:
    """``token`` without one trailing particle or ending (see the module doc, step 5)."""
    for k in _KO_SUFFIX_LENGTHS:
        if len(token) > k and token[-k:] in _KO_SUFFIX_SET:
            return token[:-k]
    if len(token) >= 3 and token[-1] in _KO_SHORT_SET:
        return token[:-1]
    return token


def _ko_verb(token: str) -> str | None:
    for k in _KO_VERB_LENGTHS:
        canon = _KO_VERB_MAP.get(token[:k])
        if canon:
            return canon
    return None


def _classify(token: str) -> tuple[str, str] | None:
    """``(kind, word)`` for one token, or None for a stopword or a number."""
    if is_hangul(token):
        canon = _ko_verb(token)
        if canon:
            return ("verb", canon)
        word = _ko_word(token)
        if word in _KO_STOP or token in _KO_STOP:
            return None
        if word in _KO_SECONDARY:
            return ("verb2", _KO_SECONDARY[word])
        return ("word", _SYNONYMS.get(word, word))
    if token in _EN_STOP or _NUMBERISH.fullmatch(token):
        return None
    if token in _BARE_FILES:
        return ("word", _BARE_FILES[token])
    canon = _EN_VERB_FORMS.get(token)
    if canon:
        return ("verb2" if canon in _SECONDARY_VERBS else "verb", canon)
    word = _en_word(token)
    return ("word", _SYNONYMS.get(word, word))


def content_words(text: str) -> tuple[list[tuple[str, str]], bool]:
    """``(kind, word)`` in text order (kind ``verb``, ``verb2`` for a secondary verb, or
    ``word``), and whether the request is mostly Korean (more Hangul words than others)."""
    text = unicodedata.normalize("NFC", text)
    for pattern in (PLACEHOLDER, _CODE, _QUOTED):
        text = pattern.sub(" ", text)
    chunks = text.split()
    for i, chunk in enumerate(chunks):
        if not _SPECIAL_CHARS.isdisjoint(chunk) or (chunk[0].islower() and not chunk.islower()):
            chunks[i] = _scrub_chunk(chunk)
    tokens = tokenize(" ".join(chunks).lower())
    unique = set(tokens)
    seen = {token: _classify(token) for token in unique}
    korean = {token for token in unique if is_hangul(token)}
    words = [word for word in map(seen.__getitem__, tokens) if word is not None]
    return words, sum(map(korean.__contains__, tokens)) * 2 > len(tokens)


def _sha1_hex(data: bytes) -> str:
    """SHA-1 without :mod:`hashlib`, whose OpenSSL binding costs the prompt hook many times
    what CPython's own ``_sha1`` does (docs/benchmarks.md, "Costs behind the code"); both give
    the same digest."""
    try:
        import _sha1  # type: ignore[import-not-found]
    except ImportError:  # pragma: no cover - a Python without the builtin module
        import hashlib

        return hashlib.sha1(data).hexdigest()
    digest: str = _sha1.sha1(data).hexdigest()
    return digest


def pattern_key(text: str, domain: str) -> str | None:
    """The pattern key of ``text`` in ``domain`` (see the module doc), or None."""
    words, korean = content_words(text)
    if not words:
        return None
    primary = [i for i, (kind, _) in enumerate(words) if kind == "verb"]
    candidates = primary or [i for i, (kind, _) in enumerate(words) if kind == "verb2"]
    verb_at = (candidates[-1] if korean else candidates[0]) if candidates else None
    verb = words[verb_at][1] if verb_at is not None else "do"
    objects = {w for i, (_, w) in enumerate(words) if i != verb_at and w != verb}
    if verb == "update" and "name" in objects:
        verb = "rename"
    if verb == "rename":
        objects.discard("name")
    ordered = sorted({w[:MAX_WORD] for w in objects})
    if len(ordered) > MAX_OBJECTS:
        digest = _sha1_hex("+".join(ordered).encode())[:6]
        ordered = ordered[:MAX_OBJECTS] + [f"~{digest}"]
    head = f"{domain}:{verb}"
    return f"{head}:{'+'.join(ordered)}" if ordered else head
