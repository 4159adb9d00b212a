"""``python -m parlor.web``: the same as ``parlor serve``."""

import sys

from parlor.web.serve import main

sys.exit(main())
