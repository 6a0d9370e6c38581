"""The rules core: pure rulesets, standard library only (DESIGN.md, docs/rules.md)."""
