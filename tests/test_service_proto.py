"""The vendored URL Frontier proto and the stubs generated from it: the committed
modules are what grpcio-tools makes of the committed .proto today, so neither can
be edited without the other."""

from __future__ import annotations

import shutil
from pathlib import Path

from grpc_tools import protoc

import robotkit.service.proto as proto_package
from robotkit.service.proto import urlfrontier_pb2 as pb

PROTO_DIR = Path(proto_package.__file__).parent
GENERATED = ("urlfrontier_pb2.py", "urlfrontier_pb2.pyi", "urlfrontier_pb2_grpc.py")


def test_the_committed_stubs_match_the_proto(tmp_path: Path) -> None:
    target = tmp_path / "robotkit" / "service" / "proto"
    target.mkdir(parents=True)
    shutil.copy(PROTO_DIR / "urlfrontier.proto", target)
    argv = [
        "protoc",
        f"-I{tmp_path}",
        f"--python_out={tmp_path}",
        f"--pyi_out={tmp_path}",
        f"--grpc_python_out={tmp_path}",
        "robotkit/service/proto/urlfrontier.proto",
    ]
    assert protoc.main(argv) == 0
    for name in GENERATED:
        assert (target / name).read_text() == (PROTO_DIR / name).read_text(), name


def test_the_proto_is_the_url_frontier_api_with_its_licence() -> None:
    assert pb.DESCRIPTOR.package == "urlfrontier"
    service = pb.DESCRIPTOR.services_by_name["URLFrontier"]
    assert {"GetURLs", "PutURLs", "PutDiscovered", "ListNodes", "PurgeURLs"} <= set(
        service.methods_by_name
    )
    assert "Apache License" in (PROTO_DIR / "LICENSE").read_text()
    assert "69399d29458b05403c37cde6a5b43908e94f2b6c" in (PROTO_DIR / "ORIGIN.md").read_text()
