"""Domain classification by keyword tables, and the keyword matcher the router shares.

Matching works on *tokens*, never on substrings, so ``ui`` does not hit inside
``guide`` or ``build``, ``api`` not inside ``capital`` and ``test`` not inside ``latest``:

* The text is NFC-normalised, anonymization placeholders (``<EMAIL>``, ``<TOKEN_2>``,
  ``[SECRET]``) are blanked, it is lower-cased, then cut into tokens: runs of ASCII
  letters/digits and runs of other letters (Hangul, accented letters ...). Everything
  else (spaces, punctuation, ``_``, ``-``, ``/``, ``.``) separates tokens, so
  ``api_key``, ``Button.tsx`` and ``React를`` give ``api key``, ``button tsx`` and
  ``react 를``.
* An English keyword matches a token equal to it or to one of its regular inflections
  (``test`` -> ``tests``, ``tested``, ``testing``; ``migrate`` -> ``migrated``,
  ``migrating``; ``deploy`` -> ``deployed``; ``query`` -> ``queries``). Keywords
  shorter than three letters or containing digits only take a plural ``s``.
* A Korean keyword matches at the *start* of a Hangul run: Korean attaches particles
  and endings to the word (``보안을``, ``마이그레이션하고``, ``배포해줘``), so ``보안``
  matches ``보안을`` but not ``정보안내`` (the keyword is not at the start of the run).
  When two Korean keywords are prefixes of the same run, the longest wins.
* A keyword of several words (``race condition``, ``ci cd``, ``이름 변경``) matches
  consecutive tokens with the rules above; for Korean phrases a word that is not the
  last must be followed by at most two syllables of particle (``이름을 변경``), and
  the words written together (``이름변경``) match too. At each position the longest
  phrase wins and its tokens are consumed.

Python's ``re`` tries the branches of an alternation one after another at every
position, so one big keyword regex costs O(len(text) x keywords); the index here is
built once per table and costs O(tokens) with dictionary look-ups.
"""

from __future__ import annotations

import unicodedata

from artibot.hookpath import regex
from artibot.hookpath.frozen import frozen, private

TYPE_CHECKING = False  # not typing's own, nor collections.abc: the prompt hook imports this module
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

DOMAIN_NAMES: tuple[str, ...] = (
    "frontend", "backend", "security", "data", "devops", "testing", "docs", "general",
)
FALLBACK = "general"

# ASCII letter/digit runs, then runs of anything outside ASCII that is not common
# punctuation or symbols (Hangul, accented letters ...). Spelled as excluded ranges:
# a Unicode-category class is slower to match, a Hangul range slower to compile.
_TOKEN = regex.compile(
    "[a-z0-9]+|[^\x00-\x7f\u00a0-\u00bf\u00d7\u00f7\u2000-\u2bff\u3000-\u303f"
    "\uff00-\uff0f\uff1a-\uff20\U0001f000-\U0001faff]+"
)
_VOWELS = frozenset("aeiou")
_DOMAIN_NAME = regex.compile(r"[a-z][a-z0-9_-]{0,39}")

# typed placeholders left by anonymization: <EMAIL>, <EMAIL_2>, <PATH:home>, [SECRET]
PLACEHOLDER = regex.compile(r"<[A-Z][A-Z0-9_]*(?:[:#][^<>\s]*)?>|\[[A-Z][A-Z0-9_]*\]")


def normalize(text: str) -> str:
    """NFC, placeholders blanked, lower case: the form every matcher in the router works on.

    Placeholders are blanked so ``<TOKEN>`` or ``<SECRET>`` never count as keywords.
    """
    text = unicodedata.normalize("NFC", text)
    if "<" in text or "[" in text:
        text = PLACEHOLDER.sub(" ", text)
    return text.lower()


def tokenize(normalized: str) -> list[str]:
    """Tokens of an already :func:`normalize`-d text (see the module doc)."""
    return _TOKEN.findall(normalized)


def is_hangul(token: str) -> bool:
    """Whether ``token`` starts with a Hangul syllable or jamo."""
    ch = token[:1]
    return "\uac00" <= ch <= "\ud7a3" or "\u3130" <= ch <= "\u318f" or "\u1100" <= ch <= "\u11ff"


def inflections(word: str) -> set[str]:
    """Regular English inflections of ``word`` (itself included)."""
    out = {word, word + "s"}
    if len(word) < 3 or not word.isalpha() or not word.isascii():
        return out
    if word.endswith(("s", "x", "z", "ch", "sh")):
        out.add(word + "es")
    if word.endswith("e"):
        out |= {word + "d", word[:-1] + "ing"}
    elif word.endswith("y") and word[-2] not in _VOWELS:
        out |= {word[:-1] + "ies", word[:-1] + "ied", word + "ing"}
    else:
        out |= {word + "ed", word + "ing"}
        # consonant-vowel-consonant doubles: format -> formatted, debug -> debugging
        if word[-1] not in _VOWELS | {"w", "x", "y"} and word[-2] in _VOWELS and word[-3] not in _VOWELS:
            out |= {word + word[-1] + "ed", word + word[-1] + "ing"}
    return out


@frozen
class Hit:
    """One keyword occurrence: token position, the labels it counts for, the keyword."""

    position: int
    labels: tuple[str, ...]
    keyword: str


class KeywordIndex:
    """A compiled keyword table: ``label -> keywords`` in, :class:`Hit` s out.

    Built once (about a millisecond for a few hundred keywords); matching is
    O(tokens) dictionary look-ups. A keyword listed under several labels counts for
    each of them.
    """

    __slots__ = ("_lemma", "_ko_words", "_ko_lengths", "_singles", "_phrases", "_entries")

    def __init__(self, table: Mapping[str, Iterable[str]]):
        self._lemma: dict[str, str] = {}
        self._ko_words: set[str] = set()
        # first syllable -> lengths of the Korean words starting with it, longest first
        self._ko_lengths: dict[str, tuple[int, ...]] = {}
        self._singles: dict[str, tuple[str, ...]] = {}
        # first word -> [(rest words, labels, keyword)], longest phrase first
        self._phrases: dict[str, list[tuple[tuple[str, ...], tuple[str, ...], str]]] = {}
        entries: dict[tuple[str, ...], list[str]] = {}
        keyword_of: dict[tuple[str, ...], str] = {}

        def add(words: tuple[str, ...], label: str, keyword: str) -> None:
            labels = entries.setdefault(words, [])
            if label not in labels:
                labels.append(label)
            keyword_of.setdefault(words, keyword)

        for label, keywords in table.items():
            for keyword in keywords:
                words = tuple(tokenize(normalize(keyword)))
                if not words:
                    continue
                add(words, label, keyword)
                if len(words) > 1 and all(is_hangul(w) for w in words):
                    add(("".join(words),), label, keyword)  # 이름 변경 -> 이름변경
        english: set[str] = set()
        lengths: dict[str, set[int]] = {}
        for words in entries:
            for word in words:
                if is_hangul(word):
                    self._ko_words.add(word)
                    lengths.setdefault(word[0], set()).add(len(word))
                else:
                    english.add(word)
        self._ko_lengths = {ch: tuple(sorted(ls, reverse=True)) for ch, ls in lengths.items()}
        # exact words win, so a keyword never becomes another keyword's inflection
        for word in sorted(english):
            for form in inflections(word):
                if form not in english:
                    self._lemma.setdefault(form, word)
        for word in english:
            self._lemma[word] = word
        for words, labels in entries.items():
            if len(words) == 1:
                self._singles[words[0]] = tuple(labels)
            else:
                self._phrases.setdefault(words[0], []).append((words[1:], tuple(labels), keyword_of[words]))
        for options in self._phrases.values():
            options.sort(key=lambda o: -len(o[0]))
        # one look-up per matched token: (phrases starting here, labels of the word alone)
        self._entries = {word: (self._phrases.get(word, ()), self._singles.get(word, ()))
                         for word in set(self._lemma.values()) | self._ko_words}

    def _bases(self, tokens: Sequence[str]) -> list[str | None]:
        """Per token, the keyword word it stands for (or None)."""
        lemma, ko_words, ko_lengths = self._lemma, self._ko_words, self._ko_lengths
        found: dict[str, str] = {}
        for token in set(tokens):
            base = lemma.get(token)
            if base is None:
                for k in ko_lengths.get(token[0], ()):
                    if len(token) >= k and token[:k] in ko_words:
                        base = token[:k]
                        break
                else:
                    continue
            found[token] = base
        return list(map(found.get, tokens))

    def _scan(self, tokens: Sequence[str]) -> list[tuple[int, tuple[str, ...], str]]:
        bases = self._bases(tokens)
        entries = self._entries
        out: list[tuple[int, tuple[str, ...], str]] = []
        n = len(tokens)
        skip_to = 0
        for i, base in [(i, base) for i, base in enumerate(bases) if base is not None]:
            if i < skip_to:
                continue
            phrases, labels = entries[base]
            if phrases:
                for rest, phrase_labels, keyword in phrases:
                    if i + len(rest) < n and self._phrase_at(tokens, bases, i, base, rest):
                        out.append((i, phrase_labels, keyword))
                        skip_to = i + len(rest) + 1
                        break
                if skip_to > i:
                    continue
            if labels:
                out.append((i, labels, base))
        return out

    @staticmethod
    def _phrase_at(tokens: Sequence[str], bases: Sequence[str | None], i: int, first: str,
                   rest: tuple[str, ...]) -> bool:
        words = (first,) + rest
        last = len(words) - 1
        for j, word in enumerate(words):
            if bases[i + j] != word:
                return False
            # a Korean word inside a phrase takes at most a two-syllable particle
            if j < last and len(tokens[i + j]) - len(word) > 2 and is_hangul(word):
                return False
        return True

    def hits(self, tokens: Sequence[str]) -> list[Hit]:
        """Every keyword occurrence in ``tokens``, in text order."""
        return [Hit(*hit) for hit in self._scan(tokens)]

    def counts(self, tokens: Sequence[str]) -> dict[str, int]:
        """``label -> number of hits``."""
        count: dict[str, int] = {}
        for _, labels, _ in self._scan(tokens):
            for label in labels:
                count[label] = count.get(label, 0) + 1
        return count

    def ranked(self, tokens: Sequence[str]) -> tuple[str, ...]:
        """Labels with a hit, most hits first, then earliest first hit, then name."""
        count: dict[str, int] = {}
        first: dict[str, int] = {}
        for position, labels, _ in self._scan(tokens):
            for label in labels:
                count[label] = count.get(label, 0) + 1
                if label not in first:
                    first[label] = position
        return tuple(sorted(count, key=lambda d: (-count[d], first[d], d)))


@frozen
class DomainTable:
    """``domain -> keywords``; :meth:`classify` names the domain of a request.

    >>> table = DomainTable.from_mapping({"frontend": ["react", "ui"], "security": ["보안"]})
    >>> table.classify("Fix the React UI guide")
    'frontend'
    >>> table.classify("로그인 보안을 점검해줘")
    'security'
    >>> table.classify("write a user guide")
    'general'
    """

    keywords: Mapping[str, tuple[str, ...]]
    _index: KeywordIndex = private(init=False)

    def __post_init__(self) -> None:
        # a private copy, so the compiled index cannot drift from the caller's mapping
        keywords = {name: tuple(words) for name, words in self.keywords.items()}
        object.__setattr__(self, "keywords", keywords)
        object.__setattr__(self, "_index", KeywordIndex(keywords))

    @classmethod
    def from_mapping(cls, shipped: Mapping[str, Sequence[str]],
                     extra: Mapping[str, Sequence[str]] | None = None) -> "DomainTable":
        """The shipped table (the ``"domains"`` object of ``config/domains.json``) with
        ``extra`` (``cognitive.router.domains``) merged over it: extra keywords are added
        to a domain, an unknown domain name adds a domain.

        Raises :class:`~artibot.errors.InvalidInput` naming the bad domain or keyword.
        """
        from collections.abc import Mapping, Sequence  # not at import: the prompt hook loads a built table

        from artibot.errors import InvalidInput
        from artibot.messages import Message

        merged: dict[str, list[str]] = {}
        problems: list[Message] = []
        for source, mapping in (("domains", shipped), ("cognitive.router.domains", extra or {})):
            if not isinstance(mapping, Mapping):
                problems.append(Message("domain_table.domains_not_map", source=source))
                continue
            for name, words in mapping.items():
                key = name.strip().lower() if isinstance(name, str) else name
                if not isinstance(key, str) or not _DOMAIN_NAME.fullmatch(key):
                    problems.append(Message("domain_table.domain_name", source=source, name=repr(name)))
                    continue
                if isinstance(words, str) or not isinstance(words, Sequence):
                    problems.append(Message("domain_table.domain_words", source=source, key=key))
                    continue
                bucket = merged.setdefault(key, [])
                for word in words:
                    if not isinstance(word, str) or not tokenize(normalize(word)):
                        problems.append(Message("domain_table.domain_keyword", source=source, key=key, word=repr(word)))
                        continue
                    word = " ".join(normalize(word).split())
                    if word not in bucket:
                        bucket.append(word)
        if problems:
            raise InvalidInput(Message("domain_table.domains_invalid", problems=tuple(problems)))
        return cls({name: tuple(words) for name, words in merged.items()})

    @classmethod
    def from_json(cls, document: Mapping[str, object],
                  extra: Mapping[str, Sequence[str]] | None = None) -> "DomainTable":
        """From the parsed ``config/domains.json`` (``{"schema_version": 1, "domains": {...}}``)."""
        from collections.abc import Mapping

        from artibot.errors import InvalidInput
        from artibot.messages import Message

        version = document.get("schema_version") if isinstance(document, Mapping) else None
        if version != 1:
            raise InvalidInput(Message("domain_table.domains_version", version=repr(version)))
        domains = document.get("domains")
        if not isinstance(domains, Mapping):
            raise InvalidInput(Message("domain_table.domains_object"))
        return cls.from_mapping(domains, extra)

    @property
    def names(self) -> tuple[str, ...]:
        """Every domain the table can return, ``general`` included."""
        names = tuple(self.keywords)
        return names if FALLBACK in names else names + (FALLBACK,)

    def scores(self, text: str) -> dict[str, int]:
        """``domain -> keyword hits`` for every domain with at least one hit."""
        return self._index.counts(tokenize(normalize(text)))

    def touched(self, text: str) -> tuple[str, ...]:
        """Every domain with a keyword hit, best first (most hits, then earliest first hit)."""
        return self.touched_tokens(tokenize(normalize(text)))

    def touched_tokens(self, tokens: Sequence[str]) -> tuple[str, ...]:
        """:meth:`touched` on tokens already cut by :func:`tokenize`."""
        return self._index.ranked(tokens)

    def classify(self, text: str) -> str:
        """The best domain, or ``general`` when no keyword hits."""
        touched = self.touched(text)
        return touched[0] if touched else FALLBACK
