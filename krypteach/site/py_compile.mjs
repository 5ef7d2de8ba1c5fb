// krypteach build-site: compile the site's Python files ahead, in the site's own Pyodide (issue 25).
// node py_compile.mjs PYODIDE_DIR HOST_DIR JOBS_JSON
//   PYODIDE_DIR: the Pyodide the site ships (pyodide.mjs, pyodide.asm.wasm, python_stdlib.zip …)
//   HOST_DIR:    a folder that holds every file of the jobs (mounted in Pyodide at /host)
//   JOBS_JSON:   {"code": <pyc.py's text>, "jobs": [[src, dst, prefix, wheel], ...]}, paths under HOST_DIR
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
const done = [];
for (const [src, dst, prefix, wheel] of spec.jobs) {
  const counts = compileZip("/host/" + src, "/host/" + dst, prefix, wheel);
  done.push(counts.toJs());
  counts.destroy();
}
console.log(JSON.stringify(done));
