"""A name is one seat's at a table: a friend who joins with a name already used there is refused
(409, saying so) and may join with another; a table cannot be opened with two seats of one name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from server_helpers import create, served

FRIENDS = [{"kind": "human", "name": "Anna"}, {"kind": "human"}, {"kind": "human"},
           {"kind": "bot", "level": "facile"}]


def join(base: str, created: dict[str, Any], **body: Any) -> httpx.Response:
    return httpx.post(f"{base}/api/tables/{created['table_id']}/join", json={"invite": created["invite"], **body})


def test_a_name_taken_at_the_table_is_refused(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create(base, game="tressette", players=FRIENDS)
        bot = created["table"]["players"][3]["name"]
        assert join(base, created, name="Bruno").status_code == 200
        for taken in ("Anna", "anna", "BRUNO", "  Bruno ", bot):
            refused = join(base, created, name=taken)
            assert refused.status_code == 409, taken
            assert refused.json()["detail"] == (f"the name {' '.join(taken.split())!r} is taken at this table: "
                                                "choose another")
            assert "set-cookie" not in refused.headers
        # Nothing was taken by the refusals: the next friend, with his own name, gets the free seat.
        joined = join(base, created, name="Carla")
        assert joined.status_code == 200 and joined.json()["seat"] == 2
        names = [p["name"] for p in httpx.get(f"{base}/api/tables/{created['table_id']}").json()["players"]]
        assert names == ["Anna", "Bruno", "Carla", bot]


def test_a_seat_named_at_creation_is_joined_with_its_own_name(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        created = create(base, game="tressette", players=[*FRIENDS[:1], {"kind": "human", "name": "Bruno"},
                                                          *FRIENDS[2:]])
        # The seat kept for Bruno is his: his name there is no other seat's.
        joined = join(base, created, name="bruno", seat=1)
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        # But a friend who takes another seat cannot be a second Bruno.
        assert join(base, created, name="Bruno", seat=2).status_code == 409


def test_a_table_of_two_seats_with_one_name_is_not_opened(tmp_path: Path) -> None:
    with served(tmp_path) as base:
        players = [{"kind": "human", "name": "Anna"}, {"kind": "human", "name": "ANNA"}, *FRIENDS[2:]]
        refused = httpx.post(f"{base}/api/tables", json={"game": "tressette", "players": players})
        assert refused.status_code == 400
        assert "two seats are named 'ANNA'" in refused.json()["detail"]
