// Formulary's page: the registry's types, a live field per type, a form playground, the
// runs and their reports, the audit log. Plain JavaScript, no build step, no external
// requests; everything it shows comes from the /v1 API of the server that serves it.
// Text from the API is always set as text (never as HTML), so a type's label or an
// entry's value cannot inject markup.
"use strict";

const tokenKey = "formulary-token";
let token = sessionStorage.getItem(tokenKey) || "";

// MARK: API

/** Calls the API; resolves to the decoded JSON (or text), rejects with the server's message. */
async function api(method, path, body) {
  const headers = {};
  if (token) headers["Authorization"] = "Bearer " + token;
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const type = response.headers.get("Content-Type") || "";
  const data = type.startsWith("application/json") ? await response.json() : await response.text();
  if (!response.ok) {
    const message = data && data.error ? data.error.message : "The server answered " + response.status + ".";
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return data;
}

/** A list the API sent either bare or under one key (`{"runs": [...]}`). */
function listOf(data, key) {
  if (Array.isArray(data)) return data;
  return data && Array.isArray(data[key]) ? data[key] : [];
}

// MARK: Elements

/** An element with attributes and children (strings become text nodes). */
function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function show(...nodes) {
  const main = document.getElementById("main");
  main.replaceChildren(...nodes.filter(node => node !== null && node !== undefined && node !== false));
}

function problem(error) {
  if (error.status === 401) {
    return el("div", { class: "card", role: "alert" },
      el("p", { class: "error" }, error.message),
      el("p", {}, "Paste a token with the Token button (top right), then try again."));
  }
  return el("p", { class: "error", role: "alert" }, error.message);
}

/** A table that becomes one card per row on a phone; `rows` are arrays of cells. */
function table(caption, columns, rows) {
  return el("div", { class: "table-wrap" },
    el("table", { class: "cards" },
      el("caption", { class: "hint" }, caption),
      el("thead", {}, el("tr", {}, columns.map(c => el("th", { scope: "col", class: c.numeric ? "num" : null }, c.title)))),
      el("tbody", {}, rows.map(row => el("tr", {}, row.map((cell, i) =>
        el("td", { "data-label": columns[i].title, class: columns[i].numeric ? "num" : null }, cell)))))));
}

const number = new Intl.NumberFormat("en-US");
function short(hash) { return typeof hash === "string" ? hash.slice(0, 12) : ""; }
function when(stamp) { return typeof stamp === "string" ? stamp.replace("T", " ").replace(/\.\d+Z$/, " UTC") : ""; }

// MARK: Positions
// The API counts positions in characters (extended grapheme clusters, as Swift does); the
// browser counts UTF-16 code units. These convert between the two.

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
function characters(text) { return Array.from(segmenter.segment(text), part => part.segment); }
function toCharacters(text, units) {
  let count = 0, offset = 0;
  for (const character of characters(text)) {
    if (offset >= units) break;
    offset += character.length;
    count += 1;
  }
  return count;
}
function toUnits(text, count) {
  let offset = 0, seen = 0;
  for (const character of characters(text)) {
    if (seen >= count) break;
    offset += character.length;
    seen += 1;
  }
  return offset;
}

// MARK: The live field

const verdictWords = { valid: "Valid", incomplete: "Incomplete", invalid: "Invalid" };

function setStatus(status, verdict, message, prefix) {
  // A polite live region re-announces whatever is written into it: an unchanged verdict is
  // left alone, so a screen reader hears a verdict once, when it changes.
  const text = (prefix || "") + verdict + "\u0000" + (message || "");
  if (status.dataset.shown === text) return;
  status.dataset.shown = text;
  status.replaceChildren(
    el("span", { class: "verdict verdict-" + verdict }, (prefix || "") + (verdictWords[verdict] || verdict)),
    message ? " — " + message : "");
  status.dataset.verdict = verdict;
  status.dataset.message = message || "";
}

/**
 * Wires `input` to /v1/edit for the type `reference()` names: every keystroke is sent as a
 * replacement of the selection, and the answer's text, caret, verdict and message are shown.
 * Keystrokes that come while an answer is awaited are queued and applied in order, each at
 * the caret the previous answer left. Leaving the field asks /v1/check for the final verdict.
 */
function liveField(input, status, reference) {
  let model = { text: input.value, caret: 0 };
  let queue = Promise.resolve();
  let pending = 0;
  input.dataset.pending = "0";

  function track(delta) {
    pending += delta;
    input.dataset.pending = String(pending);
  }

  async function send(from, to, text) {
    const answer = await api("POST", "/v1/edit", {
      type: reference(), text: model.text, caret: model.caret,
      replace: { from, to, with: text }, policy: "refuse-invalid",
    });
    model = { text: answer.text, caret: answer.caret };
    input.value = answer.text;
    const caret = toUnits(answer.text, answer.caret);
    if (document.activeElement === input) input.setSelectionRange(caret, caret);
    input.dataset.verdict = answer.verdict;
    input.setAttribute("aria-invalid", answer.verdict === "invalid" ? "true" : "false");
    // A refused keystroke leaves the text and its verdict as they were; say why it was refused.
    setStatus(status, answer.verdict, answer.refusal || answer.message);
  }

  function enqueue(work) {
    track(1);
    queue = queue.then(work).catch(error => {
      status.replaceChildren(problem(error));
    }).finally(() => track(-1));
  }

  input.addEventListener("beforeinput", event => {
    const kind = event.inputType;
    let data = null;
    if (kind === "insertText" || kind === "insertReplacementText" || kind === "insertFromPaste"
        || kind === "insertFromDrop" || kind === "insertCompositionText") {
      data = event.data ?? (event.dataTransfer ? event.dataTransfer.getData("text/plain") : "");
    } else if (!kind.startsWith("delete")) {
      if (kind === "insertLineBreak" || kind === "insertParagraph") event.preventDefault();
      return;
    }
    event.preventDefault();
    // The selection is only the model's own while no answer is awaited.
    const selection = pending === 0
      ? { start: toCharacters(input.value, input.selectionStart), end: toCharacters(input.value, input.selectionEnd) }
      : null;
    enqueue(() => {
      const start = selection ? selection.start : model.caret;
      const end = selection ? selection.end : model.caret;
      const length = characters(model.text).length;
      if (data !== null) return send(start, end, data);
      if (start !== end) return send(start, end, "");
      if (kind.includes("Forward")) return end < length ? send(start, end + 1, "") : undefined;
      return start > 0 ? send(start - 1, start, "") : undefined;
    });
  });

  input.addEventListener("blur", () => {
    enqueue(async () => {
      const answer = await api("POST", "/v1/check", { type: reference(), values: [model.text], stage: "final" });
      const result = answer.results[0];
      const first = result.violations.find(v => v.severity === "error") || result.violations[0];
      input.dataset.verdict = result.verdict;
      input.setAttribute("aria-invalid", result.verdict === "invalid" ? "true" : "false");
      setStatus(status, result.verdict, first ? first.message : null, "Final: ");
    });
  });

  // Enter submits the field's form (as in any form), once the keystrokes before it are
  // answered, so that the form is judged on what the field shows.
  input.addEventListener("keydown", event => {
    if (event.key !== "Enter" || event.isComposing || !input.form) return;
    event.preventDefault();
    enqueue(async () => { input.form.requestSubmit(); });
  });

  input.addEventListener("focus", () => {
    model.caret = toCharacters(input.value, input.selectionStart ?? input.value.length);
  });

  // No verdict before the first keystroke: an empty field is judged by the form (required
  // or not), not by its type.
  status.replaceChildren(el("span", { class: "hint" }, "Type to see the verdict."));
}

// MARK: Views

async function typesView(query) {
  const data = await api("GET", "/v1/types");
  const types = listOf(data, "types");
  const search = el("input", { id: "type-search", type: "search", value: query || "", autocomplete: "off",
                               "aria-describedby": "type-count" });
  const list = el("ul", { class: "list", id: "type-list" });
  const count = el("p", { id: "type-count", class: "hint", role: "status" });
  function render() {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    const shown = types.filter(t => words.every(w =>
      (t.name + " " + (t.label || "") + " " + (t.source || "")).toLowerCase().includes(w)));
    list.replaceChildren(...shown.map(t => el("li", {},
      el("a", { class: "name", href: "#/types/" + encodeURIComponent(t.name) }, t.name),
      t.label ? " — " + t.label : "",
      el("div", { class: "meta" }, "from " + (t.source || "?") + " · version " + short(t.version)))));
    count.textContent = shown.length === types.length
      ? number.format(types.length) + " types"
      : number.format(shown.length) + " of " + number.format(types.length) + " types match";
  }
  search.addEventListener("input", render);
  render();
  show(el("h1", {}, "Field types"),
       el("label", { for: "type-search" }, "Search by name, label or source"), search, count, list);
}

async function typeView(name) {
  const type = await api("GET", "/v1/types/" + encodeURIComponent(name));
  const reference = el("input", { id: "type-reference", value: name, autocomplete: "off", spellcheck: "false",
                                   "aria-describedby": "reference-hint" });
  // A type that says what its value is lets the browser offer to fill it in; any other
  // field stays "off", since a browser guessing fills in the wrong data.
  const field = el("input", { id: "live-field", autocomplete: type.autocomplete || "off", spellcheck: "false",
                              type: type.secure ? "password" : "text",
                              inputmode: inputMode(type.keyboard), placeholder: type.placeholder || null,
                              "aria-describedby": "live-status" });
  const status = el("p", { id: "live-status", class: "status", role: "status", "aria-live": "polite" });
  liveField(field, status, () => reference.value.trim() || name);
  const examples = (type.examples || []).map(e => [
    el("code", {}, e.value), e.stage, e.expect === "accept" ? "accepted" : "rejected",
    e.formats ? el("code", {}, e.formats) : (e.rules ? e.rules.join(", ") : "")]);
  const parameters = (type.parameters || []).map(p => [p.name, p.kind, p.default === undefined ? "" : JSON.stringify(p.default)]);
  show(
    el("p", { class: "meta" }, el("a", { href: "#/" }, "Types"), " / " + type.name),
    el("h1", {}, type.label || type.name),
    type.help ? el("p", {}, type.help) : null,
    el("p", { class: "meta" }, el("code", {}, type.name), " from " + type.source + " · version ", el("code", {}, short(type.version)),
       type.secure ? " · secure: values never leave the server's process" : ""),
    el("section", { class: "card", "aria-labelledby": "try-heading" },
      el("h2", { id: "try-heading" }, "Try it"),
      el("label", { for: "live-field" }, type.label || type.name),
      field, status,
      parameters.length ? [
        el("label", { for: "type-reference" }, "Type, with parameters"),
        reference,
        el("p", { id: "reference-hint", class: "hint" },
           "For example " + type.name + "(" + parameters[0][0] + ": …); the field uses it from the next keystroke.")] : null),
    parameters.length ? el("h2", {}, "Parameters") : null,
    parameters.length ? table("Parameters of " + type.name, [{ title: "Name" }, { title: "Kind" }, { title: "Default" }], parameters) : null,
    examples.length ? el("h2", {}, "Examples") : null,
    examples.length ? table("The type's own self-tests", [{ title: "Value" }, { title: "Stage" }, { title: "Expect" }, { title: "Formats as / rules" }], examples) : null);
}

function inputMode(keyboard) {
  return { "number-pad": "numeric", "decimal-pad": "decimal", "phone-pad": "tel", email: "email", url: "url" }[keyboard] || null;
}

async function formsView() {
  const forms = listOf(await api("GET", "/v1/forms"), "forms");
  show(el("h1", {}, "Forms"),
       forms.length === 0 ? el("p", {}, "No forms yet: add one with formulary forms add FILE.") :
       el("ul", { class: "list" }, forms.map(f => el("li", {},
         el("a", { class: "name", href: "#/forms/" + encodeURIComponent(f.name) }, f.name),
         f.label ? " — " + f.label : "",
         el("div", { class: "meta" }, "from " + (f.source || "?") + " · version " + short(f.version))))));
}

async function formView(name) {
  const form = await api("GET", "/v1/forms/" + encodeURIComponent(name));
  const inputs = {};
  const fields = form.fields.map(field => {
    const id = "field-" + field.key;
    const input = el("input", { id, name: field.key, autocomplete: field.autocomplete || "off", spellcheck: "false",
                                type: field.secure ? "password" : "text", "aria-describedby": id + "-status",
                                "aria-required": field.required ? "true" : null });
    const status = el("p", { id: id + "-status", class: "status", role: "status" });
    liveField(input, status, () => field.type_reference);
    inputs[field.key] = input;
    return el("div", { class: "field" },
      el("label", { for: id }, field.label || field.key, el("span", { class: "hint" }, field.required ? " (required)" : " (optional)")),
      input, status);
  });
  const outcome = el("section", { id: "judgement", "aria-live": "polite" });
  const submit = async event => {
    event.preventDefault();
    const values = {};
    for (const [key, input] of Object.entries(inputs)) if (input.value !== "") values[key] = input.value;
    try {
      outcome.replaceChildren(judgement(await api("POST", "/v1/forms/" + encodeURIComponent(name) + "/judge", { fields: values })));
    } catch (error) {
      outcome.replaceChildren(problem(error));
    }
  };
  show(el("p", { class: "meta" }, el("a", { href: "#/forms" }, "Forms"), " / " + name),
       el("h1", {}, form.label || name),
       el("p", { class: "hint" }, "A playground: nothing you type here is stored."),
       el("form", { id: "playground", onsubmit: submit, novalidate: true }, fields,
          el("div", { class: "actions" }, el("button", { type: "submit", class: "primary" }, "Check the form"))),
       outcome);
}

function judgement(answer) {
  const rows = Object.entries(answer.fields || {}).map(([key, field]) => [
    key, el("span", { class: "verdict verdict-" + field.verdict }, verdictWords[field.verdict] || field.verdict),
    (field.violations || []).map(v => v.message).join("; ")]);
  const formProblems = (answer.form_violations || []).map(v => el("li", {}, v.message || v.rule));
  return el("div", { class: "card" },
    el("h2", { id: "verdict-heading" }, "Verdict: ",
       el("span", { id: "form-verdict", class: "verdict verdict-" + answer.verdict }, verdictWords[answer.verdict] || answer.verdict)),
    table("Each field's verdict", [{ title: "Field" }, { title: "Verdict" }, { title: "Messages" }], rows),
    formProblems.length ? el("h2", {}, "Across fields") : null,
    formProblems.length ? el("ul", {}, formProblems) : null,
    (answer.unknown_fields || []).length ? el("p", { class: "hint" }, "Not fields of this form: " + answer.unknown_fields.join(", ")) : null);
}

async function runsView() {
  const runs = listOf(await api("GET", "/v1/runs"), "runs");
  show(el("h1", {}, "Validation runs"),
       runs.length === 0 ? el("p", {}, "No runs yet: run formulary validate.") :
       table("Newest first", [{ title: "Run" }, { title: "Started" }, { title: "Actor" }, { title: "Forms" },
                             { title: "Checked", numeric: true }, { title: "Failing", numeric: true }, { title: "Status" }],
             runs.map(r => [el("a", { href: "#/runs/" + r.id }, "#" + r.id), when(r.started_at), r.actor, (r.forms || []).join(", "),
                            number.format(r.entries_checked), number.format(r.entries_failing) +
                            (typeof r.failing_percent === "number" ? " (" + r.failing_percent + "%)" : ""), r.status])));
}

async function runView(id, by) {
  const grouping = ["rule", "field", "type", "entry"].includes(by) ? by : "rule";
  const html = await api("GET", "/v1/runs/" + encodeURIComponent(id) + "/report?by=" + grouping + "&format=html");
  const choose = el("select", { id: "report-by", onchange: e => { location.hash = "#/runs/" + id + "?by=" + e.target.value; } },
    ["rule", "field", "type", "entry"].map(b => el("option", { value: b, selected: b === grouping }, "by " + b)));
  // No scripts run in the report; same-origin so that its height can be read and its links
  // rewritten, top navigation so that those links open the page's own views (with no script
  // in the frame, only a followed link can navigate).
  const frame = el("iframe", { class: "report", title: "Report of run " + id + ", grouped by " + grouping,
                               sandbox: "allow-same-origin allow-top-navigation", srcdoc: html });
  frame.addEventListener("load", () => {
    const doc = frame.contentDocument;
    if (!doc) return;
    reportLinks(doc);
    frame.style.height = doc.documentElement.scrollHeight + 24 + "px";
  });
  show(el("p", { class: "meta" }, el("a", { href: "#/runs" }, "Runs"), " / #" + id),
       el("h1", {}, "Run #" + id),
       el("label", { for: "report-by" }, "Group the failures"), choose, frame);
}

/**
 * The report is the file `formulary report --format html` writes: its links name the other
 * runs' files (`formulary-report-run-3.html`), which the server does not serve. In the page they open
 * the run's view instead; an in-page link (`#groups`) stays in the frame.
 */
function reportLinks(doc) {
  for (const link of doc.querySelectorAll("a[href]")) {
    const href = link.getAttribute("href");
    const run = /^formulary-report-run-(\d+)\.html$/.exec(href);
    if (run) {
      link.setAttribute("href", location.origin + location.pathname + "#/runs/" + run[1]);
      link.setAttribute("target", "_top");
    } else if (!href.startsWith("#")) {
      link.setAttribute("target", "_blank");
      link.setAttribute("rel", "noopener");
    }
  }
}

async function auditView() {
  const records = listOf(await api("GET", "/v1/audit"), "records");
  show(el("h1", {}, "Audit log"),
       el("p", { class: "hint" }, "Every change, newest last; each record's hash covers the one before."),
       table("Audit records", [{ title: "#", numeric: true }, { title: "When" }, { title: "Actor" }, { title: "Action" },
                               { title: "Subject" }, { title: "Hash" }],
             records.map(r => [r.seq, when(r.at), r.actor, r.action, r.subject, el("code", {}, short(r.hash))])));
}

// MARK: Routing

let navigated = false;

async function route() {
  const hash = decodeURIComponent(location.hash.replace(/^#\/?/, ""));
  const [path, query] = hash.split("?");
  const parts = path.split("/").filter(Boolean);
  const params = new URLSearchParams(query || "");
  const section = parts[0] || "types";
  for (const link of document.querySelectorAll("nav a[data-section]")) {
    if (link.dataset.section === section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  document.body.dataset.view = "loading";
  try {
    if (section === "types" && parts[1]) await typeView(parts[1]);
    else if (section === "types") await typesView(params.get("q"));
    else if (section === "forms" && parts[1]) await formView(parts[1]);
    else if (section === "forms") await formsView();
    else if (section === "runs" && parts[1]) await runView(parts[1], params.get("by"));
    else if (section === "runs") await runsView();
    else if (section === "audit") await auditView();
    else show(el("h1", {}, "Not found"), el("p", {}, "There is no page " + hash + "."), el("a", { href: "#/" }, "See the types"));
    const heading = document.querySelector("main h1");
    document.title = (heading?.textContent || "Formulary") + " · Formulary";
    // After a navigation focus moves to the new view's heading, so that keyboard and
    // screen-reader users start there (and hear it) instead of at the top of the body.
    if (heading && navigated) {
      heading.setAttribute("tabindex", "-1");
      heading.focus();
    }
  } catch (error) {
    show(problem(error));
  }
  document.body.dataset.view = parts.slice(0, 2).join("/") || "types";
}

function setUpToken() {
  const button = document.getElementById("token-button");
  const panel = document.getElementById("token-panel");
  const input = document.getElementById("token-input");
  const label = () => { button.textContent = token ? "Token ✓" : "Token"; };
  label();
  button.addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    button.setAttribute("aria-expanded", String(!panel.hidden));
    if (!panel.hidden) input.focus();
  });
  document.getElementById("token-form").addEventListener("submit", event => {
    event.preventDefault();
    token = input.value.trim();
    sessionStorage.setItem(tokenKey, token);
    input.value = "";
    panel.hidden = true;
    button.setAttribute("aria-expanded", "false");
    label();
    route();
  });
  document.getElementById("token-forget").addEventListener("click", () => {
    token = "";
    sessionStorage.removeItem(tokenKey);
    label();
    route();
  });
}

setUpToken();
window.addEventListener("hashchange", () => { navigated = true; route(); });
route();
