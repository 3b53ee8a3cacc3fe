"""How every game's events are tagged, versioned, encoded and read back.

Each game declares its events as msgspec structs tagged with their snake_case names (the
``type`` stored with every record) and hands its union to an :class:`EventCodec`.

Events evolve: each type has a ``schema_version`` (1 until its fields change), stored with
every record. Changing a type's fields means bumping its ``schema_version`` to n + 1 and giving
it a static ``upcast_vn_vn1(data) -> data`` that lifts the stored data of version n; reading
runs the upcasters in turn, so old streams keep loading. An added optional field needs only its
default (old data decodes without it); bump the version anyway when the meaning of old data
changes. Hashes never depend on this: they are checked on the stored bytes
(``domain.envelope``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

import msgspec

E = TypeVar("E")


class UnknownEvent(ValueError):
    """Stored data this code cannot read: an unknown type, or a schema version from the future."""


def snake(name: str) -> str:
    """A class name's tag: ``CardDealt`` -> ``card_dealt``."""
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


#: each struct class's tag, looked up once: ``__struct_config__`` builds a new object on every
#: access, and the tag is read for every event written (py-spy: 5 % of an API command's CPU)
_TAGS: dict[type, str] = {}


def event_type(event: Any) -> str:
    """The stable tag of an event of any game, as stored in the ``type`` column."""
    cls = type(event)
    tag = _TAGS.get(cls)
    if tag is None:
        tag = _TAGS[cls] = str(cls.__struct_config__.tag)
    return tag


def schema_version(event: Any) -> int:
    """The schema version an event of this type is written with today."""
    return int(type(event).schema_version)


def event_data(event: Any) -> dict[str, Any]:
    """The event's fields as JSON values, without its ``type`` tag (what the record stores)."""
    data: dict[str, Any] = msgspec.to_builtins(event)
    del data["type"]
    return data


class EventCodec(Generic[E]):
    """One game's events: ``union`` is its msgspec union, ``classes`` its members, ``game``
    the name its errors use."""

    def __init__(self, union: Any, classes: tuple[type[msgspec.Struct], ...], game: str) -> None:
        self.game = game
        #: each event class by its tag (the stored ``type``)
        self.classes: dict[str, type[msgspec.Struct]] = {
            str(cls.__struct_config__.tag): cls for cls in classes
        }
        self._encoder = msgspec.json.Encoder()
        self._decoder: msgspec.json.Decoder[E] = msgspec.json.Decoder(union)
        self._list_decoder: msgspec.json.Decoder[list[E]] = msgspec.json.Decoder(list[union])
        self._data_decoders: dict[str, msgspec.json.Decoder[Any]] = {
            tag: msgspec.json.Decoder(cls) for tag, cls in self.classes.items()
        }

    def encode(self, event: E) -> bytes:
        """The event as JSON, tag first then fields in declaration order.

        A plain serialisation (tests, benchmarks, the ``data`` column): what is hashed is the
        record of ``domain.envelope``, never this.
        """
        return self._encoder.encode(event)

    def decode(self, data: bytes | str) -> E:
        return self._decoder.decode(data)

    def decode_many(self, data: bytes | str) -> list[E]:
        return self._list_decoder.decode(data)

    def _class(self, type_: str) -> type[msgspec.Struct]:
        cls = self.classes.get(type_)
        if cls is None:
            raise UnknownEvent(f"unknown {self.game} event type {type_!r}")
        return cls

    def _upcast(self, cls: type[Any], type_: str, schema: int, data: dict[str, Any]) -> Any:
        current: int = cls.schema_version
        if not 1 <= schema <= current:
            raise UnknownEvent(
                f"{type_} schema version {schema}: this code reads versions 1 to {current}"
            )
        for version in range(schema, current):
            step: Callable[[dict[str, Any]], dict[str, Any]] = getattr(
                cls, f"upcast_v{version}_v{version + 1}"
            )
            data = step(dict(data))
        return msgspec.convert(data, cls)

    def from_data(self, type_: str, schema: int, data: dict[str, Any]) -> E:
        """The event stored as ``type_`` at ``schema`` with ``data``, upcast to today's version.

        Raises :class:`UnknownEvent` for a type or version this code does not know, and
        ``msgspec.ValidationError`` for data that does not fit the type.
        """
        return self._upcast(self._class(type_), type_, schema, data)  # type: ignore[no-any-return]

    def from_json(self, type_: str, schema: int, data: bytes | str) -> E:
        """:meth:`from_data` for the data's JSON text (decoded directly when current)."""
        cls: Any = self._class(type_)
        if schema == cls.schema_version:
            return self._data_decoders[type_].decode(data)  # type: ignore[no-any-return]
        return self.from_data(type_, schema, msgspec.json.decode(data))
