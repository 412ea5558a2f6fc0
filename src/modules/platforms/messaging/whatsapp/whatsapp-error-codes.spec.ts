import { GRAPH_ERROR_OUTCOMES, outcomeOf } from './whatsapp-error-codes';

/** The classes of Meta's codes, as docs/providers.md lists them. */
const EXPECTED: Record<string, number[]> = {
  rate: [130429, 131056, 4, 80007],
  transient: [1, 2, 131000, 131016],
  token: [190],
  SESSION_EXPIRED: [131047],
  MESSAGE_UNDELIVERABLE: [131026, 131049, 131062],
  TEMPLATE_INVALID: [132000, 132001, 132015, 132016],
  MESSAGING_API_ERROR: [131048, 131042, 133010, 131031],
};

const classOf = (code: number): string | undefined => {
  const outcome = outcomeOf(code);
  return outcome?.outcome === 'reject' ? outcome.code : outcome?.outcome;
};

describe('WhatsApp error codes', () => {
  it.each(Object.entries(EXPECTED).flatMap(([cls, codes]) => codes.map((code) => [code, cls] as const)))(
    '%d is %s',
    (code, cls) => {
      expect(classOf(code)).toBe(cls);
    },
  );

  it('maps no code beyond those listed (a new one is added to both)', () => {
    const listed = Object.values(EXPECTED).flat().sort();
    expect(Object.keys(GRAPH_ERROR_OUTCOMES).map(Number).sort()).toEqual(listed);
  });

  it('gives every account-side refusal a title of its own, for the operator', () => {
    for (const code of EXPECTED.MESSAGING_API_ERROR) {
      const outcome = outcomeOf(code);
      expect(outcome?.outcome === 'reject' && outcome.title).toEqual(expect.stringMatching(/\S{3,}/));
    }
  });

  it('leaves an unknown code unmapped (answered 502 MESSAGING_API_ERROR with the code)', () => {
    expect(outcomeOf(100)).toBeUndefined();
    expect(outcomeOf(0)).toBeUndefined();
  });
});
