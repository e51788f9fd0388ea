"""``funcgrad.scipy.ndimage``: SciPy's ``ndimage`` names, differentiable.

- the separable filters ``gaussian_filter(1d)`` and ``uniform_filter(1d)``
  (:mod:`._ndimage_filters`);
- correlation, convolution and the derivative filters (:mod:`._ndimage_correlate`);
- the order-statistic filters and grey morphology (:mod:`._ndimage_rank`);
- binary morphology and its structuring elements (:mod:`._ndimage_binary`);
- the Fourier-domain filters (:mod:`._ndimage_fourier`);
- measurements on labelled regions (:mod:`._ndimage_measure`);
- filters and measurements that call a user's function (:mod:`._ndimage_generic`);
- distance transforms and label geometry, SciPy's values (:mod:`._ndimage_distance`);
- B-spline prefilters (:mod:`._ndimage_spline`) and interpolation: ``map_coordinates``,
  ``shift``, ``zoom``, ``affine_transform``, ``rotate``, ``geometric_transform``
  (:mod:`._ndimage_interp`).

Each is written with ``funcgrad.numpy`` operations, so every transform (and GPU arrays)
applies; the private modules say what is differentiable, the rule at ties and kinks,
and where a result may differ from SciPy's.
"""
from ._ndimage_filters import (gaussian_filter, gaussian_filter1d,  # noqa: F401
                               uniform_filter, uniform_filter1d)
from ._ndimage_correlate import (convolve, convolve1d, correlate, correlate1d,  # noqa: F401
                                 gaussian_gradient_magnitude, gaussian_laplace,
                                 generic_gradient_magnitude, generic_laplace, laplace,
                                 prewitt, sobel)
from ._ndimage_fourier import (fourier_ellipsoid, fourier_gaussian,  # noqa: F401
                               fourier_shift, fourier_uniform)
from ._ndimage_interp import (affine_transform, geometric_transform,  # noqa: F401
                              map_coordinates, rotate, shift, zoom)
from ._ndimage_measure import (center_of_mass, extrema, histogram, label,  # noqa: F401
                               maximum, maximum_position, mean, median, minimum,
                               minimum_position, standard_deviation, sum, sum_labels,
                               variance)
from ._ndimage_binary import (binary_closing, binary_dilation, binary_erosion,  # noqa: F401
                              binary_fill_holes, binary_hit_or_miss, binary_opening,
                              binary_propagation, generate_binary_structure,
                              iterate_structure)
from ._ndimage_spline import spline_filter, spline_filter1d  # noqa: F401
from ._ndimage_generic import (generic_filter, generic_filter1d,  # noqa: F401
                               labeled_comprehension)
from ._ndimage_distance import (distance_transform_bf, distance_transform_cdt,  # noqa: F401
                                distance_transform_edt, find_objects, value_indices,
                                watershed_ift)
from ._ndimage_rank import (black_tophat, grey_closing, grey_dilation,  # noqa: F401
                            grey_erosion, grey_opening, maximum_filter, maximum_filter1d,
                            median_filter, minimum_filter, minimum_filter1d,
                            morphological_gradient, morphological_laplace,
                            percentile_filter, rank_filter, white_tophat)

__all__ = ["map_coordinates", "gaussian_filter", "gaussian_filter1d", "uniform_filter",
           "uniform_filter1d",
           "correlate1d", "convolve1d", "correlate", "convolve", "sobel", "prewitt",
           "laplace", "generic_laplace", "generic_gradient_magnitude", "gaussian_laplace",
           "gaussian_gradient_magnitude",
           "minimum_filter1d", "maximum_filter1d", "minimum_filter", "maximum_filter",
           "rank_filter", "median_filter", "percentile_filter", "grey_erosion",
           "grey_dilation", "grey_opening", "grey_closing", "morphological_gradient",
           "morphological_laplace", "white_tophat", "black_tophat",
           "fourier_gaussian", "fourier_uniform", "fourier_ellipsoid", "fourier_shift",
           "sum_labels", "sum", "mean", "variance", "standard_deviation", "minimum",
           "maximum", "median", "center_of_mass", "extrema", "minimum_position",
           "maximum_position", "histogram", "label",
           "spline_filter1d", "spline_filter", "shift", "zoom", "affine_transform", "rotate",
           "geometric_transform",
           "generate_binary_structure", "iterate_structure", "binary_erosion",
           "binary_dilation", "binary_opening", "binary_closing", "binary_propagation",
           "binary_fill_holes", "binary_hit_or_miss",
           "generic_filter", "generic_filter1d", "labeled_comprehension",
           "distance_transform_edt", "distance_transform_bf", "distance_transform_cdt",
           "find_objects", "value_indices", "watershed_ift"]


# (session 24: SciPy 1.16's vectorized_filter)
from ._ndimage_vectorized import vectorized_filter  # noqa: E402,F401
__all__ += ["vectorized_filter"]
