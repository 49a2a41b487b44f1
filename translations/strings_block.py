# Translations of the Block tab (widgets/block_diagram.cpp, blockview.cpp, chartsview_block.cpp), as in
# strings.py: source → (German, Simplified Chinese). Labels that are formulas read the same in every language.
SAME = [
    "q, k, v · RoPE", "s_{qk} ⊙ norm(q, k)", "s_{qk} ⊙ q, k", "W_{O}", "norm → h_{A}", "FC1 → u, g",
    "s_{u} ⊙ u, s_{v} ⊙ g", "u ⊙ SiLU(g)", "SwiGLU", "FC2", "norm → h_{M}", "%1 ⊙", "(1 − %1) ⊙",
    "logits = s_{z} ⊙ h W_{out}ᵀ", "FC1", "× α_{t}", "× α = %1", "logits = x Eᵀ", "logits = x W_{out}ᵀ",
]

BLOCK = {s: (s, s) for s in SAME}
BLOCK.update({
    # the tab
    "Block": ("Block", "模块"),
    "the form's block": ("Block des Formulars", "表单的模块"),
    "Draw the block the experiment form describes first, as you edit it: a click on one of its parts switches that part off in the form, a click on a dashed one switches it on.":
        ("Zuerst den Block zeichnen, den das Experiment-Formular beschreibt, während Sie es bearbeiten: ein Klick auf einen seiner Teile schaltet ihn im Formular aus, ein Klick auf einen gestrichelten schaltet ihn ein.",
         "先绘制实验表单所描述的模块，并随编辑更新：单击其中某个部件会在表单中关闭它，单击虚线部件则打开它。"),
    "The form: %1": ("Formular: %1", "表单：%1"),
    # the Export dialog's status, where the blocks were drawn under the font asked for to save a row
    "Wrote %1: the blocks' text at %2 pt, to fit the width": ("%1 geschrieben: die Schrift der Blöcke in %2 pt, damit sie in die Breite passen",
                                                             "已写入 %1：为适应宽度，模块文字为 %2 pt"),
    "%1 · d %2 · %3 heads": ("%1 · d %2 · %3 Köpfe", "%1 · d %2 · %3 个头"),
    "%1 (+ %n alike)": (["%1 (+ %n gleicher)", "%1 (+ %n gleiche)"], "%1（+ %n 个相同）"),
    "Select runs in the table, or tick “the form's block”, to see their blocks.":
        ("Läufe in der Tabelle auswählen oder „Block des Formulars“ ankreuzen, um ihre Blöcke zu sehen.",
         "在表格中选择运行，或勾选“表单的模块”，以查看它们的模块。"),
    "Yellow: normalizations; blue: sub-layers; green: scales; outlined: where a block differs from the first.":
        ("Gelb: Normalisierungen; blau: Teilschichten; grün: Skalierungen; umrandet: worin ein Block vom ersten abweicht.",
         "黄色：归一化；蓝色：子层；绿色：缩放；描边：与第一个模块不同之处。"),
    "%n more block(s) not shown: select fewer runs.":
        (["%n weiterer Block nicht gezeigt: weniger Läufe auswählen.", "%n weitere Blöcke nicht gezeigt: weniger Läufe auswählen."],
         "另有 %n 个模块未显示：请选择较少的运行。"),
    "%n run(s) with a configuration this version cannot read.":
        (["%n Lauf mit einer Konfiguration, die diese Version nicht lesen kann.", "%n Läufe mit einer Konfiguration, die diese Version nicht lesen kann."],
         "%n 个运行的配置无法被此版本读取。"),
    "%1 switched on in the form": ("%1 im Formular eingeschaltet", "已在表单中打开 %1"),
    "%1 switched off in the form": ("%1 im Formular ausgeschaltet", "已在表单中关闭 %1"),
    # the parts
    "× %n layer(s)": (["× %n Schicht", "× %n Schichten"], "× %n 层"),
    " (off)": (" (aus)", "（关闭）"),
    "%1 (click to switch it off in the form)": ("%1 (Klick schaltet es im Formular aus)", "%1（单击可在表单中关闭）"),
    "Off: %1 (click to switch it on in the form)": ("Aus: %1 (Klick schaltet es im Formular ein)", "关闭：%1（单击可在表单中打开）"),
    "embedding, ‖·‖ = 1": ("Einbettung, ‖·‖ = 1", "嵌入，‖·‖ = 1"),
    "A row per byte; every vector along d has norm 1 (the embeddings, the weights' rows or columns, renormalized after every optimizer step, and the hidden state h); no positions added (RoPE in the attention)":
        ("Eine Zeile je Byte; jeder Vektor entlang d hat die Norm 1 (die Einbettungen, die Zeilen oder Spalten der Gewichte, nach jedem Optimiererschritt renormiert, und der verborgene Zustand h); keine Positionen addiert (RoPE in der Attention)",
         "每个字节一行；沿 d 的每个向量范数为 1（嵌入、权重的行或列——每次优化器更新后重新归一化——以及隐藏状态 h）；不加位置（注意力中使用 RoPE）"),
    "q, k, v = h W_{q}ᵀ, h W_{k}ᵀ, h W_{v}ᵀ, split into heads; RoPE rotates q and k":
        ("q, k, v = h W_{q}ᵀ, h W_{k}ᵀ, h W_{v}ᵀ, in Köpfe geteilt; RoPE dreht q und k",
         "q, k, v = h W_{q}ᵀ, h W_{k}ᵀ, h W_{v}ᵀ，拆分为多个头；RoPE 旋转 q 和 k"),
    "q and k each normalized per head and scaled by the learned s_{qk} (qk_norm off: scaled only)":
        ("q und k je Kopf normiert und mit dem gelernten s_{qk} skaliert (qk_norm aus: nur skaliert)",
         "q 和 k 按头归一化，并乘以学习到的 s_{qk}（qk_norm 关闭：仅缩放）"),
    "attention": ("Attention", "注意力"),
    "attention · RoPE": ("Attention · RoPE", "注意力 · RoPE"),
    "softmax(q kᵀ · √d_{h} + causal mask) v per head: q and k are unit vectors, so the product is a cosine":
        ("softmax(q kᵀ · √d_{h} + kausale Maske) v je Kopf: q und k sind Einheitsvektoren, ihr Produkt ist ein Kosinus",
         "每个头 softmax(q kᵀ · √d_{h} + 因果掩码) v：q 和 k 是单位向量，其乘积是余弦"),
    "softmax(q kᵀ / √d_{h} + causal mask) v per head, q, k, v = x W_{qkv}ᵀ":
        ("softmax(q kᵀ / √d_{h} + kausale Maske) v je Kopf, q, k, v = x W_{qkv}ᵀ",
         "每个头 softmax(q kᵀ / √d_{h} + 因果掩码) v，q, k, v = x W_{qkv}ᵀ"),
    "The output projection, its columns on the sphere": ("Die Ausgabeprojektion, ihre Spalten auf der Sphäre", "输出投影，其列位于球面上"),
    "The output projection: Concat(heads) W_{O}ᵀ": ("Die Ausgabeprojektion: Concat(Köpfe) W_{O}ᵀ", "输出投影：Concat(各头) W_{O}ᵀ"),
    "h_{A} = norm(attention output): the sub-layer's suggestion, on the sphere":
        ("h_{A} = norm(Ausgabe der Attention): der Vorschlag der Teilschicht, auf der Sphäre",
         "h_{A} = norm(注意力输出)：子层给出的建议，位于球面上"),
    "u, g = FC1 h: d → 2 × d_{ff}": ("u, g = FC1 h: d → 2 × d_{ff}", "u, g = FC1 h：d → 2 × d_{ff}"),
    "The learned scalers s_{u} and s_{v} (fixed at 1 with scalers off); g also × √d":
        ("Die gelernten Skalierer s_{u} und s_{v} (bei ausgeschalteten Skalierern fest 1); g zudem × √d", "学习到的缩放因子 s_{u} 和 s_{v}（scalers 关闭时固定为 1）；g 另乘 √d"),
    "FC2: d_{ff} → d, its columns on the sphere": ("FC2: d_{ff} → d, seine Spalten auf der Sphäre", "FC2：d_{ff} → d，其列位于球面上"),
    "h_{M} = norm(MLP output)": ("h_{M} = norm(Ausgabe des MLP)", "h_{M} = norm(MLP 输出)"),
    "Eigen learning rate: how far h moves towards the sub-layer's suggestion, learned per dimension (init 0.05)":
        ("Eigen-Lernrate: wie weit h sich auf den Vorschlag der Teilschicht zubewegt, je Dimension gelernt (Start 0,05)",
         "本征学习率：h 向子层建议移动的幅度，按维度学习（初值 0.05）"),
    "Eigen learning rate, fixed at its initial value (eigen_lr off)":
        ("Eigen-Lernrate, fest auf ihrem Startwert (eigen_lr aus)", "本征学习率，固定为初值（eigen_lr 关闭）"),
    "h + α ⊙ (h_{F} − h): h keeps 1 − α of itself": ("h + α ⊙ (h_{F} − h): h behält 1 − α von sich", "h + α ⊙ (h_{F} − h)：h 保留自身的 1 − α"),
    "h back onto the unit sphere after each update (nGPT eq. 10, 11)":
        ("h nach jeder Aktualisierung zurück auf die Einheitssphäre (nGPT Gl. 10, 11)", "每次更新后将 h 放回单位球面（nGPT 式 10、11）"),
    "The output embedding (untied, rows on the sphere), the logits scaled by the learned s_{z}":
        ("Die Ausgabe-Einbettung (nicht gekoppelt, Zeilen auf der Sphäre), die Logits mit dem gelernten s_{z} skaliert",
         "输出嵌入（不共享，行位于球面上），logits 乘以学习到的 s_{z}"),
    "embedding × √d + positions": ("Einbettung × √d + Positionen", "嵌入 × √d + 位置"),
    "embedding + positions": ("Einbettung + Positionen", "嵌入 + 位置"),
    "embedding × √d + sin. positions": ("Einbettung × √d + sin. Positionen", "嵌入 × √d + 正弦位置"),
    "embedding + sin. positions": ("Einbettung + sin. Positionen", "嵌入 + 正弦位置"),
    "embedding × √d": ("Einbettung × √d", "嵌入 × √d"),
    "embedding": ("Einbettung", "嵌入"),
    "x₀ = E[byte] (× √d with embed_scale), plus absolute positions where the model has them: learned, or sinusoidal (sin.); RoPE is in the attention":
        ("x₀ = E[Byte] (× √d mit embed_scale), plus absolute Positionen, wo das Modell sie hat: gelernt oder sinusförmig (sin.); RoPE steckt in der Attention",
         "x₀ = E[字节]（embed_scale 时 × √d），模型有绝对位置时再加上位置：学习的或正弦的；RoPE 在注意力中"),
    "Pre-LN: the sub-layer's input normalized, x ← x + F(LN(x)); the stream itself never is":
        ("Pre-LN: die Eingabe der Teilschicht wird normiert, x ← x + F(LN(x)); der Strom selbst nie",
         "Pre-LN：对子层的输入归一化，x ← x + F(LN(x))；残差流本身从不归一化"),
    "Post-LN: the stream normalized after each sum, x ← LN(x + F(x))":
        ("Post-LN: der Strom wird nach jeder Summe normiert, x ← LN(x + F(x))", "Post-LN：每次相加后对残差流归一化，x ← LN(x + F(x))"),
    "HeadScale γ": ("HeadScale γ", "HeadScale γ"),
    "NormFormer's HeadScale: each head's output times its learned γ_{i}, init 1":
        ("HeadScale von NormFormer: die Ausgabe jedes Kopfes mal sein gelerntes γ_{i}, Start 1",
         "NormFormer 的 HeadScale：每个头的输出乘以其学习到的 γ_{i}，初值 1"),
    "NormFormer's post-attention LN, over d, on the attention's output":
        ("Post-Attention-LN von NormFormer, über d, auf der Ausgabe der Attention", "NormFormer 的注意力后 LN，在 d 上作用于注意力输出"),
    "FC1: d → d_{ff} (SwiGLU: → 2 × d_{ff}, u and g)": ("FC1: d → d_{ff} (SwiGLU: → 2 × d_{ff}, u und g)", "FC1：d → d_{ff}（SwiGLU：→ 2 × d_{ff}，u 和 g）"),
    "The activation (model.activation)": ("Die Aktivierung (model.activation)", "激活函数（model.activation）"),
    "NormFormer's FFN LN, over d_{ff}, after the activation":
        ("FFN-LN von NormFormer, über d_{ff}, nach der Aktivierung", "NormFormer 的 FFN LN，在 d_{ff} 上，位于激活之后"),
    "FC2: d_{ff} → d": ("FC2: d_{ff} → d", "FC2：d_{ff} → d"),
    "BranchNorm: the sub-layer's output times α_{t}, rising from 0 to 1 over T steps":
        ("BranchNorm: die Ausgabe der Teilschicht mal α_{t}, das in T Schritten von 0 auf 1 steigt",
         "BranchNorm：子层输出乘以 α_{t}，α_{t} 在 T 步内从 0 升到 1"),
    "DeepNorm: the residual times α = (2N)^¼, x ← LN(α·x + F(x))":
        ("DeepNorm: das Residuum mal α = (2N)^¼, x ← LN(α·x + F(x))", "DeepNorm：残差乘以 α = (2N)^¼，x ← LN(α·x + F(x))"),
    "ResScale λ ⊙": ("ResScale λ ⊙", "ResScale λ ⊙"),
    "NormFormer's ResScale: the MLP's residual times a learned λ ∈ ℝᵈ, init 1":
        ("ResScale von NormFormer: das Residuum des MLP mal ein gelerntes λ ∈ ℝᵈ, Start 1",
         "NormFormer 的 ResScale：MLP 的残差乘以学习到的 λ ∈ ℝᵈ，初值 1"),
    "The final norm before the output layer": ("Die letzte Norm vor der Ausgabeschicht", "输出层之前的最终归一化"),
    "The output layer, tied to the token embedding": ("Die Ausgabeschicht, an die Token-Einbettung gekoppelt", "输出层，与词元嵌入共享权重"),
    "The output layer, its own matrix (untied)": ("Die Ausgabeschicht, eine eigene Matrix (nicht gekoppelt)", "输出层，使用自己的矩阵（不共享）"),
})
