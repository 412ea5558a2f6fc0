import { randomBytes } from 'node:crypto';
import { signatureMac } from '../../../common/outbound-http/signature';
import { SigningSecrets } from '../../../infra/secrets/signing-secrets';
import { EndpointSigningKeys } from './endpoint-signing-keys';

describe('EndpointSigningKeys', () => {
  const secrets = new SigningSecrets(randomBytes(32));
  /** Counts the seals opened, so a kept key is told from one opened again. */
  const counting = () => {
    const opened: string[] = [];
    const open = secrets.open.bind(secrets);
    const counted = Object.assign(Object.create(secrets) as SigningSecrets, {
      open: (sealed: string) => (opened.push(sealed), open(sealed)),
    });
    return { counted, opened };
  };
  const signs = (key: Parameters<typeof signatureMac>[0], secret: string) =>
    signatureMac(key, 'body', 1).equals(signatureMac(secret, 'body', 1));

  it('opens an endpoint seal once and signs with its secret', () => {
    const { counted, opened } = counting();
    const keys = new EndpointSigningKeys(counted);
    const sealed = secrets.seal('whsec_a');
    const first = keys.of('endpoint-1', sealed);
    expect(keys.of('endpoint-1', sealed)).toBe(first);
    expect(opened).toHaveLength(1);
    expect(signs(first, 'whsec_a')).toBe(true);
  });

  it('opens a rotated secret (a new sealed value) and never signs with the old one again', () => {
    const keys = new EndpointSigningKeys(secrets);
    keys.of('endpoint-1', secrets.seal('whsec_old'));
    const rotated = keys.of('endpoint-1', secrets.seal('whsec_new'));
    expect(signs(rotated, 'whsec_new')).toBe(true);
    expect(signs(rotated, 'whsec_old')).toBe(false);
  });

  it('keeps at most its bound, dropping the least recently used endpoint', () => {
    const { counted, opened } = counting();
    const keys = new EndpointSigningKeys(counted, 2);
    const sealed = ['a', 'b', 'c'].map((s) => secrets.seal(`whsec_${s}`));
    keys.of('a', sealed[0]);
    keys.of('b', sealed[1]);
    keys.of('a', sealed[0]);
    // b is the least recently used: c takes its place.
    keys.of('c', sealed[2]);
    expect(opened).toHaveLength(3);
    keys.of('a', sealed[0]);
    keys.of('c', sealed[2]);
    expect(opened).toHaveLength(3);
    keys.of('b', sealed[1]);
    expect(opened).toHaveLength(4);
  });
});
