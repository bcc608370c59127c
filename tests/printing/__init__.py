r"""Tests of posproof.printing, one file per module."""
