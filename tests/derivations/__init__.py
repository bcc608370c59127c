r"""Tests of posproof.derivations, one file per module."""
