"""The one seed -> Generator helper: its whole contract."""

import numpy as np
import pytest

from inferopt._random import as_generator


def test_a_generator_is_used_as_it_is_and_a_seed_starts_a_fresh_stream():
    rng = np.random.default_rng(3)
    assert as_generator(rng) is rng
    assert as_generator(5).random() == as_generator(5).random() == np.random.default_rng(5).random()
    assert as_generator(np.int64(5)).random() == as_generator(5).random()
    seq = np.random.SeedSequence(7)
    assert as_generator(seq).random() == np.random.default_rng(np.random.SeedSequence(7)).random()
    assert isinstance(as_generator(None), np.random.Generator)


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (1.5, TypeError), ("1", TypeError), (True, TypeError),
                                        ([1, 2], TypeError)])
def test_anything_else_is_refused_naming_the_argument(bad, error):
    with pytest.raises(error, match="rng"):
        as_generator(bad)
