#!/usr/bin/env python3
"""A complete engine for the osteria bot protocol, in plain Python with no osteria import.

It plays the cheapest-looking card: among the legal actions it prefers plain cards over
signals and declarations, and low ranks over high ones. Run it in the arena with

    osteria arena tressette --players "cmd:python3 examples/first_card_engine.py",random --deals 50
"""

import json
import sys

LOW_FIRST = "4567FCRA23"  # Tressette's taking order, lowest first; other games: any order will do


def choose(observation, legal_actions):
    plain = [a for a in legal_actions if len(a) == 2] or legal_actions
    return min(plain, key=lambda a: LOW_FIRST.find(a[0]) if a[0] in LOW_FIRST else 99)


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "bye":
        break
    action = choose(message["observation"], message["legal_actions"])
    print(json.dumps({"action": action}), flush=True)
