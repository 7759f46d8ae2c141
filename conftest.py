"""The test session's root: the processes it starts (nbval's kernels, the stages the tests run) compute with the
neutral arithmetic (:func:`inferopt.experiment.blas.neutral_environment`: OpenBLAS's Haswell kernel, numpy's loops no
wider than AVX2), so that the stored outputs nbval compares are the same bits on any x86-64 processor with AVX2."""

from inferopt.experiment.blas import use_neutral_environment

use_neutral_environment()
