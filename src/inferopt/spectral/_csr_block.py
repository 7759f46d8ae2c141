"""A sparse (CSR) matrix times a ``d x M`` block, one slab of rows at a time, into the caller's buffer.

scipy's ``A @ V`` returns a freshly allocated, zero-filled ``d x M`` array at every call: for
``d = 10⁵`` and ``M = 10`` that is 8 MB of new pages per product, which cost more than the
product itself (30 products of the 2-D Laplacian, ``nnz = 5·10⁵``: 0.18 CPU-s by ``A @ V``,
0.08 by the same kernel into a reused buffer). :class:`CSRSlabs` runs scipy's own CSR kernel
(``scipy.sparse._sparsetools.csr_matvecs``, which accumulates ``Y += A X``) on slabs of
``rows`` rows, so that the recurrences built on it (:func:`chebyshev_products_csr`, the three-term
Lanczos of :mod:`._three_term`) do their vector updates and inner products on a slab while it is
in cache: one pass over the block per product instead of four or five.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse import _sparsetools

#: rows per slab (x M columns x 8 bytes: 320 KB per array at M = 10, a few arrays per L2 cache)
ROWS = 4096


class CSRSlabs:
    """The row slabs ``A[lo:hi]`` of a CSR matrix (``scale`` times its entries), each a valid CSR triple."""

    def __init__(self, matrix, *, scale: float = 1.0, rows: int = ROWS):
        A = sp.csr_matrix(matrix, dtype=float)
        data = A.data * scale if scale != 1.0 else A.data
        self.shape = A.shape
        self.slabs = []
        for lo in range(0, A.shape[0], rows):
            hi = min(lo + rows, A.shape[0])
            p0, p1 = A.indptr[lo], A.indptr[hi]
            self.slabs.append((lo, hi, A.indptr[lo : hi + 1] - p0, A.indices[p0:p1], data[p0:p1]))

    @staticmethod
    def add_product(slab, X, Y) -> None:
        """``Y[lo:hi] += A[lo:hi] X`` in place (``X``, ``Y``: C-contiguous float ``d x M``)."""
        lo, hi, ptr, idx, val = slab
        _sparsetools.csr_matvecs(hi - lo, X.shape[0], X.shape[1], ptr, idx, val, X.reshape(-1), Y[lo:hi].reshape(-1))


def chebyshev_products_csr(matrix, V, J: int, s: float, c: float, *, rows: int = ROWS):
    """``sq[j] = w_jᵀ w_j`` (``j = 0..J``) and ``cross[j] = w_jᵀ w_{j-1}`` (``j = 1..J``) of the Chebyshev
    recursion of Eq. (3) on ``Ã = s A - c I`` for a sparse ``A``, one pass over the block per product.

    ``w_{j+1} = (2s A) w_j - 2c w_j - w_{j-1}``, with ``w_1 = ((2s A) w_0 - 2c w_0) / 2`` (halving is exact,
    so this is ``s A w_0 - c w_0`` bit for bit), is formed slab by slab in the buffer of
    ``w_{j+1}`` (``-2c w_j - w_{j-1}``, then ``+= (2s A) w_j``) and both inner products are taken
    while the slab is in cache. It equals :func:`.estimators._chebyshev_products` up to the
    rounding of ``(2s a_il) w_l`` against ``2s (a_il w_l)``.
    """
    slabs = CSRSlabs(matrix, scale=2.0 * s, rows=rows)
    V = np.ascontiguousarray(V, dtype=float)
    sq = np.zeros((J + 1, V.shape[1]))
    cross = np.zeros_like(sq)
    sq[0] = np.einsum("ij,ij->j", V, V)
    w_prev, w, spare = None, V, None
    for j in range(1, J + 1):
        y = spare if spare is not None else np.empty_like(V)
        for slab in slabs.slabs:
            lo, hi = slab[0], slab[1]
            yb = y[lo:hi]
            np.multiply(w[lo:hi], -2.0 * c, out=yb)
            if j > 1:
                yb -= w_prev[lo:hi]
            slabs.add_product(slab, w, y)
            if j == 1:
                yb *= 0.5
            sq[j] += np.einsum("ij,ij->j", yb, yb)
            cross[j] += np.einsum("ij,ij->j", yb, w[lo:hi])
        spare = w_prev if w_prev is not None and w_prev is not V else None
        w_prev, w = w, y
    return sq, cross
