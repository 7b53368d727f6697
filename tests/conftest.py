import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

SHARED = os.path.join(os.path.dirname(ROOT), "shared")


@pytest.fixture
def shared_dir():
    return SHARED
