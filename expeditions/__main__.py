import sys

from expeditions.cli import main

sys.exit(main())
