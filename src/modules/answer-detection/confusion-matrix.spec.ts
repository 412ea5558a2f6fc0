import { detectionReport } from './confusion-matrix';

describe('the answer-detection report', () => {
  it('counts label x detected per platform; precision and recall over voicemail', () => {
    const [sim] = detectionReport([
      { platform: 'simulator', label: 'voicemail', detected: 'voicemail', n: 3 },
      { platform: 'simulator', label: 'human', detected: 'voicemail', n: 1 },
      { platform: 'simulator', label: 'voicemail', detected: 'unknown', n: 1 },
      { platform: 'simulator', label: 'screener', detected: 'human', n: 2 },
      { platform: 'simulator', label: 'voicemail', detected: null, n: 1 },
    ]);
    expect(sim.labelled).toBe(8);
    expect(sim.matrix.voicemail).toEqual({ human: 0, voicemail: 3, screener: 0, unknown: 2 });
    expect(sim.matrix.screener.human).toBe(2);
    expect(sim.voicemailPrecision).toBe(3 / 4);
    expect(sim.voicemailRecall).toBe(3 / 5);
  });

  it('precision is null with nothing detected voicemail, recall null with nothing labelled voicemail', () => {
    const [only] = detectionReport([{ platform: 'vapi', label: 'human', detected: 'human', n: 4 }]);
    expect(only).toMatchObject({ platform: 'vapi', labelled: 4, voicemailPrecision: null, voicemailRecall: null });
  });

  it('one entry per platform, in name order; none without labels', () => {
    const report = detectionReport([
      { platform: 'vapi', label: 'human', detected: 'human', n: 1 },
      { platform: 'simulator', label: 'human', detected: 'human', n: 1 },
    ]);
    expect(report.map((p) => p.platform)).toEqual(['simulator', 'vapi']);
    expect(detectionReport([])).toEqual([]);
  });
});
