"""The MicroPython the emulated Pico boots comes with the checkout (issue 29): a clone alone has
it, and a copy that is not the build BUILD.md names is refused with what to do."""

import hashlib

import pico


def test_the_checkout_carries_the_uf2_its_build_notes_name():
    assert pico.uf2_fault(pico.DEFAULT_UF2) is None
    notes = (pico.DEFAULT_UF2.parent / "BUILD.md").read_text()
    assert f"| `{pico.DEFAULT_UF2.name}` | 679,424" in notes
    assert f"`{hashlib.sha256(pico.DEFAULT_UF2.read_bytes()).hexdigest()}`" in notes
    for licence in ("micropython-LICENSE", "pico-sdk-LICENSE.TXT", "tinyusb-LICENSE", "mbedtls-LICENSE"):
        assert (pico.DEFAULT_UF2.parent / "licenses" / licence).is_file(), licence


def test_a_changed_copy_of_the_checkouts_uf2_is_refused_saying_how_to_restore_it(tmp_path, monkeypatch):
    changed = tmp_path / pico.DEFAULT_UF2.name
    changed.write_bytes(b"version https://git-lfs.github.com/spec/v1\n")  # what an LFS clone would hold
    monkeypatch.setattr(pico, "DEFAULT_UF2", changed)
    monkeypatch.setattr(pico, "ROOT", tmp_path)
    assert pico.uf2_fault(changed) == (f"{changed} is not the build firmware/micropython/BUILD.md names (sha256 "
                                       f"{pico.DEFAULT_UF2_SHA256[:12]}...): restore it with git checkout -- "
                                       f"{changed.name}")


def test_an_override_that_names_no_file_says_where_the_checkouts_own_is(tmp_path, monkeypatch):
    monkeypatch.setenv("PENTAGO_PICO_UF2", str(tmp_path / "none.uf2"))
    assert pico.missing() == (f"no MicroPython UF2 at {tmp_path / 'none.uf2'}: stock MicroPython v1.28.0 for the "
                              "Pico (RPI_PICO): the checkout's firmware/micropython/RPI_PICO-v1.28.0.uf2, or "
                              "PENTAGO_PICO_UF2 naming another")
