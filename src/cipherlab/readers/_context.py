"""Context: which line of the text around a run names it (layer 4 of the reader).

Why this module exists: a paste names its runs in the prose around them (``Linux (P3 750Mhz;
512MBram):``, a Markdown heading, ``with:``/``without:``), but most of the prose tells a story,
and the lines nearest a table are often a fence, the command, or program output. Each line of
prose is judged by :data:`LABEL_RULES`, an ordered tuple of small named rules (the first that
decides wins); :func:`label_verdict` applies them. The parser (``_openssl``) then looks for
a run's label, nearest first (:meth:`~cipherlab.readers._openssl._Parser.find_label`):

1. the nearest line above the run that names it (a *caption*), unless prose that tells a story
   (a sentence, a list item, a byline) stands between them;
2. else, when nothing but program output parts the run from the run before, that run's label
   (a label names every run under it, until the text says something else);
3. else the nearest heading above the run: a heading applies to every run under it until the
   next heading, which ends its scope whatever it says (a heading that is a command names no
   run); the title of a thread (a heading above its first byline) names none of its posts;
4. else the machine its command line ran on (:func:`prompt_machine`): the host of its prompt
   (``root@web01:~#`` -> ``web01``), or the host ``ssh`` ran it on. A label taken from the run
   above yields to it when the run above ran on another host. The host, not ``user@host``: the
   host names the machine (two users on one box are one machine, one user on two boxes two);
   a container's generated id names none. A host is never read as a CPU.

Where no rule finds a name the label stays empty: right or loud, never junk. The name of the
rule that found a label is kept in the tidy table's ``rule`` column.
"""

from __future__ import annotations

import re
from typing import Callable, NamedTuple

from cipherlab.readers._names import switch, switches_in
from cipherlab.readers._units import UNIT_HINT, rates_in, stated_unit, without_units

__all__ = ["LABEL_RULES", "SKIP", "STOP", "Label", "heading", "is_byline", "is_list_item",
           "HOST_RULE", "HOST_RULES", "INHERITED_HOST_RULE", "MASK_RULE", "is_shell_command",
           "label_conditions",
           "prompt_machine", "label_above", "label_text", "label_verdict", "mask_value",
           "shell_assignment", "shell_host", "prose_label", "prose_mask", "setext_level"]


class Label(NamedTuple):
    """A line that names the runs below it: ``text`` (None: a heading that names nothing, but
    ends the scope of the heading before it), the ``rule`` that found it, and its heading
    ``level`` (0 for a caption, which names only the run right below it)."""

    text: str | None
    rule: str
    level: int = 0


#: Verdicts of lines that are no label: SKIP says nothing about the run (a fence, a command,
#: program output: the search goes on above it); STOP tells a story (a sentence, a list item,
#: a byline): a caption above it names something else.
SKIP, STOP = "skip", "stop"

# Decoration around a label: marks before it, marks after it, and the tags after a heading
# (org-mode's "* Notes   :crypto:arm:", GitHub's emoji codes "Results :rocket:").
_LABEL_JUNK = re.compile(r"^[#*=\-_\s>]+|(?:\s+:(?:[\w@#%+-]++:)++)*+(?<!\.)[*=\-_:.\s]*+$")
_REMARK = re.compile(r"\s*\([^()]*\)")
_LEADING_JUNK = re.compile(r"^[#*=\-_\s>]+|[*_\s]+$")
_ASCII_LETTER = re.compile("[A-Za-z]")
_RELEASE = re.compile(r"\d{1,3}(?:\.\d{1,3}){2,3}")
_NOT_LABEL = re.compile(r"^\[exit status|^-{3,}|^\$|^(?:[kKMGT]i?B|bytes?|ops?|bits?|[kMG]bps)/s(?:ec)?$|"
                        # (a greeting, a login's or a shell's too: "Welcome to fish, the friendly
                        # interactive shell", "Welcome to Ubuntu 24.04 LTS")
                        r"^(?:Most interesting|Cheers|Regards|Thanks|Hi|Hello|Hey|Dear|Welcome)\b|^Last login:|"
                        # (a reply's agreement names nothing: "Same here, with the 3.3.1 build:")
                        r"^(?:same here|me too|here too|likewise|ditto)\b|"
                        # (a connective alone between two outputs joins them, names neither)
                        r"^(?:and|or|but|then|and then|also|plus|vs\.?|versus|compared (?:to|with))\s*[:.,]?\s*$",
                        re.I)
# Lines that name no machine or condition, whatever they hold: a code fence, a shell command
# (any prompt, wrapper or binary path), program output (version lines, uname, table headers),
# source code, markup, links and arithmetic. A run label is never one of them.
_NOT_LABEL_LINE = re.compile(
    r"^\s*(?:`{3,}|~{3,}|<[/a-z!]|https?://|#?!?\s*/[\w.-]+/|[\w.-]*@[\w.-]+:\S*\s*[$#%]|[A-Za-z]:\\\S*>|"
    # (Windows: PowerShell's prompt, Git Bash's title line, the consoles' banners; mail headers)
    r"PS\s[A-Za-z]:\\[^>]*>|\[[\w.-]+@[^\]]{1,80}\][$#%]|[\w.-]+@[\w.-]+\s+(?:MINGW(?:32|64)|MSYS|UCRT64|CLANG(?:32|64|ARM64))\b|"
    r"(?:Windows\s+PowerShell|PowerShell\s+\d|Microsoft\s+Windows\s+\[Version|\(c\)\s+Microsoft|"
    r"Copyright\s+\(C\)\s+Microsoft|Install\s+the\s+latest\s+PowerShell|Transcript\s+(?:started|stopped),)|"
    r"(?:From|To|Cc|Date|Subject|Reply-To|Message-ID|In-Reply-To|References|Sent):\s|"
    r"(?:>>>|\$|%|\u276f|\u279c|\u03bb)\s|(?:In\s?|Out)\[\d+\]:|"  # (IPython's prompts)
    r"[\u256d\u2570\u250c\u2514]\u2500|"  # (a two-line prompt's lines: `╭─user@host ~`, `╰─$ `)
    r"\^[A-Z\\]|"  # (a control key a terminal echoed: `^C`, `^Z`, `^\`)
    r"(?:sudo|time|taskset|nice|env|perf|docker|uname|cat|echo|\./|\.\./|apps/|util/|bin/)\b|"
    r"(?:let|const|var|import|from|fn|def|func|return|assert|static|struct|class|public|private)\s|"
    r"//|/\*|\*/|#\[|"
    r"(?:version:|(?:OpenSSL|LibreSSL|BoringSSL|SSLeay)\s+\d\S*\s+\S|(?:Tongsuo|LibreSSL)\s+\d[\w.+-]*\s*$)|-*v?\d+\.\d+(?:\.\d+\w*)?\s*$|"
    r"(?:Linux|Darwin|FreeBSD)\s+\S+\s+\d+\.\d+\S*\s+#|Linux\s+\d+\.\d+\.\d+\S*\s+#|"
    r"(?:sign|keygen|op)\s+(?:verify|encaps|op/s)\b|"
    # (a time measured, as `perf stat` and `time -p` print it, `0.003992000 seconds sys`, and
    # perf's counters, `70,315,220,473   instructions   #  2.81  insn per cycle`; a count of
    # repeats, `(3 runs)`, names no run)
    r"\d[\d,]*\.\d+(?:\s+\+-\s+[\d.]+)?\s+(?:seconds?|msec|ms)\b|\d{1,3}(?:,\d{3})+\s+[a-z][\w:/-]*(?:\s+#|\s+\(|\s*$)|"
    r"Performance\s+counter\s+stats\s+for\s|\(?\d+\s+(?:runs?|repeats?|iterations?|trials?|times)\)?:?\s*$)"
    r"|(?-i:\b(?:(?:openssl|tongsuo)\d*(?:\.exe)?\s+(?:speed|version|engine|enc|s_client|s_server|list)|cryptsetup\s+benchmark)\b)"
    r"|\b(?:bssl\s+speed|gnutls-cli\s+--benchmark|(?:wolfcrypt|wolfssl|mbed\s?tls|polarssl)\s+benchmark)\b"
    r"|[{};\\]\s*$|\s=\s|\d=\d|\w=\d[\d.]*\w*\s*$|\s=$|<br\s*/?>|^\s*(?:labels:|@\w|\[turn\b|\(\w+\)\s)"
    r"|(?-i:\b[A-Z]+_[A-Z_]+\b)"
    r"|^\s*\[/?(?:code|quote|pre|php|spoiler|size|color|font|b|i|u)\b[^\]]{0,40}\]\s*$",  # BBCode
    re.IGNORECASE)
# A Markdown link or a URL, and what frames one in prose ("(from <link>)", "see: <link>"): a
# link names no machine, what is left beside it may.
_LINK = re.compile(r"\[[^\]]{0,200}\]\([^)\s]{0,400}\)|<?\b[a-z]{2,8}://[^\s>)]*>?")
_LINK_FRAME = re.compile(r"\(\s*(?:(?:from|see|via|source)\s*:?\s*)?\)|"
                         r"^\s*(?:from|see|via|source)\s*:?\s*$", re.IGNORECASE)
# Page furniture that starts a post: bylines ("alice · comment · 2021-11-25", "Bob wrote:").
# A chat message's author and time (Slack, Teams, Discord: "Priya Raman  10:42 AM", "dan —
# Today at 10:51"): capitalised names, then the time, nothing else.
# (or the date before the time, as a bug tracker heads a comment: "Tomas Mraz 2026-03-05 09:14:22 UTC")
_CHAT_BYLINE = re.compile(r"^[A-Z][\w.'-]*(?:(?: [A-Z][\w.'-]*){1,3}\s+(?:\d{4}-\d\d-\d\d\s+)?\d{1,2}:\d\d"
                          r"(?::\d\d(?:\s+UTC)?)?|(?: [A-Z][\w.'-]*){0,3}"
                          r"(?:\s+(?:\u2014|-)\s+(?:Today|Yesterday)\s+at)?\s+\d{1,2}:\d\d\s*[AaPp][Mm])$")
# (a Reddit or Hacker News comment's author and age: "u/ferrous_wheel · 14h", "kees · 3 hr. ago")
# (a reply's attribution of what it quotes: Bugzilla's "(In reply to Jan Novak from comment #4)")
_BYLINE = re.compile(r"\s\u00b7\s.*\s\u00b7\s|(?:^|\s)(?:commented|wrote|writes)(?:\s|:|$)|"
                     r"^\(?(?:in\s+reply\s+to|replying\s+to|quoting)\s+\S|"
                     r"^\S{2,40}\s+\u00b7\s+\d{1,2}\s*(?:[smhdwy]|min|mins|hr|hrs|mo|yr)\.?(?:\s+ago)?$", re.I)
# A sentence of the prose: it ends like one (not in "..."), or is long, or its subject is a
# pronoun ("I get here:"). It tells a story, it does not name a run.
# (A full stop ends a sentence of three words or more: "Original code." names a run.)
_SENTENCE = re.compile(r"[!?\u3002\uff01\uff1f\uff0c]\s*$|^\S+\s+\S+\s.*(?<!\.)[.,]\s*$|"
                       # (ten words or more, one of them a lower-case word or no comma among
                       # them: a list of names, "Fujitsu Primergy TX1320 M2, Xeon E3-1230 v5,
                       # 32 GB RAM:", is none; a title in Title Case still is)
                       r"^(?=.*(?<!\S)[a-z]+(?![^\s,.;:!?)])|[^,]*$)(?:\S+\s+){9,}\S|"
                       r"^(?:I|I'm|I've|We|We're|You|It|It's|This|That|There's)\s|"
                       r"^(?:Then|And|So|Now|Next|Finally|Also|But)\s+\S+\s+\S|"  # (a story goes on)
                       # (where the paste was taken from, "Copied from the snippet viewer on our
                       # GitLab:", tells how it came here, names no run)
                       r"^(?:Cop(?:ied|ying)|Past(?:ed|ing)|Copy-past(?:ed|ing))\s+"
                       r"(?:from|out\s+of|off|straight)\s")
# Clauses of CJK text joined by a comma ("第一次正常运行, 第二次 ...": normalised from "，"), or
# a full stop ending it: a sentence (CJK text puts no blanks between its words to count).
# A clause inside a line: a finite verb or a subject pronoun before a word ("The second box is
# older BIOS:", "Here is what I get on the old one:", "the numbers look like this:"); a short
# line is a sentence too then (the clause ending a caption, "... I get:", is judged apart).
_FINITE = re.compile(r"\b(?:is|are|was|were|isn't|aren't|wasn't|weren't|has|have|had|hasn't|haven't|"
                     r"does|did|doesn't|didn't|gets|got|gives|gave|shows|showed|looks?|seems?|seemed|"
                     r"goes|went|ran|makes|drops|dropped|can|could|will|would|should|might|must|"
                     r"can't|won't)\b|\b(?:I|[Ww]e|[Yy]ou|[Tt]hey|[Ww]hat)\s+\w|\blike this\b|"
                     r"\bas follows\b|^(?:Ran|Got|Did|Tested|Measured|Tried|Is|Are|Was|Were|Has|Had)\s|"
                     # (a question's infinitive, which no name holds: fish's greeting, "Type help
                     # for instructions on how to use fish")
                     r"\b(?:how|what|where|when|whether|which)\s+to\s+[a-z]")
# Words that speak of several runs at once ("Same package on both (...), same command:"): a
# line about the comparison, which names none of them.
_SEVERAL = re.compile(r"\b(?:on|for|of|in|across)\s+(?:both|all\s+(?:two|three|four|of\s+them))\b", re.I)
_CJK_SENTENCE = re.compile(r"[\u3400-\u9fff][^,;\u3001]*[,;\u3001]\s*\S.*[\u3400-\u9fff]|\u3002\s*$")
_SENTENCE_END = re.compile(r"[.!?][)\]\"']?\s+\S")  # one sentence ends, another begins
_MEASURE = re.compile(r"\d\.\d\d(?!\d*\s*[GM]Hz)", re.IGNORECASE)  # (a clock is no measurement)
_WRAP_WIDTH = 60  # a line at least this long, then another in its paragraph: wrapped
# Markdown headings: "## Title" (level = number of #), a whole line in bold (level 7: below
# every # heading), and Setext underlines (=== level 1, --- level 2), see heading().
_ATX = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
_BOLD = re.compile(r"^\s*(\*\*|__)(?=\S)(.+?)(?<=\S)\1:?\s*$")
_SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_BOLD_LEVEL = 7
# An item of a bulleted list: "- x", "* x", "+ x", "• x" (after any quoting; a numbered item,
# "3. version: 1.1.1q", may well name what follows).
_ITEM = re.compile(r"^[\s>]*[-*+\u2022]\s+\S")
# A caption around a command: "Before patch: $ apps/openssl speed ecdh", "'apps/openssl speed
# rsa dsa' output with no-asm:" (the command quoted, or after a prompt sign).
_COMMAND_SPAN = re.compile(r"""(?:[`'"][^`'"]*\bopenssl\b[^`'"]*[`'"]|(?:^|\s)[$#%>]\s+\S*openssl\b.*$)""")
_ENUMERATOR = re.compile(r"^(?:[A-Z]|\d{1,2})[.)]\s*")
# A machine named in a sentence: "on my small NUC-like server", "on our old Xeon box".
# (After "the", "a", "this"... the noun needs a word before it: "on the board" names none;
# "on the same box" points back, it names none either.)
_MACHINE_NOUN = r"(?:server|laptop|desktop|workstation|notebook|machine|box|computer|PC|board|VM|" \
                r"instance|node|phone|tablet)"
_MACHINE = re.compile(
    rf"\bon\s+(?:(?:my|our)\s+((?:[\w.+-]+\s+){{0,3}}?{_MACHINE_NOUN})|"
    rf"(?:a|an|the|this|that)\s+(?!same\b)((?:[\w.+-]+\s+){{1,3}}?{_MACHINE_NOUN}))\b", re.I)
# A model that ends the sentence introducing what follows: "That matches what I see on a 2620
# v2 (AES-NI on):" (a capital or a digit in a word marks a model name: "on 4 cores:" names none).
# (an age before the model is no part of it, "On my old Core 2 Duo E8400 (no AES-NI),
# OpenSSL 1.1.1f:"; nor is the version after it)
_MODEL_AT_END = re.compile(r"\b(?i:on)\s+(?:(?:my|our|a|an|the|this|that)\s+)?(?:(?:old|new)\s+)?"
                           r"(?P<name>[\w.+-]+(?:[ \t]+[\w.+-]+){0,3}?)\s*(?:\([^()]{0,60}\))?"
                           r"(?:,\s*(?i:openssl|libressl)\s+v?\d+\.\d+\S*)?\s*:\s*$")
# A tool's version that leads such a caption: "OpenSSL 3.1.4 on the Pi 5:" (the version is a
# fact of the run, the model names it).
_VERSION_LEAD = re.compile(r"^(?i:openssl|libressl|boringssl|tongsuo)\s+v?\d+\.\d+\S*\s+(?i:on)\s")
_CLOSING_TAGS = re.compile(r"(?:</\w+>\s*)+$")
# A model a sentence presents for what follows: "here's the old c6i.xlarge for comparison".
_PRESENTED_MODEL = re.compile(r"\b(?i:here's|here is)\s+(?:the|my|our)\s+(?:(?:old|new)\s+)?"
                              r"(?P<name>[\w.+-]*[A-Za-z]\d[\w.+-]*)\s+for\s+comparison\b")
# A model a short sentence presents as what follows: "Here is my Xeon D-1518 box:".
_PRESENTED_AT_END = re.compile(r"^(?i:here\s+is|here's|this\s+is)\s+(?:(?:my|our|the|a|an)\s+)?"
                               r"(?:(?:old|new)\s+)?(?P<name>[\w.+-]+(?:[ \t]+[\w.+-]+){0,3}?)\s*"
                               r"(?:\([^()]{0,60}\))?\s*:\s*$")
# A machine named with its CPU in parentheses: "on the ThinkPad X13 (Ryzen 5 PRO 4650U)".
_MACHINE_CPU = re.compile(r"\b(?i:on)\s+(?:(?i:my|our|the|a|an|this|that)\s+)?"
                          r"([A-Z][\w.+-]*(?:[ \t]+[\w.+-]+){0,2}?)\s*\(([^()]{3,60})\)")
_CPU_MARK = re.compile(r"[A-Za-z]\d|\d[A-Za-z]|\d\s*[GM]Hz", re.IGNORECASE)  # "4650U", "A76", "2.4 GHz"
# (nor is a code host, a paste site or a chat where the text was posted: "on our GitLab:")
_NOT_A_MODEL = re.compile(r"^(?:openssl|libressl|boringssl|version|master|main|branch|commit|"
                          r"git(?:hub|lab|ea)|bitbucket|pastebin|gist|slack|discord|mattermost|"
                          r"confluence|jira|jenkins)\b", re.IGNORECASE)
_MODEL_MARK = re.compile(r"[A-Z]|[A-Za-z]\d|\d[A-Za-z]")  # ("2620 v2", "Pi 4"; not "4 cores")
# The subject a sentence introducing what follows names: "Here are performance numbers for
# 64-bit compiler generated code:", "These are the results with AES-NI disabled:".
_SUBJECT = re.compile(
    r"\b(?:performance|results?|numbers|figures|benchmarks?|timings?|speeds?|measurements?)"
    r"(?:\s+(?:numbers|figures|results))?\s+(?:of|for|on|with|from)\s+(?:(?:the|a|an|my|our)\s+)?"
    r"(?!(?:comparison|reference|completeness|example|instance|now|today|you|me|us|all|both|"
    r"each|them|it|this|that|these|those)\b)(?P<subject>[^\s,;:.!?()][^,;:!?()]{2,60}?)\s*:\s*$",
    re.IGNORECASE)
_PRESENTING = re.compile(r"^(?:Here|These|Below|Following)\s+(?:are|is)\s", re.IGNORECASE)
_CLAUSE = re.compile(r"\b(?:that|which|who|where|when|we|I|you|they)\b")
# A tool's version stated as a fact of a list ("OpenSSL : OpenSSL 1.0.2k", "LibreSSL: 3.8.2"):
# it says what ran, not which run follows.
_TOOL_BANNER = re.compile(
    r"^(?:openssl|libressl|boringssl|aws-lc|tongsuo|gnutls|ssleay)(?:\s+version)?\s*:\s*"
    r"(?:(?:openssl|libressl|boringssl|aws-lc|tongsuo|gnutls|ssleay)\s+)?v?\d+\.\d+\S*\s*$",
    re.IGNORECASE)
# A status line that announces what follows: "Running RSA Speed Test with ... implementation..."
_ELLIPSIS = re.compile(r"^[A-Z0-9][^.!?]*[^.]\.{3}$|^[A-Z0-9][^.!?]*\u2026$")


_QUANTITY_FIRST = frozenset("0123456789~(\u2248")


def _quantity(text: str) -> bool:
    """Whether ``text`` is a value with its unit alone (``2.1 GB/s``, ``~ 410 MB/s``): a
    measurement (a list row's, broken off), never a name."""
    rates = rates_in(text)
    return len(rates) == 1 and not text[:rates[0][0]].strip(" ~\u2248(") and \
        not text[rates[0][1]:].strip(" ):.")


def _clean_label(text: str) -> str | None:
    """``text`` without the decoration around it, if it is a short name; else None."""
    s = " ".join(_LABEL_JUNK.sub("", text.strip()).split())  # (one blank between words)
    if not s or len(s) > 100 or _NOT_LABEL.match(s) or s[:1] in _QUANTITY_FIRST and _quantity(s):
        return None
    if len(_MEASURE.findall(s)) >= 2:
        return None  # measurements typed into a line ("sign/s: 1533.00; verify/s 51018.50";
        # not a CPU's clocks, "Core i5-8250U 1.60GHz-3.40GHz")
    # (ASCII letters are what isalpha() finds in ASCII text: one regex instead of a loop)
    if not (_ASCII_LETTER.search(s) if s.isascii() else any(c.isalpha() for c in s)):
        return s if _RELEASE.fullmatch(s) else None  # (a caption "3.0.13:" names a release)
    return s


def heading(raw: str) -> tuple[int, str] | None:
    """``(level, text)`` of a Markdown heading line (``#`` marks or a whole line in bold).

    >>> heading("### Additional resources"), heading("**Laptop**"), heading("#include <x.h>")
    ((3, 'Additional resources'), (7, 'Laptop'), None)
    """
    if raw[:1] not in "#*_ " or not raw.strip():
        return None
    m = _ATX.match(raw)
    if m:
        return len(m[1]), m[2]
    m = _BOLD.match(raw)
    return (_BOLD_LEVEL, m[2]) if m else None


def setext_level(line: str) -> int | None:
    """The heading level a Setext underline gives the line above it (``===`` 1, ``---`` 2).

    >>> setext_level("-------------"), setext_level("====="), setext_level("--")
    (2, 1, None)
    """
    m = _SETEXT.match(line)
    if m is None or len(m[1]) < 3:
        return None
    return 1 if m[1][0] == "=" else 2


def is_byline(line: str) -> bool:
    """Whether a line is page furniture that starts a post (a byline, an attribution, a chat
    message's author and time).

    >>> is_byline("cruftex · comment · 2019-04-03"), is_byline("On Mon, 5 Jan 2015, Bob wrote:")
    (True, True)
    >>> is_byline("Priya Raman  10:42 AM"), is_byline("Round 2 at 10:42")
    (True, False)
    >>> is_byline("u/ferrous_wheel · 14h"), is_byline("kees · 3 hr. ago"), is_byline("Pi 5 · 4 cores")
    (True, True, False)
    >>> is_byline("(In reply to Jan Novak from comment #4)"), is_byline("Tomas Mraz 2026-03-05 09:14:22 UTC")
    (True, True)
    """
    if line[-1:] in "MmP0123456789C" and ":" in line[-8:]:
        return _CHAT_BYLINE.match(line) is not None
    return ("\u00b7" in line or "wr" in line or "commented" in line or "eply" in line
            or "uoting" in line) and bool(_BYLINE.search(line))


# --- the rules, in order: each returns a verdict, or None to leave the line to the next --------
def _byline(line: str, raw: str):
    """A byline starts a post: prose above it is another post's. ``bob · comment · 2024-01-02``."""
    return STOP if is_byline(line) else None


# Words before a command that end in a preposition or an article are a sentence cut at it
# ("Quick numbers from `openssl speed ...` on my M2"), no caption.
_CUT_AT_COMMAND = re.compile(r"\b(?:from|of|with|using|by|via|in|on|for|and|or|to|the|a|an|my|our)$",
                             re.IGNORECASE)


_AFTER_COMMAND = re.compile(r"^(?:on|for|from|in)\s+(?:(?:my|our|the|a|an|this)\s+)?", re.IGNORECASE)
# (the command's "output" before what it ran with names nothing: "output with no-asm")
_OUTPUT_OF = re.compile(r"^(?:output|results?|numbers)\s+(?=(?:with|without|on|for|from|in|under)\s)",
                        re.IGNORECASE)


def _after_command(text: str) -> str:
    """The words after a command as a name: ``on our build box`` -> ``build box``, ``(Graviton
    3)`` -> ``Graviton 3``, ``output with no-asm`` -> ``with no-asm``."""
    text = _AFTER_COMMAND.sub("", _OUTPUT_OF.sub("", text.strip(" \t:;,")))
    return text[1:-1] if text[:1] == "(" and text[-1:] == ")" and text.count("(") == 1 else text


def _around_command(line: str, raw: str):
    """A caption around a quoted or prompted command names the run with the words around it:
    ``Before patch: $ apps/openssl speed ecdh`` -> ``Before patch``; ``'apps/openssl speed rsa'
    output with no-asm:`` -> ``output with no-asm``."""
    if "openssl" not in line or not line.rstrip().endswith(":") and "$" not in line:
        return None
    m = _COMMAND_SPAN.search(line)
    if m is None:
        return None
    before = line[:m.start()]
    if m[0][:1] not in "`'\"" and not before.rstrip().endswith(":"):
        return None  # ("pi@pi5:~ $ openssl speed" is a prompt, not a caption)
    for side in (before, _after_command(line[m.end():])):
        side = _ENUMERATOR.sub("", side.strip(" \t:;,"))
        if side and not _SENTENCE.search(side) and not _NOT_LABEL_LINE.search(side) and \
                not _SENTENCE_END.search(side) and not _CUT_AT_COMMAND.search(side):
            # ("(OpenSSL 3.3.0, Xeon). MB/s": two sentences; "Quick numbers from": cut)
            text = _clean_label(side)
            if text is not None:
                return Label(text, "caption around a command")
    return None


# The sections of an issue or bug-report template ("### Describe the bug", "## Environment"):
# headings that name what a part of the report is, never a run.
TEMPLATE_SECTION = re.compile(
    r"\W*(?:describe the (?:bug|issue|problem)|bug (?:description|report)|(?:issue )?description|"
    r"(?:steps )?to reproduce|steps to reproduce|reproduction(?: steps)?|how to reproduce|"
    r"(?:expected|actual|current|observed) (?:behaviou?r|results?|outcome)|what happened|"
    r"what (?:i|we) (?:see|saw|get|got|observe|observed|expect|expected)|"
    r"what did you expect(?: to happen)?|additional (?:context|information|notes)|"
    # (the environment a post's results come from, as posts name it: "Test setup", "検証環境")
    r"(?:test(?:ing)?|benchmark|verification) (?:environment|setup|system|bed)|environment|"
    r"testumgebung|umgebung|environnement(?: de test)?|entorno(?: de pruebas)?|"
    r"\u691c\u8a3c\u74b0\u5883|\u6e2c\u5b9a\u74b0\u5883|\u5b9f\u884c\u74b0\u5883|\u6d4b\u8bd5\u73af\u5883|\u73af\u5883|\u74b0\u5883|"
    r"system information|(?:relevant )?log(?:s| output)?|screenshots?|checklist|"
    r"possible (?:solution|fix)|proposed (?:solution|change)|alternatives(?: considered)?|"
    # (a changelog's sections, as Keep a Changelog and release notes name them)
    r"added|changed|deprecated|removed|fixed|security|(?:bug ?)?fixes|(?:new )?features|"
    r"improvements|breaking changes|upgrading|upgrade notes|known issues)\W*$",
    re.IGNORECASE)


# A title that says what was measured on a machine: "Post-quantum speed on the Framework 13
# (Ryzen 7 7840U)", "Benchmarking ChaCha20 vs AES on a Celeron J4125" (the machine names its runs).
_MEASURED_ON = re.compile(r"\b(?:speed|benchmark\w*|results|numbers|performance|throughput|timings)\b"
                          r"(?:\s+\S+){0,4}?\s+on\s", re.IGNORECASE)
_MACHINE_NAMED = re.compile(rf"\d|\b{_MACHINE_NOUN}\b", re.IGNORECASE)  # (a model's number, a machine's noun)


def _heading(line: str, raw: str):
    """A Markdown heading or a bold line names every run under it (``### Results``); one that
    is a command or output names none but still ends the scope of the heading before it."""
    h = heading(raw.lstrip("> \t") if raw[:1] == ">" else raw)
    if h is None:
        return None
    level, text = h
    ok = not _NOT_LABEL_LINE.search(text) and not TEMPLATE_SECTION.match(text)
    machine = subject_machine(text) if ok and " on " in text and _MEASURED_ON.search(text) else None
    if machine and not _MACHINE_NAMED.search(machine):
        machine = None  # ("OpenSSL Cipher Speed on AWS": a cloud, no machine; the title names it)
    return Label(_clean_label(machine or text) if ok else None, "heading", level)


# A bold lead-in before a description: "**EPYC VM, 2 vCPU**: both cores at once, wall-clock
# time" (the bold words name the machine; "**Note**: ...", "**Update:** ..." name none).
_LEAD_IN = re.compile(r"^\s*(\*\*|__)(?=\S)([^*_]{2,60}?)(?<=\S)\1\s*:\s+\S")
_NOT_A_LEAD_IN = re.compile(r"^(?:note|notes|edit|update|tl;?dr|fyi|ps|warning|result|results|"
                            r"output|summary|conclusion|context|environment|command|setup)$", re.I)


def _lead_in(line: str, raw: str):
    """A bold lead-in that names a machine (a digit or a capitalised model word in it) names the
    run below it, whatever the sentence after it says: ``**Pi 5, stock clocks**: ...``."""
    raw = raw.lstrip("> \t")  # (the cleaned line lost the emphasis)
    m = _LEAD_IN.match(raw) if raw[:1] in "*_" else None
    if m is None:
        return None
    if _NOT_A_LEAD_IN.match(m[2]) or not (_CPU_MARK.search(m[2]) or _ACRONYM.search(m[2])):
        return STOP  # ("**Note**: this is slow" tells a story)
    text = _clean_label(m[2])
    return STOP if text is None else Label(text, "bold lead-in")


_ACRONYM = re.compile(r"\b[A-Z]{2,}\b|\d")


def _machine(line: str, raw: str):
    """A machine a sentence names: ``FWIW, on my small NUC-like server, ML-KEM is fast.`` ->
    ``small NUC-like server`` (a short line that names one is a caption, whole)."""
    m = _MACHINE.search(line) if " on " in line else None
    return Label(m[1] or m[2], "machine phrase") if m and _sentence(line, raw) == STOP else None


def _machine_and_cpu(line: str, raw: str):
    """A machine a sentence names with its CPU in parentheses names the run below it: ``OpenSSL
    3.4.0 on the ThinkPad X13 (Ryzen 5 PRO 4650U), results in KiB/s.`` -> ``ThinkPad X13 (Ryzen
    5 PRO 4650U)``, ``On my ThinkPad X1 Carbon (i7-8650U) the numbers were:`` (one such machine
    in the line; two are a comparison, which names neither)."""
    found = _MACHINE_CPU.findall(line) if (" on " in line or line[:3] == "On ") and "(" in line else []
    if len(found) != 1:
        return None
    name, cpu = found[0]
    if _NOT_A_MODEL.match(name) or not _MODEL_MARK.search(name) or not _CPU_MARK.search(cpu):
        return None
    return Label(f"{name} ({cpu})", "machine phrase")


def _model(line: str, raw: str):
    """A model that ends a sentence introducing what follows names the run below it: ``That
    matches what I see on a 2620 v2 (AES-NI on):`` -> ``2620 v2`` (``on the left:`` names none;
    in a paragraph, its last sentence is the one that introduces); so do a model after the
    version a caption states, ``OpenSSL 3.1.4 on the Pi 5:`` -> ``Pi 5``, and one a sentence
    presents for comparison: ``here's the old c6i.xlarge for comparison (same AMI)``, or as
    what follows: ``Here is my Xeon D-1518 box:`` -> ``Xeon D-1518 box``."""
    m = None
    if line.endswith(">"):  # (an HTML paragraph's closing tags: "... E8400, OpenSSL 1.1.1f:</p>")
        line = _CLOSING_TAGS.sub("", line)
    if line.endswith(":") and (" on " in line or "On " in line):
        ends = [e.end() - 1 for e in _SENTENCE_END.finditer(line)]
        m = _MODEL_AT_END.search(line, ends[-1] if ends else 0)
    elif line.endswith(":") and line[:1] in "HhTt":
        m = _PRESENTED_AT_END.match(line)
    elif "comparison" in line:
        m = _PRESENTED_MODEL.search(line)
    if m is None or _NOT_A_MODEL.match(m["name"]) or not _MODEL_MARK.search(m["name"]):
        return None
    if _sentence(line, raw) != STOP and not _VERSION_LEAD.match(line):
        return None
    return Label(m["name"], "model ending a sentence")


def _subject(line: str, raw: str):
    """The subject a sentence introducing what follows names: ``Here are performance numbers
    for 64-bit compiler generated code:`` -> ``64-bit compiler generated code`` (the sentence
    itself is no label: a label is never a cut sentence)."""
    m = _SUBJECT.search(line) if line.endswith(":") else None
    if m is None or _CLAUSE.search(m["subject"]) or m["subject"].count(" ") > 5:
        return None  # (a clause of its own is a story again: "the build that has the patch")
    if _sentence(line, raw) != STOP and not _PRESENTING.match(line):
        return None  # (a short caption is named whole: "Results for the Pi 5:")
    return Label(m["subject"], "subject of a sentence")


def _tool_banner(line: str, raw: str):
    """A tool's version in a list of facts names no run: ``OpenSSL : OpenSSL 1.0.2k``,
    ``LibreSSL version: 3.8.2`` (``OpenSSL 1.1.1w:`` above a run is a caption)."""
    return SKIP if ":" in line and _TOOL_BANNER.match(line) else None


def _not_a_name(line: str, raw: str):
    """Fences, commands, program output, source code, links, arithmetic: say nothing of a
    run (``` ```bash ```, ``$ openssl speed md5``, ``version: 3.0.2``, ``[x](http://...)``)."""
    return SKIP if len(line) <= 400 and _NOT_LABEL_LINE.search(line) else None


def _status_line(line: str, raw: str):
    """A line announcing what follows, ending in an ellipsis, names the run below it, however
    long: ``Running RSA Speed Test with this new ARM Assembly MMM implementation...``."""
    if line.endswith(("...", "\u2026")) and len(line) <= 120 and _ELLIPSIS.match(line):
        return Label(line.rstrip(".\u2026 "), "status line")
    return None


def is_list_item(raw: str) -> bool:
    """Whether a line (as written) is an item of a bulleted list.

    >>> is_list_item("  - fix the build"), is_list_item("3. version: 1.1.1q")
    (True, False)
    """
    return bool(_ITEM.match(raw))


def _list_item(line: str, raw: str):
    """An item of a list is part of an enumeration (``- fix cpuCount``), not a name, unless it
    introduces what follows (``- Raspberry Pi 4:``)."""
    if not is_list_item(raw):
        return None
    if line.rstrip().endswith(":") and not _SENTENCE.search(line.rstrip(": ")):
        return None  # (judged as a caption)
    return STOP


def _sentence(line: str, raw: str):
    """A sentence, or a fragment cut from one, tells a story: ``I get here:``, ``This is
    typical for hw-accelerated ciphers.``, ``load the default config`` (lower case, several
    words), a line over 400 characters."""
    s = _LEADING_JUNK.sub("", line.strip())
    if "(" in s:
        s = _REMARK.sub("", s)  # ("Apple G5 1.8GHz (Note this is 32 bit code)": a name)
    if len(line) > 400 or _SENTENCE.search(s) or (lower_first(s) and s.count(" ") >= 3) or \
            not s.isascii() and _CJK_SENTENCE.search(s):
        return STOP
    told = _TELLING_CLAUSE.search(s) if s[-1:] == ":" else None
    if _FINITE.search(s if told is None else s[:told.start()]) or _SEVERAL.search(s):
        return STOP  # ("The second box is older BIOS:"; "With -elapsed on 3.0.13 I get:" is none)
    return None


# A short clause before a comma that tells how the rest is given ("Here you go, Sheevaplug
# (Kirkwood 1.2GHz), Debian wheezy", "As you asked, Pi 5:"): the rest is judged alone.
_LEAD_CLAUSE = re.compile(r"^((?:[\w']+\s+){1,2}[\w']+),\s+(\S.*)$")


def _lead_clause(line: str, raw: str):
    """A caption behind a short clause of its own is judged without it: ``Here you go,
    Sheevaplug (Kirkwood 1.2GHz)`` -> ``Sheevaplug (Kirkwood 1.2GHz)``."""
    m = _LEAD_CLAUSE.match(line) if ", " in line[:24] else None
    if m is None or not _FINITE.search(m[1]) or _FINITE.search(m[2]) or is_list_item(raw):
        return None
    verdict = label_verdict(m[2])
    return verdict if isinstance(verdict, Label) else None


def _fragment(line: str, raw: str):
    """A piece of a line broken in two (by a mail client, in a parenthesis or a list) tells
    part of a story, no name: ``(from``, ``AES CBC encryption assembler implementation)``,
    ``AES-128-ECB, AES-192-ECB, AES-256-ECB]`` (its brackets do not pair up; a list item's
    number, ``2)``, is no bracket)."""
    if line[:1].isdigit():
        line = _LIST_NUMBER.sub("", line, count=1)
    for left, right in ("()", "[]"):
        if line.count(left) != line.count(right) and (left in line or right in line):
            return STOP
    return None


# The clause that ends a caption introducing output, "... I get:": the circumstances before it
# name the run ("With -elapsed on 3.0.13 I get:" -> "With -elapsed on 3.0.13").
# (in Chinese, "... 的结果如下:", "the results ... are as follows")
_TELLING_CLAUSE = re.compile(r"(?:[\s,]+(?:I|we|you|it)\s+(?:get|got|see|saw|measured|obtained|"
                             r"gets?|gives?|gave|shows?|showed)|\s*的?(?:测试|运行|跑分)?"
                             r"(?:结果|数据|输出)?(?:如下(?:所示)?|是|为))\s*:$", re.IGNORECASE)


# The machine a caption names after "on": a model (a capital, a letter beside a digit) or a
# machine's noun ("On the Xeon E5-2620 v2 box I get:" -> "Xeon E5-2620 v2 box").
_ON_MACHINE = re.compile(rf"^[Oo]n\s+(?:(?:my|our|the|a|an|this|that)\s+)?"
                         rf"(?=[^:]*(?:[A-Z]|[A-Za-z]\d|\d[A-Za-z]|\b{_MACHINE_NOUN}\b))")


def _caption(line: str, raw: str):
    """A short line is a caption: it names the run right below it
    (``Linux (P3 750Mhz; 512MBram):``, ``with:``, ``Round 1``; ``With AES-NI off I get:``
    names it by what comes before its clause)."""
    if line.endswith(":") and (" " in line or not line.isascii()):
        told = _TELLING_CLAUSE.search(line)
        line = line if told is None else line[:told.start()] + ":"
    if line[:3] in ("On ", "on ") and line.endswith(":"):  # ("On my Ryzen 7 5800X:" names the machine)
        on = _ON_MACHINE.match(line)
        if on is None:
            return STOP  # ("On the left:" names a place, no run)
        line = line[on.end():]
    text = _clean_label(line)
    if text is None:  # (a caption that names nothing, "2:", still introduces what follows:
        # the caption above it is an earlier run's)
        return STOP if line.endswith(":") and line.strip(" :*_-=#>") else SKIP
    return Label(text, "caption")


# Words that say what a table's numbers are, and nothing of the run that measured them.
_WHAT_NUMBERS_ARE = re.compile(r"(?:all|the|numbers?|values?|figures?|results?|rates?|throughput|"
                               r"speeds?|performance|bandwidth|units?|are|is|in|as|shown|given|"
                               r"reported|measured|below|here|table|data|higher|lower|better|"
                               r"(?:测试|运行)?(?:结果|数据|吞吐量?|性能|速度)?(?:如下(?:所示)?)?)",
                               re.IGNORECASE)


def _unit_statement(line: str, raw: str):
    """A line that only states the unit of the numbers (``Throughput in MB/s:``, ``Numbers in
    1000s of bytes per second``) names no run: the search goes on above it."""
    rest = _without_unit(line)
    if rest is not None and all(_WHAT_NUMBERS_ARE.fullmatch(w) for w in re.findall(r"[^\W_]+", rest)):
        return SKIP
    return None


def _without_unit(text: str) -> str | None:
    """``text`` without the unit it states, or None when it states none (a quantity, "it
    reached 500 MB/s", states none)."""
    if not UNIT_HINT.search(text.lower()) or stated_unit(text) is None:
        return None
    return without_units(text)


#: The rules that judge a line of prose, in order; the first that decides wins.
LABEL_RULES: tuple[tuple[str, Callable], ...] = (
    ("byline", _byline),
    ("unit statement", _unit_statement),
    ("caption around a command", _around_command),
    ("heading", _heading),
    ("bold lead-in", _lead_in),
    ("machine phrase", _machine),
    ("machine and its CPU", _machine_and_cpu),
    ("subject of a sentence", _subject),
    ("model ending a sentence", _model),
    ("tool banner", _tool_banner),
    ("not a name", _not_a_name),
    ("status line", _status_line),
    ("list item", _list_item),
    ("lead clause", _lead_clause),
    ("sentence", _sentence),
    ("fragment", _fragment),
    ("caption", _caption),
)


# A mail subject's replies, forwards and list tags: ``Re: [openssl-users] Fwd:``.
_SUBJECT_LEAD = re.compile(r"^(?:\s*(?:(?:re|fwd?|aw|sv|wg|antw)\s*:|\[[^\]\n]{1,60}\]))+\s*", re.I)
# A model a subject ends on: "openssl speed numbers on EPYC 7543", "... on the Pi 5?".
_SUBJECT_MODEL = re.compile(r"\b(?i:on)\s+(?:(?:my|our|a|an|the|this|that)\s+)?(?:(?:old|new)\s+)?"
                            r"(?P<name>[\w.+-]+(?:[ \t]+[\w.+-]+){0,3}?)\s*(?:\((?P<cpu>[^()]{0,60})\))?"
                            r"[\s?!.]*$")
_COMPARISON = re.compile(r"\b(?:than|vs\.?|versus|and|or)\b|\d+\.\d+", re.I)


def subject_machine(subject: str) -> str | None:
    """The machine a mail's subject names, else None: the name its runs take where their own
    lines give none (a subject says what a thread is about; only a machine it names is a
    run's name, never its question).

    >>> subject_machine("Re: [openssl-users] speed numbers on EPYC 7543 (Milan)")
    'EPYC 7543 (Milan)'
    >>> subject_machine("Re: [openssl-users] AES-NI slow?"), subject_machine("AES-GCM slower on 3.0 than 1.1.1?")
    (None, None)
    >>> subject_machine("[arm-users] openssl speed on my old Xeon box")
    'old Xeon box'
    """
    s = _SUBJECT_LEAD.sub("", subject).strip()
    if " on " not in s and not s.lower().startswith("on "):
        return None
    m = _MACHINE.search(s)
    if m:
        return m[1] or m[2]
    m = _SUBJECT_MODEL.search(s)
    if m is None or _NOT_A_MODEL.match(m["name"]) or not _MODEL_MARK.search(m["name"]) or \
            _COMPARISON.search(m["name"]):
        return None
    return f"{m['name']} ({m['cpu'].strip()})" if m["cpu"] and m["cpu"].strip() else m["name"]


# (and a block's delimiters, which take no colon: "#+begin_src sh :results output", "#+end_example")
_ORG_KEYWORD = re.compile(r"^\s*#\+(?:([A-Za-z_]+)(?:\[[^\]]{0,80}\])?:|(?i:begin|end)_[A-Za-z]+\b)")

# What a label's line glues to the name of the run (label_text): a list item's number ("3. Pi 4"),
# a version's key ("version: 1.1.1q": the release names the run), CJK title brackets
# ("【测试环境1】"), a connective that ties the line to the prose before it ("while in mingw"),
# and "same" before a model ("the same Xeon E3-1230 v5": the model names it; "same box" does not).
_LIST_NUMBER = re.compile(r"^\d{1,2}[.)]\s+(?:(\*\*?|__?)(?=\S))?")  # (and an emphasis after it)
_VERSION_KEY = re.compile(r"^(?i:version|ver\.?)\s*:\s*(?=v?\d+\.\d)")
_CONNECTIVE = re.compile(r"^(?i:while|whilst|whereas|and|but)\s+(?=(?i:in|on|under|with|without|for)\s+\S)")
_SAME_MODEL = re.compile(r"^same\s+(?=[A-Z]|[\w.-]*\d)")
# A bare "with"/"without" whose parentheses say what it means: "Mit (also ohne AES-NI)" (once
# the mask it was "with" is cut out), "With (i.e. without AES-NI)".
_SWITCH_EXPLAINED = re.compile(r"^(?i:with|without|mit|ohne|avec|sans)\s*\((?:(?i:also|i\.\s?e\.|"
                               r"d\.\s?h\.|that is|das hei(?:ss|\u00df)t)[,:\s]+)?(?P<said>[^()]+)\)$")
# A name with facts in parentheses after it: "NAS (Atom C3758, OpenSSL 1.1.1n)".
_TRAILING_FACTS = re.compile(r"^(?P<head>[^()]*?)\s*\((?P<facts>[^()]*)\)$")
# A fact that only states the tool's version ("OpenSSL 3.0.13", "1.1.1t"): a fact of the run,
# its own column, no part of its name.
_VERSION_FACT = re.compile(r"(?i:(?:openssl|libressl|boringssl|aws-lc|tongsuo)\s+(?:version\s+)?v?\d+\.\d+\S*|"
                           r"v?\d+\.\d+\.\d+[a-z]{0,2})")
# A note in parentheses ("(Note this is 32 bit code)") tells something, it names nothing.
_NOTE = re.compile(r"^(?i:note|nb|n\.b\.|ps|fyi)\b")
# A head that names no run before facts that do: what the numbers are ("Results"), a block
# size ("1024-byte blocks"), or a comparison ("AES-NI on vs off": both runs of it).
_NO_RUN_HEAD = re.compile(r"^\d+(?:\s*[KkMm]i?B|\s*k)?[- ]?(?:bytes?[- ])?blocks?$|\b(?i:vs\.?|versus)\s")


def _named_part(text: str) -> str:
    """A label without the facts in its trailing parentheses that name nothing (a version, a
    note), and only those facts where the words before them name no run.

    >>> _named_part("NAS (Atom C3758, OpenSSL 1.1.1n)"), _named_part("Results (OpenSSL 3.0.13, Xeon E-2388G)")
    ('NAS (Atom C3758)', 'Xeon E-2388G')
    >>> _named_part("1024-byte blocks (OpenSSL 1.1.1t, i5-4590)"), _named_part("Pi 4 (OpenSSL 3.0.2)")
    ('i5-4590', 'Pi 4')
    >>> _named_part("Mac OS X, Apple G5 1.8GHz (Note this is 32 bit code)"), _named_part("Pi 5 (BCM2712)")
    ('Mac OS X, Apple G5 1.8GHz', 'Pi 5 (BCM2712)')
    """
    m = _TRAILING_FACTS.match(text) if text[-1:] == ")" else None
    if m is None or not m["head"]:
        return text
    head = m["head"].rstrip(" ,;:-")
    facts = [f for f in re.split(r"\s*[,;]\s*", m["facts"].strip()) if f]
    if _NOTE.match(m["facts"].strip()):
        return head
    named = [f for f in facts if not _VERSION_FACT.fullmatch(f)]
    if not named:
        return head
    if _NO_RUN_HEAD.search(head) or all(_WHAT_NUMBERS_ARE.fullmatch(w) for w in re.findall(r"[^\W_]+", head)):
        return ", ".join(named)  # ("Results (Xeon E-2388G)": the facts name the run)
    return text if len(named) == len(facts) else f"{head} ({', '.join(named)})"


def label_text(text: str, line: str = "") -> str:
    """The name a label's ``text`` gives its run, without what the ``line`` glues to it: the
    unit it states ("Laptop (MB/s)"), a list item's number, a version's key, title brackets, a
    connective, a capability mask the line sets (the run's ``isa_mask``, no name), and facts
    in parentheses that name nothing (see :func:`_named_part`).

    >>> label_text("3. version: 1.1.1q"), label_text("while in mingw"), label_text("\u3010\u6d4b\u8bd5\u73af\u58831\u3011")
    ('1.1.1q', 'in mingw', '\u6d4b\u8bd5\u73af\u58831')
    >>> label_text('Without (OPENSSL_ia32cap="~0x200000000000000")', 'Without (OPENSSL_ia32cap="~0x200000000000000"):')
    'Without'
    >>> label_text("same Xeon E3-1230 v5"), label_text("same box"), label_text("Laptop (MB/s)")
    ('Xeon E3-1230 v5', 'same box', 'Laptop')
    >>> label_text("Mit (also ohne AES-NI)"), label_text("With (i.e. without AES-NI)")
    ('ohne AES-NI', 'without AES-NI')
    """
    rest = _without_unit(text)
    if rest:
        text = rest.rstrip(" :")  # ("Laptop (MB/s)")
    if "cap" in line and prose_mask(line) is not None:
        text = _MASK_TEXT.sub("", text).strip() or text  # (the run's isa_mask, said once)
    if text[:1] in "\u3010\u3014" and text[-1:] in "\u3011\u3015":
        text = text[1:-1].strip() or text
    for lead in (_LIST_NUMBER, _VERSION_KEY, _CONNECTIVE, _SAME_MODEL):
        text = lead.sub("", text, count=1)
    explained = _SWITCH_EXPLAINED.match(text) if "(" in text else None
    if explained and switch(explained["said"].strip()):
        return explained["said"].strip()  # ("Mit (also ohne AES-NI)": without it)
    return _named_part(text) if "(" in text else text


def label_conditions(label: str | None) -> dict[str, str]:
    """The CPU features a run's label switches on or off (``Ohne AES-NI``, ``Without AES-NI
    (OPENSSL_ia32cap=...)``, ``mit SHA-NI``): conditions of its cells, as a row's tag gives
    them; a label that switches a feature both ways, or says more of switching than the words
    read (``with and without AES-NI``, ``AES-NI on vs off``), states none.

    >>> label_conditions("Ohne AES-NI"), label_conditions("mit AES-NI")
    ({'aesni': 'off'}, {'aesni': 'on'})
    >>> label_conditions("with and without AES-NI")
    {}
    """
    found = switches_in(label) if label else []
    rest = label
    for start, end, _ in reversed(found):
        rest = rest[:start] + " " + rest[end:]
    said: dict[str, set[str]] = {}
    for *_, (feature, state) in found:
        said.setdefault(feature, set()).add(state)
    if not found or _SWITCH_WORD.search(rest):
        return {}
    return {feature: states.pop() for feature, states in said.items() if len(states) == 1}


# Words that switch or compare, left in a label once its switches are read: it says more.
_SWITCH_WORD = re.compile(r"(?i)\b(?:with|without|w/o|mit|ohne|on|off|enabled|disabled|vs\.?|"
                          r"versus|and|und)\b")


def label_verdict(line: str, raw: str | None = None) -> Label | str:
    """How a line of prose bears on the runs below it: a :class:`Label`, :data:`SKIP` or
    :data:`STOP` (``line`` is cleaned, ``raw`` as written: it shows list markers).

    >>> label_verdict("Linux (P3 750Mhz; 512MBram):")
    Label(text='Linux (P3 750Mhz; 512MBram)', rule='caption', level=0)
    >>> label_verdict("```bash"), label_verdict("I get here:"), label_verdict("fix cpuCount", " - fix cpuCount")
    ('skip', 'stop', 'stop')
    """
    raw = line if raw is None else raw
    if line[:2] == "#+" or line.lstrip()[:2] == "#+":  # (an org-mode keyword: "#+NAME: tab:x")
        org = _ORG_KEYWORD.match(line)
        if org:
            if (org[1] or "").upper() != "CAPTION":
                return SKIP  # (markup: a table's name, its export attributes, a formula)
            line = raw = line[org.end():].strip()  # (a caption: judged by its text)
    if "://" in line and not line.lstrip().startswith(("http", "```", "~~~")):
        line = _LINK_FRAME.sub("", _LINK.sub("", line)).strip()  # ("Pi 5 (https://...)")
        if not line.strip(" \t*-+:"):
            return SKIP  # a link alone ("* [a.patch](https://x.org/a.patch)")
    for _, rule in LABEL_RULES:
        verdict = rule(line, raw)
        if verdict is not None:
            if isinstance(verdict, Label) and verdict.text:
                return verdict._replace(text=label_text(verdict.text, line))
            return verdict
    return SKIP


def prose_label(line: str) -> str | None:
    """A free-text line turned into a run label, or None when it cannot be one.

    >>> prose_label("Linux (P3 750Mhz; 512MBram):")
    'Linux (P3 750Mhz; 512MBram)'
    >>> prose_label("**Laptop**"), prose_label("# M1 MacBookAir")
    ('Laptop', 'M1 MacBookAir')
    >>> prose_label("```bash"), prose_label("pi@pi5:~ $ openssl speed -evp aes-256-cbc")
    (None, None)
    >>> prose_label("OpenSSL 1.1.1k  25 Mar 2021"), prose_label("let out = speed(args);")
    (None, None)
    >>> prose_label("(from https://example.org/speed.html)"), prose_label("* [a.patch](https://x.org/a.patch)")
    (None, None)
    >>> prose_label("Results on the Pi 5 (https://gist.example.com/u/1)")
    'Results on the Pi 5'
    """
    verdict = label_verdict(line)
    return verdict.text if isinstance(verdict, Label) else None


# A name that starts in lower case: its first word holds a capital or a digit ("i.MX 8M Mini
# EVK", "iPhone 15", "imx8 board"), as no word that goes on a sentence does.
_LOWER_CASE_NAME = re.compile(r"[a-z][a-z.]*[A-Z0-9][\w.+-]*(?<!\.)(?=\s|$)")


def lower_first(text: str) -> bool:
    """Whether ``text`` starts in lower case as a sentence's words do (not as a board's name).

    >>> lower_first("generated code:"), lower_first("i.MX 8M Mini EVK"), lower_first("iPhone 15 Pro")
    (True, False, False)
    """
    return text[:1].islower() and _LOWER_CASE_NAME.match(text) is None


def wrapped_tail(above: str, line: str, *, by_case: bool = True) -> bool:
    """Whether a line of prose continues the one above it, a sentence broken by a mail client
    or an editor: it starts in lower case (unless not ``by_case``), or the line above is as
    long as wrapped lines are and does not end its own caption (``:``) or sentence.

    >>> wrapped_tail("Performance degradation in the FIPS-BoringSSL version being used by", "Envoy")
    True
    >>> wrapped_tail("Here are the 32-bit", "generated code:"), wrapped_tail("Pi 4:", "Pi 5")
    (True, False)
    """
    return by_case and lower_first(line) or len(above) >= _WRAP_WIDTH and \
        above[-1:] not in ":.!?" and heading(above) is None


def label_above(lines) -> str | None:
    """The label of what follows ``lines`` of prose (in text order): that of the nearest line
    that names a run, unless one that tells a story is nearer (the order
    :meth:`~cipherlab.readers._openssl._Parser.find_label` reads them in: nearest first, so
    only the few lines above are judged).

    >>> label_above(["Xeon E5-2680 box:", "```text"])
    'Xeon E5-2680 box'
    >>> label_above(["Pi 4", "The tests were run for 3 seconds each, for the ciphers we care about."]) is None
    True
    """
    lines = list(lines)
    for k in range(len(lines) - 1, -1, -1):
        verdict = label_verdict(lines[k])
        if isinstance(verdict, Label) and verdict.rule == "caption" and k and lines[k - 1].strip() \
                and wrapped_tail(lines[k - 1], lines[k]):
            verdict = label_verdict(f"{lines[k - 1]} {lines[k]}")  # (the whole sentence)
        if verdict == STOP or isinstance(verdict, Label):
            return None if verdict == STOP else verdict.text
    return None


# The capability variables of OpenSSL's CPUs (x86, ARM, POWER, RISC-V, s390x, SPARC): a value of
# any is a run's isa_mask (ia32cap's and armcap's are decoded, runners._isa).
_CAPS = "ia32cap|armcap|ppccap|riscvcap|s390xcap|sparcv9cap"
# An OPENSSL_ia32cap (or OPENSSL_armcap ...) assignment in prose, its value in quotes of any kind or
# none ("and with OPENSSL_ia32cap=~0x200000200000000:", "env OPENSSL_ia32cap='~0x200000000:~0' ...");
# a ":" after the value ends the sentence's clause, it empties no word of the mask.
_MASK = re.compile(rf"\bOPENSSL_(?P<cap>{_CAPS})\s*=\s*[\"'`\u201c\u201d\u2018\u2019\u2033]?"
                   r"(?P<value>~?(?:0x[0-9a-fA-F]+|\d+)?(?::~?(?:0x[0-9a-fA-F]+|\d+))*)", re.IGNORECASE)
# The assignment as a label's text holds it (its closing quote too, and parentheses around it
# alone): the run's isa_mask, no part of its name (label_text).
_MASK_SPAN = _MASK.pattern + r"[\"'`\u201c\u201d\u2018\u2019\u2033]?"
_MASK_TEXT = re.compile(rf"\s*(?P<open>\(\s*)?{_MASK_SPAN}(?(open)\s*\))", re.IGNORECASE)
# ... unless the prose says it was not set ("without OPENSSL_ia32cap=...", "unset ...").
# (A parenthesis says how "without" was done: "Without (OPENSSL_ia32cap=~0x2000...):".)
_NEGATED = re.compile(r"\b(?:without|unset|no|not|minus)[^\w(]+(?:\w+[^\w(]+)?$", re.IGNORECASE)
#: The rule (``rule`` column) of a run whose ``isa_mask`` the prose above it gave.
MASK_RULE = "OPENSSL_*cap in the prose above"  # (ia32cap, armcap, ppccap ...)


def prose_mask(line: str) -> str | None:
    """The ``OPENSSL_ia32cap`` value a line of prose says the output below it ran with, or
    None (no assignment, an empty one, or one the line says was not in force); an
    ``OPENSSL_armcap`` value is given as ``armcap=VALUE``, as a capture names ARM's masks.

    >>> prose_mask("and with OPENSSL_ia32cap=~0x200000200000000:")
    '~0x200000200000000'
    >>> prose_mask("Then I ran env OPENSSL_ia32cap=\u201d~0x200000000:~0\u2033 openssl speed and got:")
    '~0x200000000:~0'
    >>> prose_mask("without OPENSSL_ia32cap=~0x200000200000000:"), prose_mask("OPENSSL_ia32cap is unset")
    (None, None)
    >>> prose_mask('Without (OPENSSL_ia32cap="~0x200000000000000"):')
    '~0x200000000000000'
    >>> prose_mask("on my NUC (CPUINFO: OPENSSL_ia32cap=0x7ef8320b078bffff:0x40069c219c97a9)") is None
    True
    >>> prose_mask("Then with only NEON left (OPENSSL_armcap=0x1):")
    'armcap=0x1'
    """
    m = _MASK.search(line)
    if m is None or not m["value"].strip(":~") or _NEGATED.search(line, 0, m.start()) or \
            "CPUINFO" in line[:m.start()]:
        return None  # (a CPUINFO line quoted in prose shows the CPU's mask: nothing was asked)
    return mask_value(m["cap"], m["value"])


# A shell statement that sets or clears a capability variable for every command after it, the
# whole rest of a (prompt) line: sh's `export`, csh's `setenv`, fish's `set -gx`, cmd's `set`,
# PowerShell's `$env:X = "v"`, IPython's `%env X=v` and `%set_env X v`; `unset`, `unsetenv`, `set -e`, `Remove-Item Env:X`, cmd's `set X=`.
def shell_sets(variable: str, cleared: str) -> str:
    """The pattern of a shell statement that sets the variable ``variable`` matches (its value in
    the group ``value``, the verb in ``verb``) or clears the one ``cleared`` matches, for every
    command after it: the one place those shells' statements are spelled."""
    return (r"(?:^|[\s>$#%])(?:(?P<verb>export|setenv|set(?:\s+-[gUx]+)*|%env|%set_env)\s+|\$env:)"
            rf"{variable}(?:\s*=\s*|\s+)(?P<q>[\"']?)(?P<value>[^\"'\s]*)(?P=q)\s*$"
            r"|(?:^|[\s>$#%])(?:unset|unsetenv|set\s+-e|Remove-Item\s+Env:\\?|rm\s+env:)\s*"
            rf"{cleared}\s*$")


_SET_VARIABLE = re.compile(shell_sets(rf"OPENSSL_(?P<cap>{_CAPS})", rf"OPENSSL_(?:{_CAPS})"),
                           re.IGNORECASE)


def shell_assignment(line: str) -> tuple[str | None] | None:
    """``(isa_mask,)`` a shell statement on ``line`` sets for the commands after it (``(None,)``:
    it clears the variable), or None when the line sets none (a sentence that mentions one).

    >>> shell_assignment("pi@pi5:~ $ export OPENSSL_armcap=0x1")
    ('armcap=0x1',)
    >>> shell_assignment(r'PS C:\\Users\\me> $env:OPENSSL_ia32cap = "~0x200000200000000"')
    ('~0x200000200000000',)
    >>> shell_assignment(r"C:\\> set OPENSSL_ia32cap="), shell_assignment("$ unset OPENSSL_ia32cap")
    ((None,), (None,))
    >>> shell_assignment("you can export OPENSSL_ia32cap=~0x200000200000000 first") is None
    True
    """
    m = _SET_VARIABLE.search(line)
    if m is None:
        return None
    if m["cap"] is None or not m["value"]:  # (cmd's `set X=` and `$env:X = ""` clear it too)
        return None if m["cap"] is not None and (m["verb"] or "").lower() == "export" else (None,)
    return (mask_value(m["cap"], m["value"]),)


# (the host of a prompt without a user, Gentoo's root `box ~ #`, Alpine's `box:~#`: the word
# before its directory, which starts with `~` or `/`, and a sign a blank follows: "Cost ~ $5"
# is no prompt)
_HOST_DIRECTORY = r"(?:\s[~/][^\s$#%]{0,80}\s|:[~/][^\s$#%]{0,80}\s?)[$#](?=\s)"
_SHELL_HOST = re.compile(rf"^\s*\[?([\w.-]+@[\w.-]+|[\w.-]+(?={_HOST_DIRECTORY}))")
# A shell's prompt before a command: `user@host:~$`, zsh's `user@host ~ %`, `[root@box ~]#`,
# Gentoo's and Alpine's root prompts, `~ $` (Termux), `/ #` (BusyBox), a bare `$`,
# PowerShell's `PS C:\>`, cmd's `C:\>` (not Markdown's `# heading`).
_SHELL_PROMPT = re.compile(r"\s*(?:[\w.-]+@[\w.-]+(?::\S*|\s[^\s$#%]{1,80})\s?[$#%]|"
                           rf"[\w.-]+{_HOST_DIRECTORY}|"
                           r"\[[\w.-]+@[^\]]{1,80}\][$#%]|"
                           r"(?:PS\s)?[A-Za-z]:\\[^>]{0,120}>|[~/][\w./~-]{0,80}\s?[$#]|"
                           r"[$%\u276f\u279c]|[\u2570\u2514]\u2500++[$#%\u276f]?)\s*\S")


def is_shell_command(line: str) -> bool:
    """Whether ``line`` is a command after a shell's prompt: its output follows it, and neither
    names a run.

    >>> is_shell_command("~ $ pkg install openssl-tool"), is_shell_command("me@mbp ~ % brew list")
    (True, True)
    >>> is_shell_command("builder ~ # openssl version"), is_shell_command("alpine:~# apk add openssl")
    (True, True)
    >>> is_shell_command("# Results"), is_shell_command("Cost: $5"), is_shell_command("$")
    (False, False, False)
    >>> is_shell_command("Cost ~ $5 a month"), is_shell_command("Gains ~ #3 overall")
    (False, False)
    """
    return ("$" in line or "#" in line or ">" in line or "%" in line or "\u276f" in line or
            "\u279c" in line or "\u2500" in line) and _SHELL_PROMPT.match(line) is not None


def shell_host(line: str) -> str | None:
    """The ``user@host`` a prompt line shows (None: it shows none): a variable one shell
    exported is no other shell's (``user@a`` exports, ``user@b`` runs without it).

    >>> shell_host("pi@pi5:~ $ export OPENSSL_armcap=0x1"), shell_host("[root@gw01 ~]# ls"), shell_host("$ ls")
    ('pi@pi5', 'root@gw01', None)
    >>> shell_host("builder-old ~ # openssl version"), shell_host("alpine:/srv# ls")
    ('builder-old', 'alpine')
    """
    m = _SHELL_HOST.match(line)
    return m[1] if m else None


# The host of a prompt before a command: `user@host:~$`, zsh's `user@host ~ %`, `[user@host
# dir]#` (the prompt's shape, not an address in prose: `bob@example.com wrote`).
_PROMPT_HOST = re.compile(r"\s*(?:\[[\w.-]+@(?P<bracketed>[\w.-]+)[^\]]{0,80}\]\s?[$#%]|"
                          r"[\w.-]+@(?P<host>[\w.-]+)(?::\S*|\s[^\s$#%]{1,80})?\s?[$#%\u276f])")
_USERLESS_HOST = re.compile(rf"\s*(?P<host>[\w.-]+){_HOST_DIRECTORY}")  # (Gentoo's, Alpine's root)
# A command that runs elsewhere: on another host (ssh, a cluster's shells, a pod, a phone), not
# on the machine the prompt names (a container, WSL or a local VM run on it: its CPU).
_REMOTE = re.compile(r"(?:^|[\s$#%>;&|(])(?:ssh|mosh|rsh|kubectl|oc|adb|pdsh|pssh|parallel-ssh|"
                     r"clush|ansible|salt|srun|gcloud|az)\s")
# ssh's target host, written out (not a loop's `$h`), after its options (`-p 2222`, `-i key`).
_SSH_TARGET = re.compile(r"(?:^|[\s$#%>;&|(])ssh(?:\s+-[46AaCfGgKkMNnqsTtVvXxYy]+|"
                         r"\s+-[BbcDEeFIiJLlmOoPpQRSWw]\s*\S+)*\s+(?:[\w.-]+@)?"
                         r"(?P<host>[A-Za-z0-9][\w.-]*)(?=\s)")
# A container's generated hostname (Docker's, Podman's: the container id, 12 or 64 hex digits):
# it names one container, gone with it, not the machine (another container, another id).
_CONTAINER_ID = re.compile(r"(?=[a-f]*\d)[0-9a-f]{12}(?:[0-9a-f]{52})?")
#: The rule (``rule`` column) of a run labelled by the host its command line ran on, and of a
#: run that took such a label from the run above it (nothing but output between them).
HOST_RULE, INHERITED_HOST_RULE = "host of its prompt", "host of the run above"
HOST_RULES = frozenset({HOST_RULE, INHERITED_HOST_RULE})  # (a host names no CPU)


# The first line of a two-line prompt, which names the host (the command is on the next line,
# after `$` or `╰─$`): oh-my-zsh's `╭─user@host ~/dir`, Kali's `┌──(user㉿host)-[~]`, Git
# Bash's `user@host MINGW64 ~`.
_TITLE_HOST = re.compile(r"\s*(?:[\u256d\u250c]\u2500+\(?[\w.-]+[@\u327f](?P<boxed>[\w.-]+)|"
                         r"[\w.-]+@(?P<host>[\w.-]+)\s+"
                         r"(?:MINGW(?:32|64)|MSYS|UCRT64|CLANG(?:32|64|ARM64))\b)")
_SECOND_LINE = re.compile(r"\s*(?:[\u2570\u2514]\u2500*|\$\s)")


def prompt_machine(line: str, above: str = "") -> str | None:
    """The machine a command line (one running ``openssl speed``) ran on, as the line names
    it: the host of its prompt (``root@web01:~#`` -> ``web01``: the host names the machine,
    the user does not), or the host ``ssh`` ran the command on; ``""`` when it ran on another
    machine the line does not name (a loop's ``ssh $h``, a pod, a cluster job: not the
    prompt's); None when the line names none (a bare ``$``) or only a container's generated
    id (``root@3f2a9c1b7d4e:/#``: the container runs on the machine of the prompts around).

    >>> prompt_machine("root@web01:~# openssl speed md5"), prompt_machine("[admin@rhel9-bench ~]$ x")
    ('web01', 'rhel9-bench')
    >>> prompt_machine("me@laptop:~$ ssh -p 2222 pi@pi5 openssl speed md5")
    'pi5'
    >>> prompt_machine("root@3f2a9c1b7d4e:/# openssl speed md5"), prompt_machine("$ openssl speed md5")
    (None, None)
    >>> prompt_machine("builder ~ # openssl speed md5"), prompt_machine("alpine:~# openssl speed md5")
    ('builder', 'alpine')
    >>> prompt_machine("me@laptop:~$ for h in a b; do ssh $h openssl speed md5; done")
    ''
    >>> prompt_machine("me@db02:~$ openssl speed md5 2>&1 | ssh logs tee -a speed.txt")
    'db02'

    A two-line prompt names the host on the line ``above`` the command:

    >>> prompt_machine("$ openssl speed md5", "mira@T14 MINGW64 ~")
    'T14'
    """
    cut = line.find("openssl")  # (what runs openssl comes before it: `... | ssh log` does not)
    command = line if cut < 0 else line[:cut]
    if "ssh" in command:
        m = _SSH_TARGET.search(command)
        if m is not None:
            return m["host"]
    host, at = None, 0
    m = _PROMPT_HOST.match(line) if "@" in line else None
    if m is not None:
        host, at = m["host"] or m["bracketed"], m.end()
    elif (u := _USERLESS_HOST.match(line) if "~" in line or "/" in line else None) is not None:
        host, at = u["host"], u.end()
    elif above and ("@" in above or "\u327f" in above) and _SECOND_LINE.match(line):
        m = _TITLE_HOST.match(above)
        host = m and (m["host"] or m["boxed"])
    if _REMOTE.search(command, at) is not None:
        return ""  # (it ran elsewhere, on a host the line does not name: not the prompt's)
    return None if host is None or _CONTAINER_ID.fullmatch(host) else host


def mask_value(cap: str, value: str) -> str:
    """The ``isa_mask`` of ``OPENSSL_<cap>=value``: the value of ``OPENSSL_ia32cap``, else the
    variable's name before it (``armcap=0x1``), as :func:`~cipherlab.runners._isa.effective_mask`
    names the masks of other CPUs.

    >>> mask_value("ia32cap", "~0x200000000"), mask_value("ARMCAP", "0")
    ('~0x200000000', 'armcap=0')
    """
    cap = cap.lower()
    return value if cap == "ia32cap" else f"{cap}={value}"
