"""mlc's own decompositions of ATen ops that torch-mlir has no op for and PyTorch has
no decomposition of, into ops it has: `torch_import` takes them with PyTorch's own.

upsample_bilinear2d_backward: the forward is linear and separable, out = Wh x Ww^T
per image, with W[o, i] torch's interpolation weight of input i in output o; its
gradient is Wh^T g Ww. The weights are built from the sizes with arange and
comparisons in float32, as torch's `area_pixel_compute_source_index` computes them.

randint_like and normal with tensor or float arguments: `randint` of the input's shape,
and `mean + std * randn` (`normal_functional` of the given size for two floats); mlc
converts `randint`, `randn` and `normal_functional` (passes/convert_torch_to_mlc/random.py).

cummax and cummin: position i's value is the extreme of the [n, n] table of x[j] for
j <= i (the rest filled with the extreme's identity), and its index the last j <= i
that holds it, as torch's kernels update on ties; a NaN wins and stays, its index the
last NaN's. Quadratic in the scanned length, which suits the short scans models hold.

`x ^ 5`, `x | 5` (the Scalar forms of bitwise xor and or) and `x << y`, `x >> y` (the
Tensor forms of the shift operators) are the forms torch-mlir knows, with the scalar
made a 0-d tensor of x's dtype.

grid_sampler: ATen's composite, which picks the 2-D or 3-D kernel by the input's rank;
PyTorch decomposes the 2-D one (torch_import, DECOMPOSED_AT_IMPORT). Where a grid
coordinate is not finite, that decomposition gives 0 and eager's CPU kernel does not:
with border padding it reads a NaN coordinate as the first pixel, with reflection
padding an infinite one too (reflecting it gives NaN), and with zeros padding its
bilinear result is NaN. The grid and the result are mended to match eager.
"""

import torch

from . import fourier

aten = torch.ops.aten


def _bilinear_weights(size: int, out: int, align_corners: bool, scale, like: torch.Tensor) -> torch.Tensor:
    """(out, size): the weight of input i in output o along one axis."""
    positions = torch.arange(out, dtype=torch.float32, device=like.device)
    if align_corners:
        factor = (size - 1) / (out - 1) if out > 1 else 0.0
        source = positions * factor
    else:
        factor = 1.0 / scale if scale else size / out
        source = torch.clamp(factor * (positions + 0.5) - 0.5, min=0.0)
    low = torch.floor(source).to(torch.int64)
    high = torch.clamp(low + 1, max=size - 1)
    high_weight = source - low.to(torch.float32)
    low_weight = 1.0 - high_weight
    inputs = torch.arange(size, dtype=torch.int64, device=like.device)
    weights = (low_weight[:, None] * (low[:, None] == inputs[None, :]).to(torch.float32)
               + high_weight[:, None] * (high[:, None] == inputs[None, :]).to(torch.float32))
    return weights.to(like.dtype)


def upsample_bilinear2d_backward(grad_output, output_size, input_size, align_corners, scales_h=None, scales_w=None):
    _, _, height, width = input_size
    rows = _bilinear_weights(height, output_size[0], align_corners, scales_h, grad_output)  # (out_h, h)
    columns = _bilinear_weights(width, output_size[1], align_corners, scales_w, grad_output)  # (out_w, w)
    return torch.matmul(torch.matmul(rows.t(), grad_output), columns)


def _default_generator(generator) -> None:
    if generator is not None:
        raise NotImplementedError("an explicit torch.Generator: mlc draws its seeds from the default generator")


def randint_like(x, high, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    return aten.randint.default(high, list(x.shape), dtype=dtype or x.dtype, device=x.device)


def randint_like_low(x, low, high, *, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None):
    return aten.randint.low(low, high, list(x.shape), dtype=dtype or x.dtype, device=x.device)


def normal_tensor_tensor(mean, std, *, generator=None):
    _default_generator(generator)
    shape = torch.broadcast_shapes(mean.shape, std.shape)
    return mean + std * aten.randn.default(list(shape), dtype=mean.dtype, device=mean.device)


def normal_tensor_float(mean, std=1.0, *, generator=None):
    _default_generator(generator)
    return aten.normal_functional.default(mean, 0.0, std) + mean


def normal_float_tensor(mean, std, *, generator=None):
    _default_generator(generator)
    return mean + std * aten.randn_like.default(std)


def normal_float_float(mean, std, size, *, generator=None, dtype=None, layout=None, device=None, pin_memory=None):
    _default_generator(generator)
    empty = aten.empty.memory_format(list(size), dtype=dtype or torch.get_default_dtype(), device=device)
    return aten.normal_functional.default(empty, mean, std)


def _cumulative_extreme(x, dim, larger: bool):
    if x.dim() == 0:
        return x.clone(), torch.zeros((), dtype=torch.int64, device=x.device)
    scanned = x.movedim(dim, -1)
    n = scanned.shape[-1]
    positions = torch.arange(n, device=x.device)
    earlier = positions[None, :] <= positions[:, None]  # [i, j]: j <= i
    rows = scanned.unsqueeze(-2).expand(*scanned.shape[:-1], n, n)  # [..., i, j] = x[j]
    if x.dtype.is_floating_point:
        identity = -torch.inf if larger else torch.inf
    else:
        identity = torch.iinfo(x.dtype).min if larger else torch.iinfo(x.dtype).max
    table = torch.where(earlier, rows, torch.full((), identity, dtype=x.dtype, device=x.device))
    values = table.amax(-1) if larger else table.amin(-1)
    holds = (rows == values.unsqueeze(-1)) | (torch.isnan(rows) & torch.isnan(values).unsqueeze(-1))
    indices = torch.where(earlier & holds, positions, -1).amax(-1)
    return values.movedim(-1, dim), indices.movedim(-1, dim)


def cummax(x, dim):
    return _cumulative_extreme(x, dim, larger=True)


def cummin(x, dim):
    return _cumulative_extreme(x, dim, larger=False)


def _scalar_like(x, value):
    return torch.scalar_tensor(value, dtype=x.dtype, device=x.device)


def bitwise_xor_scalar(x, other):
    return aten.bitwise_xor.Tensor(x, _scalar_like(x, other))


def bitwise_or_scalar(x, other):
    return aten.bitwise_or.Tensor(x, _scalar_like(x, other))


BILINEAR, NEAREST = 0, 1  # ATen's GridSamplerInterpolation
ZEROS, BORDER, REFLECTION = 0, 1, 2  # ATen's GridSamplerPadding


def grid_sampler(x, grid, interpolation_mode, padding_mode, align_corners):
    if x.dim() != 4:
        return aten.grid_sampler_3d.default(x, grid, interpolation_mode, padding_mode, align_corners)
    first_pixel = -1.0  # normalized; border and reflection padding clip it to pixel 0 either way
    if interpolation_mode in (BILINEAR, NEAREST) and padding_mode == BORDER:
        grid = torch.where(torch.isnan(grid), first_pixel, grid)
    elif interpolation_mode in (BILINEAR, NEAREST) and padding_mode == REFLECTION:
        grid = torch.where(torch.isfinite(grid), grid, first_pixel)
    sampled = aten.grid_sampler_2d.default(x, grid, interpolation_mode, padding_mode, align_corners)
    if interpolation_mode == BILINEAR and padding_mode == ZEROS:
        finite = torch.isfinite(grid).all(-1)[:, None]
        sampled = torch.where(finite, sampled, float("nan"))
    return sampled


DECOMPOSITIONS = {
    **fourier.DECOMPOSITIONS,
    aten.grid_sampler.default: grid_sampler,
    aten.bitwise_xor.Scalar: bitwise_xor_scalar,
    aten.bitwise_or.Scalar: bitwise_or_scalar,
    aten.__xor__.Scalar: bitwise_xor_scalar,
    aten.__or__.Scalar: bitwise_or_scalar,
    aten.__lshift__.Tensor: aten.bitwise_left_shift.Tensor,
    aten.__rshift__.Tensor: aten.bitwise_right_shift.Tensor,
    aten.cummax.default: cummax,
    aten.cummin.default: cummin,
    aten.upsample_bilinear2d_backward.default: upsample_bilinear2d_backward,
    aten.randint_like.default: randint_like,
    aten.randint_like.low_dtype: randint_like_low,
    aten.normal.Tensor_Tensor: normal_tensor_tensor,
    aten.normal.Tensor_float: normal_tensor_float,
    aten.normal.float_Tensor: normal_float_tensor,
    aten.normal.float_float: normal_float_float,
}
