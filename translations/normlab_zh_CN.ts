<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>normlab::ChartsView</name>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Gains</source>
        <translation>增益</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Scalars</source>
        <translation>标量</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>wall time (s)</source>
        <translation>墙钟时间（秒）</translation>
    </message>
    <message>
        <source>log y</source>
        <translation>对数 y</translation>
    </message>
    <message>
        <source>Logarithmic loss axis (Ctrl+L)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Debiased exponential moving average over the full data; the raw curve stays faint beneath</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>x:</source>
        <translation>x：</translation>
    </message>
    <message>
        <source>smoothing</source>
        <translation>平滑</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>probe</source>
        <translation>探针</translation>
    </message>
    <message>
        <source>series</source>
        <translation>序列</translation>
    </message>
    <message>
        <source> train</source>
        <translation> 训练</translation>
    </message>
    <message>
        <source> val</source>
        <translation> 验证</translation>
    </message>
    <message>
        <source>loss floor (entropy rate)</source>
        <translation>损失下限（熵率）</translation>
    </message>
    <message>
        <source>loss (nats/byte)</source>
        <translation>损失（奈特/字节）</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>this view has no chart to export</source>
        <translation>此视图没有可导出的图表</translation>
    </message>
    <message>
        <source>gain</source>
        <translation>增益</translation>
    </message>
    <message>
        <source>histogram of layer</source>
        <translation>直方图：层</translation>
    </message>
    <message>
        <source>—</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 per layer at step %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>global</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Histogram of %1, layer %2, step %3</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>mean |∂L/∂W| (L1)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>‖∂L/∂W‖_F (L2)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>expected gradient ‖E[∂L/∂W]‖ at init</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>log color scale</source>
        <translation>对数色标</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>norm</source>
        <translation>范数</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
<message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Hidden-state norm ‖x_l‖</source>
        <translation>隐藏状态范数 ‖x_l‖</translation>
    </message>
    <message>
        <source>Hidden-state ‖x_l‖²/d</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cos(x_{l−1}, x_l)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Largest attention logit</source>
        <translation>最大注意力 logit</translation>
    </message>
    <message>
        <source>Share of active MLP units</source>
        <translation>活跃 MLP 单元比例</translation>
    </message>
    <message>
        <source>nGPT eigen learning rate α_A</source>
        <translation>nGPT 特征学习率 α_A</translation>
    </message>
    <message>
        <source>nGPT eigen learning rate α_M</source>
        <translation>nGPT 特征学习率 α_M</translation>
    </message>
    <message>
        <source>Condition number W_q (median over heads)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Condition number W_k (median over heads)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Condition number W_v (median over heads)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Condition number W_O</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Condition number FC1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Condition number FC2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Global gradient norm (before clipping)</source>
        <translation>全局梯度范数（裁剪前）</translation>
    </message>
    <message>
        <source>Tokens per second</source>
        <translation>每秒词元数</translation>
    </message>
    <message>
        <source>BranchNorm α_t</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>DeepNorm α</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>normlab::Designer</name>
    <message>
        <source>A scheme is a preset of the components below; change any of them afterwards for ablations.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Scheme</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Choose a file to train on</source>
        <translation>选择训练文件</translation>
    </message>
    <message>
        <source>Training data</source>
        <translation>训练数据</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Run experiment</source>
        <translation>运行实验</translation>
    </message>
    <message>
        <source>Train this configuration (Ctrl+R)</source>
        <translation>训练此配置（Ctrl+R）</translation>
    </message>
    <message>
        <source>Disabled: %1</source>
        <translation>已禁用：%1</translation>
    </message>
    <message numerus="yes">
        <source>Queue all %n run(s) of %1</source>
        <translation type="unfinished">
            <numerusform />
        </translation>
    </message>
    <message>
        <source>Open an experiment file first (Ctrl+O)</source>
        <translation>请先打开实验文件（Ctrl+O）</translation>
    </message>
    <message>
        <source>The runs of %1; Run experiment queues them all</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cannot write %1</source>
        <translation type="unfinished" />
    </message>
<message>
        <source>Placement — Xiong et al. 2020</source>
        <translation>位置 — Xiong 等 2020</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <source>post: x ← LN(x + F(x))  (Post-LN, Vaswani et al.)
pre: x ← x + F(LN(x))  (Pre-LN, Xiong et al. 2020)
ngpt: h ← norm(h + α(norm(F(h)) − h))  (nGPT, Loshchilov et al.)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Final norm</source>
        <translation>最终归一化</translation>
    </message>
    <message>
        <source>A norm before the output layer: logits = LN(x_L)·W_outᵀ (Pre-LN; Xiong et al. 2020)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Norm</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>layernorm: γ⊙(x − μ)/σ + β
rmsnorm: γ⊙x/√(mean(x²) + ε)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NormFormer — Shleifer et al.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>HeadScale</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>h_i ← γ_i·h_i, γ ∈ ℝ^H, init 1: Concat(γ₁h₁, …, γ_Hh_H)·W_O (NormFormer §3)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>HeadScale placement</source>
        <translation>HeadScale 位置</translation>
    </message>
    <message>
        <source>before_out_proj: the paper's form
after_out_proj: fairseq's (scales per-head slices of the output)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Post-attention LN</source>
        <translation>注意力后 LN</translation>
    </message>
    <message>
        <source>o ← LN(Attention(LN(x))·W_O) before the residual add (NormFormer §3)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>FFN LN</source>
        <translation>FFN LN</translation>
    </message>
    <message>
        <source>f ← FC2(LN(act(FC1(LN(x))))): a LayerNorm over d_ff after the activation (NormFormer §3)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>ResScale</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>x ← λ⊙x + FFN(LN(x)), λ ∈ ℝ^d, init 1 (NormFormer §3; helps small models)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>DeepNorm — Wang et al.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Residual α</source>
        <translation>残差 α</translation>
    </message>
    <message>
        <source>x ← LN(α·x + F(x)), α = (2N)^¼ for an N-layer decoder (DeepNet)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>α (empty: (2N)^¼)</source>
        <translation>α（留空：(2N)^¼）</translation>
    </message>
    <message>
        <source>Override of DeepNorm's residual weight α</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>β-scaled init</source>
        <translation>β 缩放初始化</translation>
    </message>
    <message>
        <source>Xavier-normal init with gain β = (8N)^-¼ on W_v, W_O, FC1, FC2 and 1 on W_q, W_k (DeepNet)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>β (empty: (8N)^-¼)</source>
        <translation>β（留空：(8N)^-¼）</translation>
    </message>
    <message>
        <source>Override of DeepNorm's init gain β</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>BranchNorm — Liu et al.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Branch factor α_t</source>
        <translation>分支系数 α_t</translation>
    </message>
    <message>
        <source>x ← LN(x + α_t·F(x)), α_t rising from 0 to 1 over T steps (BranchNorm §3)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <source>linear: α_t = min(1, t/T) (the paper's)
exp, sigmoid: lab-defined (docs/DECISIONS.md)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>T (steps)</source>
        <translation>T（步数）</translation>
    </message>
    <message>
        <source>Steps until α_t = 1; the paper uses 4000</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>nGPT — Loshchilov et al.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>QK-norm</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>q ← s_qk⊙norm(q), k ← s_qk⊙norm(k) per head, softmax scale √d_k</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Eigen learning rates</source>
        <translation>特征学习率</translation>
    </message>
    <message>
        <source>Learn α_A, α_M in h ← norm(h + α(norm(F(h)) − h)); init 0.05, scale 1/√d</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>s_qk, s_u, s_v, s_z</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Learned scalers of queries/keys, the gated MLP and the logits (init/scale re-parameterised)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Weight renormalisation</source>
        <translation>权重重新归一化</translation>
    </message>
    <message>
        <source>Put every embedding-dimension vector back on the unit sphere after each step</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>d_model</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Blocks N</source>
        <translation>块数 N</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>头数</translation>
    </message>
    <message>
        <source>Must divide d_model</source>
        <translation>必须整除 d_model</translation>
    </message>
    <message>
        <source>d_ff</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>MLP width</source>
        <translation>MLP 宽度</translation>
    </message>
    <message>
        <source>Context</source>
        <translation>上下文</translation>
    </message>
    <message>
        <source>Bytes per sequence</source>
        <translation>每个序列的字节数</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>激活函数</translation>
    </message>
    <message>
        <source>Positions</source>
        <translation>位置编码</translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation>Dropout</translation>
    </message>
    <message>
        <source>Tied embeddings</source>
        <translation>共享嵌入</translation>
    </message>
    <message>
        <source>Biases</source>
        <translation>偏置</translation>
    </message>
    <message>
        <source>Init</source>
        <translation>初始化</translation>
    </message>
    <message>
        <source>normal: N(0, 0.02), residual outputs N(0, 0.02/√(2L)) (GPT-2)
xavier: Xavier-uniform (Vaswani; Xiong)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>corpus: English fortunes
file: any file, byte-level
markov: synthetic, with a known loss floor</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Markov order</source>
        <translation>马尔可夫阶数</translation>
    </message>
    <message>
        <source>Markov alphabet</source>
        <translation>马尔可夫字母表</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Weight decay</source>
        <translation>权重衰减</translation>
    </message>
    <message>
        <source>Never on norms, biases or scalers</source>
        <translation>从不用于归一化、偏置或缩放参数</translation>
    </message>
    <message>
        <source>β₂</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Gradient clip</source>
        <translation>梯度裁剪</translation>
    </message>
    <message>
        <source>Global L2 norm; 0 disables</source>
        <translation>全局 L2 范数；0 表示关闭</translation>
    </message>
    <message>
        <source>ramp: the LR stability test — the rate grows by the increment each step until the loss diverges (NormFormer §4)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Warm-up steps</source>
        <translation>预热步数</translation>
    </message>
    <message>
        <source>Ramp increment</source>
        <translation>斜坡增量</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Validate every</source>
        <translation>验证间隔</translation>
    </message>
    <message>
        <source>Probes (every N steps; 0: off)</source>
        <translation>探针（每 N 步；0：关闭）</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Hidden states</source>
        <translation>隐藏状态</translation>
    </message>
    <message>
        <source>Gains</source>
        <translation>增益</translation>
    </message>
    <message>
        <source>Condition numbers</source>
        <translation>条件数</translation>
    </message>
    <message>
        <source>Embeddings × √d</source>
        <translation>嵌入 × √d</translation>
    </message>
    <message>
        <source>Multiply token embeddings by √d_model (Vaswani et al. §3.4; fairseq).
Xiong et al.'s analysis assumes inputs with E‖x₀‖² ≈ d.</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>normlab::Heatmap</name>
    <message>
        <source>no data yet</source>
        <translation>暂无数据</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>log</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>normlab::LineChart</name>
    <message>
        <source> (log)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>non-finite value</source>
        <translation>非有限值</translation>
    </message>
    <message>
        <source>%L1 points → %L2 drawn</source>
        <translation>%L1 个点 → 绘制 %L2 个</translation>
    </message>
    <message>
        <source> · %L1 non-finite (▲)</source>
        <translation> · %L1 个非有限值（▲）</translation>
    </message>
    <message>
        <source> · %L1 values ≤ 0 not shown on the log axis</source>
        <translation> · %L1 个 ≤ 0 的值未在对数轴上显示</translation>
    </message>
    <message>
        <source> · zoomed (right-click to zoom out)</source>
        <translation> · 已缩放（右键缩小）</translation>
    </message>
</context>
<context>
    <name>normlab::MainWindow</name>
    <message>
        <source>Run store</source>
        <translation>运行存储</translation>
    </message>
    <message>
        <source>%1

NormLab opens the default store instead.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Store: %1 · UI latency p50 %2 ms, p99 %3 ms</source>
        <translation>存储：%1 · 界面延迟 p50 %2 ms，p99 %3 ms</translation>
    </message>
    <message>
        <source> (read-only)</source>
        <translation>（只读）</translation>
    </message>
    <message>
        <source>NormLab</source>
        <translation>NormLab</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Tokens/s</source>
        <translation>词元/秒</translation>
    </message>
    <message>
        <source>ETA</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Filter runs (name, scheme, status, tags, notes)…</source>
        <translation>筛选运行（名称、方案、状态、标签、备注）…</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Runs — select several to compare</source>
        <translation>运行记录 — 选择多个以比较</translation>
    </message>
    <message>
        <source>Settings that differ</source>
        <translation>不同的设置</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open experiment…</source>
        <translation>打开实验(&amp;O)…</translation>
    </message>
    <message>
        <source>Open experiment</source>
        <translation>打开实验</translation>
    </message>
    <message>
        <source>Experiments (*.json)</source>
        <translation>实验 (*.json)</translation>
    </message>
    <message>
        <source>&amp;Save experiment…</source>
        <translation>保存实验(&amp;S)…</translation>
    </message>
    <message>
        <source>Save experiment</source>
        <translation>保存实验</translation>
    </message>
    <message>
        <source>&amp;Recent experiments</source>
        <translation>最近的实验(&amp;R)</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>（暂无）</translation>
    </message>
    <message>
        <source>Open run &amp;store…</source>
        <translation>打开运行存储(&amp;S)…</translation>
    </message>
    <message>
        <source>Open run store</source>
        <translation>打开运行存储</translation>
    </message>
    <message>
        <source>Run stores (*.sqlite *.db);;All files (*)</source>
        <translation>运行存储 (*.sqlite *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&amp;Export chart…</source>
        <translation>导出图表(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Export &amp;panel…</source>
        <translation>导出面板(&amp;P)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Ctrl+R</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Run &amp;experiment</source>
        <translation>运行实验(&amp;E)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+R</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Ctrl+.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Reproduce paper &amp;findings…</source>
        <translation>复现论文结论(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Log-scale loss</source>
        <translation>对数损失轴(&amp;L)</translation>
    </message>
    <message>
        <source>Ctrl+L</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>&amp;Smoothing</source>
        <translation>平滑(&amp;S)</translation>
    </message>
    <message>
        <source>Ctrl+M</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Reset &amp;zoom</source>
        <translation>重置缩放(&amp;Z)</translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About NormLab</source>
        <translation>关于 NormLab(&amp;A)</translation>
    </message>
    <message>
        <source>About NormLab</source>
        <translation>关于 NormLab</translation>
    </message>
    <message>
        <source>&lt;h3&gt;NormLab %1&lt;/h3&gt;&lt;p&gt;A lab for the normalization of Transformer language models: Post-LN, Pre-LN, NormFormer, DeepNorm, BranchNorm and nGPT, each component a toggle.&lt;/p&gt;&lt;p&gt;Qt %2 · LibTorch %3 · SQLite %4 · %5&lt;/p&gt;</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>CUDA available</source>
        <translation>CUDA 可用</translation>
    </message>
    <message>
        <source>CPU only</source>
        <translation>仅 CPU</translation>
    </message>
    <message>
        <source>NormLab — %1 (read-only)</source>
        <translation>NormLab — %1（只读）</translation>
    </message>
    <message>
        <source>Finish or cancel the queued runs before switching stores.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Cannot run: %1</source>
        <translation>无法运行：%1</translation>
    </message>
    <message>
        <source>This store is open read-only: open a writable store to train (File → Open run store).</source>
        <translation>此存储以只读方式打开：请打开可写的存储再训练（文件 → 打开运行存储）。</translation>
    </message>
    <message>
        <source>Open an experiment file first (Ctrl+O).</source>
        <translation>请先打开实验文件（Ctrl+O）。</translation>
    </message>
    <message>
        <source>Run experiment</source>
        <translation>运行实验</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <source>A run is training. Cancel it and quit? Its data so far stays in the store.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>Run #%1 %2: %3</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Rename run</source>
        <translation>重命名运行</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Comma-separated tags</source>
        <translation>以逗号分隔的标签</translation>
    </message>
    <message>
        <source>Notes on run #%1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Colour of run #%1</source>
        <translation>运行 #%1 的颜色</translation>
    </message>
    <message>
        <source>Run #%1 is training; cancel it first.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Delete runs</source>
        <translation>删除运行</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n run(s) and all their data? This cannot be undone.</source>
        <translation type="unfinished">
            <numerusform />
        </translation>
    </message>
    <message>
        <source>This store is open read-only: runs cannot be resumed into it.</source>
        <translation>此存储以只读方式打开：无法在其中继续运行。</translation>
    </message>
    <message>
        <source>resuming</source>
        <translation>正在继续</translation>
    </message>
    <message>
        <source>Not resumed (finished, training or queued): %1</source>
        <translation>未继续（已完成、训练中或已排队）：%1</translation>
    </message>
    <message>
        <source>&amp;Resume from checkpoint</source>
        <translation>从检查点继续(&amp;R)</translation>
    </message>
    <message>
        <source>Re&amp;name…</source>
        <translation>重命名(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Tags…</source>
        <translation>标签(&amp;T)…</translation>
    </message>
    <message>
        <source>N&amp;otes…</source>
        <translation>备注(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Colour…</source>
        <translation>颜色(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <source>Export panel</source>
        <translation>导出面板</translation>
    </message>
    <message>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>CSV (the plotted data, every point)</source>
        <translation>CSV（绘制的数据，全部数据点）</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>Resolution (PNG, DPI)</source>
        <translation>分辨率（PNG，DPI）</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>NormLab figure</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>normlab::ReportDialog</name>
    <message>
        <source>Reproduce paper findings</source>
        <translation>复现论文结论</translation>
    </message>
    <message>
        <source>Trains the experiments' runs into the open store (finished runs with the same configuration are reused), measures each finding, draws its figures and writes a Markdown/HTML report with a verdict per finding.</source>
        <translation>将实验的运行训练到当前存储中（配置相同且已完成的运行会被复用），测量每条结论，绘制图表，并写出带有逐条判定的 Markdown/HTML 报告。</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Experiments</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>Experiments (*.json)</source>
        <translation>实验 (*.json)</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Report folder</source>
        <translation>报告文件夹</translation>
    </message>
    <message>
        <source>The report's progress appears here.</source>
        <translation>报告进度显示在此处。</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Open report</source>
        <translation>打开报告</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source> — no findings to report</source>
        <translation> — 无可报告的结论</translation>
    </message>
    <message>
        <source> — findings %1</source>
        <translation> — 结论 %1</translation>
    </message>
    <message numerus="yes">
        <source>; %n run(s)</source>
        <translation type="unfinished">
            <numerusform />
        </translation>
    </message>
    <message>
        <source> — cannot be used: %1</source>
        <translation> — 无法使用：%1</translation>
    </message>
    <message>
        <source>Could not start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>Training and measuring…</source>
        <translation>正在训练和测量…</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>报告已写入 %1</translation>
    </message>
    <message>
        <source>Stopped; finished runs are kept and reused next time</source>
        <translation>已停止；已完成的运行会保留并在下次复用</translation>
    </message>
    <message>
        <source>Finished with errors (exit code %1); see the log</source>
        <translation>结束但有错误（退出码 %1）；请查看日志</translation>
    </message>
</context>
<context>
    <name>normlab::RunTableModel</name>
    <message>
        <source> @%1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>#</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Scheme</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Val loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
</context>
<context>
    <name>normlab::TrainingWorker</name>
    <message>
        <source>removed from the queue</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Run store file.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Experiment to open.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Start the opened experiment at once.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Train, save screenshots into DIR, quit.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Train and print the UI latency.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>UI language (en, de, zh_CN).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NormLab: normalization in Transformer language models
normlab report EXPERIMENT.json... --out DIR: reproduce the papers' findings (see normlab report --help)</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>normlab::Figure</name>
    <message>
        <source>cannot write %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>unknown format %1; use png, svg, pdf or csv</source>
        <translation type="unfinished" />
    </message>
</context>
</TS>