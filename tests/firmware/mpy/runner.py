"""Runs the firmware's portable test tables inside MicroPython and prints one verdict line.

Loaded by run.mjs into the WebAssembly interpreter's filesystem next to the firmware modules and
the tests/firmware/test_fw_*.py tables. The interpreter's CLI exits 0 even after an exception, so
the verdict is printed, never signalled: "FIRMWARE-TESTS OK <n>" when every module imported and
every test passed, "FIRMWARE-TESTS FAILED <failures> of <n>" otherwise. Every import and test
also prints one line (IMPORT ok/FAIL <module>, PASS/FAIL <module>.<test>) for the pytest side.
"""

import sys


def import_all(names):
    loaded = []
    failures = 0
    for name in names:
        try:
            loaded.append((name, __import__(name)))
            print("IMPORT ok", name)
        except Exception as e:  # noqa: BLE001 - report and carry on with the rest
            failures += 1
            print("IMPORT FAIL", name, repr(e))
            sys.print_exception(e)
    return loaded, failures


def run_tests(modules):
    passed = failures = 0
    for name, module in modules:
        for attr in sorted(dir(module)):
            if not attr.startswith("test_"):
                continue
            try:
                getattr(module, attr)()
                passed += 1
                print("PASS", name + "." + attr)
            except Exception as e:  # noqa: BLE001
                failures += 1
                print("FAIL", name + "." + attr, repr(e))
                sys.print_exception(e)
    return passed, failures


def main(firmware, tables):
    print("MicroPython", sys.implementation.version)
    _, import_failures = import_all(firmware)
    modules, table_failures = import_all(tables)
    passed, failures = run_tests(modules)
    failures += import_failures + table_failures
    total = passed + failures
    if failures:
        print("FIRMWARE-TESTS FAILED", failures, "of", total)
    else:
        print("FIRMWARE-TESTS OK", total)
