"""The online osteria: ``osteria serve``, tables in the browser with friends and bots.

The web parts (``app``) need the ``server`` extra (FastAPI, uvicorn); ``fair`` and ``store``
need only the standard library (PostgreSQL needs psycopg), so ``osteria verify`` works anywhere.
The protocol is docs/online.md.
"""
