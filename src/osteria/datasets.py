"""Datasets for learning, from the records of arena or self-play runs.

One row per decision: the observation of the seat that chose, as the fixed-size tensor of
``osteria.envs.encoding``, its legal actions (their indices: a sparse mask), the action it took
(index and word)
and the deal's reward for that seat. Every record is replayed and checked first, so a dataset
holds only legal play. Written as JSON lines or Parquet (``osteria[data]``), chosen by the file's
suffix; ``read`` gives the rows back, ``arrays`` the columns as numpy arrays, ready for learning.

Columns: ``game``, ``seats``, ``options`` (the record's options, as JSON), ``deal_id``
(``"R/D"``: deal D of the R-th record, both from 0), ``step`` (the action's index in the deal),
``seat`` (the seat that chose, whose observation it is), ``to_move`` (the seat whose move it
was: the same, except that a dummy's partner chooses for the dummy), ``player`` (the name of the
seat that chose, in the record), ``observation`` (float32), ``legal`` (the indices of the legal
actions in the encoding's whole-action space, ascending; :func:`dense_masks` makes them 0/1
rows), ``action``, ``action_word``, ``reward``: the deal's score for that seat as the game counts it
(its ``delta`` in the replay output; partners score alike), negated where the lower score is the
better (Traversone), so that higher is always better, as in the environments' rewards.
Only finished deals are exported: an unfinished one has no reward yet.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from osteria.engine import JSON, Match
from osteria.envs.encoding import Encoding, encoding
from osteria.records import RecordError, replay

COLUMNS = ("game", "seats", "options", "deal_id", "step", "seat", "to_move", "player", "observation", "legal",
           "action", "action_word", "reward")
FORMATS = (".jsonl", ".parquet")


def decisions(played: Match, number: int, encoder: Encoding) -> Iterator[dict[str, Any]]:
    """The rows of a replayed record (the ``number``-th of its file), with the observation and the
    legal actions' indices as numpy arrays."""
    game = played.game
    options = json.dumps(game.changed_options(), sort_keys=True)
    sense = game.sense
    # Step through the finished deals again, from their integer actions, to see every decision.
    for d, stepping, to_move, action in played.replay_steps(len(played.results)):
        seat = stepping.decider
        assert seat is not None
        observation = stepping.observation(seat)
        word = played.deals[d].deal.action_str(action)
        yield {
            "game": game.name, "seats": game.seats, "options": options, "deal_id": f"{number}/{d}",
            "step": len(stepping.deals[d].deal.history), "seat": seat, "to_move": to_move,
            "player": played.players[seat],
            "observation": encoder.observe(observation),
            "legal": np.array(sorted(encoder.action_index(a) for a in observation["legal_actions"]), np.int32),
            "action": encoder.action_index(word), "action_word": word,
            "reward": float(sense * played.results[d].delta[seat]),
        }


def records_in(path: Path) -> list[dict[str, JSON]]:
    """The records of a file: one record, or JSON lines of one record each."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        pass  # not one JSON document: a record per line
    except (ValueError, RecursionError) as exc:  # nested too deep, a number too long
        raise RecordError(f"not a readable record: {exc}") from None
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise RecordError(f"not valid JSON: {exc.msg} (column {exc.colno})", f"line {number}") from None
            except (ValueError, RecursionError) as exc:
                raise RecordError(f"not a readable record: {exc}", f"line {number}") from None
    return records


def rows(records: Iterable[dict[str, JSON]]) -> Iterator[dict[str, Any]]:
    """The rows of many records, each replayed and checked; RecordError naming the record
    (``records[i]``) and the place in it of the first problem."""
    encoders: dict[str, Encoding] = {}
    for number, record in enumerate(records):
        try:
            played = replay(record)
        except RecordError as exc:
            raise RecordError(exc.reason, f"records[{number}]" + (f".{exc.where}" if exc.where else "")) from None
        game = played.game
        key = json.dumps([game.name, game.seats, game.options], sort_keys=True)
        if key not in encoders:
            encoders[key] = encoding(game.name, game.seats, **game.options)
        yield from decisions(played, number, encoders[key])


def export(records: Iterable[dict[str, JSON]], out: Path, *, batch_size: int = 4096) -> int:
    """Write the rows of ``records`` to ``out`` (``.jsonl`` or ``.parquet``); the number of rows.
    On an error nothing is left at ``out``: a partial file would pass for a whole dataset."""
    if out.suffix not in FORMATS:
        raise ValueError(f"{out}: a dataset is written as {' or '.join(FORMATS)}")
    try:
        return _export(records, out, batch_size)
    except BaseException:
        out.unlink(missing_ok=True)
        raise


def _export(records: Iterable[dict[str, JSON]], out: Path, batch_size: int) -> int:
    count = 0
    if out.suffix == ".jsonl":
        with out.open("w", encoding="utf-8") as file:
            for row in rows(records):
                row.update(observation=row["observation"].tolist(), legal=row["legal"].tolist())
                file.write(json.dumps(row, ensure_ascii=False) + "\n")
                count += 1
        return count
    pa, pq = _pyarrow()
    writer = None
    decided = rows(records)
    try:
        while batch := list(islice(decided, batch_size)):
            sizes = {len(row["observation"]) for row in batch}
            if writer is None:
                writer = pq.ParquetWriter(out, _schema(pa, next(iter(sizes))))
            if sizes != {writer.schema.field("observation").type.list_size}:
                raise ValueError(f"{out}: a Parquet dataset holds one encoding; write each game (and player count) "
                                 "to a file of its own, or use .jsonl")
            writer.write_table(_table(pa, writer.schema, batch))
            count += len(batch)
        if writer is None:  # no decisions: an empty table all the same
            pq.write_table(_schema(pa, 0).empty_table(), out)
    finally:
        if writer is not None:
            writer.close()
    return count


def _schema(pa: Any, observation_size: int) -> Any:
    return pa.schema([
        ("game", pa.string()), ("seats", pa.int8()), ("options", pa.string()), ("deal_id", pa.string()),
        ("step", pa.int16()), ("seat", pa.int8()), ("to_move", pa.int8()), ("player", pa.string()),
        ("observation", pa.list_(pa.float32(), observation_size)), ("legal", pa.list_(pa.int32())),
        ("action", pa.int32()), ("action_word", pa.string()), ("reward", pa.float32()),
    ])


def _table(pa: Any, schema: Any, batch: list[dict[str, Any]]) -> Any:
    """A Parquet table of rows, the tensors copied as whole blocks rather than number by number."""
    columns = {}
    for field in schema:
        if field.name == "observation":
            block = np.stack([row[field.name] for row in batch]).ravel()
            columns[field.name] = pa.FixedSizeListArray.from_arrays(pa.array(block, field.type.value_type),
                                                                    field.type.list_size)
        elif field.name == "legal":
            lists = [row[field.name] for row in batch]
            offsets = np.concatenate([[0], np.cumsum([len(x) for x in lists])]).astype(np.int32)
            columns[field.name] = pa.ListArray.from_arrays(pa.array(offsets), pa.array(np.concatenate(lists),
                                                                                        field.type.value_type))
        else:
            columns[field.name] = pa.array([row[field.name] for row in batch], field.type)
    return pa.table(columns, schema=schema)


def read(path: Path) -> list[dict[str, Any]]:
    """The rows of a dataset file written by ``export``, tensors as lists."""
    if path.suffix == ".parquet":
        _, pq = _pyarrow()
        return list(pq.read_table(path).to_pylist())
    if path.suffix == ".jsonl":
        with path.open(encoding="utf-8") as file:
            return [json.loads(line) for line in file if line.strip()]
    raise ValueError(f"{path}: a dataset is {' or '.join(FORMATS)}")


def arrays(path: Path) -> dict[str, npt.NDArray[Any]]:
    """The columns of a dataset file as numpy arrays, one entry per row: ``observation``
    two-dimensional (rows by size), ``legal`` an object array of int32 arrays (one per row, of its
    own length), strings as object arrays."""
    if path.suffix == ".parquet":
        _, pq = _pyarrow()
        table = pq.read_table(path)
        columns = {}
        for name in table.column_names:
            column = table.column(name).combine_chunks()
            if name == "observation":
                columns[name] = column.values.to_numpy().reshape(len(column), column.type.list_size)
            elif name == "legal":
                columns[name] = _ragged(np.split(column.values.to_numpy(), column.offsets.to_numpy()[1:-1]))
            else:
                columns[name] = column.to_numpy(zero_copy_only=False)
        return columns
    table_rows = read(path)
    types = {"observation": np.float32, "reward": np.float32}
    columns = {name: np.array([row[name] for row in table_rows], types.get(name, object if name in _TEXT else np.int64))
               for name in COLUMNS if name != "legal"}
    columns["legal"] = _ragged([np.array(row["legal"], np.int32) for row in table_rows])
    return {name: columns[name] for name in COLUMNS}


def _ragged(arrays: list[npt.NDArray[np.int32]]) -> npt.NDArray[Any]:
    """An object array holding arrays of different lengths (numpy would make a 2-D one of equal ones)."""
    column = np.empty(len(arrays), object)
    column[:] = arrays
    return column


def dense_masks(legal: npt.NDArray[Any], action_size: int) -> npt.NDArray[np.int8]:
    """The rows' legal actions (``arrays(path)["legal"]``) as 0/1 masks over an action space
    of ``action_size`` (``encoding(...).action_size``): rows by action_size, int8."""
    masks = np.zeros((len(legal), action_size), np.int8)
    for row, indices in enumerate(legal):
        masks[row, indices] = 1
    return masks


_TEXT = ("game", "options", "deal_id", "player", "action_word")


def _pyarrow() -> tuple[Any, Any]:
    try:
        import pyarrow as pa  # type: ignore[import-untyped]  # pyarrow has no type hints
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError:
        raise ValueError("Parquet needs pyarrow: pip install 'osteria[data]'") from None
    return pa, pq
