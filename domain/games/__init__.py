"""The games the service can host, one package each (Cuccù itself still lives in ``domain/``)."""
