"""The games as research environments: a fixed-size encoding of observations and actions, and
PettingZoo, Gymnasium and OpenSpiel adapters built on it (``docs/research.md``); and a batched
compiled engine of every game's bidding and card play (``batched``, numba; its observation layout
in ``layout``, without numba) with its vector environments.

These modules need numpy and the framework they adapt (``pip install 'osteria[rl]'`` or
``'osteria[openspiel]'``); ``import osteria`` never imports them.
"""
