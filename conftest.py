"""The test session's root: this process and every process it starts (nbval's kernels, loky workers, the stages the
tests run) compute with the neutral arithmetic (:func:`inferopt.experiment.blas.neutral_environment`: OpenBLAS's
Haswell kernel, numpy's loops no wider than AVX2), so that the stored outputs nbval compares are the same bits on any
x86-64 processor with AVX2 and a run in this process is the same bits as one in a worker. The variables must be set
before numpy is loaded here (OpenBLAS reads its kernel, numpy its SIMD targets, when they load): they are read off a
child process, which loads numpy in our stead."""

import json
import os
import subprocess
import sys

if "numpy" in sys.modules:   # a plugin loaded numpy first: this process would compute otherwise than its workers
    raise RuntimeError("numpy was imported before the root conftest.py could set the neutral arithmetic "
                       "(OPENBLAS_CORETYPE, NPY_DISABLE_CPU_FEATURES): set them in the environment, see inferopt.experiment.blas")
_PROBE = "import json; from inferopt.experiment.blas import neutral_environment; print(json.dumps(neutral_environment()))"
_env = {k: v for k, v in os.environ.items() if k != "NPY_DISABLE_CPU_FEATURES"}   # the processor's own features
for _name, _value in json.loads(subprocess.run([sys.executable, "-c", _PROBE], env=_env, capture_output=True, text=True,
                                               check=True).stdout).items():
    os.environ.setdefault(_name, _value)
