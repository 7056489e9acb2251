#!/usr/bin/env python3
"""A complete engine for the osteria bot protocol (osteria-bot/2, docs/protocol.md), in plain
Python with no osteria import.

It plays the cheapest-looking card: among the legal actions it prefers plain cards over
signals and declarations, and low ranks over high ones; its option ``order=high`` makes it
play the highest instead. Run it in the arena with

    osteria arena tressette --players "cmd:python3 examples/first_card_engine.py",random --deals 50
    osteria arena tressette --players "cmd:python3 examples/first_card_engine.py?order=high",random --deals 50
"""

import json
import sys

LOW_FIRST = "4567FCRA23"  # Tressette's taking order, lowest first; other games: any order will do
OPTIONS = {"order": {"type": "choice", "default": "low", "choices": ["low", "high"]}}


def choose(legal_actions, order):
    plain = [a for a in legal_actions if len(a) == 2] or legal_actions
    ranked = sorted(plain, key=lambda a: LOW_FIRST.find(a[0]) if a[0] in LOW_FIRST else 99)
    return ranked[0] if order == "low" else ranked[-1]


def main():
    order = OPTIONS["order"]["default"]
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "bye":
            break
        reply = {"id": message["id"]} if "id" in message else {}  # no id: osteria speaks version 1
        if kind == "hello":
            reply.update(type="hello", protocol="osteria-bot/2", name="first card", author="the osteria authors",
                         options=OPTIONS, forced_moves=False)
        elif kind == "options":
            order = message["options"].get("order", order)
            continue
        elif kind == "ping":
            reply.update(type="ready")
        elif kind == "act":
            reply.update(type="action", action=choose(message["legal_actions"], order))
        else:
            continue  # new_match, new_deal: this engine remembers nothing from one move to the next
        print(json.dumps(reply), flush=True)


main()
