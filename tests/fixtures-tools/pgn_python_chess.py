#!/usr/bin/env python3
"""python-chess's reading of the PGN games fgn exported, as a fixture.

Run by hand, once, when the exported games change; never by CI (the test
suite does not depend on Python). From the repository root:

    pip install chess==1.11.2
    python3 tests/fixtures-tools/pgn_python_chess.py \
        tests/e2e/fixtures/pgn/exported.pgn > tests/e2e/fixtures/pgn/python-chess.json

For each game of the PGN file, in order, it writes what python-chess, an
independent implementation of chess and of PGN, reads: the SAN it would
write for each move it read (disambiguation and check and mate marks as
standard chess computes them), the position after each move as the first
two fields of its FEN (pieces and side to move; castling, en passant and
the move counters are left out, since survival-chess has none of them),
the errors it met (a move that is illegal in standard chess stops its
reading of the game), whether the last position is checkmate or stalemate,
and the Result tag. tests/e2e/interchange.rs checks fgn's replay of the
same games against it move by move.
"""
import json
import sys

import chess
import chess.pgn


def main(path):
    games = []
    with open(path, encoding="utf-8") as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            board = game.board()
            sans, fens = [], []
            for move in game.mainline_moves():
                sans.append(board.san(move))
                board.push(move)
                fens.append(" ".join(board.fen().split(" ")[:2]))
            games.append(
                {
                    "start": " ".join(game.board().fen().split(" ")[:2]),
                    "san": sans,
                    "fen": fens,
                    "errors": [str(e) for e in game.errors],
                    "checkmate": board.is_checkmate(),
                    "stalemate": board.is_stalemate(),
                    "result": game.headers.get("Result"),
                }
            )
    json.dump({"python_chess": chess.__version__, "games": games}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
