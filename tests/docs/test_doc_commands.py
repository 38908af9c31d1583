#!/usr/bin/python3
"""Every documented command runs, and every name in it exists (issue 31).

Reads README.md and docs/*.md, takes every line of a fenced shell code block (```sh, ```bash,
```shell or a bare ```) that starts with `build/dcsweep` or `mpirun` (after `NAME=value`
assignments; a trailing backslash continues the line, `# ...` comments are dropped), and

1. checks names: every `--option` of a command must be printed by `dcsweep SUBCOMMAND --help`
   (`-` and `_` alike), and every key of `[base]`, `[axes]` and `[[zip]]` in a ```toml block must be
   a parameter printed by `dcsweep list`;
   Every relative link [text](path#anchor) must name a file that exists and, in a Markdown file,
   a heading whose GitHub anchor is the anchor;
2. runs the commands, each file's in order, from a temporary directory that links the
   repository's inputs/, jobs/, bench/ and build/ (what a command writes stays there, and a later
   command of the same file can read it), and asserts exit code 0.

A marker on the line before a code block (an HTML comment) changes how its commands run; each
may end with a reason in parentheses, which skip requires:
  <!-- doc-test: validate (reason) -->           `run SPEC -o OUT ...` runs as `validate SPEC`
  <!-- doc-test: set --jobs 200 ... (reason) -->  these options are added to (or replace those of)
                                                 each simulate of the block
  <!-- doc-test: exit N -->                       the commands must exit with N
  <!-- doc-test: skip (reason) -->                names are checked, nothing runs

usage: test_doc_commands.py DCSWEEP_BINARY PROJECT_DIR [--names-only] [FILE.md ...]
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

MPI_ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_mpi_yield_when_idle="1", OMPI_MCA_rmaps_base_oversubscribe="1")
SHELL_LANGS = {"", "sh", "bash", "shell", "console"}
MARKER = re.compile(r"^<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
LINKED = ["inputs", "jobs", "bench"]
# mpirun's own options that take a value (everything else before the program is a flag).
MPIRUN_VALUED = {"-np", "-n", "-c", "--np", "--host", "-H", "--map-by", "--bind-to", "--hostfile", "-x"}


class Command:
    def __init__(self, path, line, text, markers, project):
        self.path, self.line, self.text, self.markers = path, line, text, markers
        self.where = f"{os.path.relpath(path, project)}:{line}"
        words = shlex.split(text, comments=True)
        while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
            words.pop(0)
        self.launcher, self.args = split_launcher(words)

    @property
    def subcommand(self):
        return self.args[0] if self.args and not self.args[0].startswith("-") else ""


def split_launcher(words):
    """(mpirun and its options, dcsweep's arguments); the program must be build/dcsweep."""
    launcher = []
    if words and words[0] == "mpirun":
        i = 1
        while i < len(words) and words[i].startswith("-"):
            i += 2 if words[i] in MPIRUN_VALUED else 1
        launcher, words = words[:i], words[i:]
    if not words or words[0] != "build/dcsweep":
        raise ValueError(f"not a dcsweep command: {' '.join(launcher + words)}")
    return launcher, words[1:]


def blocks(path):
    """(language, first line number, lines, markers) of every fenced block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        fence = re.match(r"^(\s*)```\s*([A-Za-z0-9_+-]*)", lines[i])
        if not fence:
            i += 1
            continue
        markers, j = [], i - 1
        while j >= 0 and MARKER.match(lines[j].strip()):
            markers.insert(0, MARKER.match(lines[j].strip()).group(1))
            j -= 1
        indent, start, body = len(fence.group(1)), i + 1, []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith("```"):
            body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
            i += 1
        yield fence.group(2).lower(), start + 1, body, markers
        i += 1


def commands(path, project):
    out = []
    for lang, first, body, markers in blocks(path):
        if lang not in SHELL_LANGS:
            continue
        k = 0
        while k < len(body):
            number, text = first + k, body[k]
            while text.rstrip().endswith("\\") and k + 1 < len(body):
                k += 1
                text = text.rstrip()[:-1] + " " + body[k].strip()
            k += 1
            head = re.sub(r"^(\s*[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*", "", text).lstrip()
            if head.startswith("build/dcsweep") or head.startswith("mpirun "):
                out.append(Command(path, number, text.strip(), markers, project))
    return out


def toml_keys(path):
    """(line, table, key) of every key of [base], [axes] and [[zip]] tables in ```toml blocks."""
    for lang, first, body, _ in blocks(path):
        if lang != "toml":
            continue
        table = ""
        for k, text in enumerate(body):
            header = re.match(r"^\s*\[+\s*([A-Za-z0-9_.]+)\s*\]+", text)
            if header:
                table = header.group(1)
                continue
            key = re.match(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=", text)
            if key and table in ("base", "axes", "zip") and not (table == "zip" and key.group(1) == "name"):
                yield first + k, table, key.group(1)


def anchor(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^a-z0-9 _-]", "", heading.strip().lower()).replace(" ", "-")


def outside_code(path):
    """(line number, text) of the lines outside fenced blocks."""
    fence = False
    for number, text in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if text.lstrip().startswith("```"):
            fence = not fence
        elif not fence:
            yield number, text


def check_links(path, project):
    problems = []
    for number, text in outside_code(path):
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"^[a-z]+:", target):
                continue
            file, _, frag = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
            where = f"{os.path.relpath(path, project)}:{number}"
            if not os.path.exists(full):
                if os.path.basename(full) != "adaptive.md":  # written on another branch (issue 31's brief)
                    problems.append(f"{where}: link to {target}: no such file")
                continue
            if frag and full.endswith(".md"):
                anchors = {anchor(t.lstrip("#")) for _, t in outside_code(full) if re.match(r"^#{1,6} ", t)}
                if frag not in anchors:
                    problems.append(f"{where}: link to {target}: no heading with that anchor in {os.path.relpath(full, project)}")
    return problems


def norm(name):
    return name.replace("_", "-")


class Names:
    """What the binary accepts: each subcommand's options (from --help) and the parameters (list)."""

    def __init__(self, binary):
        self.binary, self.options = binary, {}
        listing = self.output(["list"])
        self.params = set(re.findall(r"^\s+([a-z][a-z0-9_]*)\s+\S+\s+unit=", listing, re.M))
        if len(self.params) < 50:
            raise SystemExit(f"dcsweep list printed only {len(self.params)} parameters: has its format changed?")

    def output(self, args):
        proc = subprocess.run([self.binary] + args, capture_output=True, text=True, env=MPI_ENV, timeout=60)
        if proc.returncode != 0:
            raise SystemExit(f"dcsweep {' '.join(args)}: exit {proc.returncode}\n{proc.stderr}")
        return proc.stdout

    def accepted(self, subcommand):
        if subcommand not in self.options:
            text = self.output([subcommand, "--help"] if subcommand else ["--help"])
            self.options[subcommand] = {norm(o) for o in re.findall(r"--([A-Za-z0-9][A-Za-z0-9_-]*)", text)}
        return self.options[subcommand]

    def check(self, cmd):
        problems = []
        accepted = self.accepted(cmd.subcommand)
        for word in cmd.args[1:] if cmd.subcommand else cmd.args:
            if word.startswith("--"):
                name = norm(word[2:].split("=", 1)[0])
                if name not in accepted:
                    problems.append(f"{cmd.where}: option --{name} is not in `dcsweep {cmd.subcommand} --help`"
                                    f" ({cmd.text})")
        for marker in cmd.markers:
            kind, words, _ = parse_marker(marker)
            if kind == "set":
                for word in words:
                    if word.startswith("--") and norm(word[2:]) not in self.accepted("simulate"):
                        problems.append(f"{cmd.where}: marker option {word} is not in `dcsweep simulate --help`")
        return problems


def parse_marker(marker):
    """(kind, its arguments, the reason in parentheses or '')."""
    m = re.fullmatch(r"(validate|set|exit|skip)\b\s*(.*?)\s*(\((.+)\))?", marker)
    if not m or (m.group(1) == "skip" and not m.group(4)) or (m.group(1) in ("set", "exit") and not m.group(2)):
        raise SystemExit(f"unknown or incomplete doc-test marker '{marker}'")
    return m.group(1), shlex.split(m.group(2)), m.group(4) or ""


def apply_markers(cmd):
    """(argv or None to skip, expected exit code, what the markers did)."""
    args, launcher, expected, notes = list(cmd.args), list(cmd.launcher), 0, []
    for marker in cmd.markers:
        kind, words, _ = parse_marker(marker)
        if kind == "validate" and cmd.subcommand == "run":
            args, launcher = ["validate", args[1]], []
            notes.append("validate")
        elif kind == "set" and cmd.subcommand == "simulate":
            args = with_options(args, words)
            notes.append("set " + " ".join(words))
        elif kind == "exit":
            expected = int(words[0])
        elif kind == "skip":
            return None, expected, marker
    return launcher + ["build/dcsweep"] + args, expected, ", ".join(notes)


def with_options(args, extra):
    """args with each `--name value` of extra replacing the same option's value, or appended."""
    args = list(args)
    for k in range(0, len(extra), 2):
        name, value = norm(extra[k]), extra[k + 1]
        for i, word in enumerate(args):
            if word.startswith("--") and norm(word) == name and i + 1 < len(args):
                args[i + 1] = value
                break
        else:
            args += [extra[k], value]
    return args


def workdir(project, binary):
    tmp = tempfile.mkdtemp(prefix="dcsweep-doc-")
    for name in LINKED:
        os.symlink(os.path.join(project, name), os.path.join(tmp, name))
    os.symlink(os.path.dirname(os.path.abspath(binary)), os.path.join(tmp, "build"))
    os.mkdir(os.path.join(tmp, "results"))
    return tmp


def run_file(path, cmds, project, binary):
    failures, tmp = [], workdir(project, binary)
    try:
        for cmd in cmds:
            argv, expected, notes = apply_markers(cmd)
            if argv is None:
                print(f"  skipped {cmd.where}: {notes}")
                continue
            start = time.monotonic()
            proc = subprocess.run(argv, cwd=tmp, env=MPI_ENV, capture_output=True, text=True, timeout=600)
            seconds = time.monotonic() - start
            shown = " ".join(shlex.quote(a) for a in argv)
            print(f"  {seconds:6.1f} s  exit {proc.returncode}  {cmd.where}  {shown}" + (f"  [{notes}]" if notes else ""))
            if proc.returncode != expected:
                failures.append(f"{cmd.where}: `{shown}` exited with {proc.returncode}, the doc expects {expected}\n"
                                f"{proc.stderr[-2000:]}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return failures


def main():
    argv = sys.argv[1:]
    names_only = "--names-only" in argv
    argv = [a for a in argv if a != "--names-only"]
    if len(argv) < 2:
        sys.exit(__doc__)
    binary, project = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    files = argv[2:] or [os.path.join(project, "README.md")] + sorted(
        os.path.join(project, "docs", f) for f in os.listdir(os.path.join(project, "docs")) if f.endswith(".md"))
    names, problems, per_file = Names(binary), [], []
    for path in files:
        cmds = commands(path, project)
        per_file.append((path, cmds))
        for cmd in cmds:
            problems += names.check(cmd)
        problems += check_links(path, project)
        for line, table, key in toml_keys(path):
            if key not in names.params:
                problems.append(f"{os.path.relpath(path, project)}:{line}: [{table}] key '{key}' is not a parameter of `dcsweep list`")
    total = sum(len(c) for _, c in per_file)
    print(f"{total} documented commands in {len(files)} files; names checked: {len(problems)} problems")
    if not names_only:
        for path, cmds in per_file:
            if cmds:
                print(f"{os.path.relpath(path, project)}:")
                problems += run_file(path, cmds, project, binary)
    for p in problems:
        print("FAIL " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
