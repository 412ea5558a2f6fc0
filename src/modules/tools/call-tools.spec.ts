import { CallTool, transferNumbers, withoutDestinations } from './call-tools';

const tool = (over: Partial<CallTool>): CallTool => ({
  id: 't',
  type: 'end-call',
  name: 'x',
  description: null,
  parameters: null,
  url: null,
  timeoutSeconds: null,
  messages: null,
  destinations: null,
  providerToolId: null,
  ...over,
});

describe('transfer destinations of a call (docs/contracts/destinations.md)', () => {
  const split = tool({
    id: 'split',
    type: 'transfer',
    destinations: [
      { number: '+14155550192', mode: 'cold' },
      { number: '+14155550193', mode: 'warm', message: 'One moment.' },
    ],
  });
  const lone = tool({ id: 'lone', type: 'transfer', destinations: [{ number: '+14155550194', mode: 'cold' }] });
  const hangUp = tool({ id: 'hang', type: 'end-call' });

  it('lists the numbers of transfer tools only', () => {
    expect(transferNumbers([split, hangUp, lone])).toEqual(['+14155550192', '+14155550193', '+14155550194']);
    expect(transferNumbers([hangUp])).toEqual([]);
  });

  it('is null when nothing is refused, so nothing is written', () => {
    expect(withoutDestinations([split, hangUp], new Set(['+19005550123']))).toBeNull();
  });

  it('drops refused destinations, and a transfer tool left with none; other tools are kept in order', () => {
    expect(withoutDestinations([split, hangUp, lone], new Set(['+14155550192', '+14155550194']))).toEqual([
      { ...split, destinations: [{ number: '+14155550193', mode: 'warm', message: 'One moment.' }] },
      hangUp,
    ]);
  });
});
