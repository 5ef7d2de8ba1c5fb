"""Play many givar: bots against each other (:mod:`~krypteach.play.simulate`,
:mod:`~krypteach.play.tournament`) and the files such runs write
(:mod:`~krypteach.play.outputs`)."""
