import { ChildProcess } from 'node:child_process';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { eventsOf, finished, waitForCall } from '../calls/call-fixtures';
import { TestApp, startTestApp } from '../support/test-app';
import { ledgerRowsOf, vapiEnv, voiceOrg } from '../voice/voice-fixtures';
import { forkWorker, sigkill } from './support/fork-worker';

/**
 * A worker SIGKILLed mid-dispatch: the voice platform has the call request but never answered before the process
 * died, so the call is `processing` without a platform id. No call may stay stuck: the sweeper (in another
 * worker) ends it in `error` once it is stale, with one call.failed and its reserved minute settled.
 */
describe('faults: worker killed mid-dispatch', () => {
  let t: TestApp;
  let platform: Server;
  const held: ServerResponse[] = [];
  let worker: ChildProcess | undefined;

  beforeAll(async () => {
    // A voice platform that accepts the create-call request and never answers it.
    platform = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      held.push(res);
    });
    await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
    // The killed worker's dispatch job is taken over within seconds (its lease lapses after 5 s and the replacement
    // looks every second), and the sweeper counts a dispatch without a platform id as abandoned after 15 s (not
    // 60): later than the takeover, which must not place the call again.
    const env = vapiEnv(`http://127.0.0.1:${(platform.address() as AddressInfo).port}`, {
      QUEUE_LOCK_DURATION_MS: '5000',
      QUEUE_STALLED_INTERVAL_MS: '1000',
      CALL_DISPATCH_STALE_MS: '15000',
    });
    // The API runs no worker: the forked process is the only one that can dispatch.
    t = await startTestApp({ env: { ...env, ROLES: 'api,scheduler' } });
    worker = await forkWorker(t, env);
  });
  afterAll(async () => {
    if (worker) await sigkill(worker);
    await t?.close();
    for (const res of held) res.destroy();
    platform?.closeAllConnections();
    await new Promise((resolve) => platform?.close(resolve));
  });

  it('ends the call in error, fires call.failed once and settles its minute', async () => {
    const org = await voiceOrg(t);
    const created = await org.api.post('/api/v1/calls', { to: '+14155550123', from: org.from });
    expect(created.status).toBe(201);
    const id: string = created.body.data.id;

    // Mid-dispatch: the worker has claimed the call, reserved its minute and is waiting on the platform.
    const deadline = Date.now() + 20_000;
    while (!held.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(held).toHaveLength(1);
    const { rows } = await t.db.query('SELECT status, api_call_id FROM calls WHERE id = $1', [id]);
    expect(rows[0]).toEqual({ status: 'processing', api_call_id: null });

    await sigkill(worker!);
    worker = undefined;
    const replacement = await t.startPeer({ ROLES: 'worker' });

    // The sweeper gives a dispatch CALL_DISPATCH_STALE_MS to record its platform id before it counts as abandoned.
    const call = await waitForCall(org, id, finished, 100_000);
    expect(call).toMatchObject({ status: 'error', endedReason: expect.any(String) });
    const types = (await eventsOf(t, id)).map((e) => e.type);
    expect(types).toEqual(['call.failed']);
    expect(await ledgerRowsOf(t, id)).toHaveLength(1);
    const { rows: reservations } = await t.db.query('SELECT status FROM call_reservations WHERE call_id = $1', [id]);
    expect(reservations).toEqual([{ status: 'settled' }]);
    // The platform saw exactly one create-call request: the replacement worker did not dispatch it again.
    expect(held).toHaveLength(1);
    await replacement.app.close();
  }, 150_000);
});
