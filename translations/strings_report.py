# Translations of the reproduction report dialog (app/gui/reportdialog.cpp), as in strings.py.
REPORT = {
    # reproduction report dialog
    "Reproduce paper &findings…": ("Befunde der &Paper reproduzieren…", "复现论文结论(&F)…"),
    "Reproduce paper findings": ("Befunde der Paper reproduzieren", "复现论文结论"),
    "Trains the experiments' runs into the open store (finished runs with the same configuration are reused), measures each finding, draws its figures and writes a Markdown/HTML report with a verdict per finding.":
        ("Trainiert die Läufe der Experimente in den geöffneten Speicher (fertige Läufe mit gleicher Konfiguration werden wiederverwendet), misst jeden Befund, zeichnet seine Abbildungen und schreibt einen Markdown/HTML-Bericht mit einem Urteil je Befund.",
         "将实验的运行训练到当前存储中（配置相同且已完成的运行会被复用），测量每条结论，绘制图表，并写出带有逐条判定的 Markdown/HTML 报告。"),
    "Add…": ("Hinzufügen…", "添加…"),
    "Remove": ("Entfernen", "移除"),
    "Experiments": ("Experimente", "实验"),
    "Report folder": ("Berichtsordner", "报告文件夹"),
    "Browse…": ("Durchsuchen…", "浏览…"),
    "The report's progress appears here.": ("Hier erscheint der Fortschritt des Berichts.", "报告进度显示在此处。"),
    "Start": ("Starten", "开始"),
    "Stop": ("Anhalten", "停止"),
    "Open report": ("Bericht öffnen", "打开报告"),
    "Close": ("Schließen", "关闭"),
    "Training and measuring…": ("Trainiere und messe…", "正在训练和测量…"),
    "Report written to %1": ("Bericht geschrieben nach %1", "报告已写入 %1"),
    "Stopped; finished runs are kept and reused next time": ("Angehalten; fertige Läufe bleiben erhalten und werden beim nächsten Mal wiederverwendet", "已停止；已完成的运行会保留并在下次复用"),
    "Finished with errors (exit code %1); see the log": ("Mit Fehlern beendet (Exit-Code %1); siehe Protokoll", "结束但有错误（退出码 %1）；请查看日志"),
    "Could not start %1: %2": ("%1 konnte nicht gestartet werden: %2", "无法启动 %1：%2"),
    " — no findings to report": (" — keine Befunde zu berichten", " — 无可报告的结论"),
    " — findings %1": (" — Befunde %1", " — 结论 %1"),
    " — cannot be used: %1": (" — nicht verwendbar: %1", " — 无法使用：%1"),
    # the size the runs train at
    "Model size": ("Modellgröße", "模型规模"),
    "The lab's sizes train every finding on a CPU in minutes; an experiment's named scale (gpu: the sizes of docs/REPRODUCTION-GPU.md, for a GPU) trains larger models longer, into the same store beside the other runs":
        ("Die Größen des Labors trainieren jeden Befund in Minuten auf einer CPU; eine benannte Skala eines Experiments (gpu: die Größen aus docs/REPRODUCTION-GPU.md, für eine GPU) trainiert größere Modelle länger, in denselben Speicher neben die anderen Läufe",
         "实验室的规模在 CPU 上几分钟内训练每条结论；实验的命名规模（gpu：docs/REPRODUCTION-GPU.md 中的规模，适用于 GPU）会更长时间地训练更大的模型，写入同一存储，与其他运行并列"),
    "The lab's sizes (a CPU, minutes)": ("Die Größen des Labors (eine CPU, Minuten)", "实验室的规模（CPU，数分钟）"),
    "gpu: the sizes of docs/REPRODUCTION-GPU.md, for a GPU": ("gpu: die Größen aus docs/REPRODUCTION-GPU.md, für eine GPU", "gpu：docs/REPRODUCTION-GPU.md 中的规模，适用于 GPU"),
    "%1: a scale the experiments define": ("%1: eine Skala, die die Experimente festlegen", "%1：实验定义的规模"),
    ", up to %1 GiB each": (", bis zu %1 GiB je Lauf", "，每个最多 %1 GiB"),
    "Cannot start: %1 cannot be used at this size; remove it or pick another size":
        ("Start nicht möglich: %1 ist in dieser Größe nicht verwendbar; entfernen Sie es oder wählen Sie eine andere Größe",
         "无法开始：%1 无法在此规模下使用；请将其移除或选择其他规模"),
}
