"""The database: players, the double-entry ledger and finished matches (DESIGN.md "Persistence")."""
