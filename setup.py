"""The build's one choice beyond pyproject.toml: the rules engine compiled or not.

By default the package is pure Python. With ``OSTERIA_COMPILE=1`` the engine's modules (the
cards, the engine and every game's rules: what each move of a deal runs) are compiled with
mypyc, the compiler of the mypy project, from the same typed source: the same behaviour, about
twice as fast (docs/research.md, *Speed*). It needs mypy and a C compiler where the package is
built:

    pip install mypy wheel 'setuptools>=68'
    OSTERIA_COMPILE=1 pip install --no-build-isolation .
"""

import os

from setuptools import setup

# The modules compiled with OSTERIA_COMPILE=1, in the order mypyc reads them.
COMPILED = [
    "src/osteria/cards.py",
    "src/osteria/engine.py",
    "src/osteria/rules/tressette_family.py",
    "src/osteria/rules/tressette.py",
    "src/osteria/rules/calabresella.py",
    "src/osteria/rules/traversone.py",
    "src/osteria/rules/sancagna.py",
    "src/osteria/rules/quattrigghiu.py",
    "src/osteria/rules/reduced.py",
]


def compiled_modules() -> list:
    if os.environ.get("OSTERIA_COMPILE", "0") in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit("OSTERIA_COMPILE=1 compiles the engine with mypyc, which is part of mypy: pip install "
                         "mypy wheel 'setuptools>=68', then build with pip install --no-build-isolation") from None
    return mypycify(COMPILED, opt_level="3")


setup(ext_modules=compiled_modules())
