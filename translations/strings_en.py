# English plurals: the source text says "%n run(s)", which Qt shows as it is
# unless a translation gives its forms. normlab_en.ts holds only such strings
# (lupdate -pluralonly); each is source → [one, other].
EN = {
    "Queue all %n run(s) of %1": ["Queue the %n run of %1", "Queue all %n runs of %1"],
    " · %n line(s) hidden (click the legend to show)":
        [" · %n line hidden (click the legend to show it)", " · %n lines hidden (click the legend to show them)"],
    "Delete %n run(s) and all their data? This cannot be undone.":
        ["Delete %n run and all its data? This cannot be undone.", "Delete %n runs and all their data? This cannot be undone."],
    "Deleted %n run(s); their checkpoints freed %1.":
        ["Deleted %n run; its checkpoints freed %1.", "Deleted %n runs; their checkpoints freed %1."],
    "Deleted %n run(s).": ["Deleted %n run.", "Deleted %n runs."],
    "Copied %n run(s) as tab-separated text": ["Copied %n run as tab-separated text", "Copied %n runs as tab-separated text"],
    "Copied %n setting(s) as tab-separated text":
        ["Copied %n setting as tab-separated text", "Copied %n settings as tab-separated text"],
    "%n more selected run(s) left out: the first %1 are shown side by side.":
        ["%n more selected run left out: the first %1 are shown side by side.",
         "%n more selected runs left out: the first %1 are shown side by side."],
    "Following runs on %n server(s) again": ["Following runs on %n server again", "Following runs on %n servers again"],
    "%n run(s) started on %1; following them live":
        ["%n run started on %1; following it live", "%n runs started on %1; following them live"],
    "Trains on the CPU (%n thread(s))": ["Trains on the CPU (%n thread)", "Trains on the CPU (%n threads)"],
    "; %n run(s)": ["; %n run", "; %n runs"],
    "%n setting(s) the scheme implies (%1)": ["%n setting the scheme implies (%1)", "%n settings the scheme implies (%1)"],
    "%n hidden (%1)": ["%n hidden (%1)", "%n hidden (%1)"],
    "%1: %2 after %n step(s), validation loss %3": ["%1: %2 after %n step, validation loss %3", "%1: %2 after %n steps, validation loss %3"],
    "%1: %2 after %n step(s)": ["%1: %2 after %n step", "%1: %2 after %n steps"],
    "Following %n run(s) on %1": ["Following %n run on %1", "Following %n runs on %1"],
    "Following the Slurm sweep in %1 on %2 (%n task store(s))":
        ["Following the Slurm sweep in %1 on %2 (%n task store)", "Following the Slurm sweep in %1 on %2 (%n task stores)"],
    "Connection to %1 lost (%2); reconnecting in %n s": ["Connection to %1 lost (%2); reconnecting in %n s", "Connection to %1 lost (%2); reconnecting in %n s"],
    "%n GPU(s): %1; but its LibTorch has no CUDA: runs train on its CPU":
        ["%n GPU: %1; but its LibTorch has no CUDA: runs train on its CPU", "%n GPUs: %1; but its LibTorch has no CUDA: runs train on its CPU"],
    "%n GPU(s): %1": ["%n GPU: %1", "%n GPUs: %1"],
    " (+%n more running)": [" (+%n more running)", " (+%n more running)"],
    # the Block tab
    "× %n layer(s)": ["× %n layer", "× %n layers"],
    "%1 (+ %n alike)": ["%1 (+ %n alike)", "%1 (+ %n alike)"],
    "%n more block(s) not shown: select fewer runs.": ["%n more block not shown: select fewer runs.", "%n more blocks not shown: select fewer runs."],
    "%n run(s) with a configuration this version cannot read.":
        ["%n run with a configuration this version cannot read.", "%n runs with a configuration this version cannot read."],
}
