# Translations of NormLab's visible strings: source → (German, Simplified Chinese).
# scripts/update-translations.sh writes them into the .ts files; a test checks
# that no string is left unfinished. A plural ("%n run(s)") takes a list of
# German forms [one, many]; Chinese has one form.
T = {
    # the form across a quit (app/gui/mainwindow_form.cpp)
    "Variant to edit": ("Zu bearbeitende Variante", "要编辑的变体"),
    "Which run of the opened experiment the form shows and edits: Run trains it, Save writes its changes":
        ("Welcher Lauf des geöffneten Experiments im Formular gezeigt und bearbeitet wird: Starten trainiert ihn, Speichern schreibt seine Änderungen",
         "表单显示并编辑已打开实验中的哪个运行：“运行”训练它，“保存”写入其更改"),
    "The experiment form has changes not saved in a file.":
        ("Das Experiment-Formular hat Änderungen, die in keiner Datei gespeichert sind.", "实验表单有尚未保存到文件的更改。"),
    "Save them in an experiment file? If you do not decide now (Cancel), nothing is lost; Discard forgets them.":
        ("In einer Experimentdatei speichern? Wenn Sie jetzt nicht entscheiden (Abbrechen), geht nichts verloren; Verwerfen vergisst sie.",
         "要将它们保存到实验文件吗？现在不决定（取消）则不会丢失任何内容；“放弃”会丢弃这些更改。"),
    "The experiment form is as you left it, with changes not saved in a file":
        ("Das Experiment-Formular ist so, wie Sie es verlassen haben, mit Änderungen, die in keiner Datei gespeichert sind",
         "实验表单保持您离开时的样子，包含尚未保存到文件的更改"),
    # train.precision (core/train/precision.h)
    "Precision": ("Genauigkeit", "精度"),
    "fp32; tf32: GPU tensor cores, fp32 elsewhere; bf16: mixed precision, fp32 weights":
        ("fp32; tf32: Tensor-Kerne der GPU, sonst fp32; bf16: gemischte Genauigkeit, Gewichte in fp32",
         "fp32；tf32：GPU 张量核心，其他设备上为 fp32；bf16：混合精度，权重为 fp32"),
    # train.cuda_graph (core/train/static_step.h)
    "CUDA graph": ("CUDA-Graph", "CUDA 图"),
    "On a GPU, the training step captured once and replayed with one launch; auto: where the run allows it":
        ("Auf einer GPU wird der Trainingsschritt einmal aufgezeichnet und mit einem Start wiederholt; auto: wo der Lauf es erlaubt",
         "在 GPU 上，训练步骤只捕获一次，之后以一次启动重放；auto：在运行允许时使用"),
    # MFU (core/flops.h)
    "Model-FLOPs utilisation (MFU)": ("Modell-FLOP-Auslastung (MFU)", "模型浮点运算利用率（MFU）"),
    " · MFU %1%": (" · MFU %1 %", " · MFU %1%"),
    # resuming runs, read-only stores
    "Resume": ("Fortsetzen", "继续"),
    "&Resume from checkpoint": ("Ab Checkpoint &fortsetzen", "从检查点继续(&R)"),
    "Re&name…": ("Umbe&nennen…", "重命名(&N)…"),
    "&Tags…": ("&Tags…", "标签(&T)…"),
    "N&otes…": ("N&otizen…", "备注(&O)…"),
    "&Delete…": ("&Löschen…", "删除(&D)…"),
    "resuming": ("wird fortgesetzt", "正在继续"),
    "This store is open read-only: runs cannot be resumed into it.":
        ("Dieser Speicher ist schreibgeschützt geöffnet: Läufe können darin nicht fortgesetzt werden.",
         "此存储以只读方式打开：无法在其中继续运行。"),
    "Not resumed (finished, training or queued): %1": ("Nicht fortgesetzt (fertig, im Training oder eingereiht): %1",
                                                       "未继续（已完成、训练中或已排队）：%1"),
    "This store is open read-only: open a writable store to train (File → Open run store).":
        ("Dieser Speicher ist schreibgeschützt geöffnet: zum Trainieren einen beschreibbaren Speicher öffnen (Datei → Laufspeicher öffnen).",
         "此存储以只读方式打开：请打开可写的存储再训练（文件 → 打开运行存储）。"),
    " (read-only)": (" (schreibgeschützt)", "（只读）"),
    "NormLab — %1 (read-only)": ("NormLab — %1 (schreibgeschützt)", "NormLab — %1（只读）"),
    "Embeddings × √d": ("Einbettungen × √d", "嵌入 × √d"),
    # main window
    "NormLab": ("NormLab", "NormLab"),
    "Experiment": ("Experiment", "实验"),
    "Run": ("Starten", "运行"),
    "Status": ("Status", "状态"),
    "Progress": ("Fortschritt", "进度"),
    "Loss": ("Verlust", "损失"),
    "Tokens/s": ("Tokens/s", "词元/秒"),
    "ETA": ("Restzeit", "剩余时间"),
    "Cancel": ("Abbrechen", "取消"),
    "Pause": ("Pausieren", "暂停"),
    "Resume": ("Fortsetzen", "继续"),
    "Queue": ("Warteschlange", "队列"),
    "Filter runs (name, scheme, status, tags, notes; lr>=1e-3, val<3.2)…":
        ("Läufe filtern (Name, Schema, Status, Tags, Notizen; lr>=1e-3, val<3.2)…",
         "筛选运行（名称、方案、状态、标签、备注；lr>=1e-3、val<3.2）…"),
    "<p>Shows the runs that match every word, ignoring case (as <code>normlab-cli list</code>):</p>"
    "<ul><li>a text in the name, scheme, status, a tag, the notes, the server, the created time or the store;</li>"
    "<li><b>key op value</b>, op one of <code>= != &lt; &lt;= &gt; &gt;=</code> or <code>:</code> (contains): "
    "<code>id</code>, <code>name</code>, <code>scheme</code>, <code>status</code>, <code>tag</code>, "
    "<code>notes</code>, <code>server</code>, <code>steps</code>, <code>val</code> (the Val loss column) "
    "or a setting, by its path or last part: <code>optim.lr</code>, <code>lr</code>, <code>n_layers</code>.</li></ul>"
    "<p>Examples: <code>ngpt val&lt;3.2</code> · <code>lr&gt;=1e-3 status=finished</code> · "
    "<code>tag:paper n_layers=48</code> · <code>\"seed 2\"</code></p>":
        ("<p>Zeigt die Läufe, die auf jedes Wort passen, ohne Rücksicht auf Groß- und Kleinschreibung (wie <code>normlab-cli list</code>):</p>"
         "<ul><li>ein Text in Name, Schema, Status, einem Tag, den Notizen, dem Server, der Erstellungszeit oder dem Speicher;</li>"
         "<li><b>Schlüssel Op Wert</b>, Op eines von <code>= != &lt; &lt;= &gt; &gt;=</code> oder <code>:</code> (enthält): "
         "<code>id</code>, <code>name</code>, <code>scheme</code>, <code>status</code>, <code>tag</code>, "
         "<code>notes</code>, <code>server</code>, <code>steps</code>, <code>val</code> (die Spalte Val.-Verlust) "
         "oder eine Einstellung, über ihren Pfad oder letzten Teil: <code>optim.lr</code>, <code>lr</code>, <code>n_layers</code>.</li></ul>"
         "<p>Beispiele: <code>ngpt val&lt;3.2</code> · <code>lr&gt;=1e-3 status=finished</code> · "
         "<code>tag:paper n_layers=48</code> · <code>\"seed 2\"</code></p>",
         "<p>显示与每个词都匹配的运行，不区分大小写（与 <code>normlab-cli list</code> 相同）：</p>"
         "<ul><li>名称、方案、状态、某个标签、备注、服务器、创建时间或存储中的文本；</li>"
         "<li><b>键 运算符 值</b>，运算符为 <code>= != &lt; &lt;= &gt; &gt;=</code> 或 <code>:</code>（包含）之一："
         "<code>id</code>、<code>name</code>、<code>scheme</code>、<code>status</code>、<code>tag</code>、"
         "<code>notes</code>、<code>server</code>、<code>steps</code>、<code>val</code>（验证损失列）"
         "或某项设置，按其路径或最后一段：<code>optim.lr</code>、<code>lr</code>、<code>n_layers</code>。</li></ul>"
         "<p>示例：<code>ngpt val&lt;3.2</code> · <code>lr&gt;=1e-3 status=finished</code> · "
         "<code>tag:paper n_layers=48</code> · <code>\"seed 2\"</code></p>"),
    "Rename": ("Umbenennen", "重命名"),
    "Tags": ("Tags", "标签"),
    "Notes": ("Notizen", "备注"),
    "Delete": ("Löschen", "删除"),
    "Runs — select several to compare": ("Läufe — mehrere wählen zum Vergleichen", "运行记录 — 选择多个以比较"),
    "Settings that differ": ("Abweichende Einstellungen", "不同的设置"),
    "&File": ("&Datei", "文件(&F)"),
    "&Open experiment…": ("Experiment ö&ffnen…", "打开实验(&O)…"),
    "Open experiment": ("Experiment öffnen", "打开实验"),
    "Experiments (*.json)": ("Experimente (*.json)", "实验 (*.json)"),
    "&Save experiment…": ("Experiment &speichern…", "保存实验(&S)…"),
    "Save experiment": ("Experiment speichern", "保存实验"),
    "&Recent experiments": ("&Zuletzt geöffnete Experimente", "最近的实验(&R)"),
    "(none yet)": ("(noch keine)", "（暂无）"),
    "Open run &store…": ("Lauf&speicher öffnen…", "打开运行存储(&S)…"),
    "Open run store": ("Laufspeicher öffnen", "打开运行存储"),
    "Run stores (*.sqlite *.db);;All files (*)": ("Laufspeicher (*.sqlite *.db);;Alle Dateien (*)", "运行存储 (*.sqlite *.db);;所有文件 (*)"),
    "&Export chart…": ("Diagramm &exportieren…", "导出图表(&E)…"),
    "Export &panel…": ("&Tafel exportieren…", "导出面板(&P)…"),
    "&Quit": ("&Beenden", "退出(&Q)"),
    "&Run": ("&Lauf", "运行(&R)"),
    "Run &experiment": ("&Experiment starten", "运行实验(&E)"),
    "&Stop": ("&Stoppen", "停止(&S)"),
    "&View": ("&Ansicht", "视图(&V)"),
    "&Log-scale loss": ("&Logarithmischer Verlust", "对数损失轴(&L)"),
    "&Smoothing": ("&Glättung", "平滑(&S)"),
    "Reset &zoom": ("&Zoom zurücksetzen", "重置缩放(&Z)"),
    "&Panels": ("&Bereiche", "面板(&P)"),
    "&Reset layout": ("Anordnung &zurücksetzen", "重置布局(&R)"),
    "&Edit": ("&Bearbeiten", "编辑(&E)"),
    "&Load settings into the form": ("Einstellungen ins Formular &laden", "将设置载入表单(&L)"),
    "Settings of run #%1 loaded into the form": ("Einstellungen von Lauf #%1 ins Formular geladen", "已将运行 #%1 的设置载入表单"),
    "&Undo": ("&Rückgängig", "撤销(&U)"),
    "&Redo": ("&Wiederherstellen", "重做(&R)"),
    "each run its own line": ("jeder Lauf als eigene Linie", "每个运行一条线"),
    "runs differing only by seed: mean ± std": ("Läufe, die sich nur im Seed unterscheiden: Mittel ± Std.-Abw.",
                                                 "仅种子不同的运行：均值 ± 标准差"),
    "runs differing only by seed: mean, min–max": ("Läufe, die sich nur im Seed unterscheiden: Mittel, Min.–Max.",
                                                    "仅种子不同的运行：均值，最小–最大"),
    "Runs whose settings are equal but for the seed are drawn as one line, their mean, with a shaded band; a run alone in its group keeps its own line.":
        ("Läufe, deren Einstellungen bis auf den Seed gleich sind, werden als eine Linie (ihr Mittel) mit schattiertem Band gezeichnet; ein Lauf allein in seiner Gruppe behält seine eigene Linie.",
         "除种子外设置相同的运行绘制为一条线（其均值）并带阴影带；组中只有一个运行时保持其自己的线。"),
    "Group runs": ("Läufe gruppieren", "运行分组"),
    "%1 (×%2)": ("%1 (×%2)", "%1（×%2）"),
    " (smoothed %1)": (" (geglättet %1)", "（平滑 %1）"),
    "… and %1 more": ("… und %1 weitere", "… 另有 %1 条"),
    "x: %1": ("x: %1", "x：%1"),
    "y: %1": ("y: %1", "y：%1"),
    "&Language": ("&Sprache", "语言(&L)"),
    "System": ("System", "系统"),
    # View → Theme (app/gui/mainwindow_theme.cpp)
    "&Theme": ("&Farbschema", "主题(&T)"),
    "Follow the &system": ("&System folgen", "跟随系统(&S)"),
    "&Light": ("&Hell", "浅色(&L)"),
    "&Dark": ("&Dunkel", "深色(&D)"),
    "&Help": ("&Hilfe", "帮助(&H)"),
    "&About NormLab": ("&Über NormLab", "关于 NormLab(&A)"),
    "About NormLab": ("Über NormLab", "关于 NormLab"),
    "CUDA available": ("CUDA verfügbar", "CUDA 可用"),
    "CPU only": ("nur CPU", "仅 CPU"),
    "Run experiment": ("Experiment starten", "运行实验"),
    "queued": ("wartend", "排队中"),
    "running": ("läuft", "运行中"),
    "Rename run": ("Lauf umbenennen", "重命名运行"),
    "Name": ("Name", "名称"),
    "Comma-separated tags": ("Tags, durch Kommas getrennt", "以逗号分隔的标签"),
    "Delete runs": ("Läufe löschen", "删除运行"),
    "Export panel": ("Tafel exportieren", "导出面板"),
    "Export chart": ("Diagramm exportieren", "导出图表"),
    "CSV (the curves shown, every point)": ("CSV (die gezeigten Kurven, jeder Punkt)", "CSV（显示的曲线，全部数据点）"),
    "every curve is hidden: click a run in the legend to show it, then export":
        ("alle Kurven sind ausgeblendet: einen Lauf in der Legende anklicken, um ihn zu zeigen, dann exportieren",
         "所有曲线均已隐藏：请在图例中点击一个运行以显示它，然后再导出"),
    "every run is hidden: click one in the legend to show it, then export":
        ("alle Läufe sind ausgeblendet: einen in der Legende anklicken, um ihn zu zeigen, dann exportieren",
         "所有运行均已隐藏：请在图例中点击一个以显示它，然后再导出"),
    "Format": ("Format", "格式"),
    "Resolution (PNG, DPI)": ("Auflösung (PNG, DPI)", "分辨率（PNG，DPI）"),
    "Export": ("Exportieren", "导出"),
    "Wrote %1": ("%1 geschrieben", "已写入 %1"),
    "Quit": ("Beenden", "退出"),
    "Run store": ("Laufspeicher", "运行存储"),
    "Store: %1 · UI latency p50 %2 ms, p99 %3 ms": ("Speicher: %1 · UI-Latenz p50 %2 ms, p99 %3 ms", "存储：%1 · 界面延迟 p50 %2 ms，p99 %3 ms"),
    "Cannot run: %1": ("Kann nicht starten: %1", "无法运行：%1"),
    "Open an experiment file first (Ctrl+O).": ("Zuerst eine Experimentdatei öffnen (Strg+O).", "请先打开实验文件（Ctrl+O）。"),
    # designer
    "Scheme": ("Schema", "方案"),
    "auto": ("automatisch", "自动"),
    "Choose a file to train on": ("Trainingsdatei wählen", "选择训练文件"),
    "Training data": ("Trainingsdaten", "训练数据"),
    "Train this configuration (Ctrl+R)": ("Diese Konfiguration trainieren (Strg+R)", "训练此配置（Ctrl+R）"),
    "Disabled: %1": ("Deaktiviert: %1", "已禁用：%1"),
    "Open an experiment file first (Ctrl+O)": ("Zuerst eine Experimentdatei öffnen (Strg+O)", "请先打开实验文件（Ctrl+O）"),
    "Placement — Xiong et al. 2020": ("Platzierung — Xiong et al. 2020", "位置 — Xiong 等 2020"),
    "Layout": ("Anordnung", "布局"),
    "Final norm": ("Abschließende Norm", "最终归一化"),
    "Norm": ("Norm", "归一化"),
    "HeadScale placement": ("Position von HeadScale", "HeadScale 位置"),
    "Post-attention LN": ("LN nach der Attention", "注意力后 LN"),
    "FFN LN": ("FFN-LN", "FFN LN"),
    "Residual α": ("Residual-α", "残差 α"),
    "α (empty: (2N)^{1/4})": ("α (leer: (2N)^{1/4})", "α（留空：(2N)^{1/4}）"),
    "β-scaled init": ("β-skalierte Initialisierung", "β 缩放初始化"),
    "β (empty: (8N)^{−1/4})": ("β (leer: (8N)^{−1/4})", "β（留空：(8N)^{−1/4}）"),
    "Branch factor α_{t}": ("Zweigfaktor α_{t}", "分支系数 α_{t}"),
    "Schedule": ("Zeitplan", "调度"),
    "T (steps)": ("T (Schritte)", "T（步数）"),
    "Eigen learning rates": ("Eigen-Lernraten", "特征学习率"),
    "Weight renormalisation": ("Gewichts-Renormierung", "权重重新归一化"),
    "Model": ("Modell", "模型"),
    "Layers": ("Schichten", "层数"),
    "Blocks N": ("Blöcke N", "块数 N"),
    "Heads": ("Köpfe", "头数"),
    "Must divide d_model": ("Muss d_model teilen", "必须整除 d_model"),
    "MLP width": ("MLP-Breite", "MLP 宽度"),
    "Context": ("Kontext", "上下文"),
    "Bytes per sequence": ("Bytes pro Sequenz", "每个序列的字节数"),
    "Activation": ("Aktivierung", "激活函数"),
    "Positions": ("Positionen", "位置编码"),
    "Dropout": ("Dropout", "Dropout"),
    "Tied embeddings": ("Geteilte Einbettungen", "共享嵌入"),
    "Biases": ("Biases", "偏置"),
    "Init": ("Initialisierung", "初始化"),
    "Data": ("Daten", "数据"),
    "Source": ("Quelle", "来源"),
    "File": ("Datei", "文件"),
    "Markov order": ("Markov-Ordnung", "马尔可夫阶数"),
    "Markov alphabet": ("Markov-Alphabet", "马尔可夫字母表"),
    "Optimizer": ("Optimierer", "优化器"),
    "Learning rate": ("Lernrate", "学习率"),
    "Weight decay": ("Gewichtsabnahme", "权重衰减"),
    "Never on norms, biases or scalers": ("Nie auf Normen, Biases oder Skalierer", "从不用于归一化、偏置或缩放参数"),
    "Gradient clip": ("Gradientenbegrenzung", "梯度裁剪"),
    "Global L2 norm; 0 disables": ("Globale L2-Norm; 0 schaltet ab", "全局 L2 范数；0 表示关闭"),
    "Warm-up steps": ("Aufwärmschritte", "预热步数"),
    "Ramp increment": ("Rampenschritt", "斜坡增量"),
    "Training": ("Training", "训练"),
    "Steps": ("Schritte", "步数"),
    "Batch": ("Batch", "批大小"),
    "Seed": ("Seed", "随机种子"),
    "Device": ("Gerät", "设备"),
    "Validate every": ("Validieren alle", "验证间隔"),
    "Probes (every N steps; 0: off)": ("Sonden (alle N Schritte; 0: aus)", "探针（每 N 步；0：关闭）"),
    "Gradients": ("Gradienten", "梯度"),
    "Hidden states": ("Verborgene Zustände", "隐藏状态"),
    "Gains": ("Verstärkungen", "增益"),
    "Condition numbers": ("Konditionszahlen", "条件数"),
    # run table
    "Val loss": ("Val.-Verlust", "验证损失"),
    "Created": ("Erstellt", "创建时间"),
    # export
    "this view has no chart to export": ("diese Ansicht hat kein Diagramm zum Exportieren", "此视图没有可导出的图表"),
    # run colours
    "&Colour…": ("&Farbe…", "颜色(&C)…"),
    "Colour of run #%1": ("Farbe von Lauf #%1", "运行 #%1 的颜色"),
    # designer
    "These apply only to the nGPT layout (Layout: ngpt, or the nGPT scheme)": ("Gilt nur für das nGPT-Layout (Layout: ngpt oder das nGPT-Schema)", "仅适用于 nGPT 布局（布局：ngpt，或 nGPT 方案）"),
    "nGPT has no LayerNorm: these do not apply to the nGPT layout": ("nGPT hat keine LayerNorm: diese Optionen gelten nicht für das nGPT-Layout", "nGPT 没有 LayerNorm：这些选项不适用于 nGPT 布局"),
    "Threads": ("Threads", "线程数"),
    "CPU threads LibTorch uses; 0: all cores": ("CPU-Threads, die LibTorch nutzt; 0: alle Kerne", "LibTorch 使用的 CPU 线程数；0：全部核心"),
    "%1 sets %2.": ("%1 setzt %2.", "%1 设置了 %2。"),
    "Restored what the previous scheme had changed: %1.": ("Zurückgesetzt, was das vorige Schema geändert hatte: %1.",
                                                           "已恢复上一个方案更改的设置：%1。"),
    "Saved; %1 is set by the experiment's sweep, so the form's value was not saved": ("Gespeichert; %1 wird vom Sweep des Experiments gesetzt, der Wert aus dem Formular wurde daher nicht gespeichert", "已保存；%1 由实验的扫描设定，因此表单中的值未保存"),
    "cannot write %1: %2": ("%1 kann nicht geschrieben werden: %2", "无法写入 %1：%2"),

    # ---- completing the translations (issue: 0 unfinished strings)
    # designer
    "A scheme is a preset of the components below; change any of them afterwards for ablations.":
        ("Ein Schema ist eine Voreinstellung der Komponenten darunter; jede lässt sich danach für Ablationen ändern.",
         "方案是下列组件的预设；之后可更改任一组件以做消融实验。"),
    "…": ("…", "…"),
    "Queue all %n run(s) of %1": (["Den %n Lauf von %1 einreihen", "Alle %n Läufe von %1 einreihen"], "将 %1 的全部 %n 个运行加入队列"),
    "The runs of %1; Run experiment queues them all": ("Die Läufe von %1; „Experiment starten“ reiht alle ein", "%1 的运行；“运行实验”会将其全部加入队列"),
    "post: x ← LN(x + F(x))  (Post-LN, Vaswani et al.)\npre: x ← x + F(LN(x))  (Pre-LN, Xiong et al. 2020)\nngpt: h ← norm(h + α(norm(F(h)) − h))  (nGPT, Loshchilov et al.)":
        ("post: x ← LN(x + F(x))  (Post-LN, Vaswani et al.)\npre: x ← x + F(LN(x))  (Pre-LN, Xiong et al. 2020)\nngpt: h ← norm(h + α(norm(F(h)) − h))  (nGPT, Loshchilov et al.)",
         "post：x ← LN(x + F(x))（Post-LN，Vaswani 等）\npre：x ← x + F(LN(x))（Pre-LN，Xiong 等 2020）\nngpt：h ← norm(h + α(norm(F(h)) − h))（nGPT，Loshchilov 等）"),
    "A norm before the output layer: logits = LN(x_{L})·W_{out}ᵀ (Pre-LN; Xiong et al. 2020)":
        ("Eine Normierung vor der Ausgabeschicht: logits = LN(x_{L})·W_{out}ᵀ (Pre-LN; Xiong et al. 2020)",
         "输出层之前的归一化：logits = LN(x_{L})·W_{out}ᵀ（Pre-LN；Xiong 等 2020）"),
    "layernorm: γ⊙(x − μ)/σ + β\nrmsnorm: γ⊙x/√(mean(x²) + ε)": ("layernorm: γ⊙(x − μ)/σ + β\nrmsnorm: γ⊙x/√(mean(x²) + ε)", "layernorm：γ⊙(x − μ)/σ + β\nrmsnorm：γ⊙x/√(mean(x²) + ε)"),
    "NormFormer — Shleifer et al.": ("NormFormer — Shleifer et al.", "NormFormer — Shleifer 等"),
    "HeadScale": ("HeadScale", "HeadScale（头缩放）"),
    "h_{i} ← γ_{i}·h_{i}, γ ∈ ℝ^{H}, init 1: Concat(γ₁h₁, …, γ_{H}h_{H})·W_{O} (NormFormer §3)":
        ("h_{i} ← γ_{i}·h_{i}, γ ∈ ℝ^{H}, Startwert 1: Concat(γ₁h₁, …, γ_{H}h_{H})·W_{O} (NormFormer §3)",
         "h_{i} ← γ_{i}·h_{i}，γ ∈ ℝ^{H}，初值 1：Concat(γ₁h₁, …, γ_{H}h_{H})·W_{O}（NormFormer §3）"),
    "before_out_proj: the paper's form\nafter_out_proj: fairseq's (scales per-head slices of the output)":
        ("before_out_proj: die Form des Artikels\nafter_out_proj: die von fairseq (skaliert die Kopf-Abschnitte der Ausgabe)",
         "before_out_proj：论文的形式\nafter_out_proj：fairseq 的形式（缩放输出中各头的切片）"),
    "o ← LN(Attention(LN(x))·W_{O}) before the residual add (NormFormer §3)":
        ("o ← LN(Attention(LN(x))·W_{O}) vor der Residual-Addition (NormFormer §3)", "o ← LN(Attention(LN(x))·W_{O})，在残差相加之前（NormFormer §3）"),
    "f ← FC2(LN(act(FC1(LN(x))))): a LayerNorm over d_ff after the activation (NormFormer §3)":
        ("f ← FC2(LN(act(FC1(LN(x))))): eine LayerNorm über d_ff nach der Aktivierung (NormFormer §3)",
         "f ← FC2(LN(act(FC1(LN(x)))))：激活之后在 d_ff 上的 LayerNorm（NormFormer §3）"),
    "ResScale": ("ResScale", "ResScale（残差缩放）"),
    "x ← λ⊙x + FFN(LN(x)), λ ∈ ℝ^{d}, init 1 (NormFormer §3; helps small models)":
        ("x ← λ⊙x + FFN(LN(x)), λ ∈ ℝ^{d}, Startwert 1 (NormFormer §3; hilft kleinen Modellen)",
         "x ← λ⊙x + FFN(LN(x))，λ ∈ ℝ^{d}，初值 1（NormFormer §3；对小模型有帮助）"),
    "DeepNorm — Wang et al.": ("DeepNorm — Wang et al.", "DeepNorm — Wang 等"),
    "x ← LN(α·x + F(x)), α = (2N)^{1/4} for an N-layer decoder (DeepNet)":
        ("x ← LN(α·x + F(x)), α = (2N)^{1/4} für einen Decoder mit N Schichten (DeepNet)", "x ← LN(α·x + F(x))，N 层解码器的 α = (2N)^{1/4}（DeepNet）"),
    "Override of DeepNorm's residual weight α": ("Überschreibt DeepNorms Residualgewicht α", "覆盖 DeepNorm 的残差权重 α"),
    "Xavier-normal init with gain β = (8N)^{−1/4} on W_{v}, W_{O}, FC1, FC2 and 1 on W_{q}, W_{k} (DeepNet)":
        ("Xavier-Normal-Initialisierung mit Faktor β = (8N)^{−1/4} für W_{v}, W_{O}, FC1, FC2 und 1 für W_{q}, W_{k} (DeepNet)",
         "Xavier 正态初始化：W_{v}、W_{O}、FC1、FC2 增益为 β = (8N)^{−1/4}，W_{q}、W_{k} 为 1（DeepNet）"),
    "Override of DeepNorm's init gain β": ("Überschreibt DeepNorms Initialisierungsfaktor β", "覆盖 DeepNorm 的初始化增益 β"),
    "BranchNorm — Liu et al.": ("BranchNorm — Liu et al.", "BranchNorm — Liu 等"),
    "x ← LN(x + α_{t}·F(x)), α_{t} rising from 0 to 1 over T steps (BranchNorm §3)":
        ("x ← LN(x + α_{t}·F(x)), α_{t} steigt über T Schritte von 0 auf 1 (BranchNorm §3)", "x ← LN(x + α_{t}·F(x))，α_{t} 在 T 步内从 0 升到 1（BranchNorm §3）"),
    "linear: α_{t} = min(1, t/T) (the paper's)\nexp, sigmoid: lab-defined (docs/DECISIONS.md)":
        ("linear: α_{t} = min(1, t/T) (die des Artikels)\nexp, sigmoid: vom Labor definiert (docs/DECISIONS.md)",
         "linear：α_{t} = min(1, t/T)（论文的）\nexp、sigmoid：本实验室定义（docs/DECISIONS.md）"),
    "Steps until α_{t} = 1; the paper uses 4000": ("Schritte bis α_{t} = 1; der Artikel verwendet 4000", "α_{t} 达到 1 所需步数；论文使用 4000"),
    "Scale the branches' step": ("Zweigschritt skalieren", "缩放分支的更新步长"),
    "Lab-defined: Adam's step of F's weights scaled by α_{t} too. The paper scales F's output, which slows SGD's step but not Adam's": (
        "Vom Labor definiert: auch Adams Schritt der Gewichte von F mit α_{t} skaliert. Der Artikel skaliert die Ausgabe von F; "
        "das verlangsamt den Schritt von SGD, nicht den von Adam",
        "实验室自定义：F 的权重的 Adam 更新步长也乘以 α_{t}。论文只缩放 F 的输出，这会减慢 SGD 的步长，但不会减慢 Adam 的"),
    "nGPT — Loshchilov et al.": ("nGPT — Loshchilov et al.", "nGPT — Loshchilov 等"),
    "QK-norm": ("QK-Norm", "QK 归一化"),
    "q ← s_{qk}⊙norm(q), k ← s_{qk}⊙norm(k) per head, softmax scale √d_{k}":
        ("q ← s_{qk}⊙norm(q), k ← s_{qk}⊙norm(k) je Kopf, Softmax-Skala √d_{k}", "每个头 q ← s_{qk}⊙norm(q)，k ← s_{qk}⊙norm(k)，softmax 缩放 √d_{k}"),
    "Learn α_{A}, α_{M} in h ← norm(h + α(norm(F(h)) − h)); init 0.05, scale 1/√d":
        ("α_{A}, α_{M} in h ← norm(h + α(norm(F(h)) − h)) lernen; Startwert 0.05, Skala 1/√d", "学习 h ← norm(h + α(norm(F(h)) − h)) 中的 α_{A}、α_{M}；初值 0.05，缩放 1/√d"),
    "s_qk, s_u, s_v, s_z": ("s_qk, s_u, s_v, s_z", "s_qk、s_u、s_v、s_z"),
    "Learned scalers of queries/keys, the gated MLP and the logits (init/scale re-parameterised)":
        ("Gelernte Skalierer der Queries/Keys, des Gated-MLP und der Logits (Start/Skala umparametrisiert)",
         "查询/键、门控 MLP 与 logits 的可学习缩放因子（按初值/尺度重新参数化）"),
    "Put every embedding-dimension vector back on the unit sphere after each step":
        ("Jeden Vektor der Einbettungsdimension nach jedem Schritt auf die Einheitssphäre zurücksetzen", "每步之后将每个嵌入维度向量放回单位球面"),
    "d_model": ("d_model", "d_model"),
    "d_ff": ("d_ff", "d_ff"),
    "normal: N(0, 0.02), residual outputs N(0, 0.02/√(2L)) (GPT-2)\nxavier: Xavier-uniform (Vaswani; Xiong)":
        ("normal: N(0, 0.02), Residualausgaben N(0, 0.02/√(2L)) (GPT-2)\nxavier: Xavier-gleichverteilt (Vaswani; Xiong)",
         "normal：N(0, 0.02)，残差输出 N(0, 0.02/√(2L))（GPT-2）\nxavier：Xavier 均匀分布（Vaswani；Xiong）"),
    "corpus: English fortunes\nfile: any file, byte-level\nmarkov: synthetic, with a known loss floor":
        ("corpus: englische Fortunes\nfile: beliebige Datei, byteweise\nmarkov: synthetisch, mit bekannter Verlustuntergrenze",
         "corpus：英文 fortunes 语料\nfile：任意文件，按字节\nmarkov：合成数据，损失下界已知"),
    "β₂": ("β₂", "β₂"),
    "ramp: the LR stability test — the rate grows by the increment each step until the loss diverges (NormFormer §4)":
        ("ramp: der LR-Stabilitätstest — die Rate wächst jeden Schritt um das Inkrement, bis der Verlust divergiert (NormFormer §4)",
         "ramp：学习率稳定性测试 — 学习率每步增加一个增量，直到损失发散（NormFormer §4）"),
    "Multiply token embeddings by √d_model (Vaswani et al. §3.4; fairseq).\nXiong et al.'s analysis assumes inputs with E‖x₀‖² ≈ d.":
        ("Token-Einbettungen mit √d_model multiplizieren (Vaswani et al. §3.4; fairseq).\nDie Analyse von Xiong et al. setzt Eingaben mit E‖x₀‖² ≈ d voraus.",
         "将词元嵌入乘以 √d_model（Vaswani 等 §3.4；fairseq）。\nXiong 等的分析假设输入满足 E‖x₀‖² ≈ d。"),
    # main window
    "%1\n\nNormLab opens the default store instead.": ("%1\n\nNormLab öffnet stattdessen den Standardspeicher.", "%1\n\nNormLab 将改为打开默认存储。"),
    "Ctrl+E": ("Ctrl+E", "Ctrl+E"),
    "Ctrl+Shift+E": ("Ctrl+Shift+E", "Ctrl+Shift+E"),
    "Ctrl+R": ("Ctrl+R", "Ctrl+R"),
    "Ctrl+Shift+R": ("Ctrl+Shift+R", "Ctrl+Shift+R"),
    "Ctrl+.": ("Ctrl+.", "Ctrl+."),
    "Ctrl+L": ("Ctrl+L", "Ctrl+L"),
    "Ctrl+M": ("Ctrl+M", "Ctrl+M"),
    "Ctrl+0": ("Ctrl+0", "Ctrl+0"),
    "<h3>NormLab %1</h3><p>A lab for the normalization of Transformer language models: Post-LN, Pre-LN, NormFormer, DeepNorm, BranchNorm and nGPT, each component a toggle.</p><p>Qt %2 · LibTorch %3 · SQLite %4 · %5</p>":
        ("<h3>NormLab %1</h3><p>Ein Labor für die Normierung von Transformer-Sprachmodellen: Post-LN, Pre-LN, NormFormer, DeepNorm, BranchNorm und nGPT, jede Komponente ein Schalter.</p><p>Qt %2 · LibTorch %3 · SQLite %4 · %5</p>",
         "<h3>NormLab %1</h3><p>Transformer 语言模型归一化实验室：Post-LN、Pre-LN、NormFormer、DeepNorm、BranchNorm 与 nGPT，每个组件均可开关。</p><p>Qt %2 · LibTorch %3 · SQLite %4 · %5</p>"),
    "Finish or cancel the queued runs before switching stores.": ("Eingereihte Läufe vor dem Wechsel des Speichers beenden oder abbrechen.", "切换存储前，请先完成或取消已排队的运行。"),
    "A run is training. Cancel it and quit? Its data so far stays in the store.":
        ("Ein Lauf trainiert. Abbrechen und beenden? Seine bisherigen Daten bleiben im Speicher.", "有运行正在训练。取消并退出？其已有数据会保留在存储中。"),
    "Run #%1 %2: %3": ("Lauf #%1 %2: %3", "运行 #%1 %2：%3"),
    "Notes on run #%1": ("Notizen zu Lauf #%1", "运行 #%1 的备注"),
    "Run #%1 is training; cancel it first.": ("Lauf #%1 trainiert; zuerst abbrechen.", "运行 #%1 正在训练；请先取消。"),
    "Delete %n run(s) and all their data? This cannot be undone.":
        (["%n Lauf und alle seine Daten löschen? Das lässt sich nicht rückgängig machen.",
          "%n Läufe und alle ihre Daten löschen? Das lässt sich nicht rückgängig machen."],
         "删除 %n 个运行及其全部数据？此操作无法撤销。"),
    "Copied %n run(s) as tab-separated text":
        (["%n Lauf als tabulatorgetrennter Text kopiert", "%n Läufe als tabulatorgetrennter Text kopiert"],
         "已将 %n 个运行复制为制表符分隔的文本"),
    "Copied %n setting(s) as tab-separated text":
        (["%n Einstellung als tabulatorgetrennter Text kopiert", "%n Einstellungen als tabulatorgetrennter Text kopiert"],
         "已将 %n 项设置复制为制表符分隔的文本"),
    "Co&py as text": ("Als Text &kopieren", "复制为文本(&P)"),
    "Run #%1 is training in another process (pid %2 on %3): stop it there first (normlab-cli cancel %1), then delete it.":
        ("Lauf #%1 wird in einem anderen Prozess trainiert (PID %2 auf %3): dort zuerst anhalten (normlab-cli cancel %1), dann löschen.",
         "运行 #%1 正在另一个进程中训练（%3 上的 PID %2）：请先在那里停止它（normlab-cli cancel %1），再删除。"),
    "Deleted %n run(s); their checkpoints freed %1.":
        (["%n Lauf gelöscht; seine Checkpoints gaben %1 frei.", "%n Läufe gelöscht; ihre Checkpoints gaben %1 frei."],
         "已删除 %n 个运行；其检查点释放了 %1。"),
    "A run mirrored from a server is deleted here only: it stays on the server (and trains on there, if it is training).":
        ("Ein von einem Server gespiegelter Lauf wird nur hier gelöscht: Auf dem Server bleibt er (und trainiert dort weiter, falls er trainiert).",
         "从服务器镜像的运行只在这里删除：它仍留在服务器上（若正在训练，会在那里继续训练）。"),
    "Compac&t store…": ("Speicher verdich&ten…", "压缩存储(&T)…"),
    "Compact store": ("Speicher verdichten", "压缩存储"),
    "This store is open read-only: it cannot be compacted.": ("Dieser Speicher ist schreibgeschützt geöffnet: Er kann nicht verdichtet werden.",
                                                             "此存储以只读方式打开：无法压缩。"),
    "The store has %1 free: nothing to compact.": ("Der Speicher hat %1 frei: nichts zu verdichten.", "存储中有 %1 空闲：无需压缩。"),
    "Deleted runs left %1 free in the store's file. Give it back to the disk now? The store is rewritten in one step; a run training meanwhile waits for it.":
        ("Gelöschte Läufe haben %1 frei in der Speicherdatei hinterlassen. Jetzt an die Festplatte zurückgeben? Der Speicher wird in einem Schritt neu geschrieben; ein Lauf, der währenddessen trainiert, wartet darauf.",
         "已删除的运行在存储文件中留下了 %1 空闲空间。现在将其归还给磁盘吗？存储会一次性重写；其间正在训练的运行会等待。"),
    "Store compacted: %1 → %2.": ("Speicher verdichtet: %1 → %2.", "存储已压缩：%1 → %2。"),
    "Deleted %n run(s).": (["%n Lauf gelöscht.", "%n Läufe gelöscht."], "已删除 %n 个运行。"),
    "; %n run(s)": (["; %n Lauf", "; %n Läufe"], "；%n 个运行"),
    " @%1": (" @%1", " @%1"),
    "#": ("#", "#"),
    "# (id)": ("# (ID)", "#（编号）"),
    "%1: <, <=, > and >= compare numbers, and \"%2\" is not one":
        ("%1: <, <=, > und >= vergleichen Zahlen, und „%2“ ist keine", "%1：<、<=、> 和 >= 比较的是数字，而“%2”不是数字"),
    "%1: no run has a column or setting \"%2\"": ("%1: kein Lauf hat eine Spalte oder Einstellung „%2“", "%1：没有运行具有列或设置“%2”"),
    "%1: no run has a column or setting \"%2\"; did you mean %3?":
        ("%1: kein Lauf hat eine Spalte oder Einstellung „%2“; war %3 gemeint?", "%1：没有运行具有列或设置“%2”；您是指 %3 吗？"),
    "The validation loss at the run's end; in italics, the latest of a run that has none yet (training, stopped)":
        ("Der Validierungsverlust am Ende des Laufs; kursiv der letzte eines Laufs, der noch keinen hat (trainiert, angehalten)",
         "运行结束时的验证损失；斜体为尚无该值的运行（训练中、已停止）的最近一次值"),
    "Steps trained; a run short of its steps shows them as done / total":
        ("Trainierte Schritte; ein Lauf, dem Schritte fehlen, zeigt sie als erledigt / gesamt",
         "已训练的步数；未完成全部步数的运行显示为 已完成 / 总数"),
    "removed from the queue": ("aus der Warteschlange entfernt", "已从队列移除"),
    "skipped: it was no longer queued when its turn came": ("übersprungen: stand nicht mehr in der Warteschlange, als er an der Reihe war", "已跳过：轮到它时已不在队列中"),
    # command line of the app
    "Run store file.": ("Datei des Laufspeichers.", "运行存储文件。"),
    "Experiment to open.": ("Zu öffnendes Experiment.", "要打开的实验。"),
    "Start the opened experiment at once.": ("Das geöffnete Experiment sofort starten.", "立即启动已打开的实验。"),
    "Train, save screenshots into DIR, quit.": ("Trainieren, Bildschirmfotos in DIR speichern, beenden.", "训练，将截图保存到 DIR，然后退出。"),
    "With --screenshots: the window's size, WIDTHxHEIGHT (default 1600x1000).":
        ("Mit --screenshots: die Größe des Fensters, BREITExHÖHE (Vorgabe 1600x1000).", "与 --screenshots 一起使用：窗口大小，宽x高（默认 1600x1000）。"),
    "Train and print the UI latency.": ("Trainieren und die Latenz der Oberfläche ausgeben.", "训练并打印界面延迟。"),
    "UI language (en, de, zh_CN).": ("Sprache der Oberfläche (en, de, zh_CN).", "界面语言（en、de、zh_CN）。"),
    "Colours: system (the platform's, the default), light or dark; remembered from View → Theme otherwise.":
        ("Farben: system (die der Plattform, voreingestellt), light oder dark; sonst die unter Ansicht → Farbschema gemerkten.",
         "颜色：system（平台的颜色，默认）、light 或 dark；否则使用“视图 → 主题”中记住的选择。"),
    "NormLab: normalization in Transformer language models\nnormlab report EXPERIMENT.json... --out DIR: reproduce the papers' findings (see normlab report --help)\nnormlab figure RUN... --out FILE.pdf: one chart of stored runs for a paper (see normlab figure --help)":
        ("NormLab: Normierung in Transformer-Sprachmodellen\nnormlab report EXPERIMENT.json... --out DIR: die Befunde der Artikel reproduzieren (siehe normlab report --help)\nnormlab figure RUN... --out FILE.pdf: ein Diagramm gespeicherter Läufe für einen Artikel (siehe normlab figure --help)",
         "NormLab：Transformer 语言模型中的归一化\nnormlab report EXPERIMENT.json... --out DIR：复现论文结论（见 normlab report --help）\nnormlab figure RUN... --out FILE.pdf：为论文绘制已存运行的一张图（见 normlab figure --help）"),
    # run statuses
    "paused": ("pausiert", "已暂停"),
    "finished": ("fertig", "已完成"),
    "diverged": ("divergiert", "已发散"),
    "failed": ("fehlgeschlagen", "失败"),
    "cancelled": ("abgebrochen", "已取消"),
    "interrupted": ("unterbrochen", "已中断"),
    # status bar, settings that differ
    "Run #%1 %2: step %3/%4 (%5%) · loss %6 · ETA %7": ("Lauf #%1 %2: Schritt %3/%4 (%5 %) · Verlust %6 · Restzeit %7", "运行 #%1 %2：第 %3/%4 步（%5%）· 损失 %6 · 剩余 %7"),
    "Run #%1: %2": ("Lauf #%1: %2", "运行 #%1：%2"),
    "Select two or more runs (Ctrl+click) to see the settings in which they differ.":
        ("Zwei oder mehr Läufe wählen (Strg+Klick), um die abweichenden Einstellungen zu sehen.", "选择两个或更多运行（Ctrl+单击）以查看它们不同的设置。"),
    "As stored: %1": ("Wie gespeichert: %1", "存储的值：%1"),
    "one scale for all runs": ("eine Skala für alle Läufe", "所有运行共用一个色标"),
    "Compared runs share one colour scale, so a colour means the same value in each; off: each run its own":
        ("Verglichene Läufe teilen eine Farbskala, damit eine Farbe überall denselben Wert bedeutet; aus: jeder Lauf seine eigene",
         "比较的运行共用一个色标，使同一颜色在各图中代表相同的值；关闭：每个运行使用各自的色标"),
    # comparing stores
    "Store": ("Speicher", "存储"),
    "this store": ("dieser Speicher", "本存储"),
    "The latest validation loss, measured at step %1: the run has no final one yet.":
        ("Der letzte Validierungsverlust, gemessen bei Schritt %1: der Lauf hat noch keinen endgültigen.",
         "最近一次验证损失，于第 %1 步测得：该运行尚无最终值。"),
    "Opened for comparison, read-only: %1": ("Zum Vergleich geöffnet, schreibgeschützt: %1", "为比较而打开（只读）：%1"),
    "Runs of a compared store are read-only": ("Läufe eines Vergleichsspeichers sind schreibgeschützt", "比较存储中的运行为只读"),
    "&Compare with another store…": ("Mit anderem Speicher &vergleichen…", "与另一个存储比较(&C)…"),
    "Compare with run stores": ("Mit Laufspeichern vergleichen", "与运行存储比较"),
    "Stop comparing stores": ("Speichervergleich beenden", "停止比较存储"),
    "%1 does not exist.": ("%1 existiert nicht.", "%1 不存在。"),
    "%1 is the store this window has open.": ("%1 ist der Speicher, den dieses Fenster geöffnet hat.", "%1 是此窗口已打开的存储。"),
    "%1 is already open for comparison.": ("%1 ist bereits zum Vergleich geöffnet.", "%1 已作为比较打开。"),
    "Comparing with %1 (read-only): its runs are in the run table":
        ("Vergleich mit %1 (schreibgeschützt): seine Läufe stehen in der Lauftabelle", "正在与 %1 比较（只读）：其运行已列入运行表"),
    "Open another run store beside it, read-only, to compare its runs (repeatable).":
        ("Einen weiteren Laufspeicher schreibgeschützt daneben öffnen, um seine Läufe zu vergleichen (wiederholbar).",
         "以只读方式并列打开另一个运行存储，以比较其运行（可重复）。"),
    " (its file was deleted or replaced)": (" (seine Datei wurde gelöscht oder ersetzt)", "（其文件已被删除或替换）"),
}

# the dialogs kept in files of their own (each under ~500 lines)
from strings_remote import REMOTE  # noqa: E402
from strings_report import REPORT  # noqa: E402
from strings_charts import CHARTS  # noqa: E402
from strings_sample import SAMPLE  # noqa: E402
from strings_block import BLOCK  # noqa: E402

for _part in (REPORT, REMOTE, CHARTS, SAMPLE, BLOCK):
    assert not set(_part) & set(T), f"a string translated twice: {sorted(set(_part) & set(T))}"
    T.update(_part)
