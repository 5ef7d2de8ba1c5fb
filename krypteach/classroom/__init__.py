"""The classroom: learners' progress kept (:mod:`.store`), the class's configuration
(:mod:`.config`) and who is learning in this kernel (:mod:`.session`)."""
