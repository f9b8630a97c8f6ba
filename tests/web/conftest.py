import pytest

from web_site import Site


@pytest.fixture(scope="module")
def site():
    s = Site()
    yield s
    s.close()
