"""The protocols other backgammon software speaks: FIBS board lines (:mod:`.fibs_board`), GNU
Backgammon's external player interface both ways (:mod:`.external`, :mod:`.gnubg_external`) and
wildbg's HTTP API (:mod:`.wildbg`, served by gammon.web.routes.wildbg)."""
