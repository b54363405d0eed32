import sys

from gazala_tools.cli import main

sys.exit(main())
