r"""ALiBi slopes: Press et al.'s rule and the mistakes ports made for head counts that are not powers of two."""

import math

from . import case


def _power_of_two(n):
    start = 2 ** (-(2 ** -(math.log2(n) - 3)))
    return [start * start**i for i in range(n)]


def alibi_slopes(n_heads):
    if math.log2(n_heads).is_integer():
        return _power_of_two(n_heads)
    c = 2 ** math.floor(math.log2(n_heads))
    return _power_of_two(c) + alibi_slopes(2 * c)[0::2][: n_heads - c]


def alibi_slopes_pow2_only(n_heads):
    # Bug: the power-of-two formula for every head count.
    return [2 ** (-8 * h / n_heads) for h in range(1, n_heads + 1)]


def alibi_slopes_off_by_one(n_heads):
    # Bug: heads counted from 0: the first slope is 1.
    return [2 ** (-8 * h / n_heads) for h in range(n_heads)]


def alibi_slopes_even_extra(n_heads):
    # Bug: the extra heads take the even slopes of the 2c sequence (which repeat the first c).
    c = 2 ** math.floor(math.log2(n_heads))
    extra = [2 ** (-8 * h / (2 * c)) for h in range(2, 2 * c + 1, 2)][: n_heads - c]
    return [2 ** (-8 * h / c) for h in range(1, c + 1)] + extra


CASES = [
    case(alibi_slopes, (), scheme="alibi", style="recursive, as in the ALiBi repository"),
    case(alibi_slopes_pow2_only, {"alibi-power-of-two-formula"}, scheme="alibi", style="closed form"),
    case(alibi_slopes_off_by_one, {"alibi-slope-exponent"}, scheme="alibi", style="closed form"),
    case(alibi_slopes_even_extra, {"alibi-wrong-slopes"}, scheme="alibi", style="closed form"),
]
