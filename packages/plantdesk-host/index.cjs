/**
 * Where Next's page bundles find the server that started them (docs/architecture.md, "One server in
 * the process"). Listed in next.config.mjs's serverExternalPackages, so Next requires this package at
 * run time instead of bundling it: scripts/serve.ts and the pages then share this one module (Node's
 * module cache), and the pages hold only the interface the server handed in, never a copy of lib/.
 * CommonJS on purpose: `import` from the server and `require` from Next's chunks reach the same
 * cached module.
 */
"use strict";

let provided = null;

/** Called once by the server before Next serves a page. */
function provideServer(server) {
  if (provided !== null && provided !== server) throw new Error("plantdesk-host: a server was already provided in this process.");
  provided = server;
}

/** The server's interface for pages; throws when no server started this process (a page rendered outside scripts/serve.ts). */
function pageServer() {
  if (provided === null) throw new Error("plantdesk-host: no server in this process; pages are served by scripts/serve.ts (npm start, npm run dev).");
  return provided;
}

module.exports = { provideServer, pageServer };
