import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { inTransaction } from '../../src/infra/database/tx';
import { PaceRule, SendPacingRepository } from '../../src/modules/platforms/messaging/whatsapp/send-pacing.repository';
import { openTestDataSource } from '../support/test-data-source';

/**
 * The shared pace of sends against real PostgreSQL: reservations made at once on separate connections (as from
 * separate processes) never take more slots than the rules allow, and a refused one is told how long to wait.
 */
describe('SendPacingRepository (PostgreSQL)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  const pacing = new SendPacingRepository();
  const take = (rules: PaceRule[]) => inTransaction(dataSource, (tx) => pacing.take(tx, rules));
  const rule = (burst: number, intervalMs = 60_000): PaceRule => ({ key: `test:${randomUUID()}`, intervalMs, burst });

  beforeAll(async () => {
    ({ dataSource, close } = await openTestDataSource([]));
  });
  afterAll(() => close?.());

  it.each([1, 3])('of ten reservations at once under a burst of %d, exactly that many go', async (burst) => {
    const r = rule(burst);
    const waits = await Promise.all(Array.from({ length: 10 }, () => take([r])));
    expect(waits.filter((w) => w === 0)).toHaveLength(burst);
    // The others wait about one interval (the next slot), never nothing.
    for (const w of waits.filter((w) => w > 0)) expect(w).toBeGreaterThan(50_000);
  });

  it('takes a slot under every rule or none: a send refused by one rule leaves the other untouched', async () => {
    const number = rule(2);
    const pair = rule(1);
    expect(await take([number, pair])).toBe(0);
    // The pair is spent; the number still has a slot, and the refused reservation must not have used it.
    expect(await take([number, pair])).toBeGreaterThan(0);
    expect(await take([number, rule(1)])).toBe(0);
    expect(await take([number, rule(1)])).toBeGreaterThan(0);
  });

  it('reservations sharing keys in any order never deadlock', async () => {
    const a = rule(100);
    const b = rule(100);
    const waits = await Promise.all(Array.from({ length: 20 }, (_, i) => take(i % 2 ? [a, b] : [b, a])));
    expect(waits.every((w) => w === 0)).toBe(true);
  });
});
