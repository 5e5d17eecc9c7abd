"""Deployment artifacts: a .vmfb plus its manifest (being written)."""


def check_manifest(path: str, vmfb: bytes) -> None:
    """Verifies ``vmfb`` against the manifest next to ``path``, if there is one."""
