#!/usr/bin/env node
/*
 * `npm run scenarios -- --base-url URL --key KEY --case ID [--case-version N] [--timeout SECONDS]`: runs every
 * scenario of a case against a deployment (POST /api/v1/scenarios/runs), waits for the runs to end and prints one
 * line per expectation (docs/testing-your-assistant.md, "In CI"). Exit status: 0 when every expectation passed,
 * 1 when one failed or a run ended in error, 2 when the runs could not be started or read (arguments, key,
 * network, timeout). Needs only Node 18+ (global fetch); the key's world decides the chat platform.
 */
const USAGE =
  'usage: npm run scenarios -- --base-url URL --key KEY --case CASE_ID [--case-version N] [--timeout SECONDS]';
const POLL_MS = 500;

class Failure extends Error {}

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i];
    const value = argv[i + 1];
    if (!name.startsWith('--') || value === undefined || value.startsWith('--')) throw new Failure(USAGE);
    args[name.slice(2)] = value;
  }
  for (const required of ['base-url', 'key', 'case']) if (!args[required]) throw new Failure(USAGE);
  const timeout = Number(args.timeout ?? 300);
  if (!Number.isFinite(timeout) || timeout <= 0) throw new Failure('--timeout must be a positive number of seconds');
  const caseVersion = args['case-version'] === undefined ? undefined : Number(args['case-version']);
  if (caseVersion !== undefined && !Number.isInteger(caseVersion))
    throw new Failure('--case-version must be an integer');
  return { baseUrl: args['base-url'], key: args.key, caseId: args.case, caseVersion, timeoutMs: timeout * 1000 };
}

async function api(options, method, path, body) {
  let response;
  try {
    response = await fetch(new URL(path, options.baseUrl), {
      method,
      headers: { 'x-api-key': options.key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (error) {
    throw new Failure(`${method} ${path}: ${error.cause?.message ?? error.message}`);
  }
  const parsed = await response.json().catch(() => null);
  if (!response.ok) {
    const error = parsed?.error;
    throw new Failure(`${method} ${path}: ${response.status} ${error ? `${error.code}: ${error.message}` : ''}`.trim());
  }
  return parsed.data;
}

const show = (value) => (typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value ?? null));

/** One line per expectation of an ended run; a run in error is one line. */
function lines(name, run) {
  if (run.status === 'error') return [`ERROR ${show(name)}: ${run.error}`];
  return run.expectations.map((e) => {
    const what = `${show(name)} ${e.type} ${show(e.expected)}`;
    return e.passed ? `PASS  ${what}` : `FAIL  ${what} (seen: ${show(e.seen)})`;
  });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const started = await api(options, 'POST', '/api/v1/scenarios/runs', {
    caseId: options.caseId,
    ...(options.caseVersion !== undefined ? { caseVersion: options.caseVersion } : {}),
  });
  if (!started.runs.length) {
    console.log(`The case ${options.caseId} has no scenarios in this key's world.`);
    return 0;
  }
  const deadline = Date.now() + options.timeoutMs;
  const ended = [];
  for (const run of started.runs) {
    let current = run;
    while (current.status === 'queued' || current.status === 'running') {
      if (Date.now() > deadline) throw new Failure(`Timed out waiting for run ${run.id} (status ${current.status})`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      current = await api(options, 'GET', `/api/v1/scenario-runs/${run.id}`);
    }
    const scenario = await api(options, 'GET', `/api/v1/scenarios/${run.scenarioId}`).catch(() => null);
    ended.push({ name: scenario?.name ?? run.scenarioId, run: current });
  }
  for (const { name, run } of ended) for (const line of lines(name, run)) console.log(line);
  const passed = ended.filter((e) => e.run.status === 'passed').length;
  console.log(
    `${ended.length} scenarios (case version ${ended[0].run.caseVersion}): ${passed} passed, ${ended.length - passed} failed`,
  );
  return passed === ended.length ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Failure ? error.message : error);
    process.exit(2);
  },
);
