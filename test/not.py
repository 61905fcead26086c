"""lit's `not`: runs a command and succeeds only if it exits non-zero (not by a signal)."""

import subprocess
import sys

code = subprocess.call(sys.argv[1:])
sys.exit(0 if code > 0 else 1)
