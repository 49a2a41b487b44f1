#!/usr/bin/env python3
"""scripts/make_corpus.py's extractors keep prose and drop the rest (issue 26).

Each extractor gets a sample of the source format it reads — reStructuredText
with a code block and directives, POD with markup and verbatim code, a dictd
entry with a pronunciation key, WordNet's indented senses, HTML with <pre> and
<script>, fortunes — and must return exactly the prose paragraphs, cleaned.
"""
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("make_corpus", os.path.join(HERE, "..", "scripts", "make_corpus.py"))
mc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mc)

failures = []


def check(name, got, want):
    if got != want:
        failures.append(f"{name}:\n  got  {got!r}\n  want {want!r}")


RST = """.. SPDX-License-Identifier: GPL-2.0

=====================
The frobnicator guide
=====================

The frobnicator driver reports errors through the `AER <aer.html>`_ interface
and :ref:`recovers <recovery>` from most of them without the user noticing.

::

        static int frob(struct device *dev) { return dev->state & 0x3; }

:Author: Someone <someone@example.org>
"""
check("rst", mc.from_rst(RST), ["The frobnicator driver reports errors through the AER interface and recovers"
                                 " from most of them without the user noticing."])

POD = """=head1 DESCRIPTION

The I<open> function opens the file named by C<EXPR> and associates it with
a L<filehandle|perlfunc/open> for reading or writing.

    open(my $fh, "<", "input.txt") or die "cannot open: $!";
"""
check("pod", mc.from_pod(POD), ["The open function opens the file named by EXPR and associates it with a"
                                 " filehandle for reading or writing."])

DICT = """Abdication \\Ab`di*ca"tion\\, n. [L. abdicatio: cf. F.
   abdication.]
   The act of abdicating; the renunciation of a high office,
   dignity, or trust, by its holder.
   [1913 Webster]
"""
check("dict", mc.from_dict(DICT), ["Abdication , n. [L. abdicatio: cf. F. abdication.] The act of abdicating; the"
                                   " renunciation of a high office, dignity, or trust, by its holder."])

WN = """absinthe
    n 1: a strong green liqueur flavored with wormwood and anise and
         other herbs [syn: {absinth}, {absinthe}]
absolute
    adj 1: perfect or complete or pure; "absolute loyalty"
"""
got = mc.from_wordnet(WN)
check("wordnet", got[0], "absinthe a strong green liqueur flavored with wormwood and anise and other herbs")

HTML = """<html><head><title>t</title><script>var x = 1;</script></head><body>
<p>PostgreSQL is a further development of the original code as a free
software alternative to commercial offerings.</p>
<pre>SELECT * FROM table WHERE a = 1;</pre><p>Too short.</p></body></html>"""
check("html", mc.from_html(HTML), ["PostgreSQL is a further development of the original code as a free software"
                                   " alternative to commercial offerings."])

FORTUNE = "A day without sunshine is like, you know, night.\n%\nshort\n%\n"
check("fortune", mc.from_fortune(FORTUNE), ["A day without sunshine is like, you know, night."])

for text in ("x = foo(bar[1], baz{2}); return y->z;", "| a | b | c | d | e | f | g | h | i | j |"):
    if mc.prose(text) is not None:
        failures.append(f"prose() kept code: {text!r}")

if failures:
    print("FAILED\n" + "\n".join(failures))
    sys.exit(1)
print("every extractor keeps the prose and drops the rest")
