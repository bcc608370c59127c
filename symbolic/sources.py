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
