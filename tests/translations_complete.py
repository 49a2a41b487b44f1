#!/usr/bin/python3
"""Every visible string is translated into German and Simplified Chinese, and
every English plural ("%n run(s)") has its forms.

Extracts the strings from the sources again with lupdate into copies of the
.ts files (so a string added in code but never extracted counts too), fills
them from translations/strings.py exactly as scripts/update-translations.sh
does, and fails listing every string left unfinished. The checked-in files
are not touched. It fails too on a translation in strings.py that no extracted
string uses: stale, or a string lupdate never read (it skips a
QCoreApplication::translate(ctx, text, c, static_cast<int>(n)): pass a plain
int), which the window then shows in English; and on a context named other
than tr() looks it up (normlab::X), whose strings the window never finds.
"""
import argparse
import shutil
import xml.etree.ElementTree as ET
import subprocess
import sys
import tempfile
from pathlib import Path

ap = argparse.ArgumentParser()
ap.add_argument("--source", required=True)
ap.add_argument("--lupdate", default="/usr/lib/qt6/bin/lupdate")
args = ap.parse_args()
src = Path(args.source)
sys.path.insert(0, str(src / "translations"))
from merge import merge  # noqa: E402
from strings import T  # noqa: E402
from strings_en import EN  # noqa: E402

failed = False
with tempfile.TemporaryDirectory() as tmp:
    copies = []
    for lang in ("de", "zh_CN"):
        dst = Path(tmp) / f"normlab_{lang}.ts"
        shutil.copy(src / "translations" / f"normlab_{lang}.ts", dst)
        copies.append(dst)
    subprocess.run([args.lupdate, "-no-obsolete", "-locations", "none", str(src / "widgets"), str(src / "app" / "gui"),
                    "-ts", *map(str, copies)], check=True, capture_output=True)
    english = Path(tmp) / "normlab_en.ts"
    shutil.copy(src / "translations" / "normlab_en.ts", english)
    subprocess.run([args.lupdate, "-no-obsolete", "-locations", "none", "-pluralonly", str(src / "widgets"),
                    str(src / "app" / "gui"), "-ts", str(english)], check=True, capture_output=True)
    for dst in copies + [english]:
        done, total, left = merge(dst)
        print(f"{dst.name}: {done} of {total} strings translated")
        for s in left:
            print(f"  unfinished: {s}")
        failed |= bool(left) or done != total
        # tr() in a class of ours looks its strings up as normlab::X: a context lupdate named X
        # alone is never found, and the window shows its strings in English (RemoteControl,
        # RemoteDialog and ChartLegend were, until merge.py found its classes in the sources).
        for ctx in ET.parse(dst).getroot().iter("context"):
            name = ctx.find("name").text or ""
            if not name.startswith("normlab::") and name not in ("QObject", "main"):
                print(f"  {dst.name}: context {name!r} is no class tr() looks up (normlab::{name}?): "
                      "its strings would show in English")
                failed = True
    extracted = {m.find("source").text or "" for m in ET.parse(copies[0]).getroot().iter("message")}
    unused = [s for s in T if s not in extracted]
    plurals = {m.find("source").text or "" for m in ET.parse(english).getroot().iter("message")}
    unused += [s for s in EN if s not in plurals]
    for s in unused:
        print(f"  translated but in no extracted string: {s!r}")
    failed |= bool(unused)
if failed:
    print("Translate the unfinished strings in translations/strings.py (English plurals: strings_en.py), drop the ones no string uses (or make "
          "their call one lupdate reads), and run scripts/update-translations.sh.")
sys.exit(1 if failed else 0)
