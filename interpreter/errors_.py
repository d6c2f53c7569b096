"""The interpreter raises rulespec's errors (one error family for the project)."""
from rulespec.errors import CorruptFile, IllegalAction, RuleError, RulespecError, SpecErrors  # noqa: F401
