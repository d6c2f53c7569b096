import pytest

pytest.importorskip("pygls")

from tests.lsp.client import Client  # noqa: E402


@pytest.fixture(scope="module")
def client():
    c = Client()
    yield c
    c.stop()
