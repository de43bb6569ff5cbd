"""``python -m gammon``: the ``gammon`` command, for an environment without the console script."""

import sys

from gammon.cli.main import main

sys.exit(main())
