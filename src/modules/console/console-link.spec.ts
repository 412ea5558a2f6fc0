import { consoleSignInLines } from './console-link';

describe('demo console link', () => {
  it('carries the admin token in the fragment, in development', () => {
    expect(consoleSignInLines('http://localhost:3000', { env: 'development', adminToken: 'a b' })).toEqual([
      '  Console:      http://localhost:3000/console/sign-in#token=a%20b',
    ]);
  });

  it('prints nothing outside development or without an admin token', () => {
    expect(consoleSignInLines('http://x', { env: 'production', adminToken: 'secret' })).toEqual([]);
    expect(consoleSignInLines('http://x', { env: 'test', adminToken: 'secret' })).toEqual([]);
    expect(consoleSignInLines('http://x', { env: 'development', adminToken: undefined })).toEqual([]);
  });
});
