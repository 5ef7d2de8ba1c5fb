// Pyodide memory snapshots, measured in Node.js against a built site (issue 25's next step).
//
//   node benchmarks/site_snapshot.mjs SITE plain      # start Python, unpack the wheels, import
//   node benchmarks/site_snapshot.mjs SITE make FILE  # the same, then write a memory snapshot to FILE
//   node benchmarks/site_snapshot.mjs SITE load FILE  # start from FILE, unpack the wheels, import again
//
// SITE is a folder `krypteach build-site` wrote. Each mode prints one line of milliseconds:
// Python's start ("core"), the wheels unpacked into site-packages ("unpack") and the imports a
// lesson page's first cells make ("imports": IPython's shell, ipywidgets, comm, krypteach.widgets).
// A snapshot holds Python's memory, not the files: the wheels are unpacked again after a load,
// and the imports then find their modules already in sys.modules.
// A snapshot can only be taken while Python holds no JavaScript object, so micropip (which
// imports `js`) and the kernel's own modules are not imported here; the page's kernel would
// still import them after a load.
import path from "node:path";
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [site, mode, file] = process.argv.slice(2);
if (!site || !["plain", "make", "load"].includes(mode) || (mode !== "plain" && !file)) {
  console.error("usage: node site_snapshot.mjs SITE plain|make FILE|load FILE");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(path.join(site, "static/pyodide/pyodide.mjs")).href);
const lock = JSON.parse(readFileSync(path.join(site, "static/krypteach/pyodide-lock.json"), "utf8"));
const wanted = ["krypteach", "comm", "ipython", "ipywidgets", "anywidget", "ipykernel", "pyodide-kernel", "piplite"];
const names = new Set();
for (const stack = [...wanted]; stack.length;) {
  const name = stack.pop();
  if (names.has(name) || !lock.packages[name]) continue;
  names.add(name);
  stack.push(...(lock.packages[name].depends || []));
}
const wheels = [...names].map((n) => lock.packages[n].file_name);
const IMPORTS = `
import IPython, comm, ipywidgets
from IPython.core.interactiveshell import InteractiveShell
import krypteach.widgets
from krypteach.widgets import LearnerBar, PuzzleTrainer, PracticeTrainer
`;
// the kernel's own environment, as the build wrote it for every page (krypteach/site/build.py, _ENV)
const env = JSON.parse(readFileSync(path.join(site, "jupyter-lite.json"), "utf8"))["jupyter-config-data"]
  .litePluginSettings["@jupyterlite/pyodide-kernel-extension:kernel"].loadPyodideOptions.env;
const t0 = performance.now();
const options = { indexURL: path.resolve(site, "static/pyodide") + "/", env,
  stdout: () => {} };
if (mode === "make") options._makeSnapshot = true;
if (mode === "load") options._loadSnapshot = readFileSync(file);
const py = await loadPyodide(options);
const t1 = performance.now();
py.FS.mkdir("/site");
py.FS.mount(py.FS.filesystems.NODEFS, { root: path.resolve(site, "static/krypteach") }, "/site");
py.globals.set("WHEELS", py.toPy(wheels));
py.runPython(`
import importlib, site, zipfile
for name in WHEELS:
    zipfile.ZipFile("/site/" + name).extractall(site.getsitepackages()[0])
importlib.invalidate_caches()
`);
py.globals.delete("WHEELS");
const t2 = performance.now();
py.runPython(IMPORTS);
const t3 = performance.now();
py.FS.unmount("/site");
let note = "";
if (mode === "make") {
  const snapshot = py.makeMemorySnapshot();
  writeFileSync(file, snapshot);
  note = `, snapshot ${(snapshot.length / 1e6).toFixed(1)} MB`;
}
console.log(`${mode}: core ${(t1 - t0).toFixed(0)} ms, unpack ${(t2 - t1).toFixed(0)} ms, imports ${(t3 - t2).toFixed(0)} ms, `
  + `all ${(t3 - t0).toFixed(0)} ms${note}`);
