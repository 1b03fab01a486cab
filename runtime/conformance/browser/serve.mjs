// A static file server for the browser tests (Tests/FormularyCLITests/RuntimeBrowserTests.swift):
// the repository at `/` (formulary.js and these pages) and a data folder (vectors, an export)
// at `/data/`, on a free loopback port it prints as `listening PORT`. No dependencies.
//
//   node runtime/conformance/browser/serve.mjs DATA-FOLDER
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { resolve, sep, extname } from "node:path";

const root = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const data = resolve(process.argv[2] || ".");
const types = { ".js": "text/javascript", ".mjs": "text/javascript", ".html": "text/html", ".json": "application/json",
                ".jsonl": "application/x-ndjson", ".css": "text/css", ".png": "image/png" };

const server = createServer(async (request, response) => {
  const path = decodeURIComponent(new URL(request.url, "http://localhost").pathname);
  const [base, rest] = path.startsWith("/data/") ? [data, path.slice(6)] : [root, path.slice(1)];
  const file = resolve(base, rest);
  if (file !== base && !file.startsWith(base + sep)) { response.writeHead(403).end(); return; }
  try {
    const body = await readFile(file);
    response.writeHead(200, { "Content-Type": (types[extname(file)] || "application/octet-stream") + "; charset=utf-8", "Cache-Control": "no-store" });
    response.end(body);
  } catch {
    response.writeHead(404, { "Content-Type": "text/plain" }).end("not found: " + path);
  }
});
server.listen(0, "127.0.0.1", () => console.log("listening " + server.address().port));
