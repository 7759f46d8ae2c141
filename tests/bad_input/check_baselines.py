import sys, time, warnings
sys.path.insert(0, "tests/bad_input")
from cases import baselines
from sweep import resolve
for key, fac in baselines().items():
    if fac is None: continue
    try:
        fn = resolve(key)
    except (AttributeError, ImportError):
        print("MISSING", key); continue
    t = time.time()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            fn(**fac())
        dt = time.time() - t
        if dt > 0.3: print("SLOW", key, round(dt, 2))
    except Exception as e:
        print("FAIL", key, type(e).__name__, str(e)[:150])
