import { ChildProcess, spawn } from 'node:child_process';
import { createConnection } from 'node:net';
import { freePort } from '../../support/free-port';

/**
 * A throw-away redis-server of the test's own (no persistence), so a test can kill and restart "Redis" without
 * touching the machine's shared one. A restarted server is empty, as after a crash without persistence.
 */
export class PrivateRedis {
  private process?: ChildProcess;
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    if (!this.port) this.port = await freePort();
    this.process = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    await waitForPort(this.port, 5000);
    return this;
  }

  /** SIGKILL: nothing is flushed, every key is gone. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
