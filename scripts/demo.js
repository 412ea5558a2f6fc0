#!/usr/bin/env node
/* `npm run demo`: build when dist/ is missing or older than the sources, then start the demo. */
const { spawn } = require('node:child_process');
const path = require('node:path');
const { buildIfStale } = require('./build-if-stale');
const { serviceNode } = require('./runtime-node');

const root = path.join(__dirname, '..');
const entry = path.join(root, 'dist', 'cli', 'demo.js');

const built = buildIfStale(root);
if (built !== 0) process.exit(built);

// The server runs in a process group of its own, so it hears a signal once, from us: a terminal's Ctrl-C
// reaches npm and this script (and npm forwards it here again), and a second copy would make the server
// skip its graceful shutdown. A signal sent to `npm run demo` alone reaches the server the same way.
// On a system Node older than the runtime dependencies need, the Node 24 of the dev dependencies runs it.
const server = spawn(serviceNode(), [entry], { cwd: root, stdio: 'inherit', detached: true });
let lastForwarded = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // Copies of one keypress arrive together; a deliberate second Ctrl-C (to force an exit) comes later.
    if (Date.now() - lastForwarded < 1000) return;
    lastForwarded = Date.now();
    server.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
  });
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
