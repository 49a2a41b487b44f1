# Translations of Write text… (app/gui/sampledialog.cpp, the runs table), as in strings.py.
SAMPLE = {
    "Write text…": ("Text schreiben…", "生成文本…"),
    "&Write text with the weights…": ("Mit den Gewichten Text sch&reiben…", "用权重生成文本(&W)…"),
    "Write text with the runs' weights": ("Text mit den Gewichten der Läufe schreiben", "用运行的权重生成文本"),
    "&Prompt:": ("&Anfang:", "提示(&P)："),
    "&Bytes:": ("&Bytes:", "字节数(&B)："),
    "&Temperature:": ("&Temperatur:", "温度(&T)："),
    "Top &k:": ("Top-&k:", "Top &k："),
    "&Seed:": ("S&eed:", "随机种子(&S)："),
    "Draw among the k likeliest bytes; all: every byte":
        ("Unter den k wahrscheinlichsten Bytes ziehen; alle: jedes Byte", "在最可能的 k 个字节中抽取；全部：所有字节"),
    "0: always the likeliest byte; higher: more surprising bytes":
        ("0: immer das wahrscheinlichste Byte; höher: überraschendere Bytes", "0：总是取最可能的字节；越高：字节越出人意料"),
    "The text every run continues; it reads bytes, so any text will do":
        ("Der Text, den jeder Lauf fortsetzt; das Modell liest Bytes, also taugt jeder Text",
         "每个运行续写的文本；模型读取字节，因此任何文本都可以"),
    "Keep &half the window past the context":
        ("Jenseits des Kontexts die Hä&lfte behalten", "超出上下文时保留一半窗口(&H)"),
    "Once the text is longer than the model's context, keep the last half of what it read and go on "
    "from there, rather than read the whole context again for every byte: many times faster for "
    "big models; each byte then reads half a context to a whole one":
        ("Sobald der Text länger als der Kontext des Modells ist, die letzte Hälfte des Gelesenen behalten und "
         "von dort weitermachen, statt für jedes Byte den ganzen Kontext neu zu lesen: bei großen Modellen "
         "um ein Vielfaches schneller; jedes Byte liest dann einen halben bis ganzen Kontext",
         "文本超过模型的上下文长度后，保留已读内容的后一半并从那里继续，而不是为每个字节重新读取整个上下文："
         "大模型快许多倍；此后每个字节读取半个到一整个上下文"),
    "&Write": ("Sch&reiben", "生成(&W)"),
    "St&op": ("An&halten", "停止(&O)"),
    "Stopped.": ("Angehalten.", "已停止。"),
    "Done: the same prompt and seed write the same text again.":
        ("Fertig: derselbe Anfang und derselbe Seed schreiben wieder denselben Text.", "完成：相同的提示和随机种子会再次生成相同的文本。"),
    "Writing with run #%1: %2 of %3 bytes…": ("Schreibe mit Lauf #%1: %2 von %3 Bytes…", "正在用运行 #%1 生成：%2 / %3 字节…"),
    "weights of step %1": ("Gewichte von Schritt %1", "第 %1 步的权重"),
    "weights of step %1 from %2": ("Gewichte von Schritt %1 aus %2", "来自 %2 的第 %1 步的权重"),
    "weights from %1": ("Gewichte aus %1", "来自 %1 的权重"),
    "Weights…": ("Gewichte…", "权重…"),
    "The weights run #%1 writes with": ("Die Gewichte, mit denen Lauf #%1 schreibt", "运行 #%1 生成文本所用的权重"),
    "Checkpoints (*.pt);;All files (*)": ("Checkpoints (*.pt);;Alle Dateien (*)", "检查点 (*.pt);;所有文件 (*)"),
    "%1 above this column writes with the weights of a checkpoint file.":
        ("%1 über dieser Spalte schreibt mit den Gewichten aus einer Checkpoint-Datei.",
         "此列上方的“%1”可用检查点文件中的权重生成文本。"),
    "Write with the weights of a checkpoint file (.pt) instead of the run's own: one that "
    "normlab-cli remote fetch --checkpoint brought from a server, or a copy of an earlier one":
        ("Mit den Gewichten einer Checkpoint-Datei (.pt) statt den eigenen des Laufs schreiben: einer, die "
         "normlab-cli remote fetch --checkpoint von einem Server geholt hat, oder der Kopie einer früheren",
         "用检查点文件（.pt）中的权重代替运行自己的权重生成文本：可以是 normlab-cli remote fetch --checkpoint "
         "从服务器取回的文件，也可以是早先检查点的副本"),
    "%n more selected run(s) left out: the first %1 are shown side by side.":
        (["%n weiterer ausgewählter Lauf weggelassen: Die ersten %1 stehen nebeneinander.",
          "%n weitere ausgewählte Läufe weggelassen: Die ersten %1 stehen nebeneinander."],
         "另有 %n 个选中的运行未显示：并排显示前 %1 个。"),
}
