// Runs the pentago-board firmware modules and their test tables inside real MicroPython
// (the WebAssembly port) under Node. Usage: node run.mjs [firmware_dir] [tables_dir]
// The verdict is the last line printed by runner.py; this script adds a line of its own only
// when the interpreter itself fails, and exits non-zero then.
import { readdirSync, readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = dirname(fileURLToPath(import.meta.url));
const firmwareDir = process.argv[2] ?? join(here, "..", "..", "..", "firmware");
const tablesDir = process.argv[3] ?? join(here, "..");

function pyFiles(dir, keep) {
  return readdirSync(dir).filter((f) => f.endsWith(".py") && keep(f)).sort();
}

const firmware = pyFiles(firmwareDir, (f) => f !== "__init__.py");
const tables = pyFiles(tablesDir, (f) => f.startsWith("test_fw_"));
// The `machine` stand-in hal.py imports (this port has no machine module of its own).
const shimDir = join(here, "..", "shim");
const shims = pyFiles(shimDir, () => true);

const mp = await loadMicroPython({
  heapsize: 16 * 1024 * 1024,
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});
mp.FS.mkdir("/fw");
for (const [dir, names] of [[shimDir, shims], [firmwareDir, firmware], [tablesDir, tables]]) {
  for (const name of names) mp.FS.writeFile("/fw/" + name, readFileSync(join(dir, name)));
}
mp.FS.writeFile("/fw/runner.py", readFileSync(join(here, "runner.py")));
// Also the data files the firmware reads (the shared vectors), so tables can check bytes.
for (const name of readdirSync(firmwareDir).filter((f) => f.endsWith(".json"))) {
  mp.FS.writeFile("/fw/" + name, readFileSync(join(firmwareDir, name)));
}

const names = (files) => "[" + files.map((f) => JSON.stringify(f.slice(0, -3))).join(", ") + "]";
try {
  mp.runPython(
    "import sys, os\nos.chdir('/fw')\nsys.path.insert(0, '/fw')\nimport runner\n" +
      `runner.main(${names(firmware)}, ${names(tables)})\n`,
  );
} catch (error) {
  console.log("FIRMWARE-TESTS CRASHED " + String(error).split("\n").slice(-1)[0]);
  process.exit(1);
}
