r"""Text for speaking: the narration's mathematical writing rewritten as words, for either engine.

Making text speakable
---------------------
Festival reads digits, decimals and abbreviations well, but it spells out or
drops the symbols of mathematical writing. :func:`speakable` rewrites them
first: Greek letters become their names (``τ`` -> "tau"), a few LaTeX
commands lose their backslash (``\tau`` -> "tau", ``\frac{a}{b}`` -> "a over
b"), subscripts are read after a space (``k_eff`` -> "k effective", ``d_k``
-> "d k"), superscripts as powers (``n^2`` -> "n squared", ``K^T`` -> "K
transpose", ``e^{H}`` -> "e to the H"), a call reads "of" (``O(n^2)`` -> "O
of n squared"), other parentheses become commas, ``=``, ``≈``, ``×``, ``·``,
``√``, ``→`` and comparisons become words, ``a/b`` is "a over b", and quotes,
brackets and braces are dropped.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["speakable", "RULES"]

RULES = 2
"""Bumped when :func:`speakable` changes what is said (part of the engines' cache keys)."""


_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zeta", "η": "eta",
    "θ": "theta", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "π": "pi", "ρ": "rho",
    "σ": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
    "Γ": "gamma", "Δ": "delta", "Θ": "theta", "Λ": "lambda", "Π": "pi", "Σ": "sigma", "Φ": "phi",
    "Ψ": "psi", "Ω": "omega",
}  # fmt: skip
_SYMBOLS = {
    "=": "equals", "≈": "is about", "≠": "is not", "≤": "at most", "≥": "at least", "<": "less than",
    ">": "greater than", "+": "plus", "−": "minus", "±": "plus or minus", "×": "times", "·": "dot",
    "√": "square root of", "∞": "infinity", "→": "to", "∑": "sum of", "∈": "in", "&": "and",
    "²": "squared", "³": "cubed",
}  # fmt: skip
_LATEX = {"sqrt": "square root of", "cdot": "dot", "times": "times", "sum": "sum of", "infty": "infinity"}
_SUBSCRIPTS = {"eff": "effective", "max": "max", "min": "min"}
_POWERS = {"2": "squared", "3": "cubed", "T": "transpose", "⊤": "transpose", "-1": "inverse"}

_FRAC = re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}")
_COMMAND = re.compile(r"\\([A-Za-z]+)")
_SUB = re.compile(r"(?<=\w)_(?:\{([^{}]*)\}|(\w+))")
_SUP = re.compile(r"\^(?:\{([^{}]*)\}|(-?\w+|⊤))")
_CALL = re.compile(r"(?<=\w)\(([^()]*)\)")
_SLASH = re.compile(r"(?<=\w)\s*/\s*(?=[\w√])")


def _power(match: re.Match[str]) -> str:
    exponent = match.group(1) if match.group(1) is not None else match.group(2)
    return " " + _POWERS.get(exponent, f"to the {exponent}") + " "


def _subscript(match: re.Match[str]) -> str:
    index = match.group(1) if match.group(1) is not None else match.group(2)
    return " " + _SUBSCRIPTS.get(index, index) + " "


def _math_to_words(text: str) -> str:
    text = "".join(_GREEK.get(c, c) for c in text)
    text = text.replace("->", " → ")
    text = _FRAC.sub(r" \1 over \2 ", text)
    text = _COMMAND.sub(lambda m: " " + _LATEX.get(m.group(1), m.group(1)) + " ", text)
    text = _SUP.sub(_power, text)
    text = _SUB.sub(_subscript, text)
    while _CALL.search(text):
        text = _CALL.sub(r" of \1", text)
    text = _SLASH.sub(" over ", text)
    return "".join(f" {_SYMBOLS[c]} " if c in _SYMBOLS else c for c in text)


def speakable(text: str) -> str:
    """Rewrite ``text`` so festival says the math in it as words (rules in the module docstring).

    Parameters
    ----------
    text : str
        Narration as written, possibly with Greek letters, LaTeX, sub- and superscripts.

    Returns
    -------
    str
        Plain ASCII text for the speech engine.

    Examples
    --------
    >>> speakable("Effective k_eff = N when τ is large.")
    'Effective k effective equals N when tau is large.'
    >>> speakable("Cost O(n^2), e^{H} and (softmax(QK^T/√d)).")
    'Cost O of n squared, e to the H and, softmax of QK transpose over square root of d.'
    """
    text = re.sub(r"(?<=\w)[–—](?=\w)", " ", text)  # Nadaraya–Watson: two names, not one word
    text = re.sub(r"\s+[–—]\s+", ", ", text)  # a spaced dash is a pause
    text = _math_to_words(text.replace("’", "'"))
    text = re.sub(r"[()]", " , ", text)
    text = re.sub(r"[\[\]{}\"“”‘`*\\]|(?<!\w)'|'(?!\w)", " ", text)
    text = re.sub(r"\s+-+\s+", ", ", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s+([,.;:!?])", r"\1", text)
    text = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", text)
    return re.sub(r"^[,;:]+|[,;:]+(?=[.!?]|$)", "", text.strip()).strip()
