r"""Tests of posproof.numeric, one file per module."""
