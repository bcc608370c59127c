r"""The sources claims cite, by title: the user's two texts and the papers and code they build on, and each cited
work's bibliographic record (:class:`Work`, :data:`RECORDS`; :mod:`posproof.printing.bib` prints them)."""

from dataclasses import dataclass

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
ROFORMER = "Su et al. 2021, 'RoFormer' (arXiv:2104.09864)"
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
    "(arXiv:2306.15595)"
)
NTK_AWARE = "bloc97 2023, 'NTK-Aware Scaled RoPE' (r/LocalLLaMA)"
DYNAMIC_NTK = "emozilla 2023, 'Dynamically Scaled RoPE' (r/LocalLLaMA)"
YARN = "Peng et al. 2023, 'YaRN: Efficient Context Window Extension of Large Language Models' (arXiv:2309.00071)"
LLAMA3 = "Meta, Llama 3.1 reference code, apply_scaling"
LONGROPE = "Ding et al. 2024, 'LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens'"
HF_ROPE = "Hugging Face transformers, modeling_rope_utils"

# ---- properties and the article, annotated ---------------------------------------------------------------------
XPOS = "Sun et al. 2022, 'A Length-Extrapolatable Transformer' (xPos, arXiv:2212.10554)"
STREAMING_LLM = "Xiao et al. 2023, 'Efficient Streaming Language Models with Attention Sinks' (arXiv:2309.17453)"
P_ROPE = (
    "Barbero et al. 2024, 'Round and Round We Go! What makes Rotary Positional Encodings useful?' (arXiv:2410.06205)"
)
LLAMA = "Touvron et al. 2023, 'LLaMA: Open and Efficient Foundation Language Models' (7B: width 4096, 32 heads)"
BERT = "Devlin et al. 2019, 'BERT' (learned position embeddings, initializer_range 0.02)"

# ---- the lemmas --------------------------------------------------------------------------------------------------
CONCRETE = "Graham, Knuth and Patashnik 1994, 'Concrete Mathematics'"
DLMF = "NIST Digital Library of Mathematical Functions"


# ---- the bibliography: one record per work ----------------------------------------------------------------------


@dataclass(frozen=True)
class Work:
    r"""A cited work: its citation ``key``, the ways a claim's source starts when it cites it (``cites``),
    ``authors`` (a person ``"Last, First"``; a name without a comma is an organisation; ``"others"`` last: et al.),
    ``title``, ``year``, BibTeX ``kind`` (``article``, ``misc``, ``book``), ``venue`` (journal, proceedings,
    publisher), ``arxiv`` (the bare id, ``2104.09864``), ``url`` (https), and a ``note``."""

    key: str
    cites: tuple[str, ...]
    authors: tuple[str, ...]
    title: str
    year: int | None
    kind: str = "article"
    venue: str = ""
    arxiv: str = ""
    url: str = ""
    note: str = ""

    @property
    def unpublished(self) -> bool:
        r"""One of the user's own texts: no author, year or address is known."""
        return self.venue == UNPUBLISHED

    @property
    def link(self) -> str:
        r"""Where to read it: the arXiv abstract page, else its URL (``""`` for an unpublished note)."""
        return f"https://arxiv.org/abs/{self.arxiv}" if self.arxiv else self.url

    @property
    def names(self) -> str:
        r"""The authors as a reader cites them: ``Vaswani et al.``, ``Press, Smith and Lewis``."""
        last = [a.split(",")[0] for a in self.authors if a != "others"]
        if not last:
            return ""
        if "others" in self.authors or len(last) > 3:
            return f"{last[0]} et al."
        return last[0] if len(last) == 1 else ", ".join(last[:-1]) + f" and {last[-1]}"

    @property
    def entry(self) -> str:
        r"""The work in one line of prose (code in backticks): what :func:`work` returns."""
        if self.unpublished:
            return f"'{self.title}', {UNPUBLISHED} ({self.note})"
        parts = [f"{self.names} {self.year}, '{self.title}'", self.venue, self.note]
        parts += [f"arXiv:{self.arxiv}"] if self.arxiv else []
        parts += [f"`{self.url}`"] if self.url else []
        return ", ".join(p for p in parts if p)


#: What the user's two texts are: neither names an author, a date or an address.
UNPUBLISHED = "unpublished note"

HF = "https://github.com/huggingface/transformers"
HF_AUTHORS = ("Wolf, Thomas", "Debut, Lysandre", "Sanh, Victor", "others")

#: Every cited work once, in the order the catalogue first cites them.
RECORDS: tuple[Work, ...] = (
    Work("article101", (ARTICLE,), (), "Positional Encoding 101", None, "misc", UNPUBLISHED,
         note="the article whose statements the catalogue checks"),
    Work("ropenote", (NOTE,), (), "Positional encoding: give tokens a sense of order", None, "misc", UNPUBLISHED,
         note="the RoPE note, with its NumPy `rope` function"),
    Work("vaswani2017attention", ("Vaswani et al. 2017",),
         ("Vaswani, Ashish", "Shazeer, Noam", "Parmar, Niki", "Uszkoreit, Jakob", "Jones, Llion", "Gomez, Aidan N.",
          "Kaiser, Łukasz", "Polosukhin, Illia"),
         "Attention Is All You Need", 2017, venue="Advances in Neural Information Processing Systems 30 (NeurIPS)",
         arxiv="1706.03762"),
    Work("wang2021position", ("Wang et al. 2021",),
         ("Wang, Benyou", "Shang, Lifeng", "Lioma, Christina", "Jiang, Xin", "Yang, Hao", "Liu, Qun",
          "Simonsen, Jakob Grue"),
         "On Position Embeddings in BERT", 2021, venue="International Conference on Learning Representations (ICLR)",
         url="https://openreview.net/forum?id=onxoVA9FxMw"),
    Work("ke2021tupe", ("Ke et al. 2021",), ("Ke, Guolin", "He, Di", "Liu, Tie-Yan"),
         "Rethinking Positional Encoding in Language Pre-training", 2021,
         venue="International Conference on Learning Representations (ICLR)", arxiv="2006.15595", note="TUPE"),
    Work("dai2019transformerxl", ("Dai et al. 2019",),
         ("Dai, Zihang", "Yang, Zhilin", "Yang, Yiming", "Carbonell, Jaime", "Le, Quoc V.", "Salakhutdinov, Ruslan"),
         "Transformer-XL: Attentive Language Models Beyond a Fixed-Length Context", 2019,
         venue="Annual Meeting of the Association for Computational Linguistics (ACL)", arxiv="1901.02860",
         note="reference code `https://github.com/kimiyoung/transformer-xl`"),
    Work("he2021deberta", ("He et al. 2021",), ("He, Pengcheng", "Liu, Xiaodong", "Gao, Jianfeng", "Chen, Weizhu"),
         "DeBERTa: Decoding-enhanced BERT with Disentangled Attention", 2021,
         venue="International Conference on Learning Representations (ICLR)", arxiv="2006.03654"),
    Work("debertacode", ("microsoft/DeBERTa",), ("Microsoft",), "DeBERTa: the reference code", 2020, "misc",
         note="and Hugging Face transformers' DeBERTa-v2: `disentangled_attention_bias`, `make_log_bucket_position`",
         url="https://github.com/microsoft/DeBERTa"),
    Work("raffel2020t5", ("Raffel et al. 2020",),
         ("Raffel, Colin", "Shazeer, Noam", "Roberts, Adam", "Lee, Katherine", "Narang, Sharan", "Matena, Michael",
          "Zhou, Yanqi", "Li, Wei", "Liu, Peter J."),
         "Exploring the Limits of Transfer Learning with a Unified Text-to-Text Transformer", 2020,
         venue="Journal of Machine Learning Research 21(140)", arxiv="1910.10683", note="T5"),
    Work("shazeer2018mesh", ("Mesh TensorFlow",), ("Shazeer, Noam", "Cheng, Youlong", "Parmar, Niki", "others"),
         "Mesh-TensorFlow: Deep Learning for Supercomputers", 2018,
         venue="Advances in Neural Information Processing Systems 31 (NeurIPS)", arxiv="1811.02084",
         note="code: `_relative_position_bucket`, `https://github.com/tensorflow/mesh`"),
    Work("press2022alibi", ("Press et al. 2022",), ("Press, Ofir", "Smith, Noah A.", "Lewis, Mike"),
         "Train Short, Test Long: Attention with Linear Biases Enables Input Length Extrapolation", 2022,
         venue="International Conference on Learning Representations (ICLR)", arxiv="2108.12409", note="ALiBi"),
    Work("bigscience2022bloom", ("BigScience BLOOM",), ("BigScience Workshop",),
         "BLOOM: A 176B-Parameter Open-Access Multilingual Language Model", 2022, arxiv="2211.05100",
         note="code: Hugging Face transformers' `build_alibi_tensor`"),
    Work("su2021roformer", ("Su et al. 2021",),
         ("Su, Jianlin", "Lu, Yu", "Pan, Shengfeng", "Murtadha, Ahmed", "Wen, Bo", "Liu, Yunfeng"),
         "RoFormer: Enhanced Transformer with Rotary Position Embedding", 2021, arxiv="2104.09864"),
    Work("andonian2021gptneox", ("GPT-NeoX", "checkpoint converters"),
         ("Andonian, Alex", "Anthony, Quentin", "Biderman, Stella", "Black, Sid", "others"),
         "GPT-NeoX: Large Scale Autoregressive Language Modeling in PyTorch", 2021, "misc",
         note="RoPE layouts in code: GPT-NeoX and Hugging Face `rotate_half` (half), RoFormer and Meta's LLaMA "
         "(interleaved), and the checkpoint converters between them",
         url="https://github.com/EleutherAI/gpt-neox"),
    Work("chen2023interpolation", ("Chen et al. 2023",),
         ("Chen, Shouyuan", "Wong, Sherman", "Chen, Liangjian", "Tian, Yuandong"),
         "Extending Context Window of Large Language Models via Positional Interpolation", 2023, arxiv="2306.15595"),
    Work("bloc97ntk", ("bloc97 2023",), ("bloc97",),
         "NTK-Aware Scaled RoPE allows LLaMA models to have extended (8k+) context size without any fine-tuning and "
         "minimal perplexity degradation", 2023, "misc", "r/LocalLLaMA",
         url="https://www.reddit.com/r/LocalLLaMA/comments/14lz7j5/"),
    Work("emozilla2023dynamic", ("emozilla 2023",), ("emozilla",),
         "Dynamically Scaled RoPE further increases performance of long context LLaMA with zero fine-tuning", 2023,
         "misc", "r/LocalLLaMA",
         url="https://www.reddit.com/r/LocalLLaMA/comments/14mrgpr/"),
    Work("peng2023yarn", ("Peng et al. 2023",),
         ("Peng, Bowen", "Quesnelle, Jeffrey", "Fan, Honglu", "Shippole, Enrico"),
         "YaRN: Efficient Context Window Extension of Large Language Models", 2024,
         venue="International Conference on Learning Representations (ICLR)", arxiv="2309.00071"),
    Work("llama3code", ("Meta, Llama 3.1",), ("Grattafiori, Aaron", "Dubey, Abhimanyu", "others"),
         "The Llama 3 Herd of Models", 2024, arxiv="2407.21783",
         note="reference code: `apply_scaling`, `https://github.com/meta-llama/llama-models`"),
    Work("ding2024longrope", ("Ding et al. 2024",),
         ("Ding, Yiran", "Zhang, Li Lyna", "Zhang, Chengruidong", "Xu, Yuanyuan", "Shang, Ning", "Xu, Jiahang",
          "Yang, Fan", "Yang, Mao"),
         "LongRoPE: Extending LLM Context Window Beyond 2 Million Tokens", 2024,
         venue="International Conference on Machine Learning (ICML)", arxiv="2402.13753"),
    Work("wolf2020transformers", ("Hugging Face transformers",), HF_AUTHORS,
         "Transformers: State-of-the-Art Natural Language Processing", 2020,
         venue="Conference on Empirical Methods in Natural Language Processing: System Demonstrations (EMNLP)",
         note="code: `modeling_rope_utils` and the vision towers' rotary embeddings", url=HF),
    Work("sun2023xpos", ("Sun et al. 2022",),
         ("Sun, Yutao", "Dong, Li", "Patra, Barun", "Ma, Shuming", "Huang, Shaohan", "Benhaim, Alon",
          "Chaudhary, Vishrav", "Song, Xia", "Wei, Furu"),
         "A Length-Extrapolatable Transformer", 2023,
         venue="Annual Meeting of the Association for Computational Linguistics (ACL)", arxiv="2212.10554",
         note="xPos"),
    Work("touvron2023llama", ("Touvron et al. 2023",), ("Touvron, Hugo", "Lavril, Thibaut", "Izacard, Gautier",
         "others"), "LLaMA: Open and Efficient Foundation Language Models", 2023, arxiv="2302.13971"),
    Work("devlin2019bert", ("Devlin et al. 2019",),
         ("Devlin, Jacob", "Chang, Ming-Wei", "Lee, Kenton", "Toutanova, Kristina"),
         "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding", 2019,
         venue="Conference of the North American Chapter of the Association for Computational Linguistics (NAACL)",
         arxiv="1810.04805"),
    Work("heo2024ropevit", ("Heo et al. 2024",), ("Heo, Byeongho", "Park, Song", "Han, Dongyoon", "Yun, Sangdoo"),
         "Rotary Position Embedding for Vision Transformer", 2024, venue="European Conference on Computer Vision "
         "(ECCV)", arxiv="2403.13298", note="RoPE-Mixed"),
    Work("yu2025comrope", ("Yu et al. 2025",), ("Yu, Hao", "others"),
         "ComRoPE: Scalable and Robust Rotary Position Embedding Parameterized by Trainable Commuting Angle "
         "Matrices", 2025, arxiv="2506.03737"),
    Work("liu2025rethinking", ("Liu et al. 2025",), ("Liu, Haiping", "Zhou, Hongpeng"),
         "Rethinking RoPE: A Mathematical Blueprint for N-dimensional Positional Encoding", 2025, arxiv="2504.06308"),
    Work("ostmeier2024liere", ("Ostmeier et al. 2024",), ("Ostmeier, Sophie", "others"),
         "LieRE: Generalizing Rotary Position Encodings", 2024, arxiv="2406.10322"),
    Work("flux2024", ("black-forest-labs/flux",), ("Black Forest Labs",), "FLUX", 2024, "misc",
         note="code: `EmbedND`", url="https://github.com/black-forest-labs/flux"),
    Work("diffusers2022", ("Hugging Face diffusers",),
         ("von Platen, Patrick", "Patil, Suraj", "Lozhkov, Anton", "Cuenca, Pedro", "others"),
         "Diffusers: State-of-the-art diffusion models", 2022, "misc",
         note="code: `get_1d_rotary_pos_embed` and the video models' rotary embeddings",
         url="https://github.com/huggingface/diffusers"),
    Work("wightman2019timm", ("timm",), ("Wightman, Ross",), "PyTorch Image Models", 2019, "misc",
         note="code: EVA-02 `RotaryEmbeddingCat`", url="https://github.com/huggingface/pytorch-image-models"),
    Work("ravi2024sam2", ("facebookresearch/sam2",), ("Ravi, Nikhila", "others"),
         "SAM 2: Segment Anything in Images and Videos", 2024, arxiv="2408.00714",
         note="code: `compute_axial_cis`, `https://github.com/facebookresearch/sam2`"),
    Work("dinov3code", ("facebookresearch/dinov3",), ("Meta AI Research",), "DINOv3: the reference code", 2025,
         "misc", note="`RopePositionEmbedding`", url="https://github.com/facebookresearch/dinov3"),
    Work("graham1994concrete", (CONCRETE,), ("Graham, Ronald L.", "Knuth, Donald E.", "Patashnik, Oren"),
         "Concrete Mathematics: A Foundation for Computer Science", 1994, "book", "Addison-Wesley", note="2nd ed.",
         url="https://www-cs-faculty.stanford.edu/~knuth/gkp.html"),
    Work("dlmf", (DLMF,), ("Olver, Frank W. J.", "others"), "NIST Digital Library of Mathematical Functions", 2010,
         "misc", "National Institute of Standards and Technology", note="§1.9: complex numbers, the triangle "
         "inequality", url="https://dlmf.nist.gov/1.9"),
    Work("xiao2023streaming", ("Xiao et al. 2023",), ("Xiao, Guangxuan", "Tian, Yuandong", "Chen, Beidi", "Han, Song",
         "Lewis, Mike"), "Efficient Streaming Language Models with Attention Sinks", 2023,
         venue="International Conference on Learning Representations (ICLR 2024)", arxiv="2309.17453"),
    Work("jin2024selfextend", ("Jin et al. 2024",),
         ("Jin, Hongye", "Han, Xiaotian", "Yang, Jingfeng", "Jiang, Zhimeng", "Liu, Zirui", "Chang, Chia-Yuan",
          "Chen, Huiyuan", "Hu, Xia"),
         "LLM Maybe LongLM: Self-Extend LLM Context Window Without Tuning", 2024,
         venue="International Conference on Machine Learning (ICML)", arxiv="2401.01325",
         note="code: `self_extend_patch`, `https://github.com/datamllab/LongLM`"),
    Work("su2023rerope", ("Su 2023",), ("Su, Jianlin",),
         "The Road to Transformer Upgrades, 12: ReRoPE for Infinite Extrapolation?", 2023, "misc",
         note="blog post in Chinese, title translated; code: `https://github.com/bojone/rerope`",
         url="https://kexue.fm/archives/9708"),
    Work("li2023fire", ("Li et al. 2023",),
         ("Li, Shanda", "You, Chong", "Guruganesh, Guru", "Ainslie, Joshua", "Ontanon, Santiago", "others"),
         "Functional Interpolation for Relative Positions Improves Long Context Transformers", 2023,
         venue="International Conference on Learning Representations (ICLR 2024)", arxiv="2310.04418"),
    Work("chi2023sandwich", ("Chi et al. 2023",), ("Chi, Ta-Chung", "Fan, Ting-Han", "Rudnicky, Alexander I.",
         "Ramadge, Peter J."), "Dissecting Transformer Length Extrapolation via the Lens of Receptive Field Analysis",
         2023, venue="Annual Meeting of the Association for Computational Linguistics (ACL)", arxiv="2212.10356"),
    Work("chi2022kerple", ("Chi et al. 2022",), ("Chi, Ta-Chung", "Fan, Ting-Han", "Ramadge, Peter J.",
         "Rudnicky, Alexander I."), "KERPLE: Kernelized Relative Positional Embedding for Length Extrapolation",
         2022, venue="Advances in Neural Information Processing Systems 35 (NeurIPS)", arxiv="2205.09921"),
    Work("barbero2024round", ("Barbero et al. 2024",), ("Barbero, Federico", "Vitvitskyi, Alex", "Perivolaropoulos, "
         "Christos", "Pascanu, Razvan", "Veličković, Petar"), "Round and Round We Go! What makes Rotary "
         "Positional Encodings useful?", 2024, venue="International Conference on Learning Representations (ICLR "
         "2025)", arxiv="2410.06205", note="p-RoPE"),
    Work("meta2025llama4", ("Meta 2025, Llama 4",), ("Meta AI",),
         "The Llama 4 herd: The beginning of a new era of natively multimodal AI innovation", 2025, "misc",
         note="iRoPE: interleaved layers without positional embeddings, inference-time temperature scaling; code: "
         "Hugging Face transformers' `Llama4TextAttention`",
         url="https://ai.meta.com/blog/llama-4-multimodal-intelligence/"),
    Work("nakanishi2025ssmax", ("Nakanishi 2025",), ("Nakanishi, Ken M.",),
         "Scalable-Softmax Is Superior for Attention", 2025, arxiv="2501.19399"),
    Work("chiang2022overcoming", ("Chiang and Cholak 2022",), ("Chiang, David", "Cholak, Peter"),
         "Overcoming a Theoretical Limitation of Self-Attention", 2022,
         venue="Annual Meeting of the Association for Computational Linguistics (ACL)", arxiv="2202.12172"),
    Work("bai2023qwen", ("Bai et al. 2023, Qwen",), ("Bai, Jinze", "Bai, Shuai", "Chu, Yunfei", "others"),
         "Qwen Technical Report", 2023, arxiv="2309.16609",
         note="code: `QWenAttention` (`use_logn_attn`, `logn_list`), `https://huggingface.co/Qwen/Qwen-7B`"),
    Work("an2024dca", ("An et al. 2024",), ("An, Chenxin", "Huang, Fei", "Zhang, Jun", "Gong, Shansan", "Qiu, Xipeng",
         "Zhou, Chang", "Kong, Lingpeng"), "Training-Free Long-Context Scaling of Large Language Models", 2024,
         venue="International Conference on Machine Learning (ICML)", arxiv="2402.17463", note="dual chunk attention"),
    Work("chunkllama", ("HKUNLP/ChunkLlama",), ("HKUNLP",), "ChunkLlama: the reference code of dual chunk attention",
         2024, "misc", url="https://github.com/HKUNLP/ChunkLlama"),
    Work("kwon2023vllm", ("vLLM",), ("Kwon, Woosuk", "Li, Zhuohan", "Zhuang, Siyuan", "Sheng, Ying", "others"),
         "Efficient Memory Management for Large Language Model Serving with PagedAttention", 2023,
         venue="ACM Symposium on Operating Systems Principles (SOSP)", arxiv="2309.06180",
         note="vLLM (its dual chunk rotary embedding serves Qwen2.5-1M)"),
    Work("golovneva2024cope", ("Golovneva et al. 2024",), ("Golovneva, Olga", "Wang, Tianlu", "Weston, Jason",
         "Sukhbaatar, Sainbayar"), "Contextual Position Encoding: Learning to Count What's Important", 2024,
         arxiv="2405.18719", note="CoPE"),
    Work("ramcode", ("facebookresearch/RAM",), ("Meta FAIR",), "RAM: Reasoning, Alignment and Memory (projects/cope)",
         2024, "misc", note="the code of CoPE", url="https://github.com/facebookresearch/RAM"),
    Work("kazemnejad2023nope", ("Kazemnejad et al. 2023",), ("Kazemnejad, Amirhossein", "Padhi, Inkit",
         "Natesan Ramamurthy, Karthikeyan", "Das, Payel", "Reddy, Siva"),
         "The Impact of Positional Encoding on Length Generalization in Transformers", 2023,
         venue="Advances in Neural Information Processing Systems 36 (NeurIPS)", arxiv="2305.19466", note="NoPE"),
)  # fmt: skip

#: Every cited work once: ``(how a claim's source starts, the bibliography entry)``. A claim cites a work with a
#: locator (a section, an equation); the bibliography lists the work, with its arXiv id or URL, once.
WORKS: tuple[tuple[str, str], ...] = tuple((cite, w.entry) for w in RECORDS for cite in w.cites)


def record(source: str) -> Work | None:
    r"""The record of the work a claim's source (one of its ``; ``-separated parts) cites, or ``None``.

    >>> record(ROFORMER + ", eq. 15").arxiv
    '2104.09864'
    """
    source = source.strip()
    return next((w for w in RECORDS if any(source.startswith(c) for c in w.cites)), None)


def work(source: str) -> str:
    r"""The bibliography entry of the work a claim's source (one of its ``; ``-separated parts) cites: the
    :attr:`Work.entry` of its :func:`record`, else the source itself.

    >>> work(article("Relative Positions")) == work(ARTICLE)
    True
    >>> work(ROFORMER + ", eq. 15").endswith("arXiv:2104.09864")
    True
    """
    w = record(source)
    return source.strip() if w is None else w.entry
