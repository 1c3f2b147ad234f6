"""Every enum of codes prints as its code: logs, tables and f-strings rely on it."""

from __future__ import annotations

# Imported for the enums they define (CodeEnum finds them as its subclasses).
from robotkit.base.reasons import CodeEnum, Reason


def all_code_enums(cls: type[CodeEnum] = CodeEnum) -> list[type[CodeEnum]]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *all_code_enums(sub)]
    return found


def test_every_code_prints_as_itself() -> None:
    enums = all_code_enums()
    assert len(enums) >= 15  # the modules above define them; none was missed
    for enum in enums:
        for member in enum:
            assert str(member) == f"{member}" == member.value


def test_reason_codes_are_unique_and_kebab_case() -> None:
    codes = [reason.value for reason in Reason]
    assert len(codes) == len(set(codes))
    assert all(code == code.lower() and " " not in code and "_" not in code for code in codes)
