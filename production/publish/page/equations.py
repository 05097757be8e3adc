"""The lecture notes' key equations: one table of LaTeX per scene, typeset offline to inline SVG.

Each equation goes through manim's own TeX pipeline (LaTeX, then dvisvgm, the
same as every ``MathTex`` in the scenes) into a cache folder, and the SVG is
made fit to sit inside an HTML page: its ids get a prefix of their own (two
equations' glyphs share ids such as ``g0-11``), it is filled with
``currentColor`` (the page's text colour, on screen and in print) and it is
sized in ``em``, so it scales with the text around it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from markupsafe import Markup, escape

__all__ = ["EQUATIONS", "ENVIRONMENT", "equation_svg", "typeset", "inline_svg"]

ENVIRONMENT = "align*"
"""Every equation is typeset as display maths; ``&`` aligns and ``\\\\`` breaks lines."""
POINTS_PER_EM = 9.0
"""TeX's 10 pt text shown a little larger than the page's text: equations are displayed."""

EQUATIONS: Mapping[str, Sequence[str]] = {
    "LectureTitle": (
        r"\operatorname{Attn}(q, K, V) = \sum_i \alpha_i(q)\, v_i",
        r"\alpha_i(q) = \frac{\exp(q \cdot k_i / \tau)}{\sum_j \exp(q \cdot k_j / \tau)}"
        r"\;\propto\; \exp(q \cdot k_i / \tau)",
        r"q = W_Q\, x, \qquad k_i = W_K\, x_i, \qquad v_i = W_V\, x_i, \qquad \tau = \sqrt{d_k}",
    ),
    "FixedVsQueryWeights": (
        r"\hat y(q) = \sum_i w_i(q)\, y_i, \qquad \sum_i w_i(q) = 1",
        r"\text{sufficient statistic:}\quad & w_i = 1/N \\"
        r"\text{kernel regression:}\quad & w_i(q) \propto K(q, x_i) \\"
        r"\text{attention:}\quad & w_i(q) \propto \exp\!\big(\psi(q)^\top W_Q W_K^\top \psi(x_i)\big)",
    ),
    "KernelRegressionCollapse": (
        r"\hat f(q) = \frac{\sum_i K(q, x_i)\, y_i}{\sum_j K(q, x_j)}",
        r"K(q, x) = \exp\!\left(-\frac{\|q - x\|^2}{2\sigma^2}\right)",
        r"w_i = \operatorname{softmax}_i\!\left(-\frac{\|q - x_i\|^2}{2\sigma^2}\right)"
        r" = \operatorname{softmax}_i\!\left(\frac{q\, x_i}{\sigma^2} - \frac{x_i^2}{2\sigma^2}\right)",
    ),
    "TemperatureSweep": (
        r"J_\tau(a) = \mathbb{E}_a[s] + \tau\, H(a) = \sum_i a_i s_i - \tau \sum_i a_i \log a_i,"
        r"\qquad \sum_i a_i = 1",
        r"\mathcal{L}(a, \lambda) = \sum_i a_i s_i - \tau \sum_i a_i \log a_i"
        r" + \lambda \Big(\sum_i a_i - 1\Big), \qquad"
        r"\frac{\partial \mathcal{L}}{\partial a_i} = s_i - \tau (\log a_i + 1) + \lambda = 0",
        r"a_i = \frac{\exp(s_i / \tau)}{\sum_j \exp(s_j / \tau)}",
        r"k_{\mathrm{eff}} = \exp H(a), \qquad \tau \to 0:\ k_{\mathrm{eff}} \to 1, \qquad"
        r"\tau \to \infty:\ k_{\mathrm{eff}} \to N",
    ),
    "KernelVariants": (
        r"\sum_i \phi(q)^\top \phi(k_i)\, v_i^\top"
        r" = \phi(q)^\top \Big(\sum_i \phi(k_i)\, v_i^\top\Big)"
        r"\qquad O(N^2) \to O(N)",
        r"a_i \propto r_i \exp(s_i / \tau) = \exp\!\big((s_i + \tau \log r_i) / \tau\big)"
        r"\quad\text{maximises}\quad \mathbb{E}_a[s] - \tau\, \mathrm{KL}(a \,\|\, r)",
    ),
    "HeadRouting": (
        r"\operatorname{head}_h = \operatorname{Attn}\big(X W_Q^{(h)},\, X W_K^{(h)},\, X W_V^{(h)}\big),"
        r"\qquad h = 1, \dots, H",
        r"\operatorname{MultiHead}(X) = \big[\operatorname{head}_1 \;\; \operatorname{head}_2 \;\;"
        r"\cdots \;\; \operatorname{head}_H\big]\, W_O",
    ),
    "KVCacheGrowth": (
        r"o_t = \sum_{i \le t} \alpha_i(q_t)\, v_i, \qquad"
        r"\alpha_i(q_t) = \frac{\exp(q_t \cdot k_i / \tau)}{\sum_{j \le t} \exp(q_t \cdot k_j / \tau)}",
        r"\text{KV cache after step } t:\ (k_1, v_1), \dots, (k_t, v_t)",
        r"S_t = S_{t-1} + \phi(k_t)\, v_t^\top, \qquad o_t = \phi(q_t)^\top S_t",
    ),
    "AdaptiveSufficiency": (
        r"\text{adaptive sufficient statistic:}\quad & o(q) = \sum_i \alpha_i(q)\, v_i \\"
        r"\text{kernel regression:}\quad & \alpha_i(q) = \frac{K(q, k_i)}{\sum_j K(q, k_j)},"
        r"\quad K(q, k) = \exp(q \cdot k / \tau) \\"
        r"\text{maximum entropy:}\quad & \alpha(q) = \arg\max_a\ \mathbb{E}_a[s] + \tau\, H(a)",
    ),
}
"""Scene -> its section's key equations (LaTeX, in reading order), shown in ``notes.html``."""

_SIZE = re.compile(r"\s(width|height)='([0-9.]+)pt'")
_ID = re.compile(r"""\b(id|xlink:href|href)=(['"])(#?)([^'"]+)\2""")


def inline_svg(svg: str, prefix: str, label: str) -> Markup:
    """A dvisvgm SVG made fit to inline: ids prefixed, filled with currentColor, sized in em, labelled."""
    body = svg[svg.index("<svg") :]
    body = re.sub(r"<!--.*?-->", "", body, flags=re.S)

    def em(match: re.Match[str]) -> str:
        return f" {match[1]}='{float(match[2]) / POINTS_PER_EM:.3f}em'"

    def renamed(match: re.Match[str]) -> str:
        name, quote, hash_, ref = match.groups()
        if name != "id" and not hash_:  # a link to something outside the SVG: dvisvgm writes none
            return match[0]
        return f"{name}={quote}{hash_}{prefix}-{ref}{quote}"

    head_end = body.index(">")
    head = _SIZE.sub(em, body[:head_end])
    head += f" fill='currentColor' role='img' aria-label='{escape(label)}' class='tex'"
    return Markup(head + _ID.sub(renamed, body[head_end:]).strip())


def equation_svg(tex: str, tex_dir: Path) -> str:
    """The SVG text of ``tex`` typeset by manim's TeX pipeline, cached in ``tex_dir``."""
    from manim import tempconfig
    from manim.utils.tex_file_writing import tex_to_svg_file

    with tempconfig({"tex_dir": str(tex_dir), "verbosity": "ERROR"}):
        return tex_to_svg_file(tex, environment=ENVIRONMENT).read_text()


def typeset(scene: str, tex_dir: Path) -> list[Markup]:
    """``scene``'s key equations as inline SVG (none for a scene not in :data:`EQUATIONS`)."""
    return [
        inline_svg(equation_svg(tex, tex_dir), f"eq-{scene}-{k}", tex)
        for k, tex in enumerate(EQUATIONS.get(scene, ()), start=1)
    ]
