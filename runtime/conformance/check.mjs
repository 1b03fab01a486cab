// The conformance checks, shared by Node (runtime/js/test/conformance.test.mjs) and the
// browser page (runtime/conformance/browser/conformance.html): each takes formulary.js's
// exports and the generator's vectors (runtime/conformance/README.md) and answers how many
// cases ran and which disagreed with the Swift engine.

const MAX_FAILURES = 25;

/** A collector of cases and the first disagreements. */
export class Tally {
  constructor() { this.cases = 0; this.failed = 0; this.failures = []; }
  check(what, actual, expected, where) {
    this.cases++;
    const a = JSON.stringify(actual), e = JSON.stringify(expected);
    if (a === e) return true;
    this.failed++;
    if (this.failures.length < MAX_FAILURES) this.failures.push({ what, where, actual: a.slice(0, 800), expected: e.slice(0, 800) });
    return false;
  }
  error(what, where, error) {
    this.cases++;
    this.failed++;
    if (this.failures.length < MAX_FAILURES) this.failures.push({ what, where, error: String(error && error.stack || error).slice(0, 800) });
  }
}

export function result(r) {
  return { v: r.verdict, f: r.formatted, a: r.absent, x: r.violations.map(v => [v.rule, v.severity, v.message]), m: r.mask };
}

/** One catalog per "today" (and locale) of the vectors. */
export function catalogs(F, exportText) {
  const made = new Map();
  return (day, locale = null) => {
    const key = day + " " + locale;
    if (!made.has(key)) made.set(key, F.Catalog.fromExport(exportText, { today: day, locale: locale ?? undefined }));
    return made.get(key);
  };
}

export function checkValues(F, catalogOf, lines, tally) {
  for (const line of lines) {
    if (!line) continue;
    const c = JSON.parse(line);
    const where = `${c.t} ${JSON.stringify(c.v).slice(0, 120)} (today ${c.d})`;
    try {
      const type = catalogOf(c.d).fieldType(c.t);
      tally.check("final", result(type.validate(c.v)), c.F, where);
      tally.check("live", result(type.validate(c.v, { stage: "live" })), c.L, where);
      tally.check("format", type.format(c.v), c.f, where);
      tally.check("format live", type.format(c.v, { stage: "live" }), c.fl, where);
      tally.check("unformat", type.unformat(c.v), c.u, where);
      tally.check("length", type.length(c.v), c.n, where);
    } catch (error) { tally.error("value", where, error); }
  }
}

export function checkTypes(F, catalogOf, lines, tally) {
  for (const line of lines) {
    if (!line) continue;
    const c = JSON.parse(line);
    try {
      const type = catalogOf("2026-11-29").fieldType(c.t);
      const d = type.definition;
      tally.check("definition", [d.label, d.help, d.placeholder, d.keyboard, d.autocapitalize, d.autocomplete, d.secure, d.timing, d.decimalSeparator],
        [c.label, c.help, c.placeholder, c.keyboard, c.autocapitalize, c.autocomplete, c.secure, c.timing, c.decimal_separator], c.t);
      tally.check("arguments", Object.fromEntries(Object.entries(type.arguments).sort(([a], [b]) => a < b ? -1 : 1)), c.arguments, c.t);
      tally.check("length limit", type.lengthLimit, c.limit, c.t);
    } catch (error) { tally.error("type", c.t, error); }
  }
}

function expectedState(editor, outcome) {
  const e = {
    t: editor.text, a: editor.selectionStart, b: editor.selectionEnd, r: result(editor.result),
    vm: [editor.visibleMessage("typing"), editor.visibleMessage("leaving"), editor.visibleMessage("submitting")],
  };
  if (outcome) {
    e.k = outcome.accepted;
    e.ref = outcome.refusal ? [outcome.refusal.rule, outcome.refusal.severity, outcome.refusal.message] : null;
    e.or = result(outcome.result);
  }
  const counter = editor.counterText;
  if (counter !== null) e.n = counter;
  return e;
}

export function checkEdits(F, catalogOf, lines, tally) {
  for (const line of lines) {
    if (!line) continue;
    const c = JSON.parse(line);
    let where = `${c.t} (${c.p})`;
    try {
      const type = catalogOf("2026-11-29").fieldType(c.t);
      const options = { policy: c.p };
      if (c.tm) options.timing = c.tm;
      if (c.i) { options.text = c.i[0]; options.caret = c.i[1]; }
      const editor = new F.FieldEditor(type, options);
      const done = [];
      for (const step of c.s) {
        const [op, a, b, text] = step.o;
        let outcome = null;
        switch (op) {
          case "i": outcome = editor.insert(a); break;
          case "r": outcome = editor.replace(a, b, text); break;
          case "b": outcome = editor.deleteBackward(); break;
          case "d": outcome = editor.deleteForward(); break;
          case "s": outcome = editor.setText(a); break;
          case "c": editor.commit(); break;
          case "m": editor.moveCaret(a); break;
          case "l": editor.select(a, b); break;
          case "x": editor.externalError = a; break;
          default: throw new Error("unknown operation " + op);
        }
        done.push(JSON.stringify(step.o).slice(0, 80));
        where = `${c.t} (${c.p}${c.tm ? ", timing " + c.tm : ""}${c.i ? ", from " + JSON.stringify(c.i) : ""}) after ${done.join(" ")}`;
        if (!tally.check("edit", expectedState(editor, outcome), step.e, where)) break;
      }
    } catch (error) { tally.error("edit", where, error); }
  }
}

function formResult(r, keys) {
  const v = x => [x.field, x.rule, x.severity, x.message];
  const fields = {};
  for (const key of keys) if (r.fields[key]) fields[key] = result(r.fields[key]);
  return { v: r.verdict, fields, fv: r.formViolations.map(v), u: r.unknownFields, all: r.violations.map(v) };
}

export function checkForms(F, catalogOf, lines, tally) {
  for (const line of lines) {
    if (!line) continue;
    const c = JSON.parse(line);
    const where = `${c.f}${c.l ? ` (${c.l})` : ""} ${JSON.stringify(c.v).slice(0, 300)}`;
    try {
      const form = catalogOf("2026-11-29", c.l).form(c.f);
      tally.check("form final", formResult(form.judge(c.v), form.fieldKeys), c.F, where);
      tally.check("form live", formResult(form.judge(c.v, { stage: "live" }), form.fieldKeys), c.L, where);
    } catch (error) { tally.error("form", where, error); }
  }
}

/** The Unicode tables formulary.js embeds (read from its source) against the engine's. */
export function checkUnicode(source, unicode, tally) {
  const region = /\/\/ BEGIN UNICODE TABLES\n([\s\S]*?)\/\/ END UNICODE TABLES/.exec(source);
  if (!region) { tally.error("unicode", "formulary.js", "no BEGIN/END UNICODE TABLES markers"); return; }
  const tables = Function(region[1] + "\nreturn [CATEGORY_TABLES, TITLECASE];")();
  ["L", "M", "P", "Zs"].forEach((name, t) => {
    const numbers = [], ranges = [], table = tables[0][t];
    for (let k = 0, v = 0; k < table.length; k++) {
      const c = "ABCDEFGHIJKLMNOPQRSTUVWXYZ()*+-.".indexOf(table[k]);
      v = v * 32 + (c >= 0 ? c : "0123456789abcdefghijklmnopqrstuv".indexOf(table[k]));
      if (c < 0) { numbers.push(v); v = 0; }
    }
    for (let k = 0, end = -1; k + 1 < numbers.length; k += 2) {
      const start = end + numbers[k];
      end = start + numbers[k + 1];
      ranges.push([start, end]);
    }
    tally.check(`category ${name} (run: FormularyConformance --tables runtime/js/formulary.js)`, ranges, unicode.categories[name], "tables");
  });
  const title = [];
  for (const entry of tables[1].split(",")) {
    const [key, to] = entry.split(":"), [a, b = a] = key.split("-").map(h => parseInt(h, 16));
    for (let c = a; c <= b; c++) title.push([c, to ?? String.fromCodePoint(c)]);
  }
  tally.check("titlecase table (run: FormularyConformance --tables runtime/js/formulary.js)", title, unicode.titlecase, "tables");
  // What the runtime takes from the platform: upper- and lower-casing of every scalar.
  for (const [c, upper, lower] of unicode.cases) {
    const s = String.fromCodePoint(c);
    tally.check("toUpperCase", s.toUpperCase(), upper, "U+" + c.toString(16));
    tally.check("toLowerCase", s === "\u03A3" ? "σ" : s.toLowerCase(), lower, "U+" + c.toString(16));
  }
  const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  for (const [s, bounds] of unicode.graphemes) {
    const mine = [0];
    for (const part of segmenter.segment(s)) mine.push(part.index + part.segment.length);
    tally.check("graphemes", mine, bounds, JSON.stringify(s));
  }
}

export function summary(name, tally) {
  return `${name}: ${tally.cases - tally.failed} of ${tally.cases} agree` + (tally.failed ? `; first disagreements:\n${tally.failures.map(f => JSON.stringify(f)).join("\n")}` : "");
}
