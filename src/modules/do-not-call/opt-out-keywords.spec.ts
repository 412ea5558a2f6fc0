import { isOptOut } from './opt-out-keywords';

describe('isOptOut', () => {
  it.each(['STOP', 'stop', '  Stop \n', 'STOPALL', 'unsubscribe', 'Cancel', 'end', 'QUIT'])('%j opts out', (text) => {
    expect(isOptOut(text)).toBe(true);
  });

  it.each(['', 'STOP calling me', 'please stop', 'stopped', 'hello', null, undefined])('%j does not', (text) => {
    expect(isOptOut(text)).toBe(false);
  });
});
