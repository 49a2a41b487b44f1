#!/usr/bin/env bash
# Re-extracts the UI strings into translations/*.ts (lupdate) and fills in the
# translations listed in translations/strings.py. The build compiles the .ts
# files to .qm (lrelease) and embeds them; run this after changing UI strings.
# normlab_en.ts holds only the English plurals ("%n run(s)": "1 run", "2 runs"),
# from translations/strings_en.py.
set -euo pipefail
cd "$(dirname "$0")/.."
LUPDATE=${LUPDATE:-/usr/lib/qt6/bin/lupdate}
"$LUPDATE" -no-obsolete -locations none widgets app/gui -ts translations/normlab_de.ts translations/normlab_zh_CN.ts
"$LUPDATE" -no-obsolete -locations none -pluralonly widgets app/gui -ts translations/normlab_en.ts
python3 translations/merge.py translations/normlab_de.ts translations/normlab_zh_CN.ts translations/normlab_en.ts
