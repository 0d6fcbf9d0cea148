#!/usr/bin/env python3
"""Writes Sources/migrate/hot-functions.order: the functions `migrate` runs, for the linker.

The shipped build links with `--symbol-ordering-file=Sources/migrate/hot-functions.order`, so
the code a migration runs sits together at the start of the text instead of spread over 13 MiB:
the kernel maps a file's pages 64 KiB at a time, so scattered code made 9 of the process's 18 MiB
at a million-row rebuild (BENCHMARKS.md, "Fixed costs").

Usage (from the repository's root, with valgrind installed: apt-get install valgrind):

    python3 Benchmarks/startup-order/generate.py

It builds the shipped `migrate` with a link map, runs it under callgrind on the usual paths of
a deploy (apply that rebuilds, apply when up to date, plan, status, verify, apply with a
backup) over copies of the peers harness's V1 database, and lists each function that ran once:
the up-to-date run's first, then what each other run adds, each group sorted by name, so that a
new list differs from the old by what the code runs, not by the order callgrind happened to
report it in. The linker moves whole input sections, every one that defines a
listed name (a name of a local function may be defined in many), so a name is left out when one
of its sections is large and holds few functions that ran: placing it among the hot code would
cost more than the 64 KiB windows its few functions touch where they are. A section of S bytes
is placed when it alone defines at least S / 64 KiB of the names that ran.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
ORDER = os.path.join(ROOT, "Sources", "migrate", "hot-functions.order")
PLAN = os.path.join(ROOT, "Fixtures", "bench", "trip-plan")
GENERATE_V1 = os.path.join(ROOT, "Benchmarks", "peers", "scripts", "gen-v1.sh")
WINDOW = 64 * 1024


def shipped_build(link_map):
    """README's build line for the shipped binary (as CI builds it), writing a link map too."""
    with open(os.path.join(ROOT, "README.md")) as readme:
        text = readme.read()
    start = text.index("swift build -c release --product migrate --static-swift-stdlib --disable-local-rpath")
    line = ""
    for part in text[start:].split("\n"):
        line += part.strip().rstrip("\\") + " "
        if not part.strip().endswith("\\"):
            break
    return line.split() + ["-Xlinker", "-Map=" + link_map]


def functions_run(binary, arguments, output):
    """The names of the functions callgrind saw run, in the order its profile names them."""
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--demangle=no", "--callgrind-out-file=" + output, binary]
        + arguments,
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    names = []
    with open(output) as profile:
        for line in profile:
            match = re.match(r"^c?fn=\(\d+\) (.*)$", line.rstrip("\n"))
            if match:
                name = re.sub(r"'\d+$", "", match.group(1))  # callgrind's recursion depth
                if not name.startswith(("0x", "(")):
                    names.append(name)
    return names


def sections_by_symbol(link_map):
    """The input sections (name and size) that define each symbol, in lld's link map."""
    found = {}
    section = None
    header = re.compile(r"\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+\s{9}(\S.*)$")
    symbol = re.compile(r"\s*[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+\s+\d+\s{17}(\S+)$")
    with open(link_map) as lines:
        for line in lines:
            match = header.match(line)
            if match:
                section = (match.group(3), int(match.group(2), 16), match.group(1))
                continue
            match = symbol.match(line)
            if match and section:
                found.setdefault(match.group(1), set()).add(section)
    return found


def main():
    if shutil.which("valgrind") is None:
        sys.exit("generate.py: needs valgrind (apt-get install valgrind)")
    os.chdir(ROOT)
    if not os.path.exists(ORDER):  # the build line names it
        open(ORDER, "w").close()
    with tempfile.TemporaryDirectory() as scratch:
        link_map = os.path.join(scratch, "migrate.map")
        subprocess.run(shipped_build(link_map), check=True, stdout=subprocess.DEVNULL)
        binary = os.path.join(ROOT, ".build", "release", "migrate")
        small = os.path.join(scratch, "small.db")
        large = os.path.join(scratch, "large.db")
        subprocess.run([GENERATE_V1, "2000", small], check=True)
        # Large enough for what only a large table runs: the sort's helper thread, progress.
        subprocess.run([GENERATE_V1, "100000", large], check=True)

        def fresh(template, name):
            path = os.path.join(scratch, name)
            shutil.copyfile(template, path)
            return path

        migrated = fresh(large, "migrated.db")
        runs = [
            ["apply", "--no-backup", "--plan", PLAN, "--database", migrated],  # rebuilds
            ["apply", "--no-backup", "--plan", PLAN, "--database", migrated],  # up to date
            ["status", "--plan", PLAN, "--database", migrated],
            ["verify", "--plan", PLAN, "--database", migrated],
            ["apply", "--plan", PLAN, "--database", fresh(small, "backed-up.db")],
            ["plan", "--plan", PLAN, "--database", fresh(small, "planned.db")],
        ]
        by_run = [
            functions_run(binary, arguments, os.path.join(scratch, "profile.%d" % index))
            for index, arguments in enumerate(runs)
        ]

        sections = sections_by_symbol(link_map)

    # The up-to-date run's functions first (the start every deploy pays), then what each other
    # run adds; each group sorted by name.
    ordered = []
    for names in [by_run[1]] + by_run[:1] + by_run[2:]:
        ordered += sorted(set(names) - set(ordered))
    seen = set(ordered)
    # A section's functions that ran: those it alone defines (of a name defined in many
    # sections, which copy ran is unknown).
    ran_in = {}
    for name in ordered:
        if len(sections.get(name, ())) == 1:
            (section,) = sections[name]
            ran_in[section] = ran_in.get(section, 0) + 1
    kept = [
        name for name in ordered
        if all(ran_in.get(section, 0) * WINDOW >= section[1] for section in sections.get(name, ()))
    ]
    for section, ran in sorted(ran_in.items(), key=lambda item: -item[0][1])[:8]:
        print("%5d KiB, %4d ran: %s" % (section[1] // 1024, ran, section[0].split("/")[-1]))
    with open(ORDER, "w") as out:
        out.write("# The functions `migrate` runs, the up-to-date run's first, for the linker's\n")
        out.write("# --symbol-ordering-file. Written by Benchmarks/startup-order/generate.py.\n")
        out.write("\n".join(kept) + "\n")
    print("%d functions ran; %d written to %s" % (len(seen), len(kept), os.path.relpath(ORDER)))


if __name__ == "__main__":
    main()
