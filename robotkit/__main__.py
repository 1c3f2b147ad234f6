import sys

from robotkit.cli import main

sys.exit(main())
