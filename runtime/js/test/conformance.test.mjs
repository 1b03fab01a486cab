// The conformance vectors written from the Swift engine (runtime/conformance/README.md), run
// in Node: every case must agree. `make conformance` writes them into .build/conformance
// (or FORMULARY_CONFORMANCE names the folder) and runs this file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as F from "../formulary.js";
import { Tally, catalogs, checkValues, checkTypes, checkEdits, checkForms, checkUnicode, summary } from "../../conformance/check.mjs";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const folder = process.env.FORMULARY_CONFORMANCE || root + ".build/conformance";
const read = name => readFileSync(`${folder}/${name}`, "utf8");

test("the conformance vectors are there", () => {
  assert.ok(existsSync(`${folder}/summary.json`),
    `no vectors in ${folder}: run 'make conformance' (or FormularyConformance --out DIR and FORMULARY_CONFORMANCE=DIR)`);
});

const present = existsSync(`${folder}/summary.json`);
const catalogOf = present ? catalogs(F, read("export.json")) : null;

for (const [name, file, check] of [["values", "values.jsonl", checkValues], ["types", "types.jsonl", checkTypes],
                                   ["edits", "edits.jsonl", checkEdits], ["forms", "forms.jsonl", checkForms]]) {
  test(`${name} agree with the Swift engine`, { skip: !present }, () => {
    const tally = new Tally();
    check(F, catalogOf, read(file).split("\n"), tally);
    console.log(summary(name, tally));
    assert.ok(tally.cases > 0, `no ${name} cases`);
    assert.equal(tally.failed, 0, summary(name, tally));
  });
}

test("the Unicode tables, case mappings and grapheme breaks agree with the Swift engine", { skip: !present }, () => {
  const tally = new Tally();
  checkUnicode(readFileSync(new URL("../formulary.js", import.meta.url), "utf8"), JSON.parse(read("unicode.json")), tally);
  console.log(summary("unicode", tally));
  assert.equal(tally.failed, 0, summary("unicode", tally));
});
