"""Time-series loaders of D5 (sound, Szeged humidity): windows, test gaps, disjointness."""

import numpy as np
import pytest

from inferopt.datasets import mirror_dir
from inferopt.datasets.timeseries import (
    humidity_from_series,
    load_sound,
    load_szeged_humidity,
    sound_from_arrays,
)


def _need(dataset, file):
    mirror = mirror_dir()
    if mirror is None or not (mirror / dataset / file).exists():
        pytest.skip(f"{dataset}/{file} not in the data mirror")


def _synthetic_sound():
    x = np.arange(1, 1001)
    test = np.zeros(x.size, dtype=bool)
    for s in (100, 400, 700):
        test[s : s + 10] = True
    y = np.sin(x / 10.0)
    return x[~test], y[~test], x[test], y[test]


def test_sound_window_logic_on_synthetic_series():
    xtr, ytr, xte, yte = _synthetic_sound()
    x, y, xt, yt = sound_from_arrays(xtr, ytr, xte, yte)
    assert x.size == xtr.size and xt.size == xte.size
    x, y, xt, yt = sound_from_arrays(xtr, ytr, xte, yte, n_train=300)
    assert x.size == 300 and np.all(np.diff(x) > 0) and x[0] == 1
    assert np.all((xt > x[0]) & (xt < x[-1])) and xt.size == 10  # the gap at 100..109
    for seed in range(5):  # centred on a random test sample: always holds test points
        x, y, xt, yt = sound_from_arrays(xtr, ytr, xte, yte, n_train=200, rng=seed)
        assert x.size == 200 and xt.size > 0 and not np.intersect1d(x, xt).size
        np.testing.assert_allclose(y, np.sin(x / 10.0))


def test_humidity_gap_logic_on_synthetic_series():
    t = np.arange(2000.0)
    h = np.cos(t / 24.0)
    x, y, xt, yt = humidity_from_series(t, h, n=1000, test_fraction=0.1, gap_hours=24, rng=0)
    assert x.size == 1000 and xt.size > 0 and not np.intersect1d(x, xt).size
    assert np.all(np.diff(x) > 0) and np.all((xt > x[0]) & (xt < x[-1]))
    assert 0.05 < xt.size / (x.size + xt.size) < 0.15
    # gaps are runs of 24 consecutive hours
    runs = np.split(xt, np.nonzero(np.diff(xt) > 1)[0] + 1)
    assert all(len(run) == 24 for run in runs)
    x2, _, xt2, _ = humidity_from_series(t, h, n=1000, test_fraction=0.1, gap_hours=24, rng=0)
    np.testing.assert_array_equal(xt, xt2)  # reproducible from the seed
    with pytest.raises(ValueError, match="test_fraction"):
        humidity_from_series(t, h, n=1000, test_fraction=0.7, rng=0)


def test_load_sound_real_data():
    _need("kissgp_sound", "audio_data.mat")
    x, y, xt, yt = load_sound()
    assert (x.size, xt.size) == (59309, 691)
    assert not np.intersect1d(x, xt).size and np.all(np.diff(x) > 0)
    assert -0.3 < y.min() and y.max() < 0.3
    x, y, xt, yt = load_sound(n_train=5000, rng=0)
    assert x.size == 5000 and xt.size > 0 and np.all((xt > x[0]) & (xt < x[-1]))


def test_load_szeged_humidity_real_data():
    _need("szeged_weather", "weatherHistory.csv.zip")
    x, y, xt, yt = load_szeged_humidity(n=2000, test_fraction=0.1, rng=0)
    assert x.size == 2000 and xt.size > 0 and not np.intersect1d(x, xt).size
    assert x[0] == 0.0 and np.all(np.diff(x) > 0)
    assert 0.0 <= y.min() and y.max() <= 1.0 and 0.0 <= yt.min() and yt.max() <= 1.0
