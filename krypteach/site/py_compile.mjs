// krypteach build-site: compile the site's Python files ahead, in the site's own Pyodide (issue 25).
// node py_compile.mjs PYODIDE_DIR HOST_DIR JOBS_JSON
//   PYODIDE_DIR: the Pyodide the site ships (pyodide.mjs, pyodide.asm.wasm, python_stdlib.zip …)
//   HOST_DIR:    a folder that holds every file of the jobs (mounted in Pyodide at /host)
//   JOBS_JSON:   {"code": <pyc.py's text>, "jobs": [[src, dst, prefix, wheel, selective], ...],
//                 "trace": {"lock": LOCK, "packages": [...], "env": {...}, "first": [...], "walk": [...], "last": [...]}}
//                paths under HOST_DIR. With "trace", a second Pyodide loads the packages of LOCK (a lock
//                file under HOST_DIR) and imports what a lesson page imports at its start
//                (pyc.py's imported_files); a selective job then compiles those files only, and
//                leaves the others source. If the trace fails, every file is compiled (said on stderr).
// Prints one JSON line: [[compiled, kept], ...], a pair per job.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, hostDir, jobsFile] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/" });
py.FS.mkdir("/host");
py.FS.mount(py.FS.filesystems.NODEFS, { root: path.resolve(hostDir) }, "/host");
const spec = JSON.parse(readFileSync(jobsFile, "utf8"));
const scope = py.globals.get("dict")();
py.runPython(spec.code, { globals: scope });
const compileZip = scope.get("compile_zip");
let only = null;
if (spec.trace) {
  try {
    const t = spec.trace;
    const tpy = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/", env: t.env || {},
      lockFileURL: path.resolve(hostDir, t.lock), packages: t.packages, stdout: () => {}, stderr: () => {} });
    const tscope = tpy.globals.get("dict")();
    tpy.runPython(spec.code, { globals: tscope });
    const files = tscope.get("imported_files")(tpy.toPy(t.first), tpy.toPy(t.walk), tpy.toPy(t.last));
    only = files.toJs();
    files.destroy();
  } catch (err) {
    console.error("krypteach: no trace of a page's imports, every file compiled:", String(err).slice(0, 300));
    only = null;
  }
}
const onlyPy = only ? py.toPy(only) : undefined;  // (once, for every selective job)
const done = [];
for (const [src, dst, prefix, wheel, selective] of spec.jobs) {
  const counts = compileZip("/host/" + src, "/host/" + dst, prefix, wheel, selective ? onlyPy : undefined);
  done.push(counts.toJs());
  counts.destroy();
}
console.log(JSON.stringify(done));
