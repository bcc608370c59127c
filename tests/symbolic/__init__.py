r"""Tests of posproof.symbolic, one file per module."""
