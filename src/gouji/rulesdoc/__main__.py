"""``python -m gouji.rulesdoc``: the rules documents' command (:mod:`gouji.rulesdoc.cli`)."""

from gouji.rulesdoc.cli import main

raise SystemExit(main())
