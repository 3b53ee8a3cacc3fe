"""The Cuccù match service: event store, command service, REST API and CLI."""
