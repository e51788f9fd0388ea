"""Strided layouts in elements (no Numba here: funcgrad.gpu uses these without CUDA)."""


def contiguous_strides(shape):
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= max(d, 1)
    return tuple(reversed(strides))


def size_of(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def is_contiguous(shape, strides):
    step = 1
    for d, s in zip(reversed(shape), reversed(strides)):
        if d != 1 and s != step:
            return False
        step *= d
    return True


def collapse(shape, stride_lists):
    """Merge adjacent axes that every operand walks as one; drop length-1 axes.

    Returns ``(shape, [strides, ...])`` describing the same elements in the same
    (row-major) order with as few axes as possible: a contiguous operation ends
    up one-dimensional, so the kernel needs one division per element at most.
    """
    keep = [i for i, d in enumerate(shape) if d != 1]
    shape = [shape[i] for i in keep]
    stride_lists = [[s[i] for i in keep] for s in stride_lists]
    if not shape:
        return (), [() for _ in stride_lists]
    out_shape = [shape[0]]
    out_strides = [[s[0]] for s in stride_lists]
    for axis in range(1, len(shape)):
        d = shape[axis]
        if all(os_[-1] == s[axis] * d for os_, s in zip(out_strides, stride_lists)):
            out_shape[-1] *= d
            for os_, s in zip(out_strides, stride_lists):
                os_[-1] = s[axis]
        else:
            out_shape.append(d)
            for os_, s in zip(out_strides, stride_lists):
                os_.append(s[axis])
    return tuple(out_shape), [tuple(s) for s in out_strides]
