#!/usr/bin/env python3
"""pydraughts's reading of the PDN games fgn exported, as a fixture.

Run by hand, once, when the exported games change; never by CI (the test
suite does not depend on Python). From the repository root:

    pip install pydraughts==0.6.7
    python3 tests/fixtures-tools/pdn_pydraughts.py \
        tests/e2e/fixtures/pdn/exported.pdn > tests/e2e/fixtures/pdn/pydraughts.json

pydraughts is an independent implementation of Russian draughts. Its PDN
reader stumbles over the `[%fgn ...]` comments, so this script reads the
movetext itself (comments, move numbers and results left out) and plays
each move on pydraughts's own `Board(variant="russian")`. That board
numbers the 32 dark squares from white's corner, a1 = 1, c1 = 2, ...,
h8 = 32 (its first legal moves are 9-13 ... 12-16, a3-b4 ... g3-h4), which
`num` below converts to. For each game it writes the moves, the number of
legal moves pydraughts has before each one (every capture sequence and
landing square counts one), the error if some move is not exactly one of
its legal moves, and whether its game is over at the end.
tests/e2e/interchange.rs checks fgn's replay of the same games against it.
"""
import json
import re
import sys

import draughts


def num(square):
    """pydraughts's number of an algebraic square."""
    file, rank = ord(square[0]) - ord("a"), int(square[1:]) - 1
    return rank * 4 + file // 2 + 1


def main(path):
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"\{[^}]*\}", " ", f.read())
    games = []
    for block in re.split(r"\n\n(?=\[)", text.strip()):
        body = "\n".join(line for line in block.split("\n") if not line.startswith("["))
        tokens = [
            t
            for t in body.split()
            if not re.fullmatch(r"\d+\.(\.\.)?", t) and t not in ("1-0", "0-1", "1/2-1/2", "*")
        ]
        board = draughts.Board(variant="russian")
        counts, error = [], None
        for token in tokens:
            legal = board.legal_moves()
            counts.append(len(legal))
            want = [num(s) for s in re.split(r"[-:x]", token)]
            found = [m for m in legal if m.steps_move == want]
            if len(found) != 1:
                error = f"{token}: {len(found)} of its legal moves match"
                break
            board.push(found[0])
        games.append(
            {
                "moves": tokens,
                "legal_counts": counts,
                "error": error,
                "over": board.is_over() if error is None else None,
            }
        )
    json.dump({"pydraughts": "0.6.7", "games": games}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
