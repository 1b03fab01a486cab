// formulary.js in Node: the figures of docs/performance.md ("formulary.js"). Printed, not
// asserted: `node bench/runtime.mjs [export.json]` (default: .build/conformance/export.json,
// which `make conformance` writes; or `formulary export > export.json`).
import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Catalog, FieldEditor } from "../runtime/js/formulary.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const path = process.argv[2] || root + ".build/conformance/export.json";
const text = readFileSync(path, "utf8");
const builtins = JSON.stringify({ ...JSON.parse(text), types: JSON.parse(text).types.filter(t => t.source === "builtin"), forms: [] });

/** The median of `rounds` timings of `body` run `n` times, in nanoseconds per run. */
function median(rounds, n, body) {
  const times = [];
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) body(i);
    times.push(Number(process.hrtime.bigint() - start) / n);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}
const show = (what, ns) => console.log(`${what.padEnd(58)} ${ns >= 1e6 ? (ns / 1e6).toFixed(2) + " ms" : ns >= 1e3 ? (ns / 1e3).toFixed(2) + " µs" : ns.toFixed(0) + " ns"}`);

console.log(`formulary.js ${statSync(root + "runtime/js/formulary.js").size} bytes; node ${process.version}`);
show("Catalog.fromExport of the built-in types (JSON text)", median(15, 5, () => Catalog.fromExport(builtins, { today: "2026-11-29" })));
const catalog = Catalog.fromExport(builtins, { today: "2026-11-29" });
show("  … and compiling every built-in type", median(15, 3, () => {
  const c = Catalog.fromExport(builtins, { today: "2026-11-29" });
  for (const name of c.typeNames) { try { c.fieldType(name); } catch (error) { if (error.code !== "pattern-without-automaton") throw error; } }
}));
const cases = [["age", "36"], ["exp-date", "12/30"], ["phone", "(555) 123-4567"], ["decimal", "1234.5"], ["iso-date", "2024-02-29"],
               ["credit-card", "4111 1111 1111 1111"], ["email", "ada@example.com"], ["name", "Ada Lovelace"]]
  .filter(([name]) => { try { catalog.fieldType(name); return true; } catch { return false; } });
for (const [name, value] of cases) {
  const type = catalog.fieldType(name);
  show(`validate ${name} ${JSON.stringify(value)} (final)`, median(31, 20000, () => type.validate(value)));
  show(`validate ${name} ${JSON.stringify(value)} (live)`, median(31, 20000, () => type.validate(value, { stage: "live" })));
}
for (const [name, value] of cases) {
  const type = catalog.fieldType(name);
  const keys = [...value.replace(/[^0-9A-Za-z@.]/g, "")];
  show(`an edit: ${name}, typing ${JSON.stringify(keys.join(""))} key by key (per key)`, median(21, 200, () => {
    const editor = new FieldEditor(type);
    for (const key of keys) editor.insert(key);
  }) / keys.length);
}
const card = cases.find(([name]) => name === "phone") ? catalog.fieldType("phone") : null;
if (card) {
  show("an edit: phone, deleting backward from a full number (per key)", median(21, 200, () => {
    const editor = new FieldEditor(card, { text: "(555) 123-4567" });
    for (let k = 0; k < 10; k++) editor.deleteBackward();
  }) / 10);
}
