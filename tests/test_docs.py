"""Every document the code cites by name ships under docs/, with the section the citation names."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
# "measurement-notes §4a", "DESIGN.md`` §2", "§7 of ``openssl-speed-formats.md``"
_BEFORE = re.compile(r"\b([A-Za-z]+(?:-[A-Za-z]+)+|[\w-]+\.md)\W{0,3}\s*§\s*(\d+[a-z]?(?:\.\d+)?)")
_AFTER = re.compile(r"§\s*(\d+[a-z]?(?:\.\d+)?)(?:-§\d+)? of \W{0,2}([\w-]+\.md)")


def citations() -> list[tuple[str, str, str]]:
    """(file:line, document stem, section) of every citation in the code, tests and notebooks."""
    found = []
    files = [*ROOT.joinpath("src").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py"),
             *ROOT.joinpath("benchmarks").glob("*.py"), *ROOT.joinpath("notebooks").glob("*.py")]
    for path in files:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.relative_to(ROOT)}:{n}"
            found += [(where, name, section) for name, section in _BEFORE.findall(line)]
            found += [(where, name, section) for section, name in _AFTER.findall(line)]
    return [(w, name.removesuffix(".md"), s) for w, name, s in found]


def has_section(text: str, section: str) -> bool:
    """A heading ``## 4a.`` / ``### 3.2``, or item ``k.`` of the list under heading ``N`` (§N.k)."""
    major, _, item = section.partition(".")
    if re.search(rf"^#+ {re.escape(section)}\.?\s", text, re.MULTILINE):
        return True
    body = re.search(rf"^#+ {re.escape(major)}\.\s.*?(?=^#+ \d|\Z)", text, re.MULTILINE | re.DOTALL)
    return bool(item and body and re.search(rf"^{item}\. ", body.group(0), re.MULTILINE))


def test_the_code_cites_documents():
    cited = {name for _, name, _ in citations()}
    assert {"measurement-notes", "openssl-speed-formats", "DESIGN"} <= cited


def test_every_cited_document_and_section_ships():
    missing = [f"{where}: {name} §{section}" for where, name, section in citations()
               if not (DOCS / f"{name}.md").is_file()
               or not has_section((DOCS / f"{name}.md").read_text(encoding="utf-8"), section)]
    assert not missing, "\n".join(missing)


def test_section_lookup():
    text = "# T\n## 1. Traps\n1. **Units.**\n2. **Timing.**\n## 4. Stats\n### 4a. Unit\n"
    assert has_section(text, "1.2") and has_section(text, "4a") and has_section(text, "4")
    assert not has_section(text, "1.3") and not has_section(text, "4b") and not has_section(text, "5")
