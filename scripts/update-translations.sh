#!/usr/bin/env bash
# Re-extracts the UI strings into translations/*.ts (lupdate) and fills in the
# translations listed in translations/strings.py. The build compiles the .ts
# files to .qm (lrelease) and embeds them; run this after changing UI strings.
set -euo pipefail
cd "$(dirname "$0")/.."
LUPDATE=${LUPDATE:-/usr/lib/qt6/bin/lupdate}
"$LUPDATE" -no-obsolete -locations none widgets app/gui -ts translations/normlab_de.ts translations/normlab_zh_CN.ts
python3 - <<'PY'
import sys, xml.etree.ElementTree as ET
sys.path.insert(0, "translations")
from strings import T
OURS = {"ChartsView", "Designer", "Heatmap", "LineChart", "MainWindow", "RunTableModel", "TrainingWorker", "ReportDialog"}
for path, col in (("translations/normlab_de.ts", 0), ("translations/normlab_zh_CN.ts", 1)):
    tree = ET.parse(path)
    root = tree.getroot()
    merged = {}
    for ctx in list(root.findall("context")):
        name = ctx.find("name").text
        # lupdate misses the namespace of our classes; tr() looks them up as normlab::X
        if name in OURS:
            name = "normlab::" + name
            ctx.find("name").text = name
        if name in merged:   # fold a duplicate context into the first one
            for m in ctx.findall("message"):
                merged[name].append(m)
            root.remove(ctx)
        else:
            merged[name] = ctx
    done = total = 0
    for ctx in root.findall("context"):
        for m in ctx.findall("message"):
            total += 1
            src = m.find("source").text or ""
            tr = m.find("translation")
            if src in T:
                tr.text = T[src][col]
                tr.attrib.pop("type", None)
                done += 1
    tree.write(path, encoding="utf-8", xml_declaration=True)
    print(f"{path}: {done} of {total} strings translated")
PY
