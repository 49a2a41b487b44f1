#!/usr/bin/env python3
"""Builds NormLab's English corpus for GPU-scale runs (issue 26) from Debian packages.

    python3 scripts/make_corpus.py [--out normlab-data] [--cache DIR]

Downloads the packages below with `apt-get download` (nothing is installed),
unpacks each with `dpkg-deb -x`, and keeps the natural-language prose of
their documentation, dictionaries and manuals: code blocks, tables, markup,
directives and lines of symbols are dropped, whitespace is normalized and
every paragraph is kept once (exact duplicates, case and spacing ignored,
across all sources). Writes
  OUT/english.txt       the corpus, paragraphs separated by blank lines (UTF-8)
  OUT/english.txt.xz    the same, compressed: it travels to a GPU machine with the tree
  OUT/english.json      the manifest: every package with its version, licence (from its
                        copyright file), bytes and paragraphs kept; the total, its SHA-256
Every package is in Debian main, so its licence allows copying and
modification (the Debian Free Software Guidelines); the manifest records each
one's own licence names. The same package versions give the same bytes and
hash (sources are read in sorted order). docs/CORPUS.md describes the result;
an experiment reads it as {"data": {"source": "file", "path": "normlab-data/english.txt"}}.
"""
import argparse
import gzip
import hashlib
import html.parser
import json
import lzma
import os
import re
import subprocess
import sys
import tempfile

# (package, kind, files under the unpacked tree): kind picks the extractor.
SOURCES = [
    ("linux-doc-6.1", "rst", r"usr/share/doc/linux-doc-6\.1/Documentation/(?!.*\.(py|sh|c|h|svg|dot|json|yaml|pl)\.gz$).*\.gz$"),
    ("python3.11-doc", "rst", r"usr/share/doc/python3\.11/html/_sources/.*\.txt$"),
    ("dict-gcide", "dict", r"usr/share/dictd/gcide\.dict\.dz$"),
    ("dict-foldoc", "dict", r"usr/share/dictd/foldoc\.dict\.dz$"),
    ("dict-jargon", "dict", r"usr/share/dictd/jargon\.dict\.dz$"),
    ("dict-devil", "dict", r"usr/share/dictd/devil\.dict\.dz$"),
    ("perl-doc", "pod", r"usr/share/perl/.*\.pod$"),
    ("postgresql-doc-15", "html", r"usr/share/doc/postgresql-doc-15/html/.*\.html$"),
    ("git-doc", "rst", r"usr/share/doc/git-doc/.*\.txt$"),
    ("debian-reference-en", "html", r"usr/share/debian-reference/.*\.en\.html$"),
    ("bash-doc", "html", r"usr/share/doc/bash/.*\.html$"),
    ("dict-wn", "wordnet", r"usr/share/dictd/wn\.dict\.dz$"),
    ("rust-doc", "html", r"usr/share/doc/rust-doc/html/(book|reference|nomicon|rust-by-example|cargo|rustc|edition-guide|"
                         r"embedded-book|std/(?!arch/)[^/]*|std/[a-z_]+/[^/]*)(/.*)?\.html$"),
    ("openjdk-17-doc", "html", r"usr/share/doc/openjdk-17-jre-headless/api/(?!.*/class-use/).*/[A-Z][^/]*\.html$"),
    ("nodejs-doc", "html", r"usr/share/doc/nodejs/api/.*\.html$"),
    ("octave-doc", "html", r"usr/share/doc/octave/.*\.html$"),
    ("maxima-doc", "html", r"usr/share/doc/maxima-doc/html/.*\.html$"),
    ("kicad-doc-en", "html", r"usr/share/doc/kicad/.*\.html$"),
    ("debian-handbook", "html", r"usr/share/doc/debian-handbook/html/en-US/.*\.html$"),
    ("fortunes", "fortune", r"usr/share/games/fortunes/[^./]+$"),
    ("fortunes-min", "fortune", r"usr/share/games/fortunes/[^./]+$"),
]
SYMBOLS = set("{}[]();=<>_\\/#$*|&@^~`")


def prose(paragraph):
    """A paragraph worth keeping: long enough, mostly letters, few code symbols."""
    p = " ".join(paragraph.split())
    if len(p) < 40:
        return None
    letters = sum(c.isalpha() or c == " " for c in p)
    if letters < 0.78 * len(p) or sum(c in SYMBOLS for c in p) > 0.04 * len(p):
        return None
    if not re.search(r"[a-z]{3,} [a-z]{2,} [a-z]{2,}", p):   # a run of words, not a list of names
        return None
    return p


def blocks(text):
    return re.split(r"\n[ \t]*\n", text)


def _rst(text):
    """reStructuredText and AsciiDoc: indented blocks (code, literal) and directives go."""
    for b in blocks(text):
        lines = [l for l in b.split("\n") if l.strip()]
        if not lines:
            continue
        if all(l.startswith(("        ", "\t\t")) for l in lines):
            continue                                   # a literal block nested in a list (prose() drops other code)
        if lines[0].lstrip().startswith(("..", ":", "----", "====", "[", "//", "|", "+--", "-- ")):
            continue                                   # directive, field list, table, attribute
        keep = [l for l in lines if not re.fullmatch(r"\s*[=\-~^*#+`'\"]{3,}\s*", l)]
        text_ = " ".join(keep)
        text_ = re.sub(r":\w+:`([^`<]*)(<[^>]*>)?`", r"\1", text_)         # :role:`text <target>`
        text_ = re.sub(r"`([^`<]*)(<[^>]*>)?`_{0,2}", r"\1", text_)        # `link <url>`_
        text_ = text_.replace("``", "").replace("**", "")
        yield text_


def _pod(text):
    for b in blocks(text):
        if b.startswith(("=", " ", "\t")):
            continue                                   # command paragraphs and verbatim code
        b = re.sub(r"[A-Z]<<+\s*(.*?)\s*>>+", r"\1", b)
        for _ in range(3):
            b = re.sub(r"[A-Z]<([^<>]*)>", r"\1", b)   # I<...>, C<...>, L<text|link>
        b = re.sub(r"\|[^ ]*", "", b)
        yield b


def _dict(text):
    """dictd databases: each entry's definition text, pronunciation markup and sources dropped."""
    for b in blocks(text):
        lines = [l.strip() for l in b.split("\n") if l.strip()]
        if not lines or lines[0].startswith("00-database"):
            continue
        b = " ".join(l for l in lines if not re.fullmatch(r"\[[^\]]*\]", l))   # [1913 Webster]
        b = re.sub(r"\\[^\\]*\\", "", b)               # \Ab*di*ca"tion\ (pronunciation)
        b = re.sub(r"\{([^}]*)\}", r"\1", b)           # {cross-references}
        yield b


def _wordnet(text):
    """WordNet's dictd database: an entry is a headword at the margin and its indented senses."""
    entries, cur = [], []
    for line in text.split("\n"):
        if line and not line[0].isspace():
            entries.append(" ".join(cur))
            cur = []
        cur.append(line.strip())
    entries.append(" ".join(cur))
    for e in entries:
        e = re.sub(r"\[(syn|ant|also|see also):[^\]]*\]", "", e)
        e = re.sub(r"\b(n|v|adj|adv)\s+1:", "", e)
        e = re.sub(r"\b\d+:\s", "", e)
        e = re.sub(r"\{([^}]*)\}", r"\1", e)
        yield e


class _Html(html.parser.HTMLParser):
    SKIP = {"pre", "code", "script", "style", "table", "nav", "head"}
    BLOCK = {"p", "li", "dd", "dt", "h1", "h2", "h3", "h4", "h5", "h6", "div", "blockquote", "br", "td", "th"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.skip, self.parts, self.cur = 0, [], []

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skip += 1
        elif tag in self.BLOCK:
            self.flush()

    def handle_endtag(self, tag):
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag in self.BLOCK:
            self.flush()

    def handle_data(self, data):
        if not self.skip:
            self.cur.append(data)

    def flush(self):
        if self.cur:
            self.parts.append("".join(self.cur))
            self.cur = []


def _html(text):
    h = _Html()
    h.feed(text)
    h.flush()
    return h.parts


def _fortune(text):
    return text.split("\n%\n")


def kept(extract):
    """An extractor's candidate paragraphs, cleaned, that prose() keeps."""
    return lambda text: [p for p in map(prose, extract(text)) if p]


from_rst, from_pod, from_dict, from_wordnet, from_html, from_fortune = map(
    kept, (_rst, _pod, _dict, _wordnet, _html, _fortune))
EXTRACT = {"rst": from_rst, "pod": from_pod, "dict": from_dict, "wordnet": from_wordnet, "html": from_html,
           "fortune": from_fortune}


EXTRACT = {kind: kept(f) for kind, f in {"rst": from_rst, "pod": from_pod, "dict": from_dict, "wordnet": from_wordnet,
                                         "html": from_html, "fortune": from_fortune}.items()}


def read(path):
    opener = gzip.open if path.endswith((".gz", ".dz")) else open
    with opener(path, "rb") as f:
        return f.read().decode("utf-8", errors="replace")


def licences(root, pkg):
    """The licence names a package's copyright file declares (DEP-5 'License:' lines), else its first words."""
    for name in (pkg, pkg.split("-")[0], "linux-doc" if pkg.startswith("linux-doc") else pkg):
        path = os.path.join(root, "usr/share/doc", name, "copyright")
        if os.path.exists(path):
            text = read(path)
            names = sorted({m.strip() for m in re.findall(r"^License:\s*(.+)$", text, re.M)})
            return names or [" ".join(text.split()[:12]) + " …"]
    return ["see the package's copyright file"]


def version(deb):
    return subprocess.run(["dpkg-deb", "-f", deb, "Version"], capture_output=True, text=True, check=True).stdout.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="normlab-data")
    ap.add_argument("--cache", default=None, help="keep the downloaded .deb files here (default: a temporary folder)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="normlab-corpus-")
    cache = os.path.abspath(args.cache or os.path.join(tmp, "debs"))
    os.makedirs(cache, exist_ok=True)
    pkgs = sorted({p for p, _, _ in SOURCES})
    have = {f.split("_")[0] for f in os.listdir(cache) if f.endswith(".deb")}
    missing = [p for p in pkgs if p not in have]
    if missing:
        print(f"downloading {len(missing)} packages: {' '.join(missing)}", file=sys.stderr)
        subprocess.run(["apt-get", "download", "-q"] + missing, cwd=cache, check=True, stdout=subprocess.DEVNULL)
    seen, manifest, total = set(), [], 0
    out_path = os.path.join(args.out, "english.txt")
    sha = hashlib.sha256()
    with open(out_path + ".tmp", "w", encoding="utf-8") as out:
        for pkg, kind, pattern in SOURCES:
            deb = sorted(f for f in os.listdir(cache) if f.startswith(pkg + "_") and f.endswith(".deb"))[-1]
            root = os.path.join(tmp, pkg)
            subprocess.run(["dpkg-deb", "-x", os.path.join(cache, deb), root], check=True)
            files = sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs)
            files = [f for f in files if re.search(pattern, f)]
            kept, nbytes, dropped = 0, 0, 0
            for rel in files:
                for p in EXTRACT[kind](read(os.path.join(root, rel))):
                    key = hashlib.sha1(" ".join(p.lower().split()).encode()).digest()
                    if key in seen:
                        dropped += 1
                        continue
                    seen.add(key)
                    data = (p + "\n\n").encode("utf-8")
                    sha.update(data)
                    out.write(p + "\n\n")
                    kept += 1
                    nbytes += len(data)
            total += nbytes
            manifest.append({"package": pkg, "version": version(os.path.join(cache, deb)), "kind": kind,
                             "licence": licences(root, pkg), "files": len(files), "paragraphs": kept,
                             "duplicates_dropped": dropped, "bytes": nbytes})
            print(f"{pkg:22s} {len(files):5d} files  {kept:7d} paragraphs  {nbytes / 1e6:6.1f} MB"
                  f"  ({dropped} duplicates)", file=sys.stderr)
    os.replace(out_path + ".tmp", out_path)
    with open(out_path, "rb") as f, lzma.open(out_path + ".xz.tmp", "wb", preset=9 | lzma.PRESET_EXTREME) as z:
        while chunk := f.read(1 << 20):
            z.write(chunk)
    os.replace(out_path + ".xz.tmp", out_path + ".xz")
    info = {"file": "english.txt", "bytes": total, "sha256": sha.hexdigest(),
            "xz_bytes": os.path.getsize(out_path + ".xz"), "paragraphs": len(seen), "sources": manifest,
            "rule": "Debian main packages only (DFSG: copying and modification allowed); prose paragraphs"
                    " of at least 40 characters, >= 78% letters and spaces, <= 4% code symbols, each kept once"}
    with open(os.path.join(args.out, "english.json"), "w") as f:
        json.dump(info, f, indent=1)
    subprocess.run(["rm", "-rf", tmp])
    print(f"english.txt: {total / 1e6:.1f} MB, {len(seen)} paragraphs, sha256 {sha.hexdigest()[:16]}…;"
          f" english.txt.xz {info['xz_bytes'] / 1e6:.1f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
