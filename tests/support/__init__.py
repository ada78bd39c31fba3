"""Helpers the tests of several folders share: scenario builders and texts, the fuzz suite's
strategies, budget and result invariants, the calibration records."""
