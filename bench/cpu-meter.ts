/*
 * CPU time spent by the processes of a run (Linux /proc): the Node server(s) by pid, and the PostgreSQL backends
 * connected to the run's database. On a machine shared with other work, CPU milliseconds per request move far
 * less than requests per second do, and they split a route's cost between Node and PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import { Pool } from 'pg';

/** Linux's USER_HZ: /proc reports CPU time in ticks of 10 ms. */
const TICK_MS = 10;

export function cpuMsOf(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces): state is the first, utime the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

export interface CpuSplit {
  nodeMs: number;
  postgresMs: number;
}

export class CpuMeter {
  private readonly db: Pool;

  constructor(databaseUrl: string) {
    this.db = new Pool({ connectionString: databaseUrl, max: 1 });
  }

  /** Starts counting for `nodePids`; the returned function gives the CPU spent since. */
  async start(nodePids: number[]): Promise<() => Promise<CpuSplit>> {
    const node = sum(nodePids);
    const before = new Map((await this.backends()).map((pid) => [pid, cpuMsOf(pid) ?? 0]));
    return async () => {
      // Backends opened during the run count from zero; one closed during it is lost (pools keep theirs open).
      const pids = new Set([...before.keys(), ...(await this.backends())]);
      let postgresMs = 0;
      for (const pid of pids)
        postgresMs += Math.max(0, (cpuMsOf(pid) ?? before.get(pid) ?? 0) - (before.get(pid) ?? 0));
      return { nodeMs: sum(nodePids) - node, postgresMs };
    };
  }

  end(): Promise<void> {
    return this.db.end();
  }

  private async backends(): Promise<number[]> {
    const { rows } = await this.db.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return rows.map((r) => r.pid);
  }
}

function sum(pids: number[]): number {
  return pids.reduce((total, pid) => total + (cpuMsOf(pid) ?? 0), 0);
}

/** Resident memory of a process now and at its peak (Linux /proc), in MB. */
export function memoryOf(pid: number | undefined): string {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const mb = (field: string) => Math.round(Number(/\d+/.exec(status.split(`${field}:`)[1] ?? '')?.[0] ?? 0) / 1024);
    return `RSS ${mb('VmRSS')} MB (peak ${mb('VmHWM')} MB; ${residentByKind(pid)})`;
  } catch {
    return 'RSS not available (no /proc)';
  }
}

/**
 * Where the resident memory is, from /proc/<pid>/smaps: `[heap]` is the C allocator's main arena (malloc: Buffer
 * and ArrayBuffer contents, the runtime's own structures), anonymous mappings are mostly V8's heap pages (and other
 * malloc arenas), file mappings the node binary and shared libraries.
 */
function residentByKind(pid: number | undefined): string {
  const kb = { malloc: 0, anonymous: 0, files: 0 };
  let kind: keyof typeof kb = 'anonymous';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const name = mapping[1].trim();
      kind = name === '[heap]' ? 'malloc' : name === '' || name.startsWith('[') ? 'anonymous' : 'files';
    } else if (line.startsWith('Rss:')) {
      kb[kind] += Number(/\d+/.exec(line)?.[0] ?? 0);
    }
  }
  const mb = (n: number) => Math.round(n / 1024);
  return `malloc heap ${mb(kb.malloc)} MB, anonymous ${mb(kb.anonymous)} MB, files ${mb(kb.files)} MB`;
}
