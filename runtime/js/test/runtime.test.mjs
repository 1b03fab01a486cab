// Unit tests of formulary.js on hand-written exports: the unhappy paths (versions, broken
// documents and automata, unknown names, bad arguments), the automaton executor, exact
// decimals on huge values, UTF-16 positions around surrogate pairs and emoji, secure
// values, and `attach` on a stand-in input. What the Swift engine gives for the built-in
// and generated types is checked by conformance.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Catalog, FieldEditor, FormularyError, attach, EXPORT_VERSIONS } from "../formulary.js";

const check = (rule, kind, args, extra = {}) => ({ rule, kind, arguments: args, severity: "error", final_only: false, message: null, ...extra });
const type = (name, fields = {}) => ({
  name, version: "0".repeat(64), source: "builtin", extends: [], label: null, help: null, placeholder: null, keyboard: null,
  autocapitalize: null, autocomplete: null, secure: false, timing: "leaving", parameters: [], normalize: [], mask: null, masks: [],
  checks: [], examples: [], ...fields,
});
const mask = (pattern, extra = {}) => ({ pattern: pattern.replace(/\{\d+-(\d+)\}/g, (_, h) => "0".repeat(h.length)), typing_pattern: pattern,
  checks_fill: true, rule: "mask", severity: "error", final_only: false, message: null, when: null, ...extra });
const range = (lower, upper, lowerExclusive = false, upperInclusive = true) => ({ lower, lower_exclusive: lowerExclusive, upper, upper_inclusive: upperInclusive });
/** A dfa of `[0-9]{3}` (states 0..3, 3 accepting). */
const threeDigits = { kind: "dfa", start: [0], accepting: [3], universal: [], transitions: [[[48, 57, 1]], [[48, 57, 2]], [[48, 57, 3]], []] };
/** A dfa of `a.*` (any continuation of `a` matches: state 1 is universal). */
const aAnything = { kind: "dfa", start: [0], accepting: [1], universal: [1], transitions: [[[97, 97, 1]], [[0, 0xD7FF, 1], [0xE000, 0x10FFFF, 1]]] };
/** An nfa of `(x|xy)z`: two paths from the start. */
const nfa = { kind: "nfa", start: [0], accepting: [3], universal: [], transitions: [[[120, 120, 1], [120, 120, 2]], [[122, 122, 3]], [[121, 121, 1]], []] };

const doc = (types, forms = []) => ({ formulary_export_version: 2, types, forms, unavailable: [] });
const catalog = Catalog.fromExport(doc([
  type("code", { checks: [check("pattern", "pattern", { regex: "[0-9]{3}", flags: "", negate: false, automaton: threeDigits })] }),
  type("not-a", { checks: [check("no-a", "pattern", { regex: "a.*", flags: "", negate: true, automaton: aAnything })] }),
  type("xz", { checks: [check("pattern", "pattern", { regex: "(x|xy)z", flags: "", negate: false, automaton: nfa })] }),
  type("amount", { normalize: [{ step: "trim" }], parameters: [{ name: "max", kind: "decimal", default: 1.5, default_text: "1.50" }],
                   checks: [check("decimal", "decimal", { places: null }), check("range", "range", { range: range("-0.5", { parameter: "max" }) }, { message: "At most {max}, not {value}" })] }),
  type("month", { label: "Month", normalize: [{ step: "strip-spaces" }], masks: [mask("{01-12}/00")], mask: mask("{01-12}/00"),
                  checks: [check("date", "date", { format: "MM/yy", range: range("today-12y", "today+12y") })] }),
  type("pin", { secure: true, checks: [check("length", "length", { range: range(4, 6), unit: "graphemes" }, { message: "{value} has {min} to {max} digits" })] }),
  type("words", { normalize: [{ step: "trim" }, { step: "collapse-spaces" }], checks: [check("length", "length", { range: range(null, 5), unit: "graphemes" })] }),
  type("brand", { masks: [mask("0000 000000 00000", { when: { pattern: "3[47].*", flags: "", automaton: {
    kind: "dfa", start: [0], accepting: [2], universal: [2], transitions: [[[51, 51, 1]], [[52, 52, 2], [55, 55, 2]], [[0, 0x10FFFF, 2]]] } } }), mask("0000 0000 0000 0000")] }),
], [{ name: "pair", version: "1".repeat(64), source: "builtin", label: null, fields: [
  { key: "a", type: "amount", arguments: {}, type_reference: "amount", argument_list: [], required: true, label: null, secure: false, autocomplete: null, timing: null },
  { key: "b", type: "amount", arguments: { max: 9 }, type_reference: "amount(max: 9)", argument_list: [{ name: "max", kind: "decimal", text: "9" }], required: false, label: null, secure: false, autocomplete: null, timing: null },
], rules: [{ rule: "compare", kind: "compare", fields: ["a", "b"], when: null, operator: "<", severity: "error", final_only: false, message: null }] }]), { today: "2026-11-29" });

const code = (f, ...args) => { try { f(...args); } catch (error) { assert.ok(error instanceof FormularyError, String(error)); return error.code; } assert.fail("no FormularyError"); };

test("an export of a version this runtime does not know is refused, with what to do", () => {
  assert.deepEqual([...EXPORT_VERSIONS], [1, 2]);
  for (const version of [0, 3, "2", null, undefined]) {
    const error = (() => { try { Catalog.fromExport({ formulary_export_version: version, types: [] }); } catch (e) { return e; } })();
    assert.ok(error instanceof FormularyError);
    assert.equal(error.code, "export-version");
    assert.match(error.message, /reads export versions 1 and 2/);
  }
  assert.equal(code(Catalog.fromExport, "{not json"), "bad-export");
  assert.equal(code(Catalog.fromExport, "[]"), "bad-export");
  assert.equal(code(Catalog.fromExport, { formulary_export_version: 2 }), "bad-export");
  assert.equal(code(Catalog.fromExport, doc([]), { today: "2026-02-30" }), "bad-today");
  assert.equal(Catalog.fromExport(JSON.stringify(doc([])), { today: "2024-02-29" }).today, "2024-02-29");
});

test("unknown types and forms, bad references and arguments are FormularyErrors that say what to do", () => {
  const error = (() => { try { catalog.fieldType("amuont"); } catch (e) { return e; } })();
  assert.equal(error.code, "unknown-type");
  assert.match(error.message, /unknown type 'amuont'; did you mean 'amount'\?/);
  assert.equal(code(() => catalog.form("piar")), "unknown-form");
  assert.equal(code(() => catalog.form("pair").fieldType("c")), "undeclared-field");
  for (const bad of ["", "amount(", "amount(max 1)", "amount(max: )", "amount(max: 1e5)", "amount) x", "amount(max: \"x)"]) {
    assert.equal(code(() => catalog.fieldType(bad)), "bad-reference", bad);
  }
  assert.match(code(() => catalog.fieldType("amount(mx: 2)")) && (() => { try { catalog.fieldType("amount(mx: 2)"); } catch (e) { return e.message; } })(), /no parameter 'mx'; did you mean 'max'/);
  assert.equal(code(() => catalog.fieldType("amount(max: \"two\")")), "bad-arguments");
  assert.equal(code(() => catalog.fieldType("amount(max: 1, max: 2)")), "bad-arguments");
  // Arguments that make a check impossible: the compiler's diagnostic.
  assert.equal(code(() => catalog.fieldType("amount(max: -1)")), "empty-range");
  assert.equal(catalog.fieldType("amount(max: 2)").arguments.max, "2");
});

test("a broken automaton is refused when its type is compiled, saying where", () => {
  const broken = [
    null, { kind: "regex", start: [0], accepting: [], transitions: [[]] }, { kind: "dfa", start: [0, 1], accepting: [], transitions: [[], []] },
    { kind: "dfa", start: [5], accepting: [], transitions: [[]] }, { kind: "dfa", start: [0], accepting: [], transitions: [[[57, 48, 0]]] },
    { kind: "dfa", start: [0], accepting: [], transitions: [[[50, 60, 0], [55, 70, 0]]] }, { kind: "nfa", start: [0], accepting: [0], transitions: [[[0, 0x110000, 0]]] },
    { kind: "dfa", start: [0], accepting: [], transitions: [[[48, 57]]] }, { kind: "dfa", start: [0], accepting: [1], transitions: [[]] },
    { kind: "dfa", start: "0", accepting: [], transitions: [] },
  ];
  for (const automaton of broken) {
    const c = Catalog.fromExport(doc([type("x", { checks: [check("pattern", "pattern", { regex: "?", flags: "", negate: false, automaton })] })]));
    const error = (() => { try { c.fieldType("x"); } catch (e) { return e; } })();
    assert.equal(error?.code, "broken-automaton", JSON.stringify(automaton));
    assert.match(error.message, /type 'x''s rule 'pattern' is broken/);
  }
  // An export of version 1 has no automata: types with patterns are not usable, others are.
  const v1 = Catalog.fromExport({ formulary_export_version: 1, types: [type("p", { checks: [check("pattern", "pattern", { regex: "a", flags: "", syntax: "pcre2", anchored: true })] }), type("q")] });
  assert.equal(code(() => v1.fieldType("p")), "pattern-without-automaton");
  assert.equal(v1.fieldType("q").validate("anything").verdict, "valid");
});

test("the automaton executor: whole-value matches, live prefixes, `pattern not` and nfas", () => {
  const codeType = catalog.fieldType("code");
  assert.deepEqual(["123", "12", "1234", "12a", ""].map(v => codeType.validate(v).verdict), ["valid", "invalid", "invalid", "invalid", "valid"]);
  assert.deepEqual(["12", "1234", "1a", "1\n"].map(v => codeType.validate(v, { stage: "live" }).verdict), ["incomplete", "invalid", "invalid", "invalid"]);
  assert.equal(codeType.validate("12").message, "Is not in the expected format");
  const notA = catalog.fieldType("not-a");
  assert.deepEqual(["b", "ab", "a"].map(v => notA.validate(v).verdict), ["valid", "invalid", "invalid"]);
  // Live, `pattern not` fails only once every continuation matches (a dfa's universal state).
  assert.deepEqual(["b", "a", "ax😀"].map(v => notA.validate(v, { stage: "live" }).verdict), ["valid", "invalid", "invalid"]);
  const xz = catalog.fieldType("xz");
  assert.deepEqual(["xz", "xyz", "xy", "xx"].map(v => xz.validate(v).verdict), ["valid", "valid", "invalid", "invalid"]);
  assert.deepEqual(["x", "xy", "xx"].map(v => xz.validate(v, { stage: "live" }).verdict), ["incomplete", "incomplete", "invalid"]);
});

test("a value normalization empties meets the automaton's start: live it fails only if nothing can match", () => {
  const nothing = { kind: "dfa", start: [], accepting: [], universal: [], transitions: [] };
  const everything = { kind: "dfa", start: [0], accepting: [0], universal: [0], transitions: [[[0, 0xD7FF, 0], [0xE000, 0x10FFFF, 0]]] };
  const c = Catalog.fromExport(doc([
    type("digits", { normalize: [{ step: "strip", characters: "-" }], checks: [check("pattern", "pattern", { regex: "[0-9]{3}", flags: "", negate: false, automaton: threeDigits })] }),
    type("never", { normalize: [{ step: "strip", characters: "-" }], checks: [check("pattern", "pattern", { regex: "[^\\s\\S]", flags: "", negate: false, automaton: nothing })] }),
    type("not-all", { normalize: [{ step: "strip", characters: "-" }], checks: [check("pattern", "pattern", { regex: ".*", flags: "", negate: true, automaton: everything })] }),
  ]));
  assert.deepEqual(["digits", "never", "not-all"].map(t => c.fieldType(t).validate("--", { stage: "live" }).verdict), ["incomplete", "invalid", "invalid"]);
  assert.deepEqual(["digits", "never", "not-all"].map(t => c.fieldType(t).validate("--").verdict), ["invalid", "invalid", "invalid"]);
  assert.equal(c.fieldType("never").validate("--", { stage: "live" }).formatted, "");
});

test("masks chosen by an automaton over the slot characters", () => {
  const brand = catalog.fieldType("brand");
  assert.equal(brand.format("378282246310005"), "3782 822463 10005");
  assert.equal(brand.format("4111111111111111"), "4111 1111 1111 1111");
  // Live, a prefix of a match chooses already; no slot characters yet takes the first mask.
  assert.equal(brand.format("3", { stage: "live" }), "3");
  assert.equal(brand.format("34", { stage: "live" }), "34");
  assert.equal(brand.format("3", { stage: "final" }), "3");
  const editor = new FieldEditor(brand);
  for (const key of "3782822463") editor.insert(key);
  assert.equal(editor.text, "3782 822463");
});

test("mask-one-of, checks kept by `if`, and the name of the mask a result reports", () => {
  const four = { kind: "dfa", start: [0], accepting: [1], universal: [1], transitions: [[[52, 52, 1]], [[0, 0xD7FF, 1], [0xE000, 0x10FFFF, 1]]] };
  const other = mask("000 000", { rule: "other" }), string = (name, value) => ({ name, kind: "string", default: value, default_text: value });
  const c = Catalog.fromExport(doc([
    type("card", { parameters: [string("brands", "four"), string("region", "")], normalize: [{ step: "strip-spaces" }],
      masks: [mask("0000 0000", { rule: "four", when: { pattern: "4.*", flags: "", automaton: four } }), other], mask: other,
      checks: [check("brand", "mask-one-of", { masks: { parameter: "brands" } }, { if: null }),
               check("long", "length", { range: range(7, 9), unit: "graphemes" }, { if: { parameter: "region", equals: "L" } })] }),
    type("plain", { masks: [mask("00-00")], mask: mask("00-00"), checks: [check("mask-one-of", "mask-one-of", { masks: ["mask"] })] }),
    type("pin", { secure: true, masks: [mask("0000", { rule: "pin" })], mask: mask("0000", { rule: "pin" }) }),
  ]), { today: "2026-11-29" });
  const card = c.fieldType("card");
  // The chosen mask is named in the result; a mask that is not one of $brands fails `brand` (the default message).
  assert.deepEqual([card.validate("41111111").verdict, card.validate("41111111").mask], ["valid", "four"]);
  assert.deepEqual(card.validate("123456").violations, [{ rule: "brand", severity: "error", message: "Must be formatted as one of: four" }]);
  assert.equal(card.validate("123456").mask, "other");
  assert.equal(c.fieldType('card(brands: "four  other")').validate("123456").verdict, "valid");
  // Live: passes while a named mask can still be chosen (no slot characters yet, or its `when` is alive).
  assert.deepEqual(["4", "1"].map(v => card.validate(v, { stage: "live" }).verdict), ["incomplete", "invalid"]);
  assert.deepEqual(card.validate("-", { stage: "live" }).violations.map(v => v.rule), ["four"]);   // the (first) mask's own check only
  // `if $region = "L"` keeps `long` only for that argument; other values are not the type's.
  assert.deepEqual(card.validate("4111").violations.map(v => v.rule), ["four"]);
  assert.deepEqual(c.fieldType('card(region: "L")').validate("4111").violations.map(v => v.rule), ["four", "long"]);
  const message = reference => { try { c.fieldType(reference); } catch (e) { return `${e.code}: ${e.message}`; } };
  assert.match(message('card(region: "l")'), /^bad-arguments: .*takes one of "", "L"; found the string "l"; did you mean "L"\?/);
  assert.match(message('card(brands: "fuor")'), /takes names from "four", "other", separated by spaces; found "fuor"; did you mean "four"\?/);
  assert.match(message('card(brands: " ")'), /found no name$/);
  // An unnamed mask (`mask`) and a secure type's masks are never reported.
  assert.deepEqual([c.fieldType("plain").validate("12-34").mask, c.fieldType("plain").validate("12-34").verdict], [null, "valid"]);
  assert.equal(c.fieldType("pin").validate("1234").mask, null);
  // The editor refuses a key no named mask can take, and its result (an external error too) names the mask.
  const editor = new FieldEditor(card);
  assert.deepEqual([editor.insert("1").accepted, editor.insert("1").refusal.rule], [false, "brand"]);
  assert.equal(editor.insert("4").result.mask, "four");
  editor.externalError = "Card declined";
  assert.deepEqual([editor.result.verdict, editor.result.mask], ["invalid", "four"]);
});

test("exact decimals: a parameter's text as written, bounds compared exactly, a megabyte of digits in linear time", () => {
  const amount = catalog.fieldType("amount");
  assert.equal(amount.validate("1.51").message, "At most 1.50, not 1.51");
  assert.equal(amount.validate("1.5000000000000000000001").verdict, "invalid");
  assert.equal(amount.validate("1.50000000000000000000").verdict, "valid");
  assert.equal(amount.validate("-0.5").verdict, "valid");
  assert.equal(amount.validate("0.1", { stage: "live" }).verdict, "valid");
  assert.equal(amount.validate("-0.6", { stage: "live" }).verdict, "invalid");
  assert.equal(amount.validate("-0.", { stage: "live" }).verdict, "incomplete");
  const huge = "1" + "0".repeat(1_000_000);
  const started = Date.now();
  assert.equal(amount.validate(huge).verdict, "invalid");
  assert.equal(amount.validate("0." + "0".repeat(1_000_000) + "1", { stage: "live" }).verdict, "valid");
  assert.ok(Date.now() - started < 5000, "a megabyte of digits took " + (Date.now() - started) + " ms");
  assert.equal(catalog.fieldType("amount(max: 1e0)".replace("1e0", "10.250")).validate("10.3").message, "At most 10.250, not 10.3");
});

test("civil dates without time zones: today's window, leap days, number groups padding the month", () => {
  const month = catalog.fieldType("month");
  assert.equal(month.validate("02/30").verdict, "valid");
  assert.equal(month.validate("13/30").verdict, "invalid");
  assert.equal(month.validate("1", { stage: "live" }).verdict, "incomplete");
  assert.equal(month.validate("1/30").violations.map(v => v.rule).join(), "mask,date");
  const editor = new FieldEditor(month);
  editor.insert("2");
  assert.deepEqual([editor.text, editor.caret], ["02/", 3]);
  editor.insert("/");
  editor.insert("3");
  assert.deepEqual([editor.text, editor.caret], ["02/3", 4]);
  const refused = new FieldEditor(month);
  const out = refused.insert("x");
  assert.deepEqual([out.accepted, out.refusal.message, refused.text], [false, "Month takes digits only", ""]);
  const leap = Catalog.fromExport(catalog.document, { today: "2024-02-29" }).fieldType("month");
  assert.equal(leap.validate("02/12").verdict, "valid");
  assert.equal(leap.validate("01/12").verdict, "invalid");
});

test("UTF-16 positions: never inside a surrogate pair or an emoji's cluster", () => {
  const words = catalog.fieldType("words");
  const family = "👨‍👩‍👧";   // one grapheme, 8 UTF-16 units
  const editor = new FieldEditor(words, { policy: "accept-all" });
  editor.insert("a" + family + "b");
  assert.equal(editor.text, "a" + family + "b");
  assert.equal(editor.caret, 10);
  editor.moveCaret(3);                       // inside the family: rounded to its start
  assert.equal(editor.caret, 1);
  editor.select(2, 5);                       // inside: widened to the whole cluster
  assert.deepEqual([editor.selectionStart, editor.selectionEnd], [1, 9]);
  editor.insert("x");
  assert.deepEqual([editor.text, editor.caret], ["axb", 2]);
  editor.setText("🇳🇿🇳🇿");
  editor.moveCaret(2);                       // between the two halves of a flag
  assert.equal(editor.caret, 0);
  editor.moveCaret(5);
  assert.equal(editor.caret, 4);
  editor.deleteBackward();
  assert.deepEqual([editor.text, editor.caret], ["🇳🇿", 0]);
  // Lone surrogates are replaced as Swift replaces them: U+FFFD.
  assert.equal(words.validate("a\uD800b").formatted, "a\uFFFDb");
  assert.equal(words.validate("\uDC00").formatted, "\uFFFD");
  // Length counts graphemes: the family is one character.
  assert.equal(words.validate(family.repeat(5)).verdict, "valid");
  assert.equal(words.validate(family.repeat(6)).message, "Must be at most 5 characters long");
});

test("white space typed at the end is kept while typing, and dropped on commit", () => {
  const editor = new FieldEditor(catalog.fieldType("words"));
  for (const key of "ab ") editor.insert(key);
  assert.equal(editor.text, "ab ");
  editor.insert("c");
  assert.equal(editor.text, "ab c");
  editor.insert(" ");
  editor.commit();
  assert.equal(editor.text, "ab c");
});

test("a secure type's value is never in a message", () => {
  const pin = catalog.fieldType("pin");
  assert.equal(pin.validate("123").message, "••• has 4 to 6 digits");
  assert.equal(pin.validate("123").formatted, "123", "the formatted value stays in the page, for the field");
  assert.equal(pin.definition.secure, true);
});

test("forms: compare reads numbers exactly, arguments keep their text, required and unknown keys", () => {
  const form = catalog.form("pair");
  assert.deepEqual(form.fieldKeys, ["a", "b"]);
  assert.deepEqual(form.fields.map(f => [f.key, f.typeName, f.required, f.timing, f.type.name]), [["a", "amount", true, null, "amount"], ["b", "amount", false, null, "amount"]]);
  assert.equal(form.fieldType("b").arguments.max, "9");
  const r = form.judge({ a: "1.5", b: "1.50", c: "x" });
  assert.equal(r.verdict, "invalid");
  assert.deepEqual(r.formViolations.map(v => [v.field, v.rule, v.message]), [["b", "compare", "'a' must be less than 'b'"], ["c", "unknown-field", "'c' is not a field of form 'pair'"]]);
  assert.deepEqual(r.unknownFields, ["c"]);
  // An export without `required_message` (older) gets the engine's default.
  assert.deepEqual(form.judge({ b: "1" }).fields.a.violations[0], { rule: "required", severity: "error", message: "'a' is required" });
  assert.equal(form.judge({ b: "1" }, { stage: "live" }).verdict, "incomplete");
  assert.equal(form.judge({ a: "0", b: "1" }).verdict, "valid");
});

/** A stand-in for an <input> with the events attach listens to. */
class FakeInput {
  constructor() {
    this.value = ""; this.selectionStart = 0; this.selectionEnd = 0; this.attributes = {}; this.listeners = {}; this.form = null;
    this.ownerDocument = { activeElement: this };
  }
  getAttribute(name) { return this.attributes[name] ?? null; }
  setAttribute(name, value) { this.attributes[name] = String(value); }
  removeAttribute(name) { delete this.attributes[name]; }
  setSelectionRange(a, b) { this.selectionStart = a; this.selectionEnd = b; }
  addEventListener(name, f) { (this.listeners[name] ||= []).push(f); }
  removeEventListener(name, f) { this.listeners[name] = (this.listeners[name] || []).filter(g => g !== f); }
  dispatchEvent(event) { for (const f of this.listeners[event.type] || []) f(event); }
  fire(type, fields = {}) {
    let prevented = false;
    const event = { type, inputType: "", data: null, isComposing: false, preventDefault() { prevented = true; }, ...fields };
    this.dispatchEvent(event);
    return prevented;
  }
  type(text) { this.fire("beforeinput", { inputType: "insertText", data: text }); }
}

test("attach: edits through beforeinput, the field's attributes, a polite message written only on change", () => {
  const input = new FakeInput(), message = { id: "", textContent: "", attributes: {}, setAttribute(n, v) { this.attributes[n] = v; }, removeAttribute(n) { delete this.attributes[n]; } };
  let writes = 0, changes = 0;
  Object.defineProperty(message, "textContent", { get() { return this._t ?? ""; }, set(v) { writes++; this._t = v; } });
  const binding = attach(input, catalog.fieldType("month"), { message, onChange: () => changes++ });
  assert.equal(input.getAttribute("autocomplete"), "off");
  assert.equal(input.getAttribute("aria-describedby"), message.id);
  assert.equal(message.attributes["aria-live"], "polite");
  input.type("1");
  input.type("2");
  assert.deepEqual([input.value, input.selectionStart, binding.value, binding.unformatted], ["12", 2, "12", "12"]);
  assert.equal(input.getAttribute("aria-invalid"), "false");
  const before = writes;
  input.type("x");                            // refused: the message says why, once
  assert.equal(input.value, "12");
  assert.equal(message.textContent, "Month takes digits only");
  input.type("3");
  input.type("0");
  assert.equal(message.textContent, "");
  assert.equal(writes, before + 2);
  input.fire("beforeinput", { inputType: "deleteContentBackward" });
  assert.equal(input.value, "12/3");
  // Enter is left alone, so that it submits the input's form; undo cannot undo the editor's edits.
  assert.equal(input.fire("beforeinput", { inputType: "insertLineBreak" }), false);
  assert.equal(input.fire("beforeinput", { inputType: "historyUndo" }), true);
  assert.equal(input.value, "12/3");
  input.fire("blur");                         // timing leaving: the final verdict now shows
  assert.equal(input.getAttribute("aria-invalid"), "true");
  assert.equal(message.textContent, "Expected the format 00/00");
  // Composition: judged once, at its end, replacing what was selected when it started.
  input.setSelectionRange(0, 4);
  input.fire("compositionstart");
  assert.equal(input.fire("beforeinput", { inputType: "insertCompositionText", data: "0", isComposing: true }), false);
  input.value = "0";                          // what the browser shows meanwhile
  input.fire("compositionend", { data: "0130" });
  assert.deepEqual([input.value, input.selectionStart], ["01/30", 5]);
  // An autofill that announced nothing: the difference is the edit.
  input.value = "11/29";
  input.fire("input");
  assert.equal(binding.value, "11/29");
  assert.ok(changes > 5);
  binding.detach();
  assert.equal(input.getAttribute("autocomplete"), null);
  assert.equal(message.attributes["aria-live"], undefined);
  input.type("1");
  assert.equal(binding.value, "11/29", "no longer listening");
});

test("a locale takes the export's texts of that locale, else of its language, else the types' own", () => {
  const localized = (locale) => Catalog.fromExport({
    ...doc([type("qty", { label: "Quantity", parameters: [{ name: "max", kind: "integer", default: 9, default_text: "9" }],
      checks: [check("range", "range", { range: range("1", { parameter: "max" }) }, { message: "From {min} to {max}" })] })],
    [{ name: "order", version: "0".repeat(64), source: "plugins", label: null, rules: [], fields: [
      { key: "qty", type: "qty", arguments: {}, type_reference: "qty", argument_list: [], required: true, required_message: "'qty' is required", label: null, secure: false, autocomplete: null, timing: null }] }]),
    locales: { de: { types: { qty: { label: "Menge", rules: { range: "Von {min} bis {max}" } } },
                     forms: { order: { qty: { required_message: "'qty' ist ein Pflichtfeld" } } } } },
  }, { today: "2026-11-29", locale });
  for (const [locale, label, message, required] of [
    ["de", "Menge", "Von 1 bis 9", "'qty' ist ein Pflichtfeld"], ["de-AT", "Menge", "Von 1 bis 9", "'qty' ist ein Pflichtfeld"],
    ["fr", "Quantity", "From 1 to 9", "'qty' is required"], [undefined, "Quantity", "From 1 to 9", "'qty' is required"]]) {
    const qty = localized(locale).fieldType("qty");
    assert.equal(qty.definition.label, label, locale);
    assert.equal(qty.validate("10").message, message, locale);
    assert.equal(localized(locale).form("order").judge({}).violations[0].message, required, locale);
  }
});

test("forms' rules name fields by their labels, with the texts of the export's locale", () => {
  const nine = { arguments: { max: 9 }, type_reference: "amount(max: 9)", argument_list: [{ name: "max", kind: "decimal", text: "9" }] };
  const field = (key, type, label, extra = {}) => ({ key, type, arguments: {}, type_reference: type, argument_list: [], required: false, label, secure: false, autocomplete: null, timing: null, ...extra });
  const rule = (kind, fields, extra = {}) => ({ rule: kind, kind, fields, when: null, operator: null, severity: "error", final_only: false, message: null, ...extra });
  const document = doc(catalog.document.types, [{ name: "span", version: "2".repeat(64), source: "builtin", label: null, fields: [
    field("a", "amount", "Low", { ...nine, required: true }), field("b", "amount", null, nine), field("m1", "month", "From"), field("m2", "month", null)],
  rules: [rule("same", ["a", "b"]), rule("require", ["m2", "b"], { when: "m1" }), rule("compare", ["m1", "m2"], { operator: "<" }),
          rule("compare", ["a", "b"], { rule: "under", operator: "<", message: "{a} under {b}, not {value} {c}" })] }]);
  document.locales = { de: { types: {}, forms: {
    span: { a: { label: "Untergrenze" }, "*": { under: "{a} unter {b}!" } }, "*": { "*": { same: "{a} ≠ {b}", "compare-before": "{a} vor {b}" } } } } };
  const judged = (locale, values) => Catalog.fromExport(document, { today: "2026-11-29", locale }).form("span").judge(values).violations.map(v => `${v.field}|${v.rule}|${v.message}`);
  const values = { a: "3", b: "2", m1: "05/26", m2: "04/26" };
  assert.deepEqual(judged(undefined, values), ["b|same|Low and 'b' differ", "m2|compare|From must be before 'm2'", "b|under|Low under 'b', not {value} {c}"]);
  assert.deepEqual(judged(undefined, { m1: "05/26" }), ["a|required|Low is required", "m2|require|'m2' is required when From is given", "b|require|'b' is required when From is given"]);
  // de-AT takes de: the label, the rule's own text, the defaults there are; English for the others.
  assert.deepEqual(judged("de-AT", values), ["b|same|Untergrenze ≠ 'b'", "m2|compare|From vor 'm2'", "b|under|Untergrenze unter 'b'!"]);
  assert.deepEqual(judged("de", { m1: "05/26" }).slice(0, 2), ["a|required|Untergrenze is required", "m2|require|'m2' is required when From is given"]);
});
