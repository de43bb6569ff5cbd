"""``gammon serve --forwarded-allow-ips``: an entry uvicorn would keep as a name no client address
equals (a typo) is refused, quoted, instead of silently trusting no proxy."""

from __future__ import annotations

import argparse

import pytest

from gammon.cli.serve import add_serve_command
from gammon.i18n import use_language


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    add_serve_command(parser.add_subparsers())
    return parser


def _refusal(capsys: pytest.CaptureFixture[str], value: str) -> str:
    with pytest.raises(SystemExit):
        _parser().parse_args(["serve", "--forwarded-allow-ips", value])
    return capsys.readouterr().err


@pytest.mark.parametrize(("value", "shown"), [
    ("10.0.0.0/99,zz", "'10.0.0.0/99'"),
    ("10.0.0.5,zz", "'zz'"),
    ("proxy.example.org", "'proxy.example.org'"),
    ("10.0.0.5,", "''"),
    ("*,10.0.0.5", "'*'"),
])
def test_a_bad_proxy_entry_is_refused_and_quoted(capsys: pytest.CaptureFixture[str], value: str,
                                                 shown: str) -> None:
    err = _refusal(capsys, value)
    assert f"expected IP addresses or networks (comma-separated), or '*' alone, got {shown}" in err


def test_a_network_with_host_bits_is_refused_with_the_network_meant(
        capsys: pytest.CaptureFixture[str]) -> None:
    # uvicorn reads networks strictly: 10.0.0.1/8 would be a name, never matching 10.1.2.3
    assert "'10.0.0.1/8' has bits set past its prefix, so it is no network (did you mean 10.0.0.0/8?)" in (
        _refusal(capsys, "10.0.0.1/8"))


def test_a_long_bad_entry_is_cut(capsys: pytest.CaptureFixture[str]) -> None:
    err = _refusal(capsys, "x" * 5000)
    assert "xxx" in err and len(err) < 1000


def test_the_refusal_is_translated(capsys: pytest.CaptureFixture[str]) -> None:
    for lang, words in (("pl", "oczekiwano adresów IP"), ("cs", "očekávány adresy IP"),
                        ("sk", "očakávali sa adresy IP")):
        with use_language(lang):
            assert words in _refusal(capsys, "zz")


@pytest.mark.parametrize(("value", "kept"), [
    ("*", "*"),
    (" * ", "*"),
    ("10.0.0.5", "10.0.0.5"),
    ("10.0.0.5, ::1 ,10.0.0.0/8,fd00::/8", "10.0.0.5,::1,10.0.0.0/8,fd00::/8"),
])
def test_addresses_networks_and_a_lone_star_are_taken(value: str, kept: str) -> None:
    assert _parser().parse_args(["serve", "--forwarded-allow-ips", value]).forwarded_allow_ips == kept
