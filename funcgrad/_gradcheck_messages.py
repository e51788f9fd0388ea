"""What :func:`funcgrad.gradcheck` says when a derivative disagrees with central
differences: both Jacobians, where they differ most, and what to check next.

A complex input or output is reported as PyTorch reports it: a complex output is checked
as its real and its imaginary part ("While considering the imaginary part of complex
output 0 only, ..."), and a reverse-mode entry for a complex input element is one complex
number whose convention the message names, because a rule written for the other
convention gives exactly the conjugate, which the message points out.
"""
import numpy as np

# The two ways of writing the gradient of a real function of z = x + iy as one complex
# number: funcgrad's functional API follows JAX, its Tensor follows PyTorch.
CONVENTIONS = {
    "jax": ("d/dx - i d/dy", ("JAX's convention, which funcgrad's functional API (fg.grad, "
                              "fg.vjp, custom_vjp) follows")),
    "torch": ("d/dx + i d/dy", ("PyTorch's convention, which a Tensor's .grad and a "
                                "Function's backward follow")),
}


def _describe(index, shape):
    if not shape:
        return "()"
    return str(tuple(int(i) for i in np.unravel_index(index, shape)))


def _conjugated(numerical, analytical, atol, rtol):
    """Whether ``analytical`` is the complex conjugate of ``numerical`` (and not equal to
    it): the signature of a rule written for the other convention."""
    if numerical.dtype.kind != "c" or analytical.dtype.kind != "c":
        return False
    return bool(np.all(np.abs(analytical - np.conj(numerical))
                       <= atol + rtol * np.abs(numerical)))


def mismatch_message(mode, j, i, numerical, analytical, out_shape, in_shape, atol, rtol,
                     label_inputs, part=None, convention=None):
    """The report of a full-Jacobian mismatch.  ``part``: which real part of a complex
    output (reverse mode) or input (forward mode) was checked, e.g. "imaginary part of
    complex output 0"; ``convention``: "jax" or "torch" where a complex input's
    reverse-mode entries are complex gradients."""
    diff = np.abs(analytical - numerical)
    excess = diff - (atol + rtol * np.abs(numerical))
    r, c = np.unravel_index(int(np.argmax(excess)), excess.shape)
    rule = {"reverse": "reverse mode (VJP rules)", "forward": "forward mode (JVP rules)"}[mode]
    prefix = "" if part is None else f"While considering the {part} only, "
    entries, conjugate_hint = "", ""
    if convention is not None:
        form, who = CONVENTIONS[convention]
        entries = (f"Input {label_inputs(i)} is complex: an entry is {form} of the real "
                   f"output, x and y the real and imaginary parts of the input element "
                   f"({who}).\n")
        if _conjugated(numerical, analytical, atol, rtol):
            other = CONVENTIONS["torch" if convention == "jax" else "jax"][0]
            conjugate_hint = (f" The analytical Jacobian is the complex conjugate of the "
                              f"numerical one: a backward rule returns {other} where "
                              f"{form} is expected (conjugate its result, or its incoming "
                              f"cotangent).")
    with np.printoptions(precision=6, suppress=True, linewidth=100, threshold=400):
        return (
            f"{prefix}Jacobian mismatch for output {j} with respect to input "
            f"{label_inputs(i)}, {rule}.\n"
            f"{entries}"
            f"numerical (central differences):\n{numerical}\n"
            f"analytical ({mode} mode):\n{analytical}\n"
            f"largest difference {diff[r, c]:.6g} at row {r}, column {c} (output element "
            f"{_describe(r, out_shape)}, input element {_describe(c, in_shape)}): numerical "
            f"{numerical[r, c]:.6g}, analytical {analytical[r, c]:.6g}; allowed "
            f"atol + rtol * |numerical| = {atol + rtol * abs(numerical[r, c]):.3g}.\n"
            f"(J[row, column] = d output.flat[row] / d input.flat[column].) "
            f"The {mode}-mode derivative disagrees with finite differences: check the "
            f"{'VJP (backward)' if mode == 'reverse' else 'JVP'} rule of the operations f uses, "
            f"e.g. a custom_vjp/custom_jvp or Function you wrote.{conjugate_hint} If f is not "
            f"smooth at this input (abs at 0, max with ties, a branch boundary) move the "
            f"input away from the kink; if f computes in float32, raise eps/atol/rtol.")


def fast_message(mode, j, i, numerical, analytical, atol, rtol, label_inputs,
                 complex_=False):
    """The report of a ``fast_mode`` mismatch of the projections ``u^T J v``."""
    projection = ("Re sum(conj(u) * J v) (complex u, v: J as a real map of real and "
                  "imaginary parts)" if complex_ else "u^T J v")
    return (f"Jacobian mismatch (fast_mode) for output {j} with respect to input "
            f"{label_inputs(i)}, {mode} mode: the random projection {projection} is "
            f"{analytical:.8g} analytically but {numerical:.8g} by central differences "
            f"(difference {abs(analytical - numerical):.3g}, allowed "
            f"{atol + rtol * abs(numerical):.3g}). "
            f"Check the {'VJP (backward)' if mode == 'reverse' else 'JVP'} rule of the "
            f"operations f uses; rerun with fast_mode=False to see the full Jacobians.")
