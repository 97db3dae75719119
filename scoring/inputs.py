"""Files and JSON from the user, bounded before they are read.

A file (or stdin, `-`) is read in chunks up to a size limit, so /dev/zero stops at
the limit instead of filling memory; a FIFO is opened without waiting, so one with
no writer reads as empty instead of hanging. JSON must be UTF-8, numbers at most 18
digits (no NaN, no infinity), no key given twice in one object, nesting no deeper than the parser's recursion limit:
each refused with one line. A batch of hands is parsed one element at a time, so
only each hand is bounded, not the batch; a batch file of at most `WHOLE_BYTES` is
parsed in one call instead (a third of the time; its memory is bounded by the file's
size, so its hands are not held to `MAX_ITEM_BYTES` each), and read again element by
element only when that call fails, so that the problem is named as the element reader
names it.
"""

from __future__ import annotations

import codecs
import itertools
import json
import math
import os
import re
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, BinaryIO

MAX_DOCUMENT_BYTES = 16 * 2**20  # a session of thousands of hands is a few MB
MAX_ITEM_BYTES = 2**20  # one hand of a batch: a hand object is a few hundred bytes
MAX_DIGITS = 18  # every number of the contract fits; a 5000-digit one is refused unread
CHUNK = 2**16
WHOLE_BYTES = 8 * 2**20  # a batch file up to this (some 40,000 hands) is parsed in one call: its hands held at once, some 50 MB
_BLANK = re.compile(r"[ \t\n\r]*")


class InputError(ValueError):
    """Input the user can fix: reported on one line, exit status 2."""


class _Refused(ValueError):
    """A number or constant the JSON reader will not take (raised from its hooks)."""


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _Refused(f"a number of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"{text[:20]} is out of range")
    return value


def _constant(text: str) -> float:
    raise _Refused(f"{text} is not a JSON number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A key given twice is refused: which of the two was meant would be a guess."""
    obj = dict(pairs)
    if len(obj) < len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise _Refused(f"the key {twice!r} is given twice")
    return obj


_DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_int=_int, parse_float=_float, parse_constant=_constant)


@contextmanager
def opened(path: str) -> Iterator[BinaryIO]:
    """A file to read from: `-` is stdin; a folder is refused; a FIFO never blocks the open."""
    if path == "-":
        yield sys.stdin.buffer
        return
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    if stat.S_ISDIR(os.fstat(fd).st_mode):
        os.close(fd)
        raise InputError(f"{path} is a folder, not a file")
    os.set_blocking(fd, True)  # a writer already there is waited for; without one, a FIFO is at its end
    with os.fdopen(fd, "rb") as f:
        yield f


def read_bytes(path: str, limit: int) -> bytes:
    """The whole file, refused by size before it is read whole (a regular file: before any read)."""
    name = "stdin" if path == "-" else path
    too_big = InputError(f"{name}: larger than the {limit // 2**20} MB limit")
    with opened(path) as f:
        st = os.fstat(f.fileno())
        if stat.S_ISREG(st.st_mode) and st.st_size > limit:
            raise too_big
        parts, size = [], 0
        while chunk := f.read(CHUNK):
            size += len(chunk)
            if size > limit:
                raise too_big
            parts.append(chunk)
    return b"".join(parts)


def read_json(path: str, limit: int = MAX_DOCUMENT_BYTES) -> Any:
    """One JSON document (a session, a ledger hand), bounded as this module says."""
    name = "stdin" if path == "-" else path
    data = read_bytes(path, limit)
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        raise InputError(f"{name}: not UTF-8 text (byte {e.start + 1})") from None
    if not text.strip():
        raise InputError(f"{name} is empty: no JSON")
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{name}: not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except (RecursionError, _Refused) as e:
        raise _refusal(name, "the file", e) from None


def _refusal(name: str, what: str, e: RecursionError | _Refused) -> InputError:
    """What the parser refuses beyond syntax, as one line: depth, long numbers, NaN."""
    return InputError(f"{name}: {what} is nested too deeply" if isinstance(e, RecursionError) else f"{name}: {what}: {e}")


class Batch:
    """The `score` input: one hand object, or an array of them read one at a time.

    `many` says which; iterating gives the hands. Only what one hand needs is held:
    the text read so far is dropped once its hands are parsed."""

    def __init__(self, stream: BinaryIO, name: str):
        self.stream, self.name = stream, name
        self._utf8 = codecs.getincrementaldecoder("utf-8")("strict")
        self.buf, self.pos, self.mark = "", 0, 0  # mark: where the value being read began
        self.eof = False
        self.read_bytes = 0
        self.lines, self.line_start = 0, 0  # newlines dropped with the text before buf, and where the last began
        self.dropped = 0  # characters dropped from the front of buf
        first = self._peek()
        if self.dropped == 0 and self.buf.startswith("\ufeff"):
            self.pos = 1
            first = self._peek()
        if not first:
            raise InputError(f"{name} is empty: no JSON")
        self.many = first == "["

    def __iter__(self) -> Iterator[Any]:
        if not self.many:
            yield self._value("the hand")
            self._end()
            return
        self.pos += 1
        if self._peek() == "]":
            self.pos += 1
        else:
            for n in itertools.count(1):
                yield self._value(f"hand {n}")
                c = self._peek()
                self.pos += 1
                if c == "]":
                    break
                if c != ",":
                    raise InputError(f"{self.name}: not JSON: ',' or ']' expected after hand {n} at {self._where(self.pos - 1)}")
        self._end()

    def _value(self, what: str) -> Any:
        self.mark = self.pos
        self._peek()
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buf, self.pos)
                if end < len(self.buf) or self.eof:
                    self.pos = end
                    return value
            except (RecursionError, _Refused) as e:
                raise _refusal(self.name, what, e) from None
            except json.JSONDecodeError as e:
                cut = e.pos >= len(self.buf) - 16 or e.msg.startswith("Unterminated string")
                if self.eof or not cut:
                    raise InputError(f"{self.name}: not JSON: {e.msg} in {what} at {self._where(e.pos)}") from None
            self._fill(what)

    def _peek(self) -> str:
        """The next character that is not blank space ('' at the end)."""
        while True:
            self.pos = _BLANK.match(self.buf, self.pos).end()
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if self.eof:
                return ""
            self._fill("blank space")

    def _end(self) -> None:
        if self._peek():
            raise InputError(f"{self.name}: not JSON: more after the end at {self._where(self.pos)}")

    def _fill(self, what: str) -> None:
        if len(self.buf) - self.mark > MAX_ITEM_BYTES:
            raise InputError(f"{self.name}: {what} is larger than the {MAX_ITEM_BYTES // 2**20} MB a hand may take")
        if self.mark > CHUNK:
            self._drop(self.mark)
        chunk = self.stream.read(CHUNK)
        held = len(self._utf8.getstate()[0])  # bytes of a character cut at the end of the last chunk
        try:
            self.buf += self._utf8.decode(chunk, final=not chunk)
        except UnicodeDecodeError as e:
            raise InputError(f"{self.name}: not UTF-8 text (byte {self.read_bytes - held + e.start + 1})") from None
        self.read_bytes += len(chunk)
        self.eof = not chunk

    def _drop(self, n: int) -> None:
        gone = self.buf[:n]
        newlines = gone.count("\n")
        if newlines:
            self.lines += newlines
            self.line_start = self.dropped + gone.rindex("\n") + 1
        self.buf, self.dropped = self.buf[n:], self.dropped + n
        self.pos, self.mark = self.pos - n, self.mark - n

    def _where(self, pos: int) -> str:
        before = self.buf[:pos]
        newlines = before.count("\n")
        start = self.dropped + before.rindex("\n") + 1 if newlines else self.line_start
        return f"line {self.lines + newlines + 1} column {self.dropped + pos - start + 1}"


class Parsed:
    """A batch file parsed in one call: `many` and its hands, as `Batch` gives them."""

    def __init__(self, value: Any):
        self.many = isinstance(value, list)
        self.hands = value if self.many else [value]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.hands)


def _whole(f: BinaryIO) -> Parsed | None:
    """A regular file of at most `WHOLE_BYTES` parsed in one call; None, the file
    rewound, for any other input or any problem, which `Batch` then names."""
    st = os.fstat(f.fileno())
    if not stat.S_ISREG(st.st_mode) or st.st_size > WHOLE_BYTES:
        return None
    data = f.read(WHOLE_BYTES + 1)
    if len(data) <= WHOLE_BYTES:  # else it grew since
        try:
            return Parsed(_DECODER.decode(data.decode("utf-8").removeprefix("\ufeff")))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, _Refused):
            pass
    f.seek(0)
    return None


@contextmanager
def batch(path: str) -> Iterator[Batch | Parsed]:
    with opened(path) as f:
        yield _whole(f) or Batch(f, "stdin" if path == "-" else path)
