"""The URL Frontier API v2 as published by crawler-commons (``urlfrontier.proto``,
Apache-2.0, see ``LICENSE`` and ``ORIGIN.md`` beside it) and the Python modules
grpcio-tools generates from it (``urlfrontier_pb2``, ``urlfrontier_pb2_grpc``).
Generated, not edited: ``tests/test_service_proto.py`` regenerates them and checks
they match."""

__all__: list[str] = []
