"""rulespec: the language. Load a spec, check its shape, parse its rules, check its names.

    from rulespec import validate
    checked = validate("tests/games/market.yaml", variant="long")   # raises SpecErrors
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import CorruptFile, IllegalAction, RuleError, RulespecError, SpecErrors

__all__ = ["validate", "Checked", "RulespecError", "SpecErrors", "RuleError",
           "IllegalAction", "CorruptFile"]


@dataclass
class Checked:
    """A spec that passed every check: its data, symbol table and parsed rules."""
    spec: object            # rulespec.loader.Spec
    names: object           # rulespec.check.Names
    rules: list             # rulespec.check.Rule, each with its parsed tree
    kinds: object = None    # rulespec.infer.KindTable: the kind of every name and expression
    private_choices: frozenset = frozenset()   # file lines of choices others read as '?' (shown.py)


def validate(source, variant: str | None = None, text: str | None = None) -> Checked:
    """Run the whole pipeline; raise SpecErrors listing every problem found."""
    from . import check, infer, loader, schema, values

    spec = loader.load_spec(source, variant=variant, text=text)
    errors = schema.validate(spec)
    if errors:
        raise SpecErrors(errors, spec.assumptions)
    names = check.Names.of(spec.data)
    errors = values.resolve(spec, names)
    rules, more = check.parse_rules(spec, names)
    errors += more
    unread = {e.path for e in errors}     # a value already refused needs no second error
    private: set = set()
    errors += [e for e in check.check(spec, rules, names,
                                      broken=[e.broken_rule for e in more if hasattr(e, "broken_rule")],
                                      private=private)
               if e.path not in unread]
    kinds, more = infer.infer(spec, rules, names)
    errors += more
    errors += check.unread_additions(spec, rules)
    if errors:
        errors.sort(key=lambda e: (e.line or 0, e.col or 0))
        raise SpecErrors(errors, spec.assumptions)
    return Checked(spec, names, rules, kinds, frozenset(private))

