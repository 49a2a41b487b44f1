# Translations of training on a server over ssh (app/gui/remote.cpp, mainwindow_remote.cpp), as in strings.py.
REMOTE = {
    # training on a server over ssh (app/gui/remote.cpp)
    "NormLab — ssh": ("NormLab — ssh", "NormLab — ssh"),
    "ssh asks:": ("ssh fragt:", "ssh 询问："),
    "%1: every run followed has ended": ("%1: Alle verfolgten Läufe sind beendet", "%1：所有跟踪的运行均已结束"),
    "cannot run %1: %2": ("%1 kann nicht ausgeführt werden: %2", "无法运行 %1：%2"),
    "The runs train on the server detached: closing the window, sleep or a dropped network do not stop them. They appear here live, marked with the server's name.":
        ("Die Läufe trainieren losgelöst auf dem Server: Schließen des Fensters, Ruhezustand oder ein Netzabbruch halten sie nicht an. Sie erscheinen hier live, mit dem Namen des Servers.",
         "运行在服务器上独立训练：关闭窗口、休眠或网络中断都不会使其停止。它们会实时显示在此处，并标有服务器名称。"),
    "The server's normlab-cli: a full path, or a name its non-interactive shell finds on its PATH":
        ("normlab-cli des Servers: ein vollständiger Pfad oder ein Name, den seine nicht-interaktive Shell im PATH findet",
         "服务器上的 normlab-cli：完整路径，或其非交互式 shell 能在 PATH 中找到的名称"),
    "&Check server": ("Server &prüfen", "检查服务器(&C)"),
    "&Start": ("&Starten", "开始(&S)"),
    "A host, user@host or an alias of ~/.ssh/config; your ssh, keys and agent are used as they are":
        ("Ein Host, user@host oder ein Alias aus ~/.ssh/config; Ihr ssh, Ihre Schlüssel und Ihr Agent werden unverändert verwendet",
         "主机、user@host 或 ~/.ssh/config 中的别名；将原样使用您的 ssh、密钥和代理"),
    "Checking %1…": ("Prüfe %1…", "正在检查 %1…"),
    "NormLab on the server:": ("NormLab auf dem Server:", "服务器上的 NormLab："),
    "Server (ssh):": ("Server (ssh):", "服务器（ssh）："),
    "Server: give a host, user@host or an alias of ~/.ssh/config.":
        ("Server: einen Host, user@host oder einen Alias aus ~/.ssh/config angeben.", "服务器：请填写主机、user@host 或 ~/.ssh/config 中的别名。"),
    "Starting on %1…": ("Starte auf %1…", "正在 %1 上启动…"),
    "Store on the server:": ("Speicher auf dem Server:", "服务器上的存储："),
    "The experiment \"%1\", every run": ("Das Experiment „%1“, alle Läufe", "实验“%1”，全部运行"),
    "The opened experiment (none is open)": ("Das geöffnete Experiment (keines ist geöffnet)", "已打开的实验（尚未打开）"),
    "The run the form describes": ("Der Lauf, den das Formular beschreibt", "表单描述的运行"),
    "Train on a server": ("Auf einem Server trainieren", "在服务器上训练"),
    "Train:": ("Trainieren:", "训练："),
    "its default store": ("sein Standardspeicher", "其默认存储"),
    "%n run(s) started on %1; following them live": (["%n Lauf auf %1 gestartet; wird live verfolgt", "%n Läufe auf %1 gestartet; werden live verfolgt"],
                                                     "已在 %1 上启动 %n 个运行；正在实时跟踪"),
    "Cannot write a temporary file: %1": ("Temporäre Datei kann nicht geschrieben werden: %1", "无法写入临时文件：%1"),
    "Following runs on %n server(s) again": (["Verfolge wieder Läufe auf %n Server", "Verfolge wieder Läufe auf %n Servern"],
                                             "再次跟踪 %n 台服务器上的运行"),
    "Resumed on %1: %2": ("Auf %1 fortgesetzt: %2", "已在 %1 上继续：%2"),
    "Resuming on %1…": ("Setze auf %1 fort…", "正在 %1 上继续…"),
    "Stop on the &server": ("Auf dem &Server anhalten", "在服务器上停止(&S)"),
    "Stopped on %1: %2": ("Auf %1 angehalten: %2", "已在 %1 上停止：%2"),
    "Stopping on %1…": ("Halte auf %1 an…", "正在 %1 上停止…"),
    "The form cannot be trained: %1": ("Das Formular kann nicht trainiert werden: %1", "无法训练该表单：%1"),
    "Train on a &server…": ("Auf einem &Server trainieren…", "在服务器上训练(&S)…"),
    "Server": ("Server", "服务器"),
    "Trains on %1 (run %2 of %3 there); followed live into this store over ssh":
        ("Trainiert auf %1 (dort Lauf %2 von %3); live über ssh in diesen Speicher verfolgt",
         "在 %1 上训练（那里 %3 的第 %2 个运行）；通过 ssh 实时跟踪到此存储"),
    "Trains on the CPU (%n thread(s))": (["Trainiert auf der CPU (%n Thread)", "Trainiert auf der CPU (%n Threads)"], "在 CPU 上训练（%n 个线程）"),
    "Trains on %1": ("Trainiert auf %1", "在 %1 上训练"),
    "Trains on %1 (%2 of %3 GiB free)": ("Trainiert auf %1 (%2 von %3 GiB frei)", "在 %1 上训练（%3 GiB 中 %2 GiB 可用）"),
    "empty: train on the server itself": ("leer: auf dem Server selbst trainieren", "留空：直接在服务器上训练"),
    "A folder on the cluster: the runs are submitted there as a Slurm job array (the server is its login node), each task into a store of its own; every task is followed live":
        ("Ein Ordner auf dem Cluster: Die Läufe werden dort als Slurm-Job-Array eingereicht (der Server ist sein Login-Knoten), jede Aufgabe in einen eigenen Speicher; jede Aufgabe wird live verfolgt",
         "集群上的一个文件夹：运行将作为 Slurm 作业数组提交到那里（该服务器是其登录节点），每个任务写入自己的存储；每个任务都会被实时跟踪"),
    "Slurm sweep folder:": ("Slurm-Sweep-Ordner:", "Slurm 扫描文件夹："),
    "Sweep submitted to Slurm through %1; its runs appear as its tasks start":
        ("Sweep über %1 bei Slurm eingereicht; seine Läufe erscheinen, sobald seine Aufgaben starten", "已通过 %1 将扫描提交给 Slurm；任务启动后其运行会陆续出现"),
    "Slurm job of %1 on %2 cancelled": ("Slurm-Job von %1 auf %2 abgebrochen", "已取消 %2 上 %1 的 Slurm 作业"),
    "Cancel the Slurm &job": ("Slurm-&Job abbrechen", "取消 Slurm 作业(&J)"),
    "&Fetch weights from the server…": ("Gewichte vom Server &holen…", "从服务器获取权重(&F)…"),
    "Fetch weights from the server": ("Gewichte vom Server holen", "从服务器获取权重"),
    "safetensors (*.safetensors)": ("safetensors (*.safetensors)", "safetensors (*.safetensors)"),
    "Fetching the weights of %1 from %2…": ("Hole die Gewichte von %1 von %2…", "正在从 %2 获取 %1 的权重…"),
    "Weights written to %1": ("Gewichte nach %1 geschrieben", "权重已写入 %1"),
    # a follower's news, worded in the window (app/gui/remote_events.cpp)
    "%1 on %2": ("%1 auf %2", "%2 上的 %1"),
    "Run #%1 %2 on %3": ("Lauf #%1 %2 auf %3", "%3 上的运行 #%1 %2"),
    "%1: %2": ("%1: %2", "%1：%2"),
    "%1: %2 after %n step(s), validation loss %3": (["%1: %2 nach %n Schritt, Validierungsverlust %3", "%1: %2 nach %n Schritten, Validierungsverlust %3"],
                                                    "%1：%n 步后%2，验证损失 %3"),
    "%1: %2 after %n step(s)": (["%1: %2 nach %n Schritt", "%1: %2 nach %n Schritten"], "%1：%n 步后%2"),
    "%1: step %2/%3 (%4%) · loss %5": ("%1: Schritt %2/%3 (%4 %) · Verlust %5", "%1：第 %2/%3 步（%4%）· 损失 %5"),
    " · validation %1": (" · Validierung %1", " · 验证 %1"),
    " · %1 tokens/s": (" · %1 Tokens/s", " · %1 词元/秒"),
    " · ETA %1": (" · Restzeit %1", " · 剩余 %1"),
    "Following %n run(s) on %1": (["Verfolge %n Lauf auf %1", "Verfolge %n Läufe auf %1"], "正在跟踪 %1 上的 %n 个运行"),
    "Following the Slurm sweep in %1 on %2 (%n task store(s))":
        (["Verfolge den Slurm-Sweep in %1 auf %2 (%n Aufgabenspeicher)", "Verfolge den Slurm-Sweep in %1 auf %2 (%n Aufgabenspeicher)"],
         "正在跟踪 %2 上 %1 中的 Slurm 扫描（%n 个任务存储）"),
    "Reconnected to %1; following again from the last row held":
        ("Wieder mit %1 verbunden; verfolge weiter ab der letzten erhaltenen Zeile", "已重新连接到 %1；从已收到的最后一行继续跟踪"),
    "Connection to %1 lost (%2); reconnecting in %n s":
        (["Verbindung zu %1 verloren (%2); neuer Versuch in %n s", "Verbindung zu %1 verloren (%2); neuer Versuch in %n s"],
         "与 %1 的连接已断开（%2）；%n 秒后重新连接"),
    "%1: no run left to follow (each run mirrored from it has ended)":
        ("%1: kein Lauf mehr zu verfolgen (jeder von dort gespiegelte Lauf ist beendet)", "%1：没有可跟踪的运行（从该服务器镜像的每个运行均已结束）"),
    # what a server did with the runs stopped or resumed from the window (app/gui/mainwindow_remote.cpp)
    "run %1 there": ("Lauf %1 dort", "服务器上的运行 %1"),
    "%1 is %2: nothing to stop": ("%1 ist %2: nichts anzuhalten", "%1 为%2：无需停止"),
    "%1: its process on the server is gone; Resume continues it":
        ("%1: Sein Prozess auf dem Server ist beendet; Fortsetzen setzt ihn fort", "%1：其在服务器上的进程已不存在；“继续”可接着训练"),
    "%1 is %2": ("%1 ist %2", "%1 为%2"),
    # the server's check, worded in the window (app/gui/remote_events.cpp)
    "NormLab %1 on %2 (LibTorch %3)": ("NormLab %1 auf %2 (LibTorch %3)", "%2 上的 NormLab %1（LibTorch %3）"),
    "store %1 (created by the first run)": ("Speicher %1 (wird beim ersten Lauf angelegt)", "存储 %1（首次运行时创建）"),
    "store %1": ("Speicher %1", "存储 %1"),
    "%1, %2 MiB (%3 MiB free)": ("%1, %2 MiB (%3 MiB frei)", "%1，%2 MiB（%3 MiB 可用）"),
    "no CUDA GPU: runs train on its CPU": ("keine CUDA-GPU: Läufe trainieren auf seiner CPU", "无 CUDA GPU：运行将在其 CPU 上训练"),
    "%n GPU(s): %1; but its LibTorch has no CUDA: runs train on its CPU":
        (["%n GPU: %1; aber seine LibTorch hat kein CUDA: Läufe trainieren auf seiner CPU",
          "%n GPUs: %1; aber seine LibTorch hat kein CUDA: Läufe trainieren auf seiner CPU"],
         "%n 个 GPU：%1；但其 LibTorch 不支持 CUDA：运行将在其 CPU 上训练"),
    "%n GPU(s): %1": (["%n GPU: %1", "%n GPUs: %1"], "%n 个 GPU：%1"),
    " (+%n more running)": ([" (+%n weiterer läuft)", " (+%n weitere laufen)"], "（另有 %n 个正在运行）"),
    "Fetching the weights of %1 from %2: %3…": ("Hole die Gewichte von %1 von %2: %3…", "正在从 %2 获取 %1 的权重：%3…"),
    "Fetching the weights of %1 from %2: %3 of %4 (%5%)…":
        ("Hole die Gewichte von %1 von %2: %3 von %4 (%5 %)…", "正在从 %2 获取 %1 的权重：%3 / %4（%5%）…"),
}
