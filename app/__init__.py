"""Meja: online domino tables."""
