import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isAlive } from '../infra/database/embedded-postgres';

const DATA_DIR = resolve(process.cwd(), '.data');
const LOCK_FILE = join(DATA_DIR, 'demo.json');
const KEY_FILE = join(DATA_DIR, 'demo-api-key');
const ADMIN_TOKEN_FILE = join(DATA_DIR, 'demo-admin-token');

interface DemoLock {
  pid: number;
  port: number;
}

/** The demo already running on this checkout's data, if any (a lock whose process is gone is stale). */
export function runningDemo(): DemoLock | null {
  if (!existsSync(LOCK_FILE)) return null;
  try {
    const lock = JSON.parse(readFileSync(LOCK_FILE, 'utf8')) as DemoLock;
    return lock.pid !== process.pid && isAlive(lock.pid) ? lock : null;
  } catch {
    return null;
  }
}

export function claimDemo(port: number): void {
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(LOCK_FILE, JSON.stringify({ pid: process.pid, port } satisfies DemoLock));
}

export function releaseDemo(): void {
  if (runningDemo() === null) rmSync(LOCK_FILE, { force: true });
}

/** The demo's key is kept (owner-only) so restarts print the same key instead of minting another. */
export function storedDemoKey(): string | null {
  return existsSync(KEY_FILE) ? readFileSync(KEY_FILE, 'utf8').trim() || null : null;
}

export function storeDemoKey(key: string): void {
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(KEY_FILE, `${key}\n`, { mode: 0o600 });
}

/**
 * The demo's admin token: generated on the first run and kept (owner-only) under .data/, so no demo shares a
 * published token (the demo listens on every interface by default, and the token opens the admin API).
 */
export function demoAdminToken(): string {
  if (existsSync(ADMIN_TOKEN_FILE)) {
    const stored = readFileSync(ADMIN_TOKEN_FILE, 'utf8').trim();
    if (stored) return stored;
  }
  const token = randomBytes(32).toString('base64url');
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(ADMIN_TOKEN_FILE, `${token}\n`, { mode: 0o600 });
  return token;
}
