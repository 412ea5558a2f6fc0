import fc from 'fast-check';
import { describeCompiledPath, hostileBodies } from '../../../common/validation/testing/compiled-path-sameness';
import { VARIABLE_VALUES_LIMITS } from '../variable-values-limits';
import { CreateCallDto } from './create-call.dto';

const phones = {
  good: fc.oneof(
    fc.constantFrom('+14155550187', '+1 (415) 555-0187', ' +44 20 7946 0958 ', '+33 6 12 34 56 78'),
    fc.integer({ min: 0, max: 9_999_999 }).map((n) => `+1201${String(n).padStart(7, '0')}`),
  ),
  bad: fc.constantFrom('4155550123', '+1', 'phone', '', 42, null, ['+14155550187']),
};
const uuid = {
  good: fc.oneof(fc.uuid(), fc.constant(null)),
  bad: fc.constantFrom('nope', 42, '', ['0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b']),
};

const fields = {
  to: phones,
  from: phones,
  contactId: uuid,
  caseId: uuid,
  caseVersion: {
    good: fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.constant(null)),
    bad: fc.constantFrom(0, -1, 1_000_001, 1.5, '3', true),
  },
  assistantConfigId: uuid,
  firstMessage: {
    good: fc.oneof(fc.string({ maxLength: 40 }), fc.constant('m'.repeat(1000))),
    bad: fc.constantFrom('m'.repeat(1001), 42, [], {}),
  },
  scheduledAt: {
    good: fc.oneof(
      fc.constantFrom('2027-01-03T16:00:00.000Z', '2030-05-01T10:00:00+02:00', '9999-12-31T23:59:59Z', null),
      fc
        .date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString()),
    ),
    bad: fc.constantFrom('0000-01-01T00:00:00Z', 'tomorrow', 42, '2027-13-01T00:00:00Z', '', '+275760-09-13T00:00:00Z'),
  },
  variableValues: {
    good: fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 5 }),
    bad: fc.oneof(
      fc.constantFrom('name', [], { n: 1 }, { n: null }, { n: { a: 1 } }, { '': 'x' }),
      fc.constant({ ['k'.repeat(VARIABLE_VALUES_LIMITS.maxKeyLength + 1)]: 'x' }),
      fc.constant({ k: 'v'.repeat(VARIABLE_VALUES_LIMITS.maxStringLength + 1) }),
    ),
  },
};

const valid = { to: '+14155550187', from: '+14155550100' };

describeCompiledPath(CreateCallDto, fields, [
  JSON.stringify(valid),
  JSON.stringify({ ...valid, scheduledAt: '2027-01-03T16:00:00.000Z', variableValues: { name: 'Ada' } }),
  JSON.stringify({ ...valid, to: '+1 (415) 555-0187', caseVersion: 2, contactId: null }),
  JSON.stringify({ ...valid, unknown: 1, hasOwnProperty: 'x' }),
  '{}',
  ...hostileBodies(valid),
  ...hostileBodies({ ...valid, variableValues: { name: 'Ada' } }).map((b) => b.replace('"name"', '"constructor"')),
]);
