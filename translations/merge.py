"""Writes the translations of strings.py into a Qt .ts file and reports what is left.

Used by scripts/update-translations.sh (after lupdate) and by the test
tests/translations_complete.py, which fails on any unfinished string.
"""
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strings import T  # noqa: E402
from strings_en import EN  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def our_classes():
    """The classes whose tr() is looked up as normlab::X: every class with Q_OBJECT in widgets/ and
    app/gui/ (all of them in namespace normlab), and the contexts named in translate() calls.
    lupdate misses the namespace of some (it wrote RemoteControl, RemoteDialog and ChartLegend
    bare, and the window showed them in English), so each is found here rather than listed."""
    found = set()
    for folder in ("widgets", "app/gui"):
        for f in sorted((ROOT / folder).glob("*.[hc]*")):
            text = f.read_text(encoding="utf-8")
            if "namespace normlab" not in text:
                continue
            found.update(re.findall(r"\bclass\s+(\w+)[^;{]*\{\s*Q_OBJECT", text))
            found.update(re.findall(r'translate\("normlab::(\w+)"', text))
    return found


# tr() looks our classes up as normlab::X; lupdate names some of their contexts X
OURS = our_classes()
COLUMNS = {"de": 0, "zh_CN": 1, "en": None}   # en: plurals only (strings_en.py)


def key(m):
    """A message as lrelease tells messages apart: its source and its comment."""
    c = m.find("comment")
    return (m.find("source").text or "", c.text if c is not None else None)


def merge(path):
    """Fills `path` (normlab_LANG.ts) in place; returns (translated, total, unfinished sources)."""
    col = COLUMNS[Path(path).stem.split("_", 1)[1]]
    table = EN if col is None else {k: v[col] for k, v in T.items()}
    tree = ET.parse(path)
    root = tree.getroot()
    merged = {}
    for ctx in list(root.findall("context")):
        name = ctx.find("name").text
        if name in OURS:
            name = "normlab::" + name
            ctx.find("name").text = name
        if name in merged:  # fold a duplicate context into the first one, each message once (lrelease drops a twin)
            have = {key(m) for m in merged[name].findall("message")}
            for m in ctx.findall("message"):
                if key(m) not in have:
                    merged[name].append(m)
                    have.add(key(m))
            root.remove(ctx)
        else:
            merged[name] = ctx
    done, total, left = 0, 0, []
    for ctx in root.findall("context"):
        for m in ctx.findall("message"):
            total += 1
            src = m.find("source").text or ""
            tr = m.find("translation")
            if src in table:
                text = table[src]
                forms = tr.findall("numerusform")
                if forms:
                    values = text if isinstance(text, list) else [text] * len(forms)
                    for f, v in zip(forms, values + [values[-1]] * (len(forms) - len(values))):
                        f.text = v
                else:
                    tr.text = text if isinstance(text, str) else text[-1]
                tr.attrib.pop("type", None)
                done += 1
            elif tr.get("type") == "unfinished" or not (tr.text or "".join(f.text or "" for f in tr.findall("numerusform"))):
                left.append(f"{ctx.find('name').text}: {src!r}")
    tree.write(path, encoding="utf-8", xml_declaration=True)
    return done, total, left


if __name__ == "__main__":
    for p in sys.argv[1:]:
        done, total, left = merge(p)
        print(f"{p}: {done} of {total} strings translated" + (f"; unfinished: {len(left)}" if left else ""))
        for s in left:
            print("  " + s)
