"""Regulating-Authority packs shipped with claimlaw: ``ebu``, ``acbl``, ``acbl1992``, ``wbflc``.

A pack is a module exposing ``PACK`` (an ``rules.rulebook.Pack``): rules it adds, rules it
replaces (each replacement names the rule it overrides), rules it neutralises, and parameters.
See docs/packs.md for writing your own.
"""
