"""The image as built, before it serves: its configuration is the Dockerfile's, its runtime
stage holds no compiler and no pip, and none of its layers holds what the build was lent (the
machine's CA bundle, mounted for the RUN steps only: deploy/image-test.sh) or a secret. A file
added in one layer and deleted in a later one still ships, so every layer is read, not the
final tree.
"""

from __future__ import annotations

import json
import os
import tarfile
from pathlib import Path

from tests.ops.deploy import dockerfile_exec

HOST_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
# Certificates this machine trusts beyond Debian's set (an intercepting proxy's, say).
LOCAL_CAS = Path("/usr/local/share/ca-certificates")
SECRET_NAMES = (".env", ".netrc", ".pypirc", ".git-credentials", "pip.conf", "id_rsa", "id_ed25519")
SECRET_WORDS = ("SECRET", "PASSWORD", "TOKEN", "PROXY")

COMPILERS = ("cc", "c++", "*gcc*", "*g++*", "clang*", "as", "ld", "ld.bfd", "ld.gold", "make")


def test_the_config_is_the_dockerfiles(podman):
    image = podman.inspect()
    config = image["Config"]
    assert config["User"] == "meja"
    assert config["Cmd"] == dockerfile_exec("CMD")
    # Kept because the build's format is docker's (OCI has no HEALTHCHECK).
    assert image["Healthcheck"]["Test"] == ["CMD", *dockerfile_exec("HEALTHCHECK")]
    assert "8000/tcp" in config["ExposedPorts"]
    names = [entry.split("=", 1)[0].upper() for entry in config["Env"]]
    assert not [n for n in names if any(word in n for word in SECRET_WORDS)], names


def test_the_runtime_stage_has_no_compiler_and_no_pip(podman):
    """Read in the image's tree, mounted (a container of it would cost a copy of it on vfs)."""
    env = dict(entry.split("=", 1) for entry in podman.inspect()["Config"]["Env"])
    done = podman("image", "mount", podman.image)
    assert done.returncode == 0, done.stderr
    root = Path(done.stdout.strip())
    try:
        bins = [root / d.lstrip("/") for d in env["PATH"].split(":")]
        tools = sorted(str(p) for d in bins for t in (*COMPILERS, "pip*") for p in d.glob(t))
        # Neither the venv's nor the base Python's, whose copies the runtime stage uninstalls.
        modules = sorted(
            str(p)
            for prefix in ("usr", "usr/local", "opt/venv")
            for p in root.glob(f"{prefix}/lib/python3*/*-packages/*")
            if p.name.split("-")[0] in ("pip", "setuptools", "wheel")
        )
    finally:
        podman("image", "unmount", podman.image)
    assert tools == [] and modules == []


def test_no_layer_holds_the_machines_ca_or_a_secret(podman, tmp_path):
    archive = tmp_path / "image.tar"
    done = podman("save", "--format", "docker-archive", "--output", str(archive), podman.image)
    assert done.returncode == 0, done.stderr
    bundle = HOST_BUNDLE.read_bytes()
    # A certificate's base64 lines are its own: any two of them found in a file means a copy.
    local_cas = [
        b"\n".join(pem.read_bytes().strip().splitlines()[2:4])
        for pem in sorted(LOCAL_CAS.glob("*.crt"))
    ]
    found = []
    with tarfile.open(archive) as outer:
        (manifest,) = json.load(outer.extractfile("manifest.json"))
        assert len(manifest["Layers"]) >= 2  # the base's, then the build's
        for layer in manifest["Layers"]:
            with tarfile.open(fileobj=outer.extractfile(layer), mode="r|") as files:
                for f in files:
                    name = os.path.normpath(f.name).lstrip("/")
                    if os.path.basename(name) in SECRET_NAMES:
                        found.append((layer, name))
                    if f.isfile() and f.size:
                        data = files.extractfile(f).read()
                        if data == bundle or any(ca in data for ca in local_cas):
                            found.append((layer, name))
    assert found == []
