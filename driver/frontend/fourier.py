"""The discrete Fourier transforms of real tensors (`fft.fft`, `fft.rfft`, `stft`) as
matrix products, decomposed at import: neither torch-mlir nor mlc lowers an FFT.

X[k] = sum_n x[n] e^(-2 pi i k n / N): its real part is x @ cos(2 pi k n / N) and its
imaginary part x @ -sin(2 pi k n / N). The angle's k n is taken modulo N in integers
first, so the matrices are accurate for any N. This is O(N^2) work per transform where an
FFT does O(N log N): right for the short transforms models hold (an stft's frames), and
exact to float32 rounding, but slow for long signals. Complex inputs (and so the inverse
transforms) are left whole: mlc builds complex values and takes them apart, and does no
arithmetic on them; `NotImplemented` keeps the op as it is, and its error names it.
"""

import math

import torch

aten = torch.ops.aten

SCALES = {None: lambda size: 1.0, "backward": lambda size: 1.0, "ortho": lambda size: 1 / math.sqrt(size),
          "forward": lambda size: 1 / size}


def _dft(x: torch.Tensor, size: int, frequencies: int, scale: float) -> tuple[torch.Tensor, torch.Tensor]:
    """(real, imaginary) of the first `frequencies` terms of the DFT of x's last axis (of `size`)."""
    k = torch.arange(frequencies, device=x.device)
    n = torch.arange(size, device=x.device)
    turns = (k[:, None] * n[None, :]) % size
    angle = turns.to(torch.float64 if x.dtype == torch.float64 else torch.float32) * (2 * math.pi / size)
    cos, sin = torch.cos(angle).to(x.dtype), torch.sin(angle).to(x.dtype)
    return torch.matmul(x, cos.t()) * scale, torch.matmul(x, sin.t()) * -scale


def _real_input(x: torch.Tensor) -> torch.Tensor | None:
    """x as the float tensor torch transforms (integers become the default float type);
    None for a complex x."""
    if x.is_complex():
        return None
    return x if x.is_floating_point() else x.to(torch.get_default_dtype())


def _sized(x: torch.Tensor, n: int | None) -> torch.Tensor:
    """x's last axis cut or zero-padded to n, as torch's `n` argument does."""
    if n is None or n == x.shape[-1]:
        return x
    return x[..., :n] if n < x.shape[-1] else torch.nn.functional.pad(x, (0, n - x.shape[-1]))


def _transform(x, n, dim, norm, onesided: bool):
    real = _real_input(x)
    if real is None or norm not in SCALES:
        return NotImplemented
    signal = _sized(real.movedim(dim, -1), n)
    size = signal.shape[-1]
    re, im = _dft(signal, size, size // 2 + 1 if onesided else size, SCALES[norm](size))
    return torch.complex(re.movedim(-1, dim), im.movedim(-1, dim))


def fft_fft(x, n=None, dim=-1, norm=None):
    return _transform(x, n, dim, norm, onesided=False)


def fft_rfft(x, n=None, dim=-1, norm=None):
    return _transform(x, n, dim, norm, onesided=True)


def stft(x, n_fft, hop_length=None, win_length=None, window=None, normalized=False, onesided=None,
         return_complex=None):
    """Frames of n_fft every hop_length samples, times the window (centered in n_fft when
    shorter), each transformed; [..., frequencies, frames]. Centering pads the signal
    before this op, in the exported graph."""
    real = _real_input(x)
    if real is None or (window is not None and window.is_complex()):
        return NotImplemented
    hop = hop_length if hop_length is not None else n_fft // 4
    frames = real.unfold(-1, n_fft, hop)  # [..., frames, n_fft]
    if window is None and win_length is not None and win_length < n_fft:
        window = torch.ones(win_length, dtype=frames.dtype, device=frames.device)
    if window is not None:
        length = window.shape[0]
        left = (n_fft - length) // 2
        frames = frames * torch.nn.functional.pad(window.to(frames.dtype), (left, n_fft - length - left))
    half = True if onesided is None else onesided
    re, im = _dft(frames, n_fft, n_fft // 2 + 1 if half else n_fft, 1 / math.sqrt(n_fft) if normalized else 1.0)
    re, im = re.transpose(-1, -2), im.transpose(-1, -2)
    return torch.complex(re, im) if return_complex else torch.stack([re, im], -1)


DECOMPOSITIONS = {
    aten.fft_fft.default: fft_fft,
    aten.fft_rfft.default: fft_rfft,
    aten.stft.default: stft,
}
