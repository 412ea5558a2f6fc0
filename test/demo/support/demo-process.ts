import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../support/free-port';

const ROOT = resolve(__dirname, '..', '..', '..');
/** What `npm run demo` needs from a checkout; dist/ comes along (timestamps kept) so no rebuild happens. */
const CHECKOUT = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'nest-cli.json',
  'scripts',
  'src',
  'console',
  'dist',
  'docs',
];

/** A fresh directory holding the checkout's files (node_modules linked, not copied) and no `.data/`. */
export function freshCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'vc-demo-'));
  // Run as root, the embedded PostgreSQL runs as the `postgres` user, which must be able to reach `.data/`.
  chmodSync(dir, 0o755);
  for (const name of CHECKOUT) {
    if (existsSync(join(ROOT, name))) {
      cpSync(join(ROOT, name), join(dir, name), { recursive: true, preserveTimestamps: true });
    }
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/** Free ports for the demo's API, its webhook receiver and its embedded PostgreSQL. */
export async function demoPorts(): Promise<Record<'PORT' | 'DEMO_RECEIVER_PORT' | 'EMBEDDED_PG_PORT', string>> {
  return {
    PORT: String(await freePort()),
    DEMO_RECEIVER_PORT: String(await freePort()),
    EMBEDDED_PG_PORT: String(await freePort()),
  };
}

export interface DemoRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `npm run demo` as a user starts it, with only the variables a user would set. */
export function runDemo(dir: string, env: Record<string, string>): DemoRun {
  const base = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'NODE_ENV', 'LOG_LEVEL', 'ADMIN_TOKEN', 'QUEUE_PREFIX']) {
    delete base[name];
  }
  const child = spawn('npm', ['run', 'demo'], { cwd: dir, env: { ...base, ...env }, stdio: 'pipe' });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on('exit', (code, signal) => r({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

export async function waitForOutput(run: DemoRun, text: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!run.stdout().includes(text)) {
    if (Date.now() > deadline) throw new Error(`no "${text}" in time; stdout: ${run.stdout()} stderr: ${run.stderr()}`);
    if (run.child.exitCode !== null) throw new Error(`demo exited early: ${run.stdout()} ${run.stderr()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
