// Compiled by `tsc --noEmit` in `make test` against formulary.d.ts: the declared API is
// what the documented examples use (docs/javascript.md).
import { Catalog, FieldEditor, FormularyError, attach, EXPORT_VERSIONS } from "../formulary.js";
import type { FieldResult, FormResult, Binding, Verdict, EditOutcome } from "../formulary.js";

declare const exportJson: string;
const catalog = Catalog.fromExport(exportJson, { today: "2026-11-29" });
const loaded: Promise<Catalog> = Catalog.load("/v1/export", { fetch: { headers: { Authorization: "Bearer t" } } });
const card = catalog.fieldType("credit-card");
const adult = catalog.fieldType("age(min: 18, max: 120)");
const names: string[] = catalog.typeNames.concat(catalog.formNames);
const r: FieldResult = card.validate("4111 1111 1111 1111");
const p = adult.validate("4", { stage: "live" });
const verdict: Verdict = r.verdict;
const valid: boolean = r.valid && p.valid;
const message: string | null = r.message;
const brand: string | null = r.mask;
const rules: string[] = r.violations.map(v => v.rule + v.severity + v.message);
const text: string = card.format("4111111111111111") + card.unformat("4111 1111 1111 1111") + card.definition.label;
const secure: boolean = card.definition.secure;

const editor = new FieldEditor(card, { policy: "refuse-invalid" });
const out: EditOutcome = editor.replace(0, 0, "4");
editor.insert("1"); editor.deleteBackward(); editor.deleteForward(); editor.setText("4111");
const state: [string, number, number, Verdict] = [editor.text, editor.selectionStart, editor.selectionEnd, editor.result.verdict];
const accepted: boolean = out.accepted && out.refusal === null;
editor.commit();
const shown: string | null = editor.visibleMessage("typing") ?? editor.visibleMessage("leaving") ?? editor.visibleMessage("submitting");
editor.externalError = "Email already in use";

const signup = catalog.form("signup");
const judged: FormResult = signup.judge({ name: "Ada", email: "ada@example.com", age: "36", extra: null });
const live = signup.judge({}, { stage: "live" });
const formVerdict: "valid" | "warnings" | "invalid" | "incomplete" = judged.verdict;
const age: FieldResult | undefined = judged.fields.age;
const across: string[] = judged.formViolations.map(v => `${v.rule} ${v.fields.join()} ${v.severity} ${v.message}`);
const unknown: string[] = live.unknownFields;
const timings: (string | null)[] = signup.fields.map(f => f.required ? f.timing : f.type.timing);

declare const input: HTMLInputElement;
declare const messageElement: HTMLElement;
const binding: Binding = attach(input, card, { policy: "refuse-invalid", message: messageElement, onChange(result, e) { void result.verdict; void e.caret; } });
const value: string = binding.value + binding.unformatted;
binding.detach();

try { catalog.fieldType("emial"); } catch (error) { if (error instanceof FormularyError) { const code: string = error.code; void code; } }
const versions: readonly number[] = EXPORT_VERSIONS;
void [timings, loaded, names, verdict, valid, message, brand, rules, text, secure, state, accepted, shown, formVerdict, age, across, unknown, value, versions];
