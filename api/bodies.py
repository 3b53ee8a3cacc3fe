"""Strict decoding of request bodies, and the creation body that is one schema per game.

Litestar converts bodies leniently (``"3"`` would pass as the integer 3) and cannot decode a
union whose tag may be absent (``game`` defaults to ``DEFAULT_GAME``; Litestar issue #3398 is about
tagged unions in request bodies). So every JSON body is first checked here, strictly, by
``api.app.strict_json_body``; and ``POST /matches`` decodes its body through
:class:`CreateMatchDTO`, which picks the game's schema by ``game`` and tells the OpenAPI document
that the body is a ``oneOf`` of the games' schemas, discriminated by ``game``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator
from typing import Annotated, Any, TypeVar, cast

import msgspec
import msgspec.inspect as mi
from litestar.dto import AbstractDTO, DTOFieldDefinition
from litestar.exceptions import SerializationException, ValidationException
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import Discriminator, Reference, Schema
from litestar.typing import FieldDefinition
from msgspec import Meta

from api.models import CREATE_TYPES, CreateMatchIn
from api.service import InvalidOptions, UnknownGame
from domain.games import DEFAULT_GAME, GAMES

S = TypeVar("S")
#: what a route's body is checked with before its handler runs
BodyCheck = Callable[[bytes], object]


def members(kind: Any) -> list[Any]:
    """The member types of a field's type, without their metadata wrappers."""
    if isinstance(kind, mi.Metadata):
        kind = kind.type
    if isinstance(kind, mi.UnionType):
        return [k.type if isinstance(k, mi.Metadata) else k for k in kind.types]
    return [kind]


def allowed_values(struct: Any, key: str) -> list[str]:
    """The values a top-level enum field of ``struct`` accepts (for the error message); none
    when ``struct`` is not a struct."""
    info = mi.type_info(struct)
    if not isinstance(info, mi.StructType):
        return []
    for field in info.fields:
        if field.encode_name != key:
            continue
        for kind in members(field.type):
            if isinstance(kind, mi.LiteralType):
                return [str(v) for v in kind.values]
    return []


def decode_strictly(body: bytes, struct: type[S]) -> S:
    """``body`` as a ``struct``, with no lenient conversion; a wrong value is 422.

    ``msgspec.DecodeError`` (not JSON at all) passes through: the caller answers 400.
    """
    try:
        return msgspec.json.decode(body, type=struct)
    except msgspec.ValidationError as exc:
        message, _, where = str(exc).partition(" - at `")
        key = where.rstrip("`").removeprefix("$").removeprefix(".")
        allowed = allowed_values(struct, key)
        if allowed and message.startswith("Invalid enum value"):
            message += " (one of: " + ", ".join(allowed) + ")"
        raise ValidationException(
            detail=message, extra=[{"message": message, "key": key, "source": "body"}]
        ) from exc


class _GameOf(msgspec.Struct):
    """Only the ``game`` of a creation body (every other field is the game's schema's)."""

    game: Annotated[str, Meta(max_length=32)] = DEFAULT_GAME


def decode_create_match(body: bytes) -> CreateMatchIn:
    """A creation body, decoded with its game's schema.

    An unknown game is ``UnknownGame`` (it lists the games); an option of another game is
    ``InvalidOptions`` naming the option and both games; anything else wrong is 422 as for
    every body (``decode_strictly``).
    """
    name = decode_strictly(body, _GameOf).game
    struct = CREATE_TYPES.get(name)
    if struct is None:
        raise UnknownGame(name)
    fields = decode_strictly(body, dict[str, msgspec.Raw])
    for key in fields:
        if key in struct.__struct_fields__:
            continue
        owners = [g for g in CREATE_TYPES if key in CREATE_TYPES[g].__struct_fields__]
        if owners:
            raise InvalidOptions(
                f"`{key}` is an option of {' and '.join(owners)}, not of {name}; "
                f"{name}'s options are: {', '.join(GAMES[name].options)}"
            )
    return cast(CreateMatchIn, decode_strictly(body, struct))


class CreateMatchDTO(AbstractDTO[Any]):
    """The body of ``POST /matches``: decoded by :func:`decode_create_match`, and described
    in the OpenAPI document as a ``oneOf`` of the games' schemas with a discriminator on
    ``game``. It fills in only what a request body's DTO is asked for (decoding, the schema)
    and builds no transfer models."""

    @classmethod
    def generate_field_definitions(
        cls, model_type: type[Any]
    ) -> Generator[DTOFieldDefinition, None, None]:
        yield from ()

    @classmethod
    def detect_nested_field(cls, field_definition: FieldDefinition) -> bool:
        return False

    @classmethod
    def is_supported_model_type_field(cls, field_definition: FieldDefinition) -> bool:
        return False  # never a response's

    @classmethod
    def create_for_field_definition(
        cls, field_definition: FieldDefinition, handler_id: str, backend_cls: Any = None
    ) -> None:
        return None  # decoding needs no backend

    def decode_bytes(self, value: bytes) -> Any:
        try:
            return decode_create_match(value)
        except msgspec.DecodeError as exc:  # as Litestar's own decoding answers (400)
            raise SerializationException(str(exc)) from exc

    def decode_builtins(self, value: dict[str, Any]) -> Any:
        return decode_create_match(msgspec.json.encode(value))

    @classmethod
    def create_openapi_schema(
        cls, field_definition: FieldDefinition, handler_id: str, schema_creator: Any
    ) -> Reference | Schema:
        union = FieldDefinition.from_annotation(
            CreateMatchIn, kwarg_definition=field_definition.kwarg_definition
        )
        schema = schema_creator.for_field_definition(union)
        assert isinstance(schema, Schema)
        schema.discriminator = Discriminator(
            property_name="game",
            mapping={
                name: f"#/components/schemas/{struct.__name__}"
                for name, struct in CREATE_TYPES.items()
            },
        )
        return schema


@functools.cache  # per route handler: it is asked on every POST
def body_check(handler: HTTPRouteHandler) -> BodyCheck | None:
    """How a route's JSON body is checked strictly; None: the route reads no JSON struct."""
    dto = handler.resolve_data_dto()
    if dto is not None and issubclass(dto, CreateMatchDTO):
        return decode_create_match
    data = handler.parsed_fn_signature.parameters.get("data")
    struct = data.annotation if data is not None else None
    if isinstance(struct, type) and issubclass(struct, msgspec.Struct):
        body_struct: type[msgspec.Struct] = struct
        return lambda body: decode_strictly(body, body_struct)
    return None
