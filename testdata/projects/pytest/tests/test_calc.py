import pytest

from calc import add, sub


def test_add():
    assert add(1, 2) == 3


def test_sub():
    assert sub(3, 1) == 2


@pytest.mark.parametrize("a,b,want", [(1, 1, 0), (2, 0, 2)])
def test_sub_table(a, b, want):
    assert sub(a, b) == want


class TestCalc:
    def test_method(self):
        assert add(2, 2) == 5
