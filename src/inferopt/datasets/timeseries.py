"""1-D time series for GP regression (Han et al. 2018, Sec. 5.2): natural sound and Szeged humidity.

Both loaders return ``(x, y, x_test, y_test)`` as float arrays, ``x`` sorted, train and test disjoint,
and the test points forming contiguous gaps inside the training range (so that an interpolating
model is tested on what it has not seen nearby).

* :func:`load_sound` -- the KISS-GP sound series (Wilson & Nickisch 2015) as shipped by Dong et al.
  2017 (``audio_data.mat``): 59,309 training and 691 test samples (56 gaps), time in samples.
  ``n_train`` keeps a *contiguous time window* holding ``n_train`` training samples (with the test
  samples inside it; with ``rng``, centred on a random test sample), so that a subset has the same sampling density as the full series.
* :func:`load_szeged_humidity` -- hourly relative humidity in Szeged 2006-2016; time in hours since
  the first observation (UTC, duplicated hours from the source's DST handling averaged). A contiguous
  window from the start of the series is kept and test gaps of ``gap_hours`` consecutive hours are
  cut out of it at random.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_int, check_real
from .loaders import load
from .._random import as_generator

__all__ = ["load_sound", "load_szeged_humidity", "sound_from_arrays", "humidity_from_series"]


def sound_from_arrays(xtrain, ytrain, xtest, ytest, *, n_train=None, rng=None):
    """The window logic of :func:`load_sound` on given arrays (tests use it on synthetic data)."""
    x = np.asarray(xtrain, dtype=float).ravel()
    y = np.asarray(ytrain, dtype=float).ravel()
    xt = np.asarray(xtest, dtype=float).ravel()
    yt = np.asarray(ytest, dtype=float).ravel()
    order, order_t = np.argsort(x, kind="stable"), np.argsort(xt, kind="stable")
    x, y, xt, yt = x[order], y[order], xt[order_t], yt[order_t]
    if n_train is None or n_train >= x.size:
        return x, y, xt, yt
    n_train = check_int("n_train", n_train, low=2)
    if rng is None:
        start = 0
    else:  # centred on a random test sample, so that every window holds test gaps
        centre = int(np.searchsorted(x, xt[int(as_generator(rng).integers(0, xt.size))]))
        start = int(np.clip(centre - n_train // 2, 0, x.size - n_train))
    x, y = x[start : start + n_train], y[start : start + n_train]
    inside = (xt > x[0]) & (xt < x[-1])
    return x, y, xt[inside], yt[inside]


def load_sound(*, n_train=None, rng=None):
    """The natural-sound series: ``x`` = sample index, ``y`` = amplitude.

    ``n_train=None`` gives all 59,309 training and 691 test samples. Otherwise a contiguous window of
    ``n_train`` consecutive training samples is kept -- from the start of the series if ``rng`` is None,
    else centred on a test sample drawn at random by ``rng`` -- with the test samples strictly inside it.
    """
    data = load("kissgp_sound", "audio_data.mat")
    return sound_from_arrays(data["xtrain"], data["ytrain"], data["xtest"], data["ytest"], n_train=n_train, rng=rng)


def humidity_from_series(hours, humidity, *, n=None, test_fraction=0.1, gap_hours=24, rng=None):
    """The window and gap logic of :func:`load_szeged_humidity` on a given series (sorted by time)."""
    t = np.asarray(hours, dtype=float).ravel()
    h = np.asarray(humidity, dtype=float).ravel()
    test_fraction = check_real("test_fraction", test_fraction, low=0.0, high=0.5, high_open=True)
    gap_hours = check_int("gap_hours", gap_hours, low=1)
    if n is None:
        total = t.size
        n_gaps = int(round(test_fraction * total / gap_hours))
    else:
        n = check_int("n", n, low=2)
        n_gaps = int(round(test_fraction / (1.0 - test_fraction) * n / gap_hours))
        total = min(t.size, n + n_gaps * gap_hours)
    t, h = t[:total], h[:total]
    test = np.zeros(total, dtype=bool)
    if n_gaps > 0:
        # gap starts on a lattice of slots of 2 * gap_hours samples (so gaps never touch), away from both ends
        slots = np.arange(gap_hours, total - 2 * gap_hours, 2 * gap_hours)
        if slots.size < n_gaps:
            raise ValueError(f"test_fraction {test_fraction} with {gap_hours}-hour gaps does not fit in {total} points")
        starts = np.sort(as_generator(rng).choice(slots, size=n_gaps, replace=False))
        for s in starts:
            test[s : s + gap_hours] = True
    train = ~test
    x, y = t[train], h[train]
    if n is not None and x.size > n:  # rounding of the window: trim train points at the end, keep tests inside
        x, y = x[:n], y[:n]
    xt, yt = t[test], h[test]
    inside = (xt > x[0]) & (xt < x[-1])
    return x, y, xt[inside], yt[inside]


def szeged_hourly_humidity():
    """``(hours since the first observation, humidity)`` of the Szeged series, sorted, one value per UTC hour."""
    import pandas as pd

    df = load("szeged_weather", "weatherHistory.csv.zip")
    when = pd.to_datetime(df["Formatted Date"], utc=True)
    series = pd.Series(df["Humidity"].to_numpy(dtype=float), index=when).groupby(level=0).mean().sort_index()
    hours = (series.index - series.index[0]) / pd.Timedelta(hours=1)
    return np.asarray(hours, dtype=float), series.to_numpy()


def load_szeged_humidity(*, n=None, test_fraction=0.1, rng=None, gap_hours=24):
    """Hourly Szeged humidity: ``x`` = hours since the first observation, ``y`` = relative humidity in [0, 1].

    The first ``n + G * gap_hours`` hourly observations form a contiguous window (all of them if ``n`` is
    None), with ``G = round(test_fraction / (1 - test_fraction) * n / gap_hours)``; ``G`` non-overlapping
    gaps of ``gap_hours`` consecutive observations, placed at random by ``rng``, are the test set, so that
    ``n`` training points remain and about ``test_fraction`` of the window is held out.
    """
    hours, humidity = szeged_hourly_humidity()
    return humidity_from_series(hours, humidity, n=n, test_fraction=test_fraction, gap_hours=gap_hours, rng=rng)
