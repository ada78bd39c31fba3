"""How many cases each fuzz test tries: a CI share scaled by the active hypothesis profile.

The profiles are registered in tests/conftest.py: `ci` (the default, 100 examples) and `long`
(`--hypothesis-profile=long` or `DISKMODEL_FUZZ=long`). A fuzz test names the number of cases
it can afford in CI (the whole fuzz suite fits in a minute on two cores); under another profile
that number scales by the profile's `max_examples` over the CI one, so `long` tries 20x more.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

CI_MAX_EXAMPLES = 100


def fuzz_settings(ci_examples: int) -> settings:
    """Settings for a fuzz test that can afford `ci_examples` cases in the CI profile."""
    scale = settings.default.max_examples / CI_MAX_EXAMPLES
    return settings(
        max_examples=max(1, round(ci_examples * scale)),
        deadline=None,  # sizes are bounded instead; a shared 2-core runner makes timing noisy
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
