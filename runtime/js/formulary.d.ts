// Type declarations of formulary.js: Formulary's field types in a browser or in Node, exactly
// as the Swift engine judges them. See docs/javascript.md. Positions are UTF-16 code units.

/** A verdict of one value: final `valid` or `invalid`; live also `incomplete`. */
export type Verdict = "valid" | "incomplete" | "invalid";
/** `final` (a complete value) or `live` (a prefix still being typed). */
export type Stage = "final" | "live";
/** An `error` makes a value invalid; a `warning` never does. */
export type Severity = "error" | "warning";
/** When a type's messages are shown. */
export type Timing = "typing" | "leaving" | "submit";
/** A moment in a field's life at which a message may show. */
export type Moment = "typing" | "leaving" | "submitting";
/** What an editor does with an edit whose result no completion could make valid. */
export type EditPolicy = "refuse-invalid" | "accept-all";

/** Options of `validate` and `format`. */
export interface StageOptions {
  /** `final` (the default) or `live`. */
  stage?: Stage;
}

/** Why a catalog, reference, type or form could not be used. */
export class FormularyError extends Error {
  constructor(message: string, code: string);
  /**
   * A stable identifier: `export-version`, `bad-export`, `bad-today`, `load-failed`,
   * `unknown-type`, `unknown-form`, `undeclared-field`, `bad-reference`, `bad-arguments`,
   * `broken-automaton`, `pattern-without-automaton`, `unknown-checksum`, `bad-argument`, or
   * the compiler's (`empty-range`, `parameter-kind`, `mask-length-conflict`, …).
   */
  readonly code: string;
}

/** The export versions (`formulary_export_version`) this runtime reads. */
export const EXPORT_VERSIONS: readonly number[];

/** One failed rule of a value. */
export interface Violation {
  /** The rule's name: its keyword (`length`, `luhn`), its `as` name, `mask`, `external`. */
  rule: string;
  severity: Severity;
  /** The rendered message; a `secure` type's value is never in it (`•••`). */
  message: string;
}

/** One judged value. */
export class FieldResult {
  /** The normalized, mask-formatted value; the raw value when absent. */
  readonly formatted: string;
  readonly verdict: Verdict;
  /** Errors and warnings in rule order, the mask first (live: the live stage's). */
  readonly violations: Violation[];
  /** The value was empty or only white space: no check ran; the form decides (`required`). */
  readonly absent: boolean;
  /**
   * The name of the mask that formatted the value, when its line names it with `as NAME`:
   * a `credit-card` number's brand (`visa`, `amex`…), for a logo. Null when no mask applies,
   * the mask is unnamed (`mask`), the value is absent, or the type is `secure`; live, the
   * mask chosen for the text typed so far. (A form's final judgement gives none.)
   */
  readonly mask: string | null;
  /** Whether `verdict` is `valid`. */
  readonly valid: boolean;
  /** The one message to show: the first error's, else the first warning's, else null. */
  readonly message: string | null;
}

/** What a type says about how to show and fill in its field. */
export interface TypeDefinition {
  readonly name: string;
  readonly label: string | null;
  readonly help: string | null;
  readonly placeholder: string | null;
  /** `default`, `number-pad`, `decimal-pad`, `email`, `phone`, `url`, or null. */
  readonly keyboard: string | null;
  /** `never`, `words`, `sentences`, `all`, or null. */
  readonly autocapitalize: string | null;
  /** An HTML autofill field name (`email`, `cc-number`…), or null. */
  readonly autocomplete: string | null;
  /** The value is a secret: use a password input, never log or echo it. */
  readonly secure: boolean;
  readonly timing: Timing;
  /** The character between a number's whole and fractional digits in this type's values (`decimal-separator`). */
  readonly decimalSeparator: "." | ",";
  /** The type's version (SHA-256 of its resolved definition), or null. */
  readonly version: string | null;
  /** The parameters with their default values' texts. */
  readonly parameters: ReadonlyArray<{ name: string; kind: "integer" | "decimal" | "string"; default: string }>;
}

/** The bounds of a type's `length` check, for a counter. */
export interface LengthLimit {
  min: number;
  max: number | null;
  unit: "graphemes" | "scalars" | "utf16" | "bytes";
  rule: string;
  severity: Severity;
}

/** A field type compiled with its parameter values. */
export class FieldType {
  private constructor();
  readonly name: string;
  /** Every parameter's value (name → text), defaults included. */
  readonly arguments: Readonly<Record<string, string>>;
  readonly definition: TypeDefinition;
  /** When the type's messages are shown (`leaving` when the type says nothing). */
  readonly timing: Timing;
  /** The first `length` check with an upper bound (an error's before a warning's), else the first; null without one. */
  readonly lengthLimit: LengthLimit | null;
  /** How a form's `compare` reads this type's values. */
  readonly comparisonReading: "date" | "number" | "text";
  /**
   * Judges one value: exactly what `formulary --format json check` gives (with the same `--today`).
   * Final: `valid` or `invalid`. Live: `valid` when it already passes the final stage,
   * `invalid` when no completion can pass, `incomplete` otherwise.
   */
  validate(value: string, options?: StageOptions): FieldResult;
  /** Whether the value passes the final stage (warnings do not count; an absent value passes). */
  isValid(value: string): boolean;
  /** The value normalized and mask-formatted (an absent value as it is); `live`: with the mask typing chooses. */
  format(value: string, options?: StageOptions): string;
  /** The value without what the mask inserted, after normalization. */
  unformat(text: string): string;
  /** The text's length as `lengthLimit` counts it, after normalization and the mask; 0 when absent. */
  length(text: string): number;
}

/** What one edit did. */
export interface EditOutcome {
  /** Whether the edit was applied (a paste is, when any of its characters could be kept). */
  accepted: boolean;
  /** The live verdict after the edit (of the unchanged text when refused). */
  result: FieldResult;
  /** Why the edit, or some characters of a paste, were refused; null when nothing was. */
  refusal: Violation | null;
}

/** Options of a FieldEditor. */
export interface FieldEditorOptions {
  /** `refuse-invalid` (the default) refuses an insertion whose result is live-invalid. */
  policy?: EditPolicy;
  /** When `visibleMessage` shows a message (default: the type's; a form field's overrides it). */
  timing?: Timing;
  /** What the field shows to begin with: an editor's text, or `type.format` of a value. */
  text?: string;
  /** The caret, in UTF-16 code units (default: the end of `text`). */
  caret?: number;
}

/**
 * One text field's state, edited keystroke by keystroke exactly as the Swift `FieldEditor`
 * edits it: formatting while the user types, the caret where the user expects it, refusal
 * of what can never be valid, number groups padded (`2` in a month gives `02/`).
 *
 * Positions are UTF-16 code units, as the DOM's `selectionStart` and `setSelectionRange`
 * count them (the Swift API counts `Character`s). A position inside a grapheme cluster (half
 * an emoji, a letter without its accent) is rounded to the cluster's start (a range's
 * `from`) or end (its `to`): the caret never stands inside a cluster or a surrogate pair.
 */
export class FieldEditor {
  constructor(type: FieldType, options?: FieldEditorOptions);
  /** The field type that formats and judges the text. */
  readonly type: FieldType;
  /** `refuse-invalid` (the default: an insertion whose result is invalid is refused) or `accept-all`. */
  policy: EditPolicy;
  /** When `visibleMessage` shows a message: the type's `timing` unless the options give one. */
  timing: Timing;
  /** A message from the app's server ("Email already in use"): it leads `result` (rule `external`) and shows at every moment until an edit changes the text. */
  externalError: string | null;
  /** What the field shows. */
  readonly text: string;
  /** The selection's start. */
  readonly selectionStart: number;
  /** The selection's end, where the caret stands. */
  readonly selectionEnd: number;
  /** Where the caret stands: the selection's end. */
  readonly caret: number;
  /** The live verdict of `text`, led by the violation `external` while an `externalError` stands. */
  readonly result: FieldResult;
  /** The text's length and the type's maximum, for a counter; null without a maximum. */
  readonly counter: { count: number; limit: number } | null;
  /** `counter` as a caption, `"12/160"`. */
  readonly counterText: string | null;
  /** Replaces `from..<to` with `text`: the one primitive; typing, pasting and deleting are all this. */
  replace(from: number, to: number, text: string): EditOutcome;
  /** Types `text` at the caret, replacing the selection. */
  insert(text: string): EditOutcome;
  /** Removes the selection, or the character before the caret (over a mask's literal: the typed character before it). */
  deleteBackward(): EditOutcome;
  /** Removes the selection, or the character after the caret. */
  deleteForward(): EditOutcome;
  /** Replaces the whole text, as a paste over everything does. */
  setText(value: string): EditOutcome;
  /** Moves the caret (clamped, rounded down to a grapheme's start) and clears the selection. */
  moveCaret(position: number): void;
  /** Selects `from..<to`, widened to whole graphemes; the caret goes to its end. */
  select(from: number, to: number): void;
  /** Formats the text as a whole (dropping white space kept at the end while typing): the field lost focus. */
  commit(): void;
  /**
   * The message to show at a moment, as the timing says: `typing` shows the live message for
   * timing `typing` only; `leaving` the final message unless the timing is `submit`;
   * `submitting` the final message. An `externalError` shows at every moment.
   */
  visibleMessage(moment: Moment): string | null;
}

/** One failed rule of a form that belongs to no single field's type. */
export interface FormViolation {
  /** The field it is reported on (for `unknown-field`, the undeclared key). */
  field: string | null;
  /** The rule's fields (for `unknown-field`, the key). */
  fields: string[];
  rule: string;
  severity: Severity;
  message: string;
}

/** A whole form's judgement: what `formulary forms judge` (and `FormValidator.judge`) gives. */
export class FormResult {
  /** `valid`, `warnings`, `invalid`; live also `incomplete`. */
  readonly verdict: "valid" | "warnings" | "invalid" | "incomplete";
  /** Every declared field's result, by key. */
  readonly fields: Readonly<Record<string, FieldResult>>;
  /** Cross-field rules (`same`, `require … when`, `compare`) and `unknown-field`. */
  readonly formViolations: FormViolation[];
  /** Keys given that the form does not declare, sorted. */
  readonly unknownFields: string[];
  /** Every violation in the judge's order: fields in form order, cross-field rules, unknown keys. */
  readonly violations: FormViolation[];
}

/** One field of a form. */
export interface FormField {
  /** The entry's field name. */
  readonly key: string;
  /** The type's name (`age`); `type` is compiled with the form's arguments (`age(min: 18)`). */
  readonly typeName: string;
  readonly type: FieldType;
  readonly required: boolean;
  /**
   * The form's label for the field (in the catalog's locale), or null (then the type's). The
   * messages of `required` and the cross-field rules name the field by it, else by its key
   * in quotes (`'email'`).
   */
  readonly label: string | null;
  /** The field's own timing, which overrides its type's (pass it to `attach`), or null. */
  readonly timing: Timing | null;
}

/** A form of the registry. */
export class Form {
  private constructor();
  readonly name: string;
  readonly label: string | null;
  /** The fields, in form order. */
  readonly fields: ReadonlyArray<FormField>;
  /** The field keys, in form order. */
  readonly fieldKeys: string[];
  /** The compiled type of one field, with the form's arguments; throws `undeclared-field`. */
  fieldType(key: string): FieldType;
  /**
   * Judges one filled-in form. A missing key, null, "" and white space are absent.
   * Final: every field's final verdict, `required`, the cross-field rules (`unique` needs
   * other entries: the server's batch validation judges it) and `unknown-field` warnings.
   * Live: each field's live verdict; `required` and the cross-field rules wait for the
   * final stage, and the verdict is `incomplete` while a field is incomplete or a required
   * one is empty. The messages of `required` and the cross-field rules name fields by their
   * labels (`Start date must be before 'ends'`), in the catalog's locale, as the engine's do.
   */
  judge(values: Record<string, string | null | undefined>, options?: StageOptions): FormResult;
}

/** Options of a catalog. */
export interface CatalogOptions {
  /** The day date checks measure from, `YYYY-MM-DD` (default: the local date). */
  today?: string;
  /**
   * The locale messages, labels and help are given in (`de`, `pt-BR`), from the export's
   * `locales`: the tag, else its language (`de` for `de-AT`), else the types' own texts.
   * Forms too: their fields' labels, `required` and the cross-field rules' messages.
   */
  locale?: string;
}

/** The registry's field types and forms, from the document `formulary export` prints. */
export class Catalog {
  private constructor();
  /**
   * A catalog from an export document (the object or its JSON text). A document of an
   * export version this runtime does not know is refused (`export-version`).
   */
  static fromExport(exportJson: object | string, options?: CatalogOptions): Catalog;
  /** Fetches an export (`/v1/export`, or a file) and reads it; `fetch` is the request's init (headers). */
  static load(url: string, options?: CatalogOptions & { fetch?: RequestInit }): Promise<Catalog>;
  /** The day date checks measure from, `YYYY-MM-DD`. */
  readonly today: string;
  /** The type names, sorted. */
  readonly typeNames: string[];
  /** The form names, sorted. */
  readonly formNames: string[];
  /** The compiled type a reference names: `credit-card`, `age(min: 18, max: 120)`; throws `unknown-type` and the like. */
  fieldType(reference: string): FieldType;
  /** The form called `name`; throws `unknown-form`. */
  form(name: string): Form;
}

/** Options of `attach`. */
export interface AttachOptions {
  policy?: EditPolicy;
  /** Overrides the type's timing (a form field's `timing`). */
  timing?: Timing;
  /** Where the message goes: made a polite live region the input is described by. */
  message?: HTMLElement;
  /**
   * Called after every edit (accepted or refused), blur and submission, with the live
   * result, the editor, the moment (`typing` until the field was first left, then `leaving`,
   * then `submitting`) and why the last keystroke was refused (or null).
   */
  onChange?(result: FieldResult, editor: FieldEditor, about: { moment: Moment; refusal: string | null }): void;
}

/** A field driven by `attach`. */
export interface Binding {
  readonly editor: FieldEditor;
  /** The formatted text the field shows. */
  readonly value: string;
  /** The text without what the mask inserted. */
  readonly unformatted: string;
  /** The live result (led by an external error while one stands). */
  readonly result: FieldResult;
  /** The final result, as a submitted form judges the field. */
  readonly finalResult: FieldResult;
  /** Replaces the text, never refused (a value the app sets). */
  setValue(value: string): void;
  /** Shows a message from the app's server until an edit changes the text (null clears it). */
  setExternalError(message: string | null): void;
  /** Says the form is being submitted (also done on the input's form's `submit` event). */
  submit(): void;
  /** Removes the listeners and puts back the attributes `attach` changed. */
  detach(): void;
}

/**
 * Drives an `<input>` with a field type through the browser's `beforeinput` and `input`
 * events: typing (`insertText`), paste and drop, cut, deleting by character, word and line,
 * autofill and spelling replacement (`insertReplacementText`: the selection, or without
 * one the whole text), and IME composition (the composed text is judged once, at
 * `compositionend`). Sets `inputmode`, `autocomplete` and `autocapitalize` from the type,
 * `aria-invalid` from the verdict as the timing allows (while typing only for timing
 * `typing`; after the field was left, the final verdict unless the timing is `submit`; once
 * the form is submitted, the final verdict), and `aria-describedby` to the message element,
 * a polite live region written only when its message changes (a refused keystroke says why).
 */
export function attach(input: HTMLInputElement, type: FieldType, options?: AttachOptions): Binding;
