"""Derives the rational erf of vector_math.h's gelu_erf and gelu_avx512.h: erf(x / sqrt 2) = x P(x^2) / Q(x^2).

    .venv/bin/python driver/backends/native/fit_gelu_erf.py

erf(z) / z is fitted as P(z^2) / Q(z^2) (degrees 6 and 4, Q(0) = 1) on z in [0, 3.92],
past which erf is 1 in float, by linearized least squares on the relative error with
Lawson's weights toward the minimax; then rescaled to x = sqrt(2) z (the i-th coefficient
divided by 2^i, P's also by sqrt 2). Prints the coefficients, and the largest errors of
the float32 evaluation (Horner, clamps as the header's) against mpmath: erf's, and GELU's
0.5 x (1 + erf) where the header's form h + h erf rounds.
"""

import mpmath
import numpy as np

mpmath.mp.dps = 30
P_DEGREE, Q_DEGREE, Z_END = 6, 4, 3.92
X_END = np.float32(Z_END * np.sqrt(2))


def fit() -> tuple[np.ndarray, np.ndarray]:
    z = np.unique(np.concatenate([np.linspace(1e-4, Z_END, 8000), Z_END * np.sin(np.linspace(0.01, np.pi / 2, 4000))]))
    t, f = z**2, np.array([float(mpmath.erf(v) / v) for v in z])
    denominator, weights = np.ones_like(t), np.ones_like(t)
    for _ in range(300):
        rows = np.hstack([np.vander(t, P_DEGREE + 1, increasing=True),
                          -f[:, None] * np.vander(t, Q_DEGREE + 1, increasing=True)[:, 1:]])
        scale = np.sqrt(weights) / (f * denominator)
        coefficients = np.linalg.lstsq(rows * scale[:, None], f * scale, rcond=None)[0]
        p, q = coefficients[:P_DEGREE + 1], np.concatenate([[1.0], coefficients[P_DEGREE + 1:]])
        denominator = np.polyval(q[::-1], t)
        error = np.abs(np.polyval(p[::-1], t) / denominator - f) / f
        weights = weights * error / np.sum(weights * error)
    powers = 2.0 ** -np.arange(max(P_DEGREE, Q_DEGREE) + 1)
    return (p * powers[:P_DEGREE + 1] / np.sqrt(2)).astype(np.float32), (q * powers[:Q_DEGREE + 1]).astype(np.float32)


def horner(coefficients: np.ndarray, t: np.ndarray) -> np.ndarray:
    value = np.full_like(t, coefficients[-1])
    for c in coefficients[-2::-1]:
        value = (value * t + c).astype(np.float32)
    return value


def check(p: np.ndarray, q: np.ndarray) -> None:
    x = np.linspace(-12, 12, 240001).astype(np.float32)
    a = np.clip(x, -X_END, X_END)
    t = a * a
    erf = np.clip(a * horner(p, t) / horner(q, t), np.float32(-1), np.float32(1))
    half = np.float32(0.5) * x
    gelu = half + half * erf
    exact_erf = np.array([float(mpmath.erf(v / mpmath.sqrt(2))) for v in x.astype(float)])
    exact_gelu = np.array([float(0.5 * v * mpmath.erfc(-v / mpmath.sqrt(2))) for v in x.astype(float)])
    print(f"erf: largest error {np.max(np.abs(erf - exact_erf)):.3g}")
    print(f"GELU: largest error {np.max(np.abs(gelu - exact_gelu)):.3g}")


if __name__ == "__main__":
    p, q = fit()
    print("P:", ", ".join(f"{c!r}f" for c in p.tolist()))
    print("Q:", ", ".join(f"{c!r}f" for c in q.tolist()))
    check(p, q)
