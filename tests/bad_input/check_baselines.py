import importlib, sys, time, warnings
sys.path.insert(0, "tests/bad_input")
from cases import baselines
for key, fac in baselines().items():
    if fac is None: continue
    pkg, name = key.split("#")[0].split(".")
    try:
        fn = getattr(importlib.import_module("inferopt." + pkg), name)
    except AttributeError:
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
