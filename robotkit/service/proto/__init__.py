"""The URL Frontier API v2 as published by crawler-commons (``urlfrontier.proto``,
Apache-2.0, see ``LICENSE`` and ``ORIGIN.md`` beside it) and the Python modules
grpcio-tools generates from it (``urlfrontier_pb2``, ``urlfrontier_pb2_grpc``).
Generated, not edited: ``tests/test_service_proto.py`` regenerates them and checks
they match. That is also why ``urlfrontier_pb2_grpc`` stays one long module (about
900 lines, a stub, a servicer method and a client call per RPC): split or annotated by
hand it would no longer be what the compiler makes of the proto, so the size caps of
``tests/test_imports.py`` leave the generated modules out."""

__all__: list[str] = []
