// krypteach build-site: Python's memory after a lesson page's start, made ahead (issue 25).
// node snapshot.mjs PYODIDE_DIR SPEC_JSON
//   PYODIDE_DIR: the Pyodide the site ships (pyodide.mjs, pyodide.asm.wasm, python_stdlib.zip …)
//   SPEC_JSON:   {"pack": PACK, "out": FILE, "env": {...}, "roots": [...], "skip": [...], "unpack": JS,
//                 "warm": PYTHON}
// A first Pyodide unpacks PACK (build.py's write_pack: every wheel a page's kernel loads, in one
// file) and imports ROOTS (the kernel's module and what every lesson imports first), noting every
// module they import. A second Pyodide, started to be snapshotted, unpacks PACK and imports those
// modules, but none under the names in SKIP (they hold JavaScript objects, which a snapshot
// cannot), then writes its memory to FILE (pyodide.makeMemorySnapshot). A page started from FILE
// finds those modules imported: it still unpacks PACK (a snapshot holds memory, not files) and
// imports the kernel's own modules.
// Then it runs WARM (what a page's first cells do once per Python, each kept by a cache).
// Prints one JSON line: {"modules": N, "failed": [...], "warmed": true/false, "warm_error": "…" (when
// not warmed: the warm-up's error, whose last line build.py shows), "bytes": B}.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, specFile] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(specFile, "utf8"));
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pack = readFileSync(spec.pack);

// the page's own unpacking (build.py, UNPACK_JS), given in the spec
const unpackPack = new Function(spec.unpack + "\nreturn unpack;")();
function unpack(py, bytes) {
  unpackPack(py, bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), false);
}

const options = { indexURL: path.resolve(pyodideDir) + "/", env: spec.env || {}, stdout: () => {}, stderr: () => {} };
const first = await loadPyodide(options);
unpack(first, pack);
first.globals.set("ROOTS", first.toPy(spec.roots));
const found = first.runPython(`
import importlib, sys
_before = set(sys.modules)
for _name in ROOTS:
    try:
        importlib.import_module(_name)
    except BaseException:
        pass
sorted(set(sys.modules) - _before)
`).toJs();

const py = await loadPyodide({ ...options, _makeSnapshot: true });
unpack(py, pack);
const skip = new Set(spec.skip);
const wanted = found.filter((name) => !skip.has(name.split(".")[0]));
py.globals.set("WANTED", py.toPy(wanted));
const failed = py.runPython(`
import datetime, gc, importlib, os
os.environ["_"] = "./this.program"  # as in a browser, not this script's path on the building machine
_failed = []
for _name in WANTED:
    try:
        importlib.import_module(_name)
    except BaseException:
        _failed.append(_name)  # a module the kernel puts in place itself (its mocks)
# the kernel's jsonutil parses a date as it is imported: its regular expressions compiled here
datetime.datetime.strptime("2000-01-01T00:00:00.000000", "%Y-%m-%dT%H:%M:%S.%f")
del WANTED
_failed
`).toJs();
// what a page's first cells do once per Python (build.py, _WARM_PY), in a namespace of its own
let warmed = true;
let warmError = "";
try {
  py.globals.set("WARM", spec.warm || "");
  py.runPython("exec(WARM, {'__name__': '__krypteach_warm__'})");
} catch (err) {
  warmed = false;
  warmError = String(err && err.message || err).trim().split("\n").pop();
}
py.runPython("del WARM\nimport gc\ngc.collect()");
const snapshot = py.makeMemorySnapshot();
writeFileSync(spec.out, snapshot);
console.log(JSON.stringify({ modules: wanted.length - failed.length, failed, warmed, warm_error: warmError,
                              bytes: snapshot.length }));
