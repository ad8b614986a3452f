#!/usr/bin/env python3
"""Checks every relative link and image in README.md and docs/*.md: the file must exist and
an #anchor must name a heading of that file (GitHub's heading slugs). Prints each broken
link and exits 1 if there is one. Usage: scripts/check_doc_links.py [FILE.md ...]"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)  # GitHub keeps letters, digits, _, - and spaces
    return s.replace(" ", "-")


def anchors(path: pathlib.Path) -> set:
    seen, out, fence = {}, set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fence = not fence
        if fence or not line.startswith("#"):
            continue
        base = slug(line.lstrip("#"))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(path: pathlib.Path):
    fence = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        for target in LINK.findall(line):
            yield number, target


def main(files) -> int:
    bad = 0
    for f in files:
        for number, target in links(f):
            if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
                continue
            name, _, anchor = target.partition("#")
            dest = (f.parent / name).resolve() if name else f
            problem = None
            if not dest.exists():
                problem = "no such file"
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                problem = "no such heading"
            if problem:
                bad += 1
                shown = f.relative_to(ROOT) if f.is_relative_to(ROOT) else f
                print(f"{shown}:{number}: {target}: {problem}")
    return 1 if bad else 0


if __name__ == "__main__":
    args = [pathlib.Path(a).resolve() for a in sys.argv[1:]]
    sys.exit(main(args or [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]))
