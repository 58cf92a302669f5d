# rules for tests/
