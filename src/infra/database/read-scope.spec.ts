import { isReplicaFailure } from './read-scope';

describe('isReplicaFailure: what a replica fails that the primary would not (so the primary may run it again)', () => {
  it.each([
    ['refused connection (no SQLSTATE)', { code: 'ECONNREFUSED' }],
    ['a terminated connection (no code at all)', new Error('Connection terminated unexpectedly')],
    ['admin shutdown', { code: '57P01' }],
    ['cannot connect now (starting up)', { code: '57P03' }],
    ['connection failure', { code: '08006' }],
    ['a write on a read-only standby', { code: '25006' }],
    ['a recovery conflict', { code: '40001' }],
  ])('%s', (_, error) => expect(isReplicaFailure(error)).toBe(true));

  it.each([
    ['a unique violation', { code: '23505' }],
    ['a syntax error', { code: '42601' }],
    ['an invalid text representation', { code: '22P02' }],
  ])('not %s: the primary would fail it the same way', (_, error) => expect(isReplicaFailure(error)).toBe(false));
});
