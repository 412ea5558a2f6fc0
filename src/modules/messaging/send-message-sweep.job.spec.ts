import { SEND_SWEEPS_MAX, sweepActionOf } from './send-message-sweep.job';

describe('sweepActionOf (what the send sweeper does with one unsent message)', () => {
  const kept = { pendingSend: { phoneNumberId: '1', body: {} }, sendSweeps: 0 };

  it('leaves a message whose send job is live: the job owns the send', () => {
    expect(sweepActionOf(kept, 'live')).toBe('leave');
    expect(sweepActionOf({ ...kept, sendSweeps: SEND_SWEEPS_MAX }, 'live')).toBe('leave');
    expect(sweepActionOf({ ...kept, pendingSend: null }, 'live')).toBe('leave');
  });

  it('queues again a kept send with no job, or whose job gave up, under the bound', () => {
    expect(sweepActionOf(kept, 'none')).toBe('requeue');
    expect(sweepActionOf(kept, 'gave-up')).toBe('requeue');
    expect(sweepActionOf({ ...kept, sendSweeps: SEND_SWEEPS_MAX - 1 }, 'none')).toBe('requeue');
  });

  it('fails a message rebuilt as often as the bound allows', () => {
    expect(sweepActionOf({ ...kept, sendSweeps: SEND_SWEEPS_MAX }, 'none')).toBe('fail');
    expect(sweepActionOf({ ...kept, sendSweeps: SEND_SWEEPS_MAX }, 'gave-up')).toBe('fail');
  });

  it('fails a message whose request was never kept: nothing to rebuild it from', () => {
    expect(sweepActionOf({ ...kept, pendingSend: null }, 'none')).toBe('fail');
    expect(sweepActionOf({ ...kept, pendingSend: null }, 'gave-up')).toBe('fail');
  });
});
