r"""The sources claims cite, by title: the user's two texts and the papers and code they build on."""

#: The article whose worked examples and claims the catalogue reproduces or corrects.
ARTICLE = "'Positional Encoding 101'"
#: The note with the NumPy ``rope`` function that numeric.rotary.rope agrees with.
NOTE = "'Positional encoding: give tokens a sense of order' (the RoPE note)"

VASWANI = "Vaswani et al. 2017, 'Attention Is All You Need', §3.5"
WANG = "Wang et al. 2021, 'On Position Embeddings in BERT' (ICLR)"
TUPE = "Ke et al. 2021, 'Rethinking Positional Encoding in Language Pre-training' (TUPE), Eq. 6"
TXL = "Dai et al. 2019, 'Transformer-XL', §3.3 and the reference code's _rel_shift"
DEBERTA = "He et al. 2021, 'DeBERTa: Decoding-enhanced BERT with Disentangled Attention', §3.1, Eq. 4"
DEBERTA_CODE = "microsoft/DeBERTa and Hugging Face DeBERTa-v2: disentangled_attention_bias, make_log_bucket_position"
T5 = "Raffel et al. 2020 (T5), §2.1; Mesh TensorFlow _relative_position_bucket"
ALIBI = "Press et al. 2022, 'Train Short, Test Long' (ALiBi), §3 and the reference get_slopes"
BLOOM = "BigScience BLOOM (Hugging Face build_alibi_tensor)"
ROFORMER = "Su et al. 2021, 'RoFormer' (arXiv 2104.09864)"
LAYOUTS = "GPT-NeoX / Hugging Face rotate_half vs RoFormer / Meta interleaved; checkpoint converters"
SELF_ATTENTION = "Vaswani et al. 2017, §3.2 (scaled dot-product attention, no position information)"


def article(section: str) -> str:
    r"""The article, at one of its sections."""
    return f"{ARTICLE}, '{section}'"


def note(section: str) -> str:
    r"""The RoPE note, at one of its sections."""
    return f"{NOTE}, '{section}'"


# ---- context extension ----------------------------------------------------------------------------------------
CHEN_PI = (
    "Chen et al. 2023, 'Extending Context Window of Large Language Models via Positional Interpolation' "
    "(arXiv 2306.15595)"
)
NTK_AWARE = "bloc97 2023, 'NTK-Aware Scaled RoPE' (r/LocalLLaMA)"
DYNAMIC_NTK = "emozilla 2023, 'Dynamically Scaled RoPE' (r/LocalLLaMA)"
YARN = "Peng et al. 2023, 'YaRN: Efficient Context Window Extension of Large Language Models' (arXiv 2309.00071)"
LLAMA3 = "Meta, Llama 3.1 reference code, apply_scaling"
LONGROPE = "Ding et al. 2024, 'LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens'"
HF_ROPE = "Hugging Face transformers, modeling_rope_utils"

# ---- properties and the article, annotated ---------------------------------------------------------------------
XPOS = "Sun et al. 2022, 'A Length-Extrapolatable Transformer' (xPos, arXiv 2212.10554)"
LLAMA = "Touvron et al. 2023, 'LLaMA: Open and Efficient Foundation Language Models' (7B: width 4096, 32 heads)"
BERT = "Devlin et al. 2019, 'BERT' (learned position embeddings, initializer_range 0.02)"

# ---- the lemmas --------------------------------------------------------------------------------------------------
CONCRETE = "Graham, Knuth and Patashnik 1994, 'Concrete Mathematics'"
DLMF = "NIST Digital Library of Mathematical Functions"


# ---- the bibliography: one entry per work ------------------------------------------------------------------------

#: Every cited work once: ``(how a claim's source starts, the bibliography entry)``. A claim cites a work with a
#: locator (a section, an equation); the bibliography lists the work, with its arXiv id or URL, once.
WORKS: tuple[tuple[str, str], ...] = (
    (ARTICLE, "'Positional Encoding 101' (the article whose statements the catalogue checks)"),
    (NOTE, "'Positional encoding: give tokens a sense of order' (the RoPE note, with its NumPy `rope` function)"),
    ("Vaswani et al. 2017", "Vaswani et al. 2017, 'Attention Is All You Need', NeurIPS, arXiv:1706.03762"),
    ("Wang et al. 2021", "Wang et al. 2021, 'On Position Embeddings in BERT', ICLR 2021, "
     "`https://openreview.net/forum?id=onxoVA9FxMw`"),
    ("Ke et al. 2021", "Ke et al. 2021, 'Rethinking Positional Encoding in Language Pre-training' (TUPE), ICLR, "
     "arXiv:2006.15595"),
    ("Dai et al. 2019", "Dai et al. 2019, 'Transformer-XL: Attentive Language Models Beyond a Fixed-Length "
     "Context', ACL, arXiv:1901.02860; reference code `https://github.com/kimiyoung/transformer-xl`"),
    ("He et al. 2021", "He et al. 2021, 'DeBERTa: Decoding-enhanced BERT with Disentangled Attention', ICLR, "
     "arXiv:2006.03654"),
    ("microsoft/DeBERTa", "DeBERTa's code: `https://github.com/microsoft/DeBERTa` and Hugging Face "
     "transformers' DeBERTa-v2 (`disentangled_attention_bias`, `make_log_bucket_position`)"),
    ("Raffel et al. 2020", "Raffel et al. 2020, 'Exploring the Limits of Transfer Learning with a Unified "
     "Text-to-Text Transformer' (T5), JMLR, arXiv:1910.10683"),
    ("Mesh TensorFlow", "Mesh TensorFlow, `_relative_position_bucket`: `https://github.com/tensorflow/mesh`"),
    ("Press et al. 2022", "Press et al. 2022, 'Train Short, Test Long: Attention with Linear Biases Enables "
     "Input Length Extrapolation' (ALiBi), ICLR, arXiv:2108.12409"),
    ("BigScience BLOOM", "BigScience BLOOM, Hugging Face transformers' `build_alibi_tensor`: "
     "`https://github.com/huggingface/transformers`"),
    ("Su et al. 2021", "Su et al. 2021, 'RoFormer: Enhanced Transformer with Rotary Position Embedding', "
     "arXiv:2104.09864"),
    ("GPT-NeoX", "RoPE layouts in code: GPT-NeoX and Hugging Face `rotate_half` (half), RoFormer and Meta's "
     "LLaMA (interleaved), and the checkpoint converters between them: "
     "`https://github.com/EleutherAI/gpt-neox`, `https://github.com/huggingface/transformers`"),
    ("checkpoint converters", "RoPE layouts in code: GPT-NeoX and Hugging Face `rotate_half` (half), RoFormer "
     "and Meta's LLaMA (interleaved), and the checkpoint converters between them: "
     "`https://github.com/EleutherAI/gpt-neox`, `https://github.com/huggingface/transformers`"),
    ("Chen et al. 2023", "Chen et al. 2023, 'Extending Context Window of Large Language Models via Positional "
     "Interpolation', arXiv:2306.15595"),
    ("bloc97 2023", "bloc97 2023, 'NTK-Aware Scaled RoPE allows LLaMA models to have extended (8k+) context "
     "size without any fine-tuning and minimal perplexity degradation', r/LocalLLaMA"),
    ("emozilla 2023", "emozilla 2023, 'Dynamically Scaled RoPE further increases performance of long context "
     "LLaMA with zero fine-tuning', r/LocalLLaMA"),
    ("Peng et al. 2023", "Peng et al. 2023, 'YaRN: Efficient Context Window Extension of Large Language "
     "Models', ICLR 2024, arXiv:2309.00071"),
    ("Meta, Llama 3.1", "Meta, Llama 3.1 reference code, `apply_scaling`: `https://github.com/meta-llama/llama-models`"),
    ("Ding et al. 2024", "Ding et al. 2024, 'LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens', "
     "ICML, arXiv:2402.13753"),
    ("Hugging Face transformers", "Hugging Face transformers, `modeling_rope_utils`: "
     "`https://github.com/huggingface/transformers`"),
    ("Sun et al. 2022", "Sun et al. 2022, 'A Length-Extrapolatable Transformer' (xPos), ACL 2023, "
     "arXiv:2212.10554"),
    ("Touvron et al. 2023", "Touvron et al. 2023, 'LLaMA: Open and Efficient Foundation Language Models', "
     "arXiv:2302.13971"),
    ("Devlin et al. 2019", "Devlin et al. 2019, 'BERT: Pre-training of Deep Bidirectional Transformers for "
     "Language Understanding', NAACL, arXiv:1810.04805"),
    (CONCRETE, "Graham, Knuth and Patashnik 1994, 'Concrete Mathematics: A Foundation for Computer Science', 2nd "
     "ed., Addison-Wesley: `https://www-cs-faculty.stanford.edu/~knuth/gkp.html`"),
    (DLMF, "NIST Digital Library of Mathematical Functions, §1.9 (complex numbers, the triangle inequality): "
     "`https://dlmf.nist.gov/1.9`"),
)  # fmt: skip


def work(source: str) -> str:
    r"""The bibliography entry of the work a claim's source (one of its ``; ``-separated parts) cites: the
    entry of :data:`WORKS` whose key starts it, else the source itself.

    >>> work(article("Relative Positions")) == work(ARTICLE)
    True
    >>> work(ROFORMER + ", eq. 15").endswith("arXiv:2104.09864")
    True
    """
    source = source.strip()
    for key, entry in WORKS:
        if source.startswith(key):
            return entry
    return source
