"""The rules core: pure rulesets, standard library only (docs/design.md "Layers", docs/rules.md)."""
