<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>normlab::ChartLegend</name>
    <message>
        <source>Hidden. Click to show it; double-click to show only it.</source>
        <translation>已隐藏。单击显示；双击只显示它。</translation>
    </message>
    <message>
        <source>Click to hide it; double-click to show only it; right-click for more.</source>
        <translation>单击隐藏；双击只显示它；右键查看更多。</translation>
    </message>
</context>
<context>
    <name>normlab::ChartsView</name>
    <message>
        <source>each run its own line</source>
        <translation>每个运行一条线</translation>
    </message>
    <message>
        <source>runs differing only by seed: mean ± std</source>
        <translation>仅种子不同的运行：均值 ± 标准差</translation>
    </message>
    <message>
        <source>runs differing only by seed: mean, min–max</source>
        <translation>仅种子不同的运行：均值，最小–最大</translation>
    </message>
    <message>
        <source>Runs whose settings are equal but for the seed are drawn as one line, their mean, with a shaded band; a run alone in its group keeps its own line.</source>
        <translation>除种子外设置相同的运行绘制为一条线（其均值）并带阴影带；组中只有一个运行时保持其自己的线。</translation>
    </message>
    <message>
        <source>Group runs</source>
        <translation>运行分组</translation>
    </message>
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
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
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
        <translation>对数损失轴（Ctrl+L）</translation>
    </message>
    <message>
        <source>Debiased exponential moving average along the x axis, over the full data: every run is smoothed alike, however many points it has; the raw curve stays faint beneath</source>
        <translation>沿 x 轴、基于全部数据的去偏指数滑动平均：无论点数多少，每个运行的平滑程度都相同；原始曲线以浅色保留在下方</translation>
    </message>
    <message>
        <source>x:</source>
        <translation>x：</translation>
    </message>
    <message>
        <source>log x</source>
        <translation>对数 x</translation>
    </message>
    <message>
        <source>Logarithmic x axis for the loss and learning rate; step 0 is left out</source>
        <translation>损失和学习率使用对数 x 轴；省略第 0 步</translation>
    </message>
    <message>
        <source>smoothing</source>
        <translation>平滑</translation>
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
        <source>train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source> val</source>
        <translation> 验证</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>loss floor (entropy rate)</source>
        <translation>损失下限（熵率）</translation>
    </message>
    <message>
        <source>unigram (byte frequencies)</source>
        <translation>一元模型（字节频率）</translation>
    </message>
    <message>
        <source>loss (nats/byte)</source>
        <translation>损失（奈特/字节）</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>lr</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>a loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>a learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>the form's block</source>
        <translation>表单的模块</translation>
    </message>
    <message>
        <source>Draw the block the experiment form describes first, as you edit it: a click on one of its parts switches that part off in the form, a click on a dashed one switches it on.</source>
        <translation>先绘制实验表单所描述的模块，并随编辑更新：单击其中某个部件会在表单中关闭它，单击虚线部件则打开它。</translation>
    </message>
    <message>
        <source>The form: %1</source>
        <translation>表单：%1</translation>
    </message>
    <message numerus="yes">
        <source>%1 (+ %n alike)</source>
        <translation>
            <numerusform>%1（+ %n 个相同）</numerusform>
        </translation>
    </message>
    <message>
        <source>Select runs in the table, or tick “the form's block”, to see their blocks.</source>
        <translation>在表格中选择运行，或勾选“表单的模块”，以查看它们的模块。</translation>
    </message>
    <message>
        <source>Yellow: normalizations; blue: sub-layers; green: scales; outlined: where a block differs from the first.</source>
        <translation>黄色：归一化；蓝色：子层；绿色：缩放；描边：与第一个模块不同之处。</translation>
    </message>
    <message numerus="yes">
        <source>%n more block(s) not shown: select fewer runs.</source>
        <translation>
            <numerusform>另有 %n 个模块未显示：请选择较少的运行。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) with a configuration this version cannot read.</source>
        <translation>
            <numerusform>%n 个运行的配置无法被此版本读取。</numerusform>
        </translation>
    </message>
    <message>
        <source>this view has no chart to export</source>
        <translation>此视图没有可导出的图表</translation>
    </message>
    <message>
        <source>every run is hidden: click one in the legend to show it, then export</source>
        <translation>所有运行均已隐藏：请在图例中点击一个以显示它，然后再导出</translation>
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
        <source>learned gains</source>
        <translation>学习到的增益</translation>
    </message>
    <message>
        <source>%1 per layer at step %2</source>
        <translation>第 %2 步各层的 %1</translation>
    </message>
    <message>
        <source>global</source>
        <translation>全局</translation>
    </message>
    <message>
        <source>layer (step %1)</source>
        <translation>层（第 %1 步）</translation>
    </message>
    <message>
        <source>Histogram of a gain</source>
        <translation>增益直方图</translation>
    </message>
    <message>
        <source>Histogram of %1, layer %2, step %3</source>
        <translation>%1 的直方图，第 %2 层，第 %3 步</translation>
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
        <source>%1 values in %2 bins</source>
        <translation>%1 个值，%2 个区间</translation>
    </message>
    <message>
        <source>mean |∂L/∂W| (L1)</source>
        <translation>平均 |∂L/∂W|（L1）</translation>
    </message>
    <message>
        <source>‖∂L/∂W‖_F (L2)</source>
        <translation>‖∂L/∂W‖_F（L2）</translation>
    </message>
    <message>
        <source>expected gradient ‖E[∂L/∂W]‖ at init</source>
        <translation>初始化时的期望梯度 ‖E[∂L/∂W]‖</translation>
    </message>
    <message>
        <source>log color scale</source>
        <translation>对数色标</translation>
    </message>
    <message>
        <source>one scale for all runs</source>
        <translation>所有运行共用一个色标</translation>
    </message>
    <message>
        <source>Compared runs share one colour scale, so a colour means the same value in each; off: each run its own</source>
        <translation>比较的运行共用一个色标，使同一颜色在各图中代表相同的值；关闭：每个运行使用各自的色标</translation>
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
        <source>gradient</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>%1 (×%2)</source>
        <translation>%1（×%2）</translation>
    </message>
    <message>
        <source>No run shown: select runs in the Runs table (Ctrl+click for several), or train one with Run (Ctrl+R).</source>
        <translation>未显示运行：在运行表中选择运行（Ctrl+单击可多选），或用“运行”（Ctrl+R）训练一个。</translation>
    </message>
    <message>
        <source>It exists only in nGPT runs.</source>
        <translation>它只存在于 nGPT 运行中。</translation>
    </message>
    <message>
        <source>It exists only in BranchNorm runs.</source>
        <translation>它只存在于 BranchNorm 运行中。</translation>
    </message>
    <message>
        <source>It exists only in runs with DeepNorm's residual scaling.</source>
        <translation>它只存在于使用 DeepNorm 残差缩放的运行中。</translation>
    </message>
    <message>
        <source>It is recorded every %1 steps (Experiment → Probes; 0 switches it off).</source>
        <translation>每 %1 步记录一次（实验 → 探针；0 表示关闭）。</translation>
    </message>
    <message>
        <source>It is recorded at step 0 when %1 is above 0 (Experiment → Probes).</source>
        <translation>当 %1 大于 0 时在第 0 步记录（实验 → 探针）。</translation>
    </message>
    <message>
        <source>It is recorded from the first training step on.</source>
        <translation>从第一个训练步开始记录。</translation>
    </message>
    <message>
        <source>None of the shown runs has recorded %1 yet.</source>
        <translation>所显示的运行尚未记录 %1。</translation>
    </message>
    <message>
        <source>Every scheme's blocks have it but nGPT's, which keep their vectors on the unit sphere instead.</source>
        <translation>除 nGPT 外每种方案的块都有它；nGPT 改为将向量保持在单位球面上。</translation>
    </message>
    <message>
        <source>It exists where %1 is on (Experiment → NormFormer; its preset switches it on).</source>
        <translation>仅在 %1 开启时存在（实验 → NormFormer；其预设会开启它）。</translation>
    </message>
    <message>
        <source>It exists only in some schemes' blocks (the Block tab draws a run's).</source>
        <translation>它只存在于某些方案的块中（“模块”标签页绘制运行的块）。</translation>
    </message>
    <message>
        <source>None of the shown runs' models has the weight %1.</source>
        <translation>所显示运行的模型都没有权重 %1。</translation>
    </message>
    <message>
        <source>nothing recorded by %1 of %2 runs: %3</source>
        <translation>%2 个运行中有 %1 个未记录：%3</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>step: a line per layer over the steps.
layer: a line per run across the layers, at the step the slider picks (each run's last point at or before it).</source>
        <translation>步：每层一条线，横轴为步数。
层：每个运行一条线，横轴为层，取滑块所选的步（各运行在该步或之前的最后一个点）。</translation>
    </message>
    <message>
        <source>probe</source>
        <translation>探针</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>final validation loss</source>
        <translation>最终验证损失</translation>
    </message>
    <message>
        <source>best validation loss</source>
        <translation>最佳验证损失</translation>
    </message>
    <message>
        <source>final training loss (mean of the last 20 points)</source>
        <translation>最终训练损失（最后 20 个点的均值）</translation>
    </message>
    <message>
        <source>The outcome on the last axis, which colours each run's line as its colour bar shows, the lowest drawn on top. A run still training shows its latest; one without any (diverged, or not evaluated yet) is a grey dashed line.</source>
        <translation>最后一条轴上的结果按其颜色条决定每个运行的线条颜色，最低者画在最上层。仍在训练的运行显示其最新结果；没有结果的运行（已发散或尚未评估）画为灰色虚线。</translation>
    </message>
    <message>
        <source>outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>settings the scheme implies</source>
        <translation>由方案决定的设置</translation>
    </message>
    <message>
        <source>Also an axis for each setting that every run has as its scheme sets it (layout, final norm, NormFormer's switches, ...): the scheme's axis says them already. A setting a run changed from its scheme is always an axis.</source>
        <translation>也为每个运行都按其方案取值的设置（布局、最终归一化、NormFormer 的开关等）各画一条轴：方案轴已说明它们。任一运行相对其方案改动过的设置总会有自己的轴。</translation>
    </message>
    <message>
        <source>Hide “%1”</source>
        <translation>隐藏“%1”</translation>
    </message>
    <message>
        <source>Show hidden settings (%1)</source>
        <translation>显示隐藏的设置（%1）</translation>
    </message>
    <message>
        <source>Right-click the chart to hide a setting or show them.</source>
        <translation>右键单击图表可隐藏某个设置或显示它们。</translation>
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
        <source>Condition number FC1</source>
        <translation>条件数 FC1</translation>
    </message>
    <message>
        <source>Condition number FC2</source>
        <translation>条件数 FC2</translation>
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
        <source>DeepNorm α</source>
        <translation>DeepNorm α</translation>
    </message>
    <message>
        <source>Model-FLOPs utilisation (MFU)</source>
        <translation>模型浮点运算利用率（MFU）</translation>
    </message>
    <message>
        <source>nGPT eigen learning rate α_{A}</source>
        <translation>nGPT 特征学习率 α_{A}</translation>
    </message>
    <message>
        <source>nGPT eigen learning rate α_{M}</source>
        <translation>nGPT 特征学习率 α_{M}</translation>
    </message>
    <message>
        <source>Condition number W_{q} (median over heads)</source>
        <translation>条件数 W_{q}（各头中位数）</translation>
    </message>
    <message>
        <source>Condition number W_{k} (median over heads)</source>
        <translation>条件数 W_{k}（各头中位数）</translation>
    </message>
    <message>
        <source>Condition number W_{v} (median over heads)</source>
        <translation>条件数 W_{v}（各头中位数）</translation>
    </message>
    <message>
        <source>Condition number W_{O}</source>
        <translation>条件数 W_{O}</translation>
    </message>
    <message>
        <source>BranchNorm α_{t}</source>
        <translation>BranchNorm α_{t}</translation>
    </message>
    <message>
        <source>Hidden-state norm ‖x_{ℓ}‖</source>
        <translation>隐藏状态范数 ‖x_{ℓ}‖</translation>
    </message>
    <message>
        <source>Hidden-state ‖x_{ℓ}‖²/d</source>
        <translation>隐藏状态 ‖x_{ℓ}‖²/d</translation>
    </message>
    <message>
        <source>cos(x_{ℓ−1}, x_{ℓ})</source>
        <translation>cos(x_{ℓ−1}, x_{ℓ})</translation>
    </message>
    <message>
        <source>Post-LN: σ into the norm after attention</source>
        <translation>Post-LN：注意力之后归一化输入的 σ</translation>
    </message>
    <message>
        <source>Post-LN: σ into the norm after the MLP</source>
        <translation>Post-LN：MLP 之后归一化输入的 σ</translation>
    </message>
    <message>
        <source>Post-LN: cos(residual, attention branch)</source>
        <translation>Post-LN：cos(残差, 注意力分支)</translation>
    </message>
    <message>
        <source>Post-LN: cos(residual, MLP branch)</source>
        <translation>Post-LN：cos(残差, MLP 分支)</translation>
    </message>
    <message>
        <source>cos(x_{ℓ}[t], x_{ℓ}[t′]) between positions</source>
        <translation>位置之间的 cos(x_{ℓ}[t], x_{ℓ}[t′])</translation>
    </message>
    <message>
        <source>%1 · d %2 · %3 heads</source>
        <translation>%1 · d %2 · %3 个头</translation>
    </message>
</context>
<context>
    <name>normlab::Designer</name>
    <message>
        <source>A scheme is a preset of the components below; change any of them afterwards for ablations.</source>
        <translation>方案是下列组件的预设；之后可更改任一组件以做消融实验。</translation>
    </message>
    <message>
        <source>Scheme</source>
        <translation>方案</translation>
    </message>
    <message>
        <source>Variant to edit</source>
        <translation>要编辑的变体</translation>
    </message>
    <message>
        <source>Which run of the opened experiment the form shows and edits: Run trains it, Save writes its changes</source>
        <translation>表单显示并编辑已打开实验中的哪个运行：“运行”训练它，“保存”写入其更改</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>…</source>
        <translation>…</translation>
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
        <source>%1 sets %2.</source>
        <translation>%1 设置了 %2。</translation>
    </message>
    <message>
        <source>Restored what the previous scheme had changed: %1.</source>
        <translation>已恢复上一个方案更改的设置：%1。</translation>
    </message>
    <message>
        <source>These apply only to the nGPT layout (Layout: ngpt, or the nGPT scheme)</source>
        <translation>仅适用于 nGPT 布局（布局：ngpt，或 nGPT 方案）</translation>
    </message>
    <message>
        <source>nGPT has no LayerNorm: these do not apply to the nGPT layout</source>
        <translation>nGPT 没有 LayerNorm：这些选项不适用于 nGPT 布局</translation>
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
        <translation>
            <numerusform>将 %1 的全部 %n 个运行加入队列</numerusform>
        </translation>
    </message>
    <message>
        <source>Open an experiment file first (Ctrl+O)</source>
        <translation>请先打开实验文件（Ctrl+O）</translation>
    </message>
    <message>
        <source>The runs of %1; Run experiment queues them all</source>
        <translation>%1 的运行；“运行实验”会将其全部加入队列</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Saved; %1 is set by the experiment's sweep, so the form's value was not saved</source>
        <translation>已保存；%1 由实验的扫描设定，因此表单中的值未保存</translation>
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
        <translation>post：x ← LN(x + F(x))（Post-LN，Vaswani 等）
pre：x ← x + F(LN(x))（Pre-LN，Xiong 等 2020）
ngpt：h ← norm(h + α(norm(F(h)) − h))（nGPT，Loshchilov 等）</translation>
    </message>
    <message>
        <source>Final norm</source>
        <translation>最终归一化</translation>
    </message>
    <message>
        <source>A norm before the output layer: logits = LN(x_{L})·W_{out}ᵀ (Pre-LN; Xiong et al. 2020)</source>
        <translation>输出层之前的归一化：logits = LN(x_{L})·W_{out}ᵀ（Pre-LN；Xiong 等 2020）</translation>
    </message>
    <message>
        <source>Norm</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>layernorm: γ⊙(x − μ)/σ + β
rmsnorm: γ⊙x/√(mean(x²) + ε)</source>
        <translation>layernorm：γ⊙(x − μ)/σ + β
rmsnorm：γ⊙x/√(mean(x²) + ε)</translation>
    </message>
    <message>
        <source>NormFormer — Shleifer et al.</source>
        <translation>NormFormer — Shleifer 等</translation>
    </message>
    <message>
        <source>HeadScale</source>
        <translation>HeadScale（头缩放）</translation>
    </message>
    <message>
        <source>h_{i} ← γ_{i}·h_{i}, γ ∈ ℝ^{H}, init 1: Concat(γ₁h₁, …, γ_{H}h_{H})·W_{O} (NormFormer §3)</source>
        <translation>h_{i} ← γ_{i}·h_{i}，γ ∈ ℝ^{H}，初值 1：Concat(γ₁h₁, …, γ_{H}h_{H})·W_{O}（NormFormer §3）</translation>
    </message>
    <message>
        <source>HeadScale placement</source>
        <translation>HeadScale 位置</translation>
    </message>
    <message>
        <source>before_out_proj: the paper's form
after_out_proj: fairseq's (scales per-head slices of the output)</source>
        <translation>before_out_proj：论文的形式
after_out_proj：fairseq 的形式（缩放输出中各头的切片）</translation>
    </message>
    <message>
        <source>Post-attention LN</source>
        <translation>注意力后 LN</translation>
    </message>
    <message>
        <source>o ← LN(Attention(LN(x))·W_{O}) before the residual add (NormFormer §3)</source>
        <translation>o ← LN(Attention(LN(x))·W_{O})，在残差相加之前（NormFormer §3）</translation>
    </message>
    <message>
        <source>FFN LN</source>
        <translation>FFN LN</translation>
    </message>
    <message>
        <source>f ← FC2(LN(act(FC1(LN(x))))): a LayerNorm over d_ff after the activation (NormFormer §3)</source>
        <translation>f ← FC2(LN(act(FC1(LN(x)))))：激活之后在 d_ff 上的 LayerNorm（NormFormer §3）</translation>
    </message>
    <message>
        <source>ResScale</source>
        <translation>ResScale（残差缩放）</translation>
    </message>
    <message>
        <source>x ← λ⊙x + FFN(LN(x)), λ ∈ ℝ^{d}, init 1 (NormFormer §3; helps small models)</source>
        <translation>x ← λ⊙x + FFN(LN(x))，λ ∈ ℝ^{d}，初值 1（NormFormer §3；对小模型有帮助）</translation>
    </message>
    <message>
        <source>DeepNorm — Wang et al.</source>
        <translation>DeepNorm — Wang 等</translation>
    </message>
    <message>
        <source>Residual α</source>
        <translation>残差 α</translation>
    </message>
    <message>
        <source>x ← LN(α·x + F(x)), α = (2N)^{1/4} for an N-layer decoder (DeepNet)</source>
        <translation>x ← LN(α·x + F(x))，N 层解码器的 α = (2N)^{1/4}（DeepNet）</translation>
    </message>
    <message>
        <source>Override of DeepNorm's residual weight α</source>
        <translation>覆盖 DeepNorm 的残差权重 α</translation>
    </message>
    <message>
        <source>β-scaled init</source>
        <translation>β 缩放初始化</translation>
    </message>
    <message>
        <source>Xavier-normal init with gain β = (8N)^{−1/4} on W_{v}, W_{O}, FC1, FC2 and 1 on W_{q}, W_{k} (DeepNet)</source>
        <translation>Xavier 正态初始化：W_{v}、W_{O}、FC1、FC2 增益为 β = (8N)^{−1/4}，W_{q}、W_{k} 为 1（DeepNet）</translation>
    </message>
    <message>
        <source>Override of DeepNorm's init gain β</source>
        <translation>覆盖 DeepNorm 的初始化增益 β</translation>
    </message>
    <message>
        <source>BranchNorm — Liu et al.</source>
        <translation>BranchNorm — Liu 等</translation>
    </message>
    <message>
        <source>Branch factor α_{t}</source>
        <translation>分支系数 α_{t}</translation>
    </message>
    <message>
        <source>x ← LN(x + α_{t}·F(x)), α_{t} rising from 0 to 1 over T steps (BranchNorm §3)</source>
        <translation>x ← LN(x + α_{t}·F(x))，α_{t} 在 T 步内从 0 升到 1（BranchNorm §3）</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <source>linear: α_{t} = min(1, t/T) (the paper's)
exp, sigmoid: lab-defined (docs/DECISIONS.md)</source>
        <translation>linear：α_{t} = min(1, t/T)（论文的）
exp、sigmoid：本实验室定义（docs/DECISIONS.md）</translation>
    </message>
    <message>
        <source>T (steps)</source>
        <translation>T（步数）</translation>
    </message>
    <message>
        <source>Steps until α_{t} = 1; the paper uses 4000</source>
        <translation>α_{t} 达到 1 所需步数；论文使用 4000</translation>
    </message>
    <message>
        <source>nGPT — Loshchilov et al.</source>
        <translation>nGPT — Loshchilov 等</translation>
    </message>
    <message>
        <source>QK-norm</source>
        <translation>QK 归一化</translation>
    </message>
    <message>
        <source>q ← s_{qk}⊙norm(q), k ← s_{qk}⊙norm(k) per head, softmax scale √d_{k}</source>
        <translation>每个头 q ← s_{qk}⊙norm(q)，k ← s_{qk}⊙norm(k)，softmax 缩放 √d_{k}</translation>
    </message>
    <message>
        <source>Eigen learning rates</source>
        <translation>特征学习率</translation>
    </message>
    <message>
        <source>Learn α_{A}, α_{M} in h ← norm(h + α(norm(F(h)) − h)); init 0.05, scale 1/√d</source>
        <translation>学习 h ← norm(h + α(norm(F(h)) − h)) 中的 α_{A}、α_{M}；初值 0.05，缩放 1/√d</translation>
    </message>
    <message>
        <source>s_qk, s_u, s_v, s_z</source>
        <translation>s_qk、s_u、s_v、s_z</translation>
    </message>
    <message>
        <source>Learned scalers of queries/keys, the gated MLP and the logits (init/scale re-parameterised)</source>
        <translation>查询/键、门控 MLP 与 logits 的可学习缩放因子（按初值/尺度重新参数化）</translation>
    </message>
    <message>
        <source>Weight renormalisation</source>
        <translation>权重重新归一化</translation>
    </message>
    <message>
        <source>Put every embedding-dimension vector back on the unit sphere after each step</source>
        <translation>每步之后将每个嵌入维度向量放回单位球面</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>d_model</source>
        <translation>d_model</translation>
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
        <translation>d_ff</translation>
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
        <source>Embeddings × √d</source>
        <translation>嵌入 × √d</translation>
    </message>
    <message>
        <source>Multiply token embeddings by √d_model (Vaswani et al. §3.4; fairseq).
Xiong et al.'s analysis assumes inputs with E‖x₀‖² ≈ d.</source>
        <translation>将词元嵌入乘以 √d_model（Vaswani 等 §3.4；fairseq）。
Xiong 等的分析假设输入满足 E‖x₀‖² ≈ d。</translation>
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
        <translation>normal：N(0, 0.02)，残差输出 N(0, 0.02/√(2L))（GPT-2）
xavier：Xavier 均匀分布（Vaswani；Xiong）</translation>
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
        <translation>corpus：英文 fortunes 语料
file：任意文件，按字节
markov：合成数据，损失下界已知</translation>
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
        <translation>β₂</translation>
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
        <translation>ramp：学习率稳定性测试 — 学习率每步增加一个增量，直到损失发散（NormFormer §4）</translation>
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
        <source>Precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>fp32; tf32: GPU tensor cores, fp32 elsewhere; bf16: mixed precision, fp32 weights</source>
        <translation>fp32；tf32：GPU 张量核心，其他设备上为 fp32；bf16：混合精度，权重为 fp32</translation>
    </message>
    <message>
        <source>CUDA graph</source>
        <translation>CUDA 图</translation>
    </message>
    <message>
        <source>On a GPU, the training step captured once and replayed with one launch; auto: where the run allows it</source>
        <translation>在 GPU 上，训练步骤只捕获一次，之后以一次启动重放；auto：在运行允许时使用</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>CPU threads LibTorch uses; 0: all cores</source>
        <translation>LibTorch 使用的 CPU 线程数；0：全部核心</translation>
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
        <source>α (empty: (2N)^{1/4})</source>
        <translation>α（留空：(2N)^{1/4}）</translation>
    </message>
    <message>
        <source>β (empty: (8N)^{−1/4})</source>
        <translation>β（留空：(8N)^{−1/4}）</translation>
    </message>
    <message>
        <source>Scale the branches' step</source>
        <translation>缩放分支的更新步长</translation>
    </message>
    <message>
        <source>Lab-defined: Adam's step of F's weights scaled by α_{t} too. The paper scales F's output, which slows SGD's step but not Adam's</source>
        <translation>实验室自定义：F 的权重的 Adam 更新步长也乘以 α_{t}。论文只缩放 F 的输出，这会减慢 SGD 的步长，但不会减慢 Adam 的</translation>
    </message>
</context>
<context>
    <name>normlab::Heatmap</name>
    <message>
        <source>step %1 · layer %2</source>
        <translation>第 %1 步 · 第 %2 层</translation>
    </message>
    <message>
        <source>no value</source>
        <translation>无值</translation>
    </message>
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
</context>
<context>
    <name>normlab::LineChart</name>
    <message>
        <source>every curve is hidden: click a run in the legend to show it, then export</source>
        <translation>所有曲线均已隐藏：请在图例中点击一个运行以显示它，然后再导出</translation>
    </message>
    <message>
        <source>non-finite value</source>
        <translation>非有限值</translation>
    </message>
    <message>
        <source> (log)</source>
        <translation>（对数）</translation>
    </message>
    <message>
        <source>x: %1</source>
        <translation>x：%1</translation>
    </message>
    <message>
        <source>y: %1</source>
        <translation>y：%1</translation>
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
        <source> · %L1 points at x ≤ 0 not shown on the log x axis</source>
        <translation> · %L1 个 x ≤ 0 的点未在对数 x 轴上显示</translation>
    </message>
    <message numerus="yes">
        <source> · %n line(s) hidden (click the legend to show)</source>
        <translation>
            <numerusform> · 已隐藏 %n 条线（点击图例显示）</numerusform>
        </translation>
    </message>
    <message>
        <source> · the first %1 of %2 runs drawn (at most %3 lines on screen; an export draws them all)</source>
        <translation> · 仅绘制了 %2 个运行中的前 %1 个（屏幕上最多 %3 条线；导出时全部绘制）</translation>
    </message>
    <message>
        <source> · zoomed (right-click to zoom out)</source>
        <translation> · 已缩放（右键缩小）</translation>
    </message>
    <message>
        <source>Show “%1”</source>
        <translation>显示“%1”</translation>
    </message>
    <message>
        <source>Hide “%1”</source>
        <translation>隐藏“%1”</translation>
    </message>
    <message>
        <source>Show only “%1”</source>
        <translation>只显示“%1”</translation>
    </message>
    <message>
        <source>Show all lines</source>
        <translation>显示所有线</translation>
    </message>
    <message>
        <source> (smoothed %1)</source>
        <translation>（平滑 %1）</translation>
    </message>
    <message>
        <source>… and %1 more</source>
        <translation>… 另有 %1 条</translation>
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
        <translation>%1

NormLab 将改为打开默认存储。</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
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
        <source>Filter runs (name, scheme, status, tags, notes; lr&gt;=1e-3, val&lt;3.2)…</source>
        <translation>筛选运行（名称、方案、状态、标签、备注；lr&gt;=1e-3、val&lt;3.2）…</translation>
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
        <source>Compac&amp;t store…</source>
        <translation>压缩存储(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Export chart…</source>
        <translation>导出图表(&amp;E)…</translation>
    </message>
    <message>
        <source>Ctrl+E</source>
        <translation>Ctrl+E</translation>
    </message>
    <message>
        <source>Export &amp;panel…</source>
        <translation>导出面板(&amp;P)…</translation>
    </message>
    <message>
        <source>Ctrl+Shift+E</source>
        <translation>Ctrl+Shift+E</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Ctrl+R</source>
        <translation>Ctrl+R</translation>
    </message>
    <message>
        <source>Run &amp;experiment</source>
        <translation>运行实验(&amp;E)</translation>
    </message>
    <message>
        <source>Ctrl+Shift+R</source>
        <translation>Ctrl+Shift+R</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Ctrl+.</source>
        <translation>Ctrl+.</translation>
    </message>
    <message>
        <source>Train on a &amp;server…</source>
        <translation>在服务器上训练(&amp;S)…</translation>
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
        <translation>Ctrl+L</translation>
    </message>
    <message>
        <source>&amp;Smoothing</source>
        <translation>平滑(&amp;S)</translation>
    </message>
    <message>
        <source>Ctrl+M</source>
        <translation>Ctrl+M</translation>
    </message>
    <message>
        <source>Reset &amp;zoom</source>
        <translation>重置缩放(&amp;Z)</translation>
    </message>
    <message>
        <source>Ctrl+0</source>
        <translation>Ctrl+0</translation>
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
        <translation>&lt;h3&gt;NormLab %1&lt;/h3&gt;&lt;p&gt;Transformer 语言模型归一化实验室：Post-LN、Pre-LN、NormFormer、DeepNorm、BranchNorm 与 nGPT，每个组件均可开关。&lt;/p&gt;&lt;p&gt;Qt %2 · LibTorch %3 · SQLite %4 · %5&lt;/p&gt;</translation>
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
        <source>Cannot run: %1</source>
        <translation>无法运行：%1</translation>
    </message>
    <message>
        <source>This store is open read-only: open a writable store to train (File → Open run store).</source>
        <translation>此存储以只读方式打开：请打开可写的存储再训练（文件 → 打开运行存储）。</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
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
        <translation>有运行正在训练。取消并退出？其已有数据会保留在存储中。</translation>
    </message>
    <message>
        <source># (id)</source>
        <translation>#（编号）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Run #%1 is training; cancel it first.</source>
        <translation>运行 #%1 正在训练；请先取消。</translation>
    </message>
    <message>
        <source>Run #%1 is training in another process (pid %2 on %3): stop it there first (normlab-cli cancel %1), then delete it.</source>
        <translation>运行 #%1 正在另一个进程中训练（%3 上的 PID %2）：请先在那里停止它（normlab-cli cancel %1），再删除。</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n run(s) and all their data? This cannot be undone.</source>
        <translation>
            <numerusform>删除 %n 个运行及其全部数据？此操作无法撤销。</numerusform>
        </translation>
    </message>
    <message>
        <source>A run mirrored from a server is deleted here only: it stays on the server (and trains on there, if it is training).</source>
        <translation>从服务器镜像的运行只在这里删除：它仍留在服务器上（若正在训练，会在那里继续训练）。</translation>
    </message>
    <message>
        <source>Delete runs</source>
        <translation>删除运行</translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n run(s); their checkpoints freed %1.</source>
        <translation>
            <numerusform>已删除 %n 个运行；其检查点释放了 %1。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n run(s).</source>
        <translation>
            <numerusform>已删除 %n 个运行。</numerusform>
        </translation>
    </message>
    <message>
        <source>This store is open read-only: it cannot be compacted.</source>
        <translation>此存储以只读方式打开：无法压缩。</translation>
    </message>
    <message>
        <source>The store has %1 free: nothing to compact.</source>
        <translation>存储中有 %1 空闲：无需压缩。</translation>
    </message>
    <message>
        <source>Compact store</source>
        <translation>压缩存储</translation>
    </message>
    <message>
        <source>Deleted runs left %1 free in the store's file. Give it back to the disk now? The store is rewritten in one step; a run training meanwhile waits for it.</source>
        <translation>已删除的运行在存储文件中留下了 %1 空闲空间。现在将其归还给磁盘吗？存储会一次性重写；其间正在训练的运行会等待。</translation>
    </message>
    <message>
        <source>Store compacted: %1 → %2.</source>
        <translation>存储已压缩：%1 → %2。</translation>
    </message>
    <message>
        <source>Select two or more runs (Ctrl+click) to see the settings in which they differ.</source>
        <translation>选择两个或更多运行（Ctrl+单击）以查看它们不同的设置。</translation>
    </message>
    <message>
        <source>As stored: %1</source>
        <translation>存储的值：%1</translation>
    </message>
    <message>
        <source>%1: each run has its scheme's value</source>
        <translation>%1：每个运行都取其方案的值</translation>
    </message>
    <message>
        <source>%1 switched on in the form</source>
        <translation>已在表单中打开 %1</translation>
    </message>
    <message>
        <source>%1 switched off in the form</source>
        <translation>已在表单中关闭 %1</translation>
    </message>
    <message>
        <source>Save experiment</source>
        <translation>保存实验</translation>
    </message>
    <message>
        <source>The experiment form has changes not saved in a file.</source>
        <translation>实验表单有尚未保存到文件的更改。</translation>
    </message>
    <message>
        <source>Save them in an experiment file? If you do not decide now (Cancel), nothing is lost; Discard forgets them.</source>
        <translation>要将它们保存到实验文件吗？现在不决定（取消）则不会丢失任何内容；“放弃”会丢弃这些更改。</translation>
    </message>
    <message>
        <source>The experiment form is as you left it, with changes not saved in a file</source>
        <translation>实验表单保持您离开时的样子，包含尚未保存到文件的更改</translation>
    </message>
    <message numerus="yes">
        <source>Following runs on %n server(s) again</source>
        <translation>
            <numerusform>再次跟踪 %n 台服务器上的运行</numerusform>
        </translation>
    </message>
    <message>
        <source>The form cannot be trained: %1</source>
        <translation>无法训练该表单：%1</translation>
    </message>
    <message>
        <source>Cannot write a temporary file: %1</source>
        <translation>无法写入临时文件：%1</translation>
    </message>
    <message>
        <source>Sweep submitted to Slurm through %1; its runs appear as its tasks start</source>
        <translation>已通过 %1 将扫描提交给 Slurm；任务启动后其运行会陆续出现</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) started on %1; following them live</source>
        <translation>
            <numerusform>已在 %1 上启动 %n 个运行；正在实时跟踪</numerusform>
        </translation>
    </message>
    <message>
        <source>Fetch weights from the server</source>
        <translation>从服务器获取权重</translation>
    </message>
    <message>
        <source>safetensors (*.safetensors)</source>
        <translation>safetensors (*.safetensors)</translation>
    </message>
    <message>
        <source>Fetching the weights of %1 from %2…</source>
        <translation>正在从 %2 获取 %1 的权重…</translation>
    </message>
    <message>
        <source>Weights written to %1</source>
        <translation>权重已写入 %1</translation>
    </message>
    <message>
        <source>Slurm job of %1 on %2 cancelled</source>
        <translation>已取消 %2 上 %1 的 Slurm 作业</translation>
    </message>
    <message>
        <source>Fetching the weights of %1 from %2: %3…</source>
        <translation>正在从 %2 获取 %1 的权重：%3…</translation>
    </message>
    <message>
        <source>Fetching the weights of %1 from %2: %3 of %4 (%5%)…</source>
        <translation>正在从 %2 获取 %1 的权重：%3 / %4（%5%）…</translation>
    </message>
    <message>
        <source>run %1 there</source>
        <translation>服务器上的运行 %1</translation>
    </message>
    <message>
        <source>%1 is %2: nothing to stop</source>
        <translation>%1 为%2：无需停止</translation>
    </message>
    <message>
        <source>%1: its process on the server is gone; Resume continues it</source>
        <translation>%1：其在服务器上的进程已不存在；“继续”可接着训练</translation>
    </message>
    <message>
        <source>%1 is %2</source>
        <translation>%1 为%2</translation>
    </message>
    <message>
        <source>Stopped on %1: %2</source>
        <translation>已在 %1 上停止：%2</translation>
    </message>
    <message>
        <source>Resumed on %1: %2</source>
        <translation>已在 %1 上继续：%2</translation>
    </message>
    <message>
        <source>Stopping on %1…</source>
        <translation>正在 %1 上停止…</translation>
    </message>
    <message>
        <source>Resuming on %1…</source>
        <translation>正在 %1 上继续…</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Run #%1 %2: step %3/%4 (%5%) · loss %6 · ETA %7</source>
        <translation>运行 #%1 %2：第 %3/%4 步（%5%）· 损失 %6 · 剩余 %7</translation>
    </message>
    <message>
        <source> · MFU %1%</source>
        <translation> · MFU %1%</translation>
    </message>
    <message>
        <source> (its file was deleted or replaced)</source>
        <translation>（其文件已被删除或替换）</translation>
    </message>
    <message>
        <source> (read-only)</source>
        <translation>（只读）</translation>
    </message>
    <message>
        <source>Store: %1 · UI latency p50 %2 ms, p99 %3 ms</source>
        <translation>存储：%1 · 界面延迟 p50 %2 ms，p99 %3 ms</translation>
    </message>
    <message>
        <source>Run #%1: %2</source>
        <translation>运行 #%1：%2</translation>
    </message>
    <message>
        <source>Run #%1 %2: %3</source>
        <translation>运行 #%1 %2：%3</translation>
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
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Comma-separated tags</source>
        <translation>以逗号分隔的标签</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Notes on run #%1</source>
        <translation>运行 #%1 的备注</translation>
    </message>
    <message>
        <source>Colour of run #%1</source>
        <translation>运行 #%1 的颜色</translation>
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
        <source>Settings of run #%1 loaded into the form</source>
        <translation>已将运行 #%1 的设置载入表单</translation>
    </message>
    <message>
        <source>%1: &lt;, &lt;=, &gt; and &gt;= compare numbers, and "%2" is not one</source>
        <translation>%1：&lt;、&lt;=、&gt; 和 &gt;= 比较的是数字，而“%2”不是数字</translation>
    </message>
    <message>
        <source>%1: no run has a column or setting "%2"</source>
        <translation>%1：没有运行具有列或设置“%2”</translation>
    </message>
    <message>
        <source>%1: no run has a column or setting "%2"; did you mean %3?</source>
        <translation>%1：没有运行具有列或设置“%2”；您是指 %3 吗？</translation>
    </message>
    <message>
        <source>Co&amp;py as text</source>
        <translation>复制为文本(&amp;P)</translation>
    </message>
    <message numerus="yes">
        <source>Copied %n run(s) as tab-separated text</source>
        <translation>
            <numerusform>已将 %n 个运行复制为制表符分隔的文本</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Copied %n setting(s) as tab-separated text</source>
        <translation>
            <numerusform>已将 %n 项设置复制为制表符分隔的文本</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Resume from checkpoint</source>
        <translation>从检查点继续(&amp;R)</translation>
    </message>
    <message>
        <source>Stop on the &amp;server</source>
        <translation>在服务器上停止(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Fetch weights from the server…</source>
        <translation>从服务器获取权重(&amp;F)…</translation>
    </message>
    <message>
        <source>Cancel the Slurm &amp;job</source>
        <translation>取消 Slurm 作业(&amp;J)</translation>
    </message>
    <message>
        <source>&amp;Load settings into the form</source>
        <translation>将设置载入表单(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Write text with the weights…</source>
        <translation>用权重生成文本(&amp;W)…</translation>
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
        <source>Runs of a compared store are read-only</source>
        <translation>比较存储中的运行为只读</translation>
    </message>
    <message>
        <source>NormLab — %1 (read-only)</source>
        <translation>NormLab — %1（只读）</translation>
    </message>
    <message>
        <source>Finish or cancel the queued runs before switching stores.</source>
        <translation>切换存储前，请先完成或取消已排队的运行。</translation>
    </message>
    <message>
        <source>&amp;Compare with another store…</source>
        <translation>与另一个存储比较(&amp;C)…</translation>
    </message>
    <message>
        <source>Compare with run stores</source>
        <translation>与运行存储比较</translation>
    </message>
    <message>
        <source>Stop comparing stores</source>
        <translation>停止比较存储</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <source>%1 is the store this window has open.</source>
        <translation>%1 是此窗口已打开的存储。</translation>
    </message>
    <message>
        <source>%1 is already open for comparison.</source>
        <translation>%1 已作为比较打开。</translation>
    </message>
    <message>
        <source>Comparing with %1 (read-only): its runs are in the run table</source>
        <translation>正在与 %1 比较（只读）：其运行已列入运行表</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>Follow the &amp;system</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
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
        <source>CSV (the curves shown, every point)</source>
        <translation>CSV（显示的曲线，全部数据点）</translation>
    </message>
    <message>
        <source>as on screen</source>
        <translation>与屏幕相同</translation>
    </message>
    <message>
        <source>single column (89 mm)</source>
        <translation>单栏（89 mm）</translation>
    </message>
    <message>
        <source>double column (183 mm)</source>
        <translation>双栏（183 mm）</translation>
    </message>
    <message>
        <source>custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>as the figure needs</source>
        <translation>按图所需</translation>
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
        <source>Size</source>
        <translation>尺寸</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>Height</source>
        <translation>高度</translation>
    </message>
    <message>
        <source>Font size</source>
        <translation>字号</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Wrote %1: the blocks' text at %2 pt, to fit the width</source>
        <translation>已写入 %1：为适应宽度，模块文字为 %2 pt</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>&lt;p&gt;Shows the runs that match every word, ignoring case (as &lt;code&gt;normlab-cli list&lt;/code&gt;):&lt;/p&gt;&lt;ul&gt;&lt;li&gt;a text in the name, scheme, status, a tag, the notes, the server, the created time or the store;&lt;/li&gt;&lt;li&gt;&lt;b&gt;key op value&lt;/b&gt;, op one of &lt;code&gt;= != &amp;lt; &amp;lt;= &amp;gt; &amp;gt;=&lt;/code&gt; or &lt;code&gt;:&lt;/code&gt; (contains): &lt;code&gt;id&lt;/code&gt;, &lt;code&gt;name&lt;/code&gt;, &lt;code&gt;scheme&lt;/code&gt;, &lt;code&gt;status&lt;/code&gt;, &lt;code&gt;tag&lt;/code&gt;, &lt;code&gt;notes&lt;/code&gt;, &lt;code&gt;server&lt;/code&gt;, &lt;code&gt;steps&lt;/code&gt;, &lt;code&gt;val&lt;/code&gt; (the Val loss column) or a setting, by its path or last part: &lt;code&gt;optim.lr&lt;/code&gt;, &lt;code&gt;lr&lt;/code&gt;, &lt;code&gt;n_layers&lt;/code&gt;.&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;Examples: &lt;code&gt;ngpt val&amp;lt;3.2&lt;/code&gt; · &lt;code&gt;lr&amp;gt;=1e-3 status=finished&lt;/code&gt; · &lt;code&gt;tag:paper n_layers=48&lt;/code&gt; · &lt;code&gt;"seed 2"&lt;/code&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;显示与每个词都匹配的运行，不区分大小写（与 &lt;code&gt;normlab-cli list&lt;/code&gt; 相同）：&lt;/p&gt;&lt;ul&gt;&lt;li&gt;名称、方案、状态、某个标签、备注、服务器、创建时间或存储中的文本；&lt;/li&gt;&lt;li&gt;&lt;b&gt;键 运算符 值&lt;/b&gt;，运算符为 &lt;code&gt;= != &amp;lt; &amp;lt;= &amp;gt; &amp;gt;=&lt;/code&gt; 或 &lt;code&gt;:&lt;/code&gt;（包含）之一：&lt;code&gt;id&lt;/code&gt;、&lt;code&gt;name&lt;/code&gt;、&lt;code&gt;scheme&lt;/code&gt;、&lt;code&gt;status&lt;/code&gt;、&lt;code&gt;tag&lt;/code&gt;、&lt;code&gt;notes&lt;/code&gt;、&lt;code&gt;server&lt;/code&gt;、&lt;code&gt;steps&lt;/code&gt;、&lt;code&gt;val&lt;/code&gt;（验证损失列）或某项设置，按其路径或最后一段：&lt;code&gt;optim.lr&lt;/code&gt;、&lt;code&gt;lr&lt;/code&gt;、&lt;code&gt;n_layers&lt;/code&gt;。&lt;/li&gt;&lt;/ul&gt;&lt;p&gt;示例：&lt;code&gt;ngpt val&amp;lt;3.2&lt;/code&gt; · &lt;code&gt;lr&amp;gt;=1e-3 status=finished&lt;/code&gt; · &lt;code&gt;tag:paper n_layers=48&lt;/code&gt; · &lt;code&gt;"seed 2"&lt;/code&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Panels</source>
        <translation>面板(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Reset layout</source>
        <translation>重置布局(&amp;R)</translation>
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
    <message numerus="yes">
        <source>Trains on the CPU (%n thread(s))</source>
        <translation>
            <numerusform>在 CPU 上训练（%n 个线程）</numerusform>
        </translation>
    </message>
    <message>
        <source>Trains on %1</source>
        <translation>在 %1 上训练</translation>
    </message>
    <message>
        <source>Trains on %1 (%2 of %3 GiB free)</source>
        <translation>在 %1 上训练（%3 GiB 中 %2 GiB 可用）</translation>
    </message>
<message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Write text…</source>
        <translation>生成文本…</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>ssh asks:</source>
        <translation>ssh 询问：</translation>
    </message>
    <message>
        <source>NormLab — ssh</source>
        <translation>NormLab — ssh</translation>
    </message>
</context>
<context>
    <name>normlab::RemoteControl</name>
    <message>
        <source>cannot run %1: %2</source>
        <translation>无法运行 %1：%2</translation>
    </message>
    <message>
        <source>%1: every run followed has ended</source>
        <translation>%1：所有跟踪的运行均已结束</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%2 上的 %1</translation>
    </message>
    <message>
        <source>Run #%1 %2 on %3</source>
        <translation>%3 上的运行 #%1 %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 after %n step(s), validation loss %3</source>
        <translation>
            <numerusform>%1：%n 步后%2，验证损失 %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 after %n step(s)</source>
        <translation>
            <numerusform>%1：%n 步后%2</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: step %2/%3 (%4%) · loss %5</source>
        <translation>%1：第 %2/%3 步（%4%）· 损失 %5</translation>
    </message>
    <message>
        <source> · validation %1</source>
        <translation> · 验证 %1</translation>
    </message>
    <message>
        <source> · %1 tokens/s</source>
        <translation> · %1 词元/秒</translation>
    </message>
    <message>
        <source> · MFU %1%</source>
        <translation> · MFU %1%</translation>
    </message>
    <message>
        <source> · ETA %1</source>
        <translation> · 剩余 %1</translation>
    </message>
    <message numerus="yes">
        <source>Following %n run(s) on %1</source>
        <translation>
            <numerusform>正在跟踪 %1 上的 %n 个运行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Following the Slurm sweep in %1 on %2 (%n task store(s))</source>
        <translation>
            <numerusform>正在跟踪 %2 上 %1 中的 Slurm 扫描（%n 个任务存储）</numerusform>
        </translation>
    </message>
    <message>
        <source>Reconnected to %1; following again from the last row held</source>
        <translation>已重新连接到 %1；从已收到的最后一行继续跟踪</translation>
    </message>
    <message numerus="yes">
        <source>Connection to %1 lost (%2); reconnecting in %n s</source>
        <translation>
            <numerusform>与 %1 的连接已断开（%2）；%n 秒后重新连接</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: no run left to follow (each run mirrored from it has ended)</source>
        <translation>%1：没有可跟踪的运行（从该服务器镜像的每个运行均已结束）</translation>
    </message>
    <message numerus="yes">
        <source> (+%n more running)</source>
        <translation>
            <numerusform>（另有 %n 个正在运行）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::RemoteDialog</name>
    <message>
        <source>Train on a server</source>
        <translation>在服务器上训练</translation>
    </message>
    <message>
        <source>A host, user@host or an alias of ~/.ssh/config; your ssh, keys and agent are used as they are</source>
        <translation>主机、user@host 或 ~/.ssh/config 中的别名；将原样使用您的 ssh、密钥和代理</translation>
    </message>
    <message>
        <source>The server's normlab-cli: a full path, or a name its non-interactive shell finds on its PATH</source>
        <translation>服务器上的 normlab-cli：完整路径，或其非交互式 shell 能在 PATH 中找到的名称</translation>
    </message>
    <message>
        <source>its default store</source>
        <translation>其默认存储</translation>
    </message>
    <message>
        <source>Server (ssh):</source>
        <translation>服务器（ssh）：</translation>
    </message>
    <message>
        <source>NormLab on the server:</source>
        <translation>服务器上的 NormLab：</translation>
    </message>
    <message>
        <source>Store on the server:</source>
        <translation>服务器上的存储：</translation>
    </message>
    <message>
        <source>empty: train on the server itself</source>
        <translation>留空：直接在服务器上训练</translation>
    </message>
    <message>
        <source>A folder on the cluster: the runs are submitted there as a Slurm job array (the server is its login node), each task into a store of its own; every task is followed live</source>
        <translation>集群上的一个文件夹：运行将作为 Slurm 作业数组提交到那里（该服务器是其登录节点），每个任务写入自己的存储；每个任务都会被实时跟踪</translation>
    </message>
    <message>
        <source>Slurm sweep folder:</source>
        <translation>Slurm 扫描文件夹：</translation>
    </message>
    <message>
        <source>The opened experiment (none is open)</source>
        <translation>已打开的实验（尚未打开）</translation>
    </message>
    <message>
        <source>The experiment "%1", every run</source>
        <translation>实验“%1”，全部运行</translation>
    </message>
    <message>
        <source>The run the form describes</source>
        <translation>表单描述的运行</translation>
    </message>
    <message>
        <source>Train:</source>
        <translation>训练：</translation>
    </message>
    <message>
        <source>The runs train on the server detached: closing the window, sleep or a dropped network do not stop them. They appear here live, marked with the server's name.</source>
        <translation>运行在服务器上独立训练：关闭窗口、休眠或网络中断都不会使其停止。它们会实时显示在此处，并标有服务器名称。</translation>
    </message>
    <message>
        <source>&amp;Check server</source>
        <translation>检查服务器(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <source>Server: give a host, user@host or an alias of ~/.ssh/config.</source>
        <translation>服务器：请填写主机、user@host 或 ~/.ssh/config 中的别名。</translation>
    </message>
    <message>
        <source>Checking %1…</source>
        <translation>正在检查 %1…</translation>
    </message>
    <message>
        <source>Starting on %1…</source>
        <translation>正在 %1 上启动…</translation>
    </message>
    <message>
        <source>NormLab %1 on %2 (LibTorch %3)</source>
        <translation>%2 上的 NormLab %1（LibTorch %3）</translation>
    </message>
    <message>
        <source>store %1 (created by the first run)</source>
        <translation>存储 %1（首次运行时创建）</translation>
    </message>
    <message>
        <source>store %1</source>
        <translation>存储 %1</translation>
    </message>
    <message>
        <source>%1, %2 MiB (%3 MiB free)</source>
        <translation>%1，%2 MiB（%3 MiB 可用）</translation>
    </message>
    <message>
        <source>no CUDA GPU: runs train on its CPU</source>
        <translation>无 CUDA GPU：运行将在其 CPU 上训练</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s): %1; but its LibTorch has no CUDA: runs train on its CPU</source>
        <translation>
            <numerusform>%n 个 GPU：%1；但其 LibTorch 不支持 CUDA：运行将在其 CPU 上训练</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s): %1</source>
        <translation>
            <numerusform>%n 个 GPU：%1</numerusform>
        </translation>
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
        <source>The lab's sizes train every finding on a CPU in minutes; an experiment's named scale (gpu: the sizes of docs/REPRODUCTION-GPU.md, for a GPU) trains larger models longer, into the same store beside the other runs</source>
        <translation>实验室的规模在 CPU 上几分钟内训练每条结论；实验的命名规模（gpu：docs/REPRODUCTION-GPU.md 中的规模，适用于 GPU）会更长时间地训练更大的模型，写入同一存储，与其他运行并列</translation>
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
        <source>Model size</source>
        <translation>模型规模</translation>
    </message>
    <message>
        <source>The lab's sizes (a CPU, minutes)</source>
        <translation>实验室的规模（CPU，数分钟）</translation>
    </message>
    <message>
        <source>gpu: the sizes of docs/REPRODUCTION-GPU.md, for a GPU</source>
        <translation>gpu：docs/REPRODUCTION-GPU.md 中的规模，适用于 GPU</translation>
    </message>
    <message>
        <source>%1: a scale the experiments define</source>
        <translation>%1：实验定义的规模</translation>
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
        <translation>
            <numerusform>；%n 个运行</numerusform>
        </translation>
    </message>
    <message>
        <source>, up to %1 GiB each</source>
        <translation>，每个最多 %1 GiB</translation>
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
    <message>
        <source>Cannot start: %1 cannot be used at this size; remove it or pick another size</source>
        <translation>无法开始：%1 无法在此规模下使用；请将其移除或选择其他规模</translation>
    </message>
</context>
<context>
    <name>normlab::RunTableModel</name>
    <message>
        <source>Cannot read a run store: %1. Its runs are shown as they were last read.</source>
        <translation>无法读取运行存储：%1。其运行按最后一次读取时的样子显示。</translation>
    </message>
    <message>
        <source> @%1</source>
        <translation> @%1</translation>
    </message>
    <message>
        <source>this store</source>
        <translation>本存储</translation>
    </message>
    <message>
        <source>Opened for comparison, read-only: %1</source>
        <translation>为比较而打开（只读）：%1</translation>
    </message>
    <message>
        <source>Trains on %1 (run %2 of %3 there); followed live into this store over ssh</source>
        <translation>在 %1 上训练（那里 %3 的第 %2 个运行）；通过 ssh 实时跟踪到此存储</translation>
    </message>
    <message>
        <source>The latest validation loss, measured at step %1: the run has no final one yet.</source>
        <translation>最近一次验证损失，于第 %1 步测得：该运行尚无最终值。</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>diverged</source>
        <translation>已发散</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>The validation loss at the run's end; in italics, the latest of a run that has none yet (training, stopped)</source>
        <translation>运行结束时的验证损失；斜体为尚无该值的运行（训练中、已停止）的最近一次值</translation>
    </message>
    <message>
        <source>Steps trained; a run short of its steps shows them as done / total</source>
        <translation>已训练的步数；未完成全部步数的运行显示为 已完成 / 总数</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
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
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Store</source>
        <translation>存储</translation>
    </message>
</context>
<context>
    <name>normlab::SampleDialog</name>
    <message>
        <source>The weights run #%1 writes with</source>
        <translation>运行 #%1 生成文本所用的权重</translation>
    </message>
    <message>
        <source>Checkpoints (*.pt);;All files (*)</source>
        <translation>检查点 (*.pt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1 above this column writes with the weights of a checkpoint file.</source>
        <translation>此列上方的“%1”可用检查点文件中的权重生成文本。</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <source>Done: the same prompt and seed write the same text again.</source>
        <translation>完成：相同的提示和随机种子会再次生成相同的文本。</translation>
    </message>
    <message>
        <source>Writing with run #%1: %2 of %3 bytes…</source>
        <translation>正在用运行 #%1 生成：%2 / %3 字节…</translation>
    </message>
    <message>
        <source>Write text with the runs' weights</source>
        <translation>用运行的权重生成文本</translation>
    </message>
    <message>
        <source>&amp;Prompt:</source>
        <translation>提示(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Bytes:</source>
        <translation>字节数(&amp;B)：</translation>
    </message>
    <message>
        <source>&amp;Temperature:</source>
        <translation>温度(&amp;T)：</translation>
    </message>
    <message>
        <source>Top &amp;k:</source>
        <translation>Top &amp;k：</translation>
    </message>
    <message>
        <source>&amp;Seed:</source>
        <translation>随机种子(&amp;S)：</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Draw among the k likeliest bytes; all: every byte</source>
        <translation>在最可能的 k 个字节中抽取；全部：所有字节</translation>
    </message>
    <message>
        <source>0: always the likeliest byte; higher: more surprising bytes</source>
        <translation>0：总是取最可能的字节；越高：字节越出人意料</translation>
    </message>
    <message>
        <source>The text every run continues; it reads bytes, so any text will do</source>
        <translation>每个运行续写的文本；模型读取字节，因此任何文本都可以</translation>
    </message>
    <message>
        <source>Keep &amp;half the window past the context</source>
        <translation>超出上下文时保留一半窗口(&amp;H)</translation>
    </message>
    <message>
        <source>Once the text is longer than the model's context, keep the last half of what it read and go on from there, rather than read the whole context again for every byte: many times faster for big models; each byte then reads half a context to a whole one</source>
        <translation>文本超过模型的上下文长度后，保留已读内容的后一半并从那里继续，而不是为每个字节重新读取整个上下文：大模型快许多倍；此后每个字节读取半个到一整个上下文</translation>
    </message>
    <message>
        <source>&amp;Write</source>
        <translation>生成(&amp;W)</translation>
    </message>
    <message>
        <source>St&amp;op</source>
        <translation>停止(&amp;O)</translation>
    </message>
    <message>
        <source>weights of step %1</source>
        <translation>第 %1 步的权重</translation>
    </message>
    <message>
        <source>weights of step %1 from %2</source>
        <translation>来自 %2 的第 %1 步的权重</translation>
    </message>
    <message>
        <source>weights from %1</source>
        <translation>来自 %1 的权重</translation>
    </message>
    <message>
        <source>Weights…</source>
        <translation>权重…</translation>
    </message>
    <message>
        <source>Write with the weights of a checkpoint file (.pt) instead of the run's own: one that normlab-cli remote fetch --checkpoint brought from a server, or a copy of an earlier one</source>
        <translation>用检查点文件（.pt）中的权重代替运行自己的权重生成文本：可以是 normlab-cli remote fetch --checkpoint 从服务器取回的文件，也可以是早先检查点的副本</translation>
    </message>
    <message numerus="yes">
        <source>%n more selected run(s) left out: the first %1 are shown side by side.</source>
        <translation>
            <numerusform>另有 %n 个选中的运行未显示：并排显示前 %1 个。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::SweepChart</name>
    <message>
        <source>none yet</source>
        <translation>尚无</translation>
    </message>
<message>
        <source>Select two or more runs — a sweep — to see which of their settings moved the outcome.</source>
        <translation>选择两个或更多运行（一次扫描），查看哪些设置影响了结果。</translation>
    </message>
    <message>
        <source>These runs' settings are all the same: select runs that differ to compare them.</source>
        <translation>这些运行的设置完全相同：请选择设置不同的运行进行比较。</translation>
    </message>
    <message>
        <source>Every setting that differs among these runs is hidden (%1): show one to compare them.</source>
        <translation>这些运行之间不同的设置都已隐藏（%1）：请显示其中一个以进行比较。</translation>
    </message>
    <message>
        <source>Not shown: %1.</source>
        <translation>未显示：%1。</translation>
    </message>
    <message numerus="yes">
        <source>%n setting(s) the scheme implies (%1)</source>
        <translation>
            <numerusform>%n 个由方案决定的设置（%1）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n hidden (%1)</source>
        <translation>
            <numerusform>%n 个已隐藏（%1）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>normlab::TrainingWorker</name>
    <message>
        <source>removed from the queue</source>
        <translation>已从队列移除</translation>
    </message>
    <message>
        <source>skipped: it was no longer queued when its turn came</source>
        <translation>已跳过：轮到它时已不在队列中</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Run store file.</source>
        <translation>运行存储文件。</translation>
    </message>
    <message>
        <source>Experiment to open.</source>
        <translation>要打开的实验。</translation>
    </message>
    <message>
        <source>Start the opened experiment at once.</source>
        <translation>立即启动已打开的实验。</translation>
    </message>
    <message>
        <source>Train, save screenshots into DIR, quit.</source>
        <translation>训练，将截图保存到 DIR，然后退出。</translation>
    </message>
    <message>
        <source>Train and print the UI latency.</source>
        <translation>训练并打印界面延迟。</translation>
    </message>
    <message>
        <source>UI language (en, de, zh_CN).</source>
        <translation>界面语言（en、de、zh_CN）。</translation>
    </message>
    <message>
        <source>NormLab: normalization in Transformer language models
normlab report EXPERIMENT.json... --out DIR: reproduce the papers' findings (see normlab report --help)
normlab figure RUN... --out FILE.pdf: one chart of stored runs for a paper (see normlab figure --help)</source>
        <translation>NormLab：Transformer 语言模型中的归一化
normlab report EXPERIMENT.json... --out DIR：复现论文结论（见 normlab report --help）
normlab figure RUN... --out FILE.pdf：为论文绘制已存运行的一张图（见 normlab figure --help）</translation>
    </message>
    <message>
        <source>Open another run store beside it, read-only, to compare its runs (repeatable).</source>
        <translation>以只读方式并列打开另一个运行存储，以比较其运行（可重复）。</translation>
    </message>
    <message>
        <source>With --screenshots: the window's size, WIDTHxHEIGHT (default 1600x1000).</source>
        <translation>与 --screenshots 一起使用：窗口大小，宽x高（默认 1600x1000）。</translation>
    </message>
    <message>
        <source>Colours: system (the platform's, the default), light or dark; remembered from View → Theme otherwise.</source>
        <translation>颜色：system（平台的颜色，默认）、light 或 dark；否则使用“视图 → 主题”中记住的选择。</translation>
    </message>
</context>
<context>
    <name>normlab::BlockDiagram</name>
    <message>
        <source>A row per byte; every vector along d has norm 1 (the embeddings, the weights' rows or columns, renormalized after every optimizer step, and the hidden state h); no positions added (RoPE in the attention)</source>
        <translation>每个字节一行；沿 d 的每个向量范数为 1（嵌入、权重的行或列——每次优化器更新后重新归一化——以及隐藏状态 h）；不加位置（注意力中使用 RoPE）</translation>
    </message>
    <message>
        <source>q, k, v · RoPE</source>
        <translation>q, k, v · RoPE</translation>
    </message>
    <message>
        <source>q, k, v = h W_{q}ᵀ, h W_{k}ᵀ, h W_{v}ᵀ, split into heads; RoPE rotates q and k</source>
        <translation>q, k, v = h W_{q}ᵀ, h W_{k}ᵀ, h W_{v}ᵀ，拆分为多个头；RoPE 旋转 q 和 k</translation>
    </message>
    <message>
        <source>s_{qk} ⊙ q, k</source>
        <translation>s_{qk} ⊙ q, k</translation>
    </message>
    <message>
        <source>q and k each normalized per head and scaled by the learned s_{qk} (qk_norm off: scaled only)</source>
        <translation>q 和 k 按头归一化，并乘以学习到的 s_{qk}（qk_norm 关闭：仅缩放）</translation>
    </message>
    <message>
        <source>softmax(q kᵀ · √d_{h} + causal mask) v per head: q and k are unit vectors, so the product is a cosine</source>
        <translation>每个头 softmax(q kᵀ · √d_{h} + 因果掩码) v：q 和 k 是单位向量，其乘积是余弦</translation>
    </message>
    <message>
        <source>W_{O}</source>
        <translation>W_{O}</translation>
    </message>
    <message>
        <source>The output projection, its columns on the sphere</source>
        <translation>输出投影，其列位于球面上</translation>
    </message>
    <message>
        <source>norm → h_{A}</source>
        <translation>norm → h_{A}</translation>
    </message>
    <message>
        <source>h_{A} = norm(attention output): the sub-layer's suggestion, on the sphere</source>
        <translation>h_{A} = norm(注意力输出)：子层给出的建议，位于球面上</translation>
    </message>
    <message>
        <source>FC1 → u, g</source>
        <translation>FC1 → u, g</translation>
    </message>
    <message>
        <source>u, g = FC1 h: d → 2 × d_{ff}</source>
        <translation>u, g = FC1 h：d → 2 × d_{ff}</translation>
    </message>
    <message>
        <source>u ⊙ SiLU(g)</source>
        <translation>u ⊙ SiLU(g)</translation>
    </message>
    <message>
        <source>SwiGLU</source>
        <translation>SwiGLU</translation>
    </message>
    <message>
        <source>FC2</source>
        <translation>FC2</translation>
    </message>
    <message>
        <source>FC2: d_{ff} → d, its columns on the sphere</source>
        <translation>FC2：d_{ff} → d，其列位于球面上</translation>
    </message>
    <message>
        <source>norm → h_{M}</source>
        <translation>norm → h_{M}</translation>
    </message>
    <message>
        <source>h_{M} = norm(MLP output)</source>
        <translation>h_{M} = norm(MLP 输出)</translation>
    </message>
    <message>
        <source>Eigen learning rate: how far h moves towards the sub-layer's suggestion, learned per dimension (init 0.05)</source>
        <translation>本征学习率：h 向子层建议移动的幅度，按维度学习（初值 0.05）</translation>
    </message>
    <message>
        <source>Eigen learning rate, fixed at its initial value (eigen_lr off)</source>
        <translation>本征学习率，固定为初值（eigen_lr 关闭）</translation>
    </message>
    <message>
        <source>%1 ⊙</source>
        <translation>%1 ⊙</translation>
    </message>
    <message>
        <source>(1 − %1) ⊙</source>
        <translation>(1 − %1) ⊙</translation>
    </message>
    <message>
        <source>h + α ⊙ (h_{F} − h): h keeps 1 − α of itself</source>
        <translation>h + α ⊙ (h_{F} − h)：h 保留自身的 1 − α</translation>
    </message>
    <message>
        <source>norm</source>
        <translation>范数</translation>
    </message>
    <message>
        <source>h back onto the unit sphere after each update (nGPT eq. 10, 11)</source>
        <translation>每次更新后将 h 放回单位球面（nGPT 式 10、11）</translation>
    </message>
    <message>
        <source>logits = s_{z} ⊙ h W_{out}ᵀ</source>
        <translation>logits = s_{z} ⊙ h W_{out}ᵀ</translation>
    </message>
    <message>
        <source>The output embedding (untied, rows on the sphere), the logits scaled by the learned s_{z}</source>
        <translation>输出嵌入（不共享，行位于球面上），logits 乘以学习到的 s_{z}</translation>
    </message>
    <message>
        <source>embedding × √d</source>
        <translation>嵌入 × √d</translation>
    </message>
    <message>
        <source>embedding</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>Pre-LN: the sub-layer's input normalized, x ← x + F(LN(x)); the stream itself never is</source>
        <translation>Pre-LN：对子层的输入归一化，x ← x + F(LN(x))；残差流本身从不归一化</translation>
    </message>
    <message>
        <source>Post-LN: the stream normalized after each sum, x ← LN(x + F(x))</source>
        <translation>Post-LN：每次相加后对残差流归一化，x ← LN(x + F(x))</translation>
    </message>
    <message>
        <source>softmax(q kᵀ / √d_{h} + causal mask) v per head, q, k, v = x W_{qkv}ᵀ</source>
        <translation>每个头 softmax(q kᵀ / √d_{h} + 因果掩码) v，q, k, v = x W_{qkv}ᵀ</translation>
    </message>
    <message>
        <source>NormFormer's HeadScale: each head's output times its learned γ_{i}, init 1</source>
        <translation>NormFormer 的 HeadScale：每个头的输出乘以其学习到的 γ_{i}，初值 1</translation>
    </message>
    <message>
        <source>The output projection: Concat(heads) W_{O}ᵀ</source>
        <translation>输出投影：Concat(各头) W_{O}ᵀ</translation>
    </message>
    <message>
        <source>NormFormer's post-attention LN, over d, on the attention's output</source>
        <translation>NormFormer 的注意力后 LN，在 d 上作用于注意力输出</translation>
    </message>
    <message>
        <source>FC1</source>
        <translation>FC1</translation>
    </message>
    <message>
        <source>FC1: d → d_{ff} (SwiGLU: → 2 × d_{ff}, u and g)</source>
        <translation>FC1：d → d_{ff}（SwiGLU：→ 2 × d_{ff}，u 和 g）</translation>
    </message>
    <message>
        <source>The activation (model.activation)</source>
        <translation>激活函数（model.activation）</translation>
    </message>
    <message>
        <source>NormFormer's FFN LN, over d_{ff}, after the activation</source>
        <translation>NormFormer 的 FFN LN，在 d_{ff} 上，位于激活之后</translation>
    </message>
    <message>
        <source>FC2: d_{ff} → d</source>
        <translation>FC2：d_{ff} → d</translation>
    </message>
    <message>
        <source>× α_{t}</source>
        <translation>× α_{t}</translation>
    </message>
    <message>
        <source>BranchNorm: the sub-layer's output times α_{t}, rising from 0 to 1 over T steps</source>
        <translation>BranchNorm：子层输出乘以 α_{t}，α_{t} 在 T 步内从 0 升到 1</translation>
    </message>
    <message>
        <source>× α = %1</source>
        <translation>× α = %1</translation>
    </message>
    <message>
        <source>DeepNorm: the residual times α = (2N)^¼, x ← LN(α·x + F(x))</source>
        <translation>DeepNorm：残差乘以 α = (2N)^¼，x ← LN(α·x + F(x))</translation>
    </message>
    <message>
        <source>NormFormer's ResScale: the MLP's residual times a learned λ ∈ ℝᵈ, init 1</source>
        <translation>NormFormer 的 ResScale：MLP 的残差乘以学习到的 λ ∈ ℝᵈ，初值 1</translation>
    </message>
    <message>
        <source>The final norm before the output layer</source>
        <translation>输出层之前的最终归一化</translation>
    </message>
    <message>
        <source>logits = x Eᵀ</source>
        <translation>logits = x Eᵀ</translation>
    </message>
    <message>
        <source>logits = x W_{out}ᵀ</source>
        <translation>logits = x W_{out}ᵀ</translation>
    </message>
    <message>
        <source>The output layer, tied to the token embedding</source>
        <translation>输出层，与词元嵌入共享权重</translation>
    </message>
    <message>
        <source>The output layer, its own matrix (untied)</source>
        <translation>输出层，使用自己的矩阵（不共享）</translation>
    </message>
    <message>
        <source>%1 (click to switch it off in the form)</source>
        <translation>%1（单击可在表单中关闭）</translation>
    </message>
    <message>
        <source>Off: %1 (click to switch it on in the form)</source>
        <translation>关闭：%1（单击可在表单中打开）</translation>
    </message>
    <message numerus="yes">
        <source>× %n layer(s)</source>
        <translation>
            <numerusform>× %n 层</numerusform>
        </translation>
    </message>
    <message>
        <source> (off)</source>
        <translation>（关闭）</translation>
    </message>
    <message>
        <source>embedding, ‖·‖ = 1</source>
        <translation>嵌入，‖·‖ = 1</translation>
    </message>
    <message>
        <source>s_{qk} ⊙ norm(q, k)</source>
        <translation>s_{qk} ⊙ norm(q, k)</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>s_{u} ⊙ u, s_{v} ⊙ g</source>
        <translation>s_{u} ⊙ u, s_{v} ⊙ g</translation>
    </message>
    <message>
        <source>The learned scalers s_{u} and s_{v} (fixed at 1 with scalers off); g also × √d</source>
        <translation>学习到的缩放因子 s_{u} 和 s_{v}（scalers 关闭时固定为 1）；g 另乘 √d</translation>
    </message>
    <message>
        <source>embedding × √d + positions</source>
        <translation>嵌入 × √d + 位置</translation>
    </message>
    <message>
        <source>embedding + positions</source>
        <translation>嵌入 + 位置</translation>
    </message>
    <message>
        <source>embedding × √d + sin. positions</source>
        <translation>嵌入 × √d + 正弦位置</translation>
    </message>
    <message>
        <source>embedding + sin. positions</source>
        <translation>嵌入 + 正弦位置</translation>
    </message>
    <message>
        <source>x₀ = E[byte] (× √d with embed_scale), plus absolute positions where the model has them: learned, or sinusoidal (sin.); RoPE is in the attention</source>
        <translation>x₀ = E[字节]（embed_scale 时 × √d），模型有绝对位置时再加上位置：学习的或正弦的；RoPE 在注意力中</translation>
    </message>
    <message>
        <source>attention · RoPE</source>
        <translation>注意力 · RoPE</translation>
    </message>
    <message>
        <source>HeadScale γ</source>
        <translation>HeadScale γ</translation>
    </message>
    <message>
        <source>ResScale λ ⊙</source>
        <translation>ResScale λ ⊙</translation>
    </message>
</context>
<context>
    <name>normlab::Figure</name>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>unknown format %1; use png, svg, pdf or csv</source>
        <translation>未知格式 %1；请使用 png、svg、pdf 或 csv</translation>
    </message>
    <message>
        <source>▲ non-finite (%1)</source>
        <translation>▲ 非有限值（%1）</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>layer %1</source>
        <translation>第 %1 层</translation>
    </message>
    <message>
        <source>layers %1–%2</source>
        <translation>第 %1–%2 层</translation>
    </message>
    <message>
        <source>another program is writing it now; try again once that has finished</source>
        <translation>另一个程序正在写入该文件；请在其完成后重试</translation>
    </message>
    <message>
        <source>it is write-protected (%1); make it writable or choose another name</source>
        <translation>该文件受写保护（%1）；请使其可写或选择其他名称</translation>
    </message>
    <message>
        <source>the folder %1 does not exist</source>
        <translation>文件夹 %1 不存在</translation>
    </message>
    <message>
        <source>the folder %1 cannot be written in (%2): a file is first saved there as %3 and then renamed, so that a save cut short never leaves half a file; choose a folder you can write</source>
        <translation>无法写入文件夹 %1（%2）：文件会先在那里保存为 %3 再重命名，这样中断的保存绝不会留下半个文件；请选择您可以写入的文件夹</translation>
    </message>
    <message>
        <source>%1, an unfinished save's file, is in the way and cannot be written (%2); remove it or choose another name</source>
        <translation>%1 是一次未完成保存留下的文件，它挡住了去路且无法写入（%2）；请删除它或选择其他名称</translation>
    </message>
</context>
</TS>