"""The database: players, the double-entry ledger and finished matches (docs/design.md
"Persistence")."""
