#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# The bad-input campaign of docs/hardening.md, through the command as a stranger meets it:
# mutated kerntime, Google Benchmark and NVBench files given to `kerntime report` (each text
# format) and `kerntime compare`, with standard error closed or full for some runs, and rounds of
# concurrent writers of one -o file. A run passes when kerntime exits 0, 1 (compare only) or 2,
# within the time limit, with at most one line on standard error, and when an -o file is either
# absent, the old one or a whole new report. Prints one line of figures; exits 1 on any failure,
# after naming the first few.
#
#   python3 cli_campaign.py KERNTIME CORPUS_DIR [MUTANTS] [WRITER_ROUNDS] [SEED]
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

TIME_LIMIT_S = 20


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One of the mutations a careless user or an attacker makes to a file."""
    b = bytearray(data)
    choice = rng.randrange(9)
    if not b:
        return bytes(rng.getrandbits(8) for _ in range(rng.randrange(1, 64)))
    at = rng.randrange(len(b))
    if choice == 0:  # flip bytes
        for _ in range(rng.randrange(1, 8)):
            b[rng.randrange(len(b))] = rng.getrandbits(8)
    elif choice == 1:  # truncate
        del b[at:]
    elif choice == 2:  # a huge or odd number where a digit was
        digits = [i for i, c in enumerate(b) if chr(c).isdigit()]
        if digits:
            i = rng.choice(digits)
            b[i:i + 1] = rng.choice([b"1e300", b"-1e400", b"9" * 400, b"NaN", b"0.000000001e-320",
                                     b"18446744073709551617", b"-0"])
    elif choice == 3:  # hostile text inside a string
        quotes = [i for i, c in enumerate(b) if c == ord('"')]
        if quotes:
            i = rng.choice(quotes) + 1
            b[i:i] = rng.choice(["\u202e", "\u0085", "\\u0000", "\\n", "../" * 8 + "etc/passwd",
                                 "/etc/passwd", "../secret", "\u2028", "x" * 5000]).encode()
    elif choice == 4:  # duplicate a slice
        end = min(len(b), at + rng.randrange(1, 256))
        b[at:at] = b[at:end] * rng.randrange(1, 20)
    elif choice == 5:  # delete a slice
        del b[at:at + rng.randrange(1, 64)]
    elif choice == 6:  # deep nesting
        b[at:at] = b"[" * rng.randrange(100, 5000)
    elif choice == 7:  # swap a structural byte
        structural = [i for i, c in enumerate(b) if chr(c) in "{}[]:,"]
        if structural:
            b[rng.choice(structural)] = ord(rng.choice("{}[]:,\"0"))
    else:  # invalid UTF-8
        b[at:at] = rng.choice([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"])
    return bytes(b)


def run(args, stderr_mode):
    kwargs = {"stdout": subprocess.DEVNULL, "timeout": TIME_LIMIT_S}
    if stderr_mode == "closed":
        kwargs.update(stderr=None, close_fds=True,
                      preexec_fn=lambda: os.close(2))
    elif stderr_mode == "full":
        kwargs["stderr"] = open("/dev/full", "wb")
    else:
        kwargs["stderr"] = subprocess.PIPE
    done = subprocess.run(args, **kwargs)
    err = done.stderr.decode("utf-8", "replace") if stderr_mode == "pipe" else ""
    return done.returncode, err


def main(argv):
    if len(argv) < 2:
        print(__doc__ if __doc__ else "usage", file=sys.stderr)
        return 2
    kerntime, corpus = argv[0], argv[1]
    mutants = int(argv[2]) if len(argv) > 2 else 2000
    writer_rounds = int(argv[3]) if len(argv) > 3 else 40
    rng = random.Random(int(argv[4]) if len(argv) > 4 else 25)
    seeds = [open(os.path.join(corpus, n), "rb").read() for n in sorted(os.listdir(corpus))
             if n.endswith(".json")]
    work = tempfile.mkdtemp(prefix="kerntime-campaign-")
    # The NVBench sample files a mutated filename could reach, and a secret beside the folder.
    inside = os.path.join(work, "in")
    os.makedirs(inside)
    secret = os.path.join(work, "secret")
    with open(secret, "w") as f:
        f.write("987654321")
    failures, runs, statuses = [], 0, {}

    def check(args, allowed, what, stderr_mode="pipe"):
        nonlocal runs
        runs += 1
        try:
            status, err = run(args, stderr_mode)
        except subprocess.TimeoutExpired:
            failures.append(f"{what}: no answer in {TIME_LIMIT_S} s")
            return None
        statuses[status] = statuses.get(status, 0) + 1
        if status not in allowed:
            failures.append(f"{what}: exit {status}")
        elif err.count("\n") > 1 and status == 2:
            failures.append(f"{what}: {err.count(chr(10))} lines on stderr: {err[:200]!r}")
        return status

    base = os.path.join(work, "base.json")
    with open(base, "wb") as f:
        f.write(seeds[0])
    for i in range(mutants):
        data = mutate(rng.choice(seeds), rng)
        path = os.path.join(inside, f"m{i}.json")
        with open(path, "wb") as f:
            f.write(data)
        fmt = rng.choice(["table", "md", "csv", "json"])
        mode = rng.choice(["pipe"] * 8 + ["closed", "full"])
        out = os.path.join(work, "out.json")
        status = check([kerntime, "report", "--format", fmt, path], (0, 2), f"report {path}", mode)
        if status == 0 and fmt == "json":
            text = subprocess.run([kerntime, "report", "--format", "json", path],
                                  capture_output=True).stdout
            if b"987654321" in text:
                failures.append(f"report {path}: printed the secret beside its folder")
        check([kerntime, "compare", base, path], (0, 1, 2), f"compare base {path}", mode)
        check([kerntime, "report", path, "-o", out], (0, 2), f"report {path} -o", mode)
        if os.path.exists(out):
            try:
                json.load(open(out))
            except ValueError:
                failures.append(f"report {path} -o: a half-written output")
            os.unlink(out)
        os.unlink(path)

    # Concurrent writers of one file: the file is always absent, or one whole report.
    target = os.path.join(work, "shared.json")
    for round_ in range(writer_rounds):
        writers = [subprocess.Popen([kerntime, "report", os.path.join(corpus, "report_runs.json"),
                                     "-o", target], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL) for _ in range(10)]
        for w in writers:
            runs += 1
            if w.wait(timeout=TIME_LIMIT_S) != 0:
                failures.append(f"writers round {round_}: exit {w.returncode}")
        try:
            json.load(open(target))
        except ValueError:
            failures.append(f"writers round {round_}: the file is not one whole report")
        leftovers = [n for n in os.listdir(work) if n.startswith("shared.json.")]
        if leftovers:
            failures.append(f"writers round {round_}: temporary files left: {leftovers[:3]}")

    shutil.rmtree(work)
    shown = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items()))
    print(f"cli campaign: {mutants} mutated files, {writer_rounds} rounds of 10 writers, "
          f"{runs} runs (exit statuses {shown}); {len(failures)} failures")
    for line in failures[:10]:
        print("  " + line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
