// Formulary's page: the registry's types, a live field per type, a form playground, the
// runs and their reports, the audit log. Plain JavaScript, no build step, no external
// requests; everything it shows comes from the /v1 API of the server that serves it. The
// live fields and the playground run the registry in the page with formulary.js (served at
// /v1/runtime/formulary.js): no request per keystroke. Text from the API is always set as
// text (never as HTML), so a type's label or an entry's value cannot inject markup.
import { Catalog, attach } from "/v1/runtime/formulary.js";

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

// MARK: The registry in the page

/**
 * The registry as formulary.js runs it, from /v1/export (with the reader's token), judged as
 * of the server's day (its `Formulary-Today`), so that the page and the server agree. Loaded
 * once per view: a type added meanwhile shows on the next.
 */
async function loadCatalog() {
  const headers = token ? { Authorization: "Bearer " + token } : {};
  const response = await fetch("/v1/export", { headers, cache: "no-cache" });
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    const error = new Error(data && data.error ? data.error.message : "The server answered " + response.status + ".");
    error.status = response.status;
    throw error;
  }
  return Catalog.fromExport(await response.text(), { today: response.headers.get("Formulary-Today") || undefined });
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
 * Drives `input` with a field type through formulary.js's `attach`: the page formats,
 * refuses and judges every keystroke itself. The status line shows the live verdict and its
 * message (a refused keystroke: why it was refused), and once the field is left the final
 * verdict. Returns the binding.
 */
function liveField(input, status, type, timing) {
  let left = false;
  input.addEventListener("focus", () => { left = false; });
  input.addEventListener("blur", () => { left = true; });
  const binding = attach(input, type, {
    timing: timing || undefined,
    onChange(result, editor, about) {
      if (left || about.moment === "submitting") {
        const final = type.validate(editor.text);
        setStatus(status, final.verdict, final.message, "Final: ");
      } else if (editor.text === "" && !about.refusal) {
        // No verdict for an empty field: whether it may be empty is the form's decision.
        status.dataset.shown = "";
        status.replaceChildren(el("span", { class: "hint" }, "Type to see the verdict."));
      } else {
        setStatus(status, result.verdict, about.refusal || result.message);
      }
    },
  });
  return binding;
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
  const [type, catalog] = await Promise.all([api("GET", "/v1/types/" + encodeURIComponent(name)), loadCatalog()]);
  const reference = el("input", { id: "type-reference", value: name, autocomplete: "off", spellcheck: "false",
                                   "aria-describedby": "reference-hint reference-problem" });
  const problemLine = el("p", { id: "reference-problem", class: "error", role: "status" });
  // attach sets the field's inputmode, autocomplete (the type's autofill name, else "off":
  // a browser guessing fills in the wrong data) and autocapitalize from the type.
  const field = el("input", { id: "live-field", spellcheck: "false", type: type.secure ? "password" : "text",
                              placeholder: type.placeholder || null, "aria-describedby": "live-status" });
  const status = el("p", { id: "live-status", class: "status", role: "status", "aria-live": "polite" });
  let binding = liveField(field, status, catalog.fieldType(name));
  // Another reference (`age(min: 21)`) takes over the field, keeping its text.
  reference.addEventListener("change", () => {
    let next;
    try {
      next = catalog.fieldType(reference.value.trim() || name);
    } catch (error) {
      problemLine.textContent = error.message;
      return;
    }
    problemLine.textContent = "";
    const text = binding.value;
    binding.detach();
    field.value = text;
    binding = liveField(field, status, next);
  });
  const examples = (type.examples || []).map(e => [
    el("code", {}, e.value), e.stage, e.expect === "accept" ? "accepted" : "rejected",
    e.formats ? el("code", {}, e.formats) : (e.rules ? e.rules.join(", ") : "")]);
  const parameters = (type.parameters || []).map(p => [p.name, p.kind, p.default_text ?? (p.default === undefined ? "" : JSON.stringify(p.default))]);
  show(
    el("p", { class: "meta" }, el("a", { href: "#/" }, "Types"), " / " + type.name),
    el("h1", {}, type.label || type.name),
    type.help ? el("p", {}, type.help) : null,
    el("p", { class: "meta" }, el("code", {}, type.name), " from " + type.source + " · version ", el("code", {}, short(type.version)),
       type.secure ? " · secure: values never leave this page or the server's process" : ""),
    el("section", { class: "card", "aria-labelledby": "try-heading" },
      el("h2", { id: "try-heading" }, "Try it"),
      el("label", { for: "live-field" }, type.label || type.name),
      field, status,
      parameters.length ? [
        el("label", { for: "type-reference" }, "Type, with parameters"),
        reference,
        el("p", { id: "reference-hint", class: "hint" },
           "For example " + type.name + "(" + parameters[0][0] + ": …); the field uses it once you leave this box."),
        problemLine] : null),
    parameters.length ? el("h2", {}, "Parameters") : null,
    parameters.length ? table("Parameters of " + type.name, [{ title: "Name" }, { title: "Kind" }, { title: "Default" }], parameters) : null,
    examples.length ? el("h2", {}, "Examples") : null,
    examples.length ? table("The type's own self-tests", [{ title: "Value" }, { title: "Stage" }, { title: "Expect" }, { title: "Formats as / rules" }], examples) : null);
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
  const catalog = await loadCatalog();
  let form;
  try {
    form = catalog.form(name);
  } catch (error) {
    const notFound = new Error(error.message);
    notFound.status = 404;
    throw notFound;
  }
  const bindings = {};
  const fields = form.definition.fields.map(field => {
    const id = "field-" + field.key;
    const input = el("input", { id, name: field.key, spellcheck: "false",
                                type: field.secure ? "password" : "text", "aria-describedby": id + "-status",
                                "aria-required": field.required ? "true" : null });
    const status = el("p", { id: id + "-status", class: "status", role: "status" });
    bindings[field.key] = liveField(input, status, form.fieldType(field.key), field.timing);
    return el("div", { class: "field" },
      el("label", { for: id }, field.label || field.key, el("span", { class: "hint" }, field.required ? " (required)" : " (optional)")),
      input, status);
  });
  const outcome = el("section", { id: "judgement", "aria-live": "polite" });
  // The form is judged here, then sent to the server, which judges it again: the two
  // judgements are the same (what the page says is what a stored entry will get).
  const submit = async event => {
    event.preventDefault();
    const values = {};
    for (const [key, binding] of Object.entries(bindings)) if (binding.value !== "") values[key] = binding.value;
    const local = form.judge(values);
    const mine = judgementJSON(local, form.fieldKeys);
    outcome.replaceChildren(judgement(mine, null));
    try {
      const server = await api("POST", "/v1/forms/" + encodeURIComponent(name) + "/judge", { fields: values });
      outcome.replaceChildren(judgement(mine, sameJudgement(mine, server)));
    } catch (error) {
      outcome.replaceChildren(judgement(mine, null), problem(error));
    }
  };
  show(el("p", { class: "meta" }, el("a", { href: "#/forms" }, "Forms"), " / " + name),
       el("h1", {}, form.label || name),
       el("p", { class: "hint" }, "A playground: nothing you type here is stored."),
       el("form", { id: "playground", onsubmit: submit, novalidate: true }, fields,
          el("div", { class: "actions" }, el("button", { type: "submit", class: "primary" }, "Check the form"))),
       outcome);
}

/** A judgement of formulary.js in the shape of the server's answer (secure fields carry no value). */
function judgementJSON(result, keys) {
  const fields = {};
  for (const key of keys) {
    const f = result.fields[key];
    fields[key] = { verdict: f.verdict, violations: f.violations.map(v => ({ rule: v.rule, severity: v.severity, message: v.message })) };
  }
  return {
    verdict: result.verdict, fields,
    form_violations: result.formViolations.map(v => ({ field: v.field, rule: v.rule, severity: v.severity, message: v.message })),
    unknown_fields: result.unknownFields,
  };
}

/** Whether the server's judgement is the page's: verdicts, rules and messages alike. */
function sameJudgement(mine, server) {
  const shape = j => JSON.stringify([j.verdict, Object.keys(mine.fields).map(k => [k, j.fields[k] && j.fields[k].verdict, j.fields[k] && j.fields[k].violations]),
                                     j.form_violations, j.unknown_fields]);
  return shape(mine) === shape(server);
}

function judgement(answer, agreed) {
  const rows = Object.entries(answer.fields || {}).map(([key, field]) => [
    key, el("span", { class: "verdict verdict-" + field.verdict }, verdictWords[field.verdict] || field.verdict),
    (field.violations || []).map(v => v.message).join("; ")]);
  const formProblems = (answer.form_violations || []).map(v => el("li", {}, v.message || v.rule));
  return el("div", { class: "card" },
    el("h2", { id: "verdict-heading" }, "Verdict: ",
       el("span", { id: "form-verdict", class: "verdict verdict-" + answer.verdict }, verdictWords[answer.verdict] || answer.verdict)),
    el("p", { id: "server-agreement", class: agreed === false ? "error" : "hint", "data-agreed": agreed === null ? "pending" : String(agreed) },
       agreed === null ? "Judged in this page; asking the server…" : agreed ? "The server judged the form the same way."
         : "The server judged the form differently: please report this."),
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
