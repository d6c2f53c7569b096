"""The one error family of rulespec.

Every error knows where in a spec it comes from, so the CLI can print it as
`FILE:LINE:COL: error: MESSAGE` and an editor can jump there.
"""
from __future__ import annotations


class RulespecError(Exception):
    """A problem with a spec, a game in progress, or a file rulespec reads."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None,
                 col: int | None = None, path: str | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.path = path

    def format(self) -> str:
        where = f"{self.file or '<spec>'}:{self.line or 1}:{self.col or 1}"
        at = f" [{self.path}]" if self.path else ""
        return f"{where}: error: {self.message}{at}"

    def as_dict(self) -> dict:
        return {"file": self.file, "line": self.line or 1, "col": self.col or 1,
                "path": self.path, "message": self.message}

    def __str__(self) -> str:
        return self.format() if self.file or self.line else self.message

    def __reduce__(self):
        # pickled as its class, args and fields, not by calling __init__ again (whose
        # parameters differ by subclass): a worker's error reaches the parent whole
        return _rebuilt, (type(self), self.args, self.__dict__)

    def moved(self, where) -> "RulespecError":
        """This error with its position mapped by `where(line, col) -> (line, col)`
        (from a rule's text into the spec file, say); the message is unchanged."""
        line, col = where(self.line or 1, self.col or 1)
        return RulespecError(self.message, self.file, line, col, self.path)


def _rebuilt(cls, args: tuple, fields: dict) -> RulespecError:
    """An error of class `cls` as RulespecError.__reduce__ pickled it."""
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(fields)
    return error


class SpecErrors(RulespecError):
    """The spec has errors; `errors` lists each one, ranked, first first;
    `assumptions` holds the `assumed:` values read all the same (loader.Assumption),
    which `validate --assumptions` lists beside the errors."""

    def __init__(self, errors: list[RulespecError], assumptions=()):
        self.errors = errors
        self.assumptions = list(assumptions)
        first = errors[0]
        super().__init__(first.message, first.file, first.line, first.col, first.path)

    def format(self) -> str:
        return "\n".join(e.format() for e in self.errors)


class UnknownVariant(SpecErrors):
    """A variant was asked for by a name the spec does not declare. `variant` is that
    name: the CLI says so as bad usage (exit 2) when its --variant gave it."""

    def __init__(self, errors: list[RulespecError], variant: str):
        super().__init__(errors)
        self.variant = variant


class RuleSyntaxError(RulespecError):
    """A rule's text does not parse.

    The message may name a second place in the same text: `template` holds
    `{also}` where that place is written ("line L col C") and `also` is its
    (line, col). `moved` maps both positions into the same frame, so a message
    reported in the spec file never names a place in the rule's own text.
    """

    def __init__(self, template: str, line: int, col: int, also: tuple[int, int] | None = None,
                 file: str | None = None, path: str | None = None):
        self.template, self.also = template, also
        where = f"line {also[0]} col {also[1]}" if also else ""
        super().__init__(template.replace("{also}", where), file, line, col, path)

    def moved(self, where) -> "RuleSyntaxError":
        line, col = where(self.line or 1, self.col or 1)
        also = where(*self.also) if self.also else None
        return RuleSyntaxError(self.template, line, col, also, self.file, self.path)


class RuleError(RulespecError):
    """A rule went wrong while the game was played (a bug in the spec)."""


class LimitError(RuleError):
    """A game hit one of its limits (rulespec/limits.py): the message names it."""


class IllegalAction(RulespecError):
    """The action asked for is not one of the legal options right now."""


class CorruptFile(RulespecError):
    """A save file or a log that rulespec cannot read back."""


def unpaired_surrogate(char: str) -> str:
    """The error for a text holding `char`, half of a UTF-16 pair: a YAML or rules
    language escape can write one, yet no file, terminal or log can hold it."""
    return (f"a text holding an unpaired surrogate \\u{ord(char):04x}: not valid Unicode: "
            f"write the character itself")
