"""Literal prefilters for the line regexes: skip a regex on a line that cannot match it.

Most lines the scanner hands to the parser are NCCL INFO chatter, and the parser tries
every family on each (``parse.LineParser._families``): some 40 ``re.search`` calls a line,
each of which tries a match at every position (2-20 us each; ``R_SOCKET``, case-insensitive,
about 20). Most regexes contain a literal that every match must contain ("Watchdog caught",
" set by environment to ", "Received "): a substring test for it (``in``, tens of ns) rules
out almost every line without running the regex.

``required(pattern)`` reads the regex's own parse tree (``re._parser``) and returns the
literals at least one of which every match contains, or None when it cannot tell (an
optional part, a character class, a back-reference, a scoped flag). ``Guarded`` wraps a
compiled pattern: ``search``/``match``/``fullmatch``/``findall``/``finditer`` answer "no
match" at once when the text holds none of the literals, and otherwise ask the regex;
everything else is the regex's own. The answer is the regex's in every case (the
literals are necessary, never sufficient). Case-insensitive patterns are guarded only
with ASCII literals and only on ASCII text (the regex engine folds a few non-ASCII letters
onto ASCII ones, e.g. the Kelvin sign onto k; ``str.lower`` does not); other text goes
straight to the regex.

``guard_all(namespace)`` wraps every ``R_*`` str pattern of a module (signatures.py calls
it last, so a regex added there later is guarded with no other change).
"""

from __future__ import annotations

import re
from typing import Any

try:
    from re import _parser as _sre  # Python 3.11+
except ImportError:  # 3.9, 3.10
    import sre_parse as _sre  # type: ignore[no-redef]

_LITERAL = _sre.LITERAL
_BRANCH = _sre.BRANCH
_SUBPATTERN = _sre.SUBPATTERN
_REPEATS = tuple(c for c in (getattr(_sre, n, None) for n in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"))
                 if c is not None)
_ATOMIC = getattr(_sre, "ATOMIC_GROUP", None)


def _better(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    """The more selective of two necessary literal sets: longest shortest literal, then fewest."""
    if a is None or b is None:
        return a if b is None else b
    ka, kb = (min(map(len, a)), -len(a)), (min(map(len, b)), -len(b))
    return a if ka >= kb else b


def _seq(items: Any) -> frozenset[str] | None:
    """Literals one of which every match of the sequence ``items`` contains, or None."""
    best: frozenset[str] | None = None
    run: list[str] = []
    for op, av in list(items) + [(None, None)]:
        if op is _LITERAL:
            run.append(chr(av))
            continue
        if run:
            best = _better(best, frozenset(["".join(run)]))
            run = []
        if op is not None:
            best = _better(best, _item(op, av))
    return best


def _item(op: Any, av: Any) -> frozenset[str] | None:
    if op is _BRANCH:
        alts = [_seq(alt) for alt in av[1]]
        return None if any(a is None for a in alts) else frozenset().union(*alts)
    if op is _SUBPATTERN:
        _group, add_flags, del_flags, sub = av
        return None if add_flags or del_flags else _seq(sub)
    if op in _REPEATS:
        low, _high, sub = av
        return _seq(sub) if low >= 1 else None
    if _ATOMIC is not None and op is _ATOMIC:
        return _seq(av)
    return None  # character classes, anchors, look-arounds, back-references: no literal required


def required(pattern: re.Pattern) -> tuple[str, ...] | None:
    """Literals (lower-cased for a case-insensitive pattern) at least one of which is in
    every string the pattern matches; None if no such set was found."""
    if not isinstance(pattern.pattern, str):
        return None
    try:
        lits = _seq(_sre.parse(pattern.pattern, pattern.flags))
    except Exception:  # an internal parser that changed shape: no prefilter, same answers
        return None
    if not lits:
        return None
    if pattern.flags & re.IGNORECASE:
        if not all(s.isascii() for s in lits):
            return None
        lits = frozenset(s.lower() for s in lits)
    return tuple(sorted(lits, key=lambda s: (-len(s), s)))


def _worth_it(pattern: re.Pattern, lits: tuple[str, ...]) -> bool:
    """A prefilter costs a Python call (about 0.5 us): worth it only where the regex is slow
    on a line it does not match. It is fast (0.2-0.4 us) when it starts with a literal (the
    engine then scans for that prefix in C) or is anchored at the start; a literal shorter
    than 3 characters rules out too few lines to pay for itself."""
    if min(map(len, lits)) < 3:
        return False
    try:
        first = _sre.parse(pattern.pattern, pattern.flags)[0]
    except Exception:
        return False
    if first[0] is _LITERAL and not pattern.flags & re.IGNORECASE:
        return False
    return not (first[0] is _sre.AT and first[1] in (_sre.AT_BEGINNING, _sre.AT_BEGINNING_STRING))


_NO_MATCHES: tuple = ()


def _prefiltered(fn: Any, lits: tuple[str, ...], fold: bool, miss: Any) -> Any:
    """``fn`` (a bound method of the regex) behind the literal test: ``miss`` when no literal is in the text."""
    if fold:
        def call(text: Any, *args: Any) -> Any:
            if not args and type(text) is str and text.isascii():
                low = text.lower()
                for lit in lits:
                    if lit in low:
                        break
                else:
                    return miss if miss is None else miss()
            return fn(text, *args)
    else:
        def call(text: Any, *args: Any) -> Any:
            if not args and type(text) is str:
                for lit in lits:
                    if lit in text:
                        break
                else:
                    return miss if miss is None else miss()
            return fn(text, *args)
    return call


class Guarded:
    """A compiled pattern with a literal prefilter (module docstring); otherwise the pattern itself."""

    __slots__ = ("regex", "literals", "search", "match", "fullmatch", "findall", "finditer")

    def __init__(self, regex: re.Pattern, literals: tuple[str, ...]):
        self.regex, self.literals = regex, literals
        fold = bool(regex.flags & re.IGNORECASE)
        self.search = _prefiltered(regex.search, literals, fold, None)
        self.match = _prefiltered(regex.match, literals, fold, None)
        self.fullmatch = _prefiltered(regex.fullmatch, literals, fold, None)
        self.findall = _prefiltered(regex.findall, literals, fold, list)
        self.finditer = _prefiltered(regex.finditer, literals, fold, lambda: iter(_NO_MATCHES))

    def __getattr__(self, name: str) -> Any:  # sub, split, pattern, flags, groups ...: the regex's own
        return getattr(self.regex, name)

    def __repr__(self) -> str:
        return f"Guarded({self.regex!r}, {self.literals!r})"


def guard(regex: re.Pattern) -> re.Pattern | Guarded:
    """``regex`` with a prefilter where one is known and pays (``_worth_it``), else ``regex`` itself."""
    lits = required(regex)
    return regex if lits is None or not _worth_it(regex, lits) else Guarded(regex, lits)


def guard_all(namespace: dict[str, Any]) -> None:
    """Replace every ``R_*`` compiled str pattern in a module namespace by ``guard(it)``."""
    for name, value in list(namespace.items()):
        if name.startswith("R_") and isinstance(value, re.Pattern):
            namespace[name] = guard(value)
