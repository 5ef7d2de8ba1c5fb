"""Teaching: giv events told in words (:mod:`~krypteach.teaching.narrate`) and
capture puzzles with a solver that proves every answer
(:mod:`~krypteach.teaching.puzzles`)."""
