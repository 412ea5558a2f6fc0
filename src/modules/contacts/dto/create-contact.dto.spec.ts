import fc from 'fast-check';
import { describeCompiledPath, hostileBodies } from '../../../common/validation/testing/compiled-path-sameness';
import { CONTACT_LIMITS, CUSTOM_FIELDS_LIMITS } from './contact-fields';
import { CreateContactDto } from './create-contact.dto';

const phones = {
  good: fc.oneof(
    fc.constantFrom('+14155550187', '+1 (415) 555-0187', ' +44 20 7946 0958 ', '+33 6 12 34 56 78', '+4915123456789'),
    fc.integer({ min: 0, max: 9_999_999 }).map((n) => `+1201${String(n).padStart(7, '0')}`),
  ),
  bad: fc.constantFrom('4155550123', '+1', 'phone', '', '+999999999999999999999', 42, null, ['+14155550187']),
};
const text = (max: number) => fc.string({ minLength: 1, maxLength: 20 }).map((s) => s.slice(0, max));

const fields = {
  title: {
    good: fc.oneof(text(CONTACT_LIMITS.title), fc.constant('t'.repeat(CONTACT_LIMITS.title))),
    bad: fc.constantFrom('', 't'.repeat(CONTACT_LIMITS.title + 1), 42, null, ['a'], {}),
  },
  phone: phones,
  email: {
    good: fc.oneof(fc.constantFrom('a@example.com', 'x.y+z@sub.example.org', null), fc.emailAddress()),
    bad: fc.constantFrom('not-an-email', '', 42, 'a@b', `${'a'.repeat(CONTACT_LIMITS.email)}@x.com`, '\ud800@x.com'),
  },
  notes: {
    good: fc.oneof(fc.string({ maxLength: 30 }), fc.constant(null), fc.constant('n'.repeat(CONTACT_LIMITS.notes))),
    bad: fc.constantFrom('n'.repeat(CONTACT_LIMITS.notes + 1), 42, [], {}),
  },
  tags: {
    good: fc.array(fc.constantFrom('vip', 'lead', 'x'.repeat(CONTACT_LIMITS.tag), 'vip'), {
      maxLength: CONTACT_LIMITS.tags,
    }),
    bad: fc.oneof(
      fc.constantFrom('vip', null, [''], ['x'.repeat(CONTACT_LIMITS.tag + 1)], [1], [['vip']], [null]),
      fc.constant(Array.from({ length: CONTACT_LIMITS.tags + 1 }, (_, i) => `t${i}`)),
    ),
  },
  groupIds: {
    good: fc.array(fc.oneof(fc.uuid(), fc.constant('0190a3b4-5c6d-7e8f-9a0b-1c2d3e4f5a6b')), {
      maxLength: CONTACT_LIMITS.groupIds,
    }),
    bad: fc.oneof(
      fc.constantFrom('nope', null, ['nope'], [1], {}),
      fc.uuid().map((id) => Array.from({ length: CONTACT_LIMITS.groupIds + 1 }, () => id)),
    ),
  },
  customFields: {
    good: fc.dictionary(
      fc.string({ minLength: 1, maxLength: 10 }),
      fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
      ),
      { maxKeys: 5 },
    ),
    bad: fc.oneof(
      fc.constantFrom(null, 'plan', [], [1], { nested: { a: 1 } }, { list: [1] }, { '': 1 }),
      fc.constant({ k: 'v'.repeat(CUSTOM_FIELDS_LIMITS.maxStringLength + 1) }),
      fc.constant({ ['k'.repeat(CUSTOM_FIELDS_LIMITS.maxKeyLength + 1)]: 1 }),
      fc.constant(Object.fromEntries(Array.from({ length: CUSTOM_FIELDS_LIMITS.maxKeys + 1 }, (_, i) => [`k${i}`, i]))),
    ),
  },
};

const valid = { title: 'Alice Smith', phone: '+14155550187' };

describeCompiledPath(CreateContactDto, fields, [
  JSON.stringify(valid),
  JSON.stringify({
    ...valid,
    phone: '+1 (415) 555-0187',
    tags: ['vip', 'lead', 'vip'],
    customFields: { plan: 'gold' },
  }),
  JSON.stringify({ ...valid, email: null, notes: null, groupIds: [] }),
  JSON.stringify({ ...valid, tags: [] }),
  JSON.stringify({ ...valid, unknown: 1, toString: 'x' }),
  '{}',
  ...hostileBodies(valid),
  ...hostileBodies({ ...valid, customFields: { plan: 'gold' } }).map((b) => b.replace('"plan"', '"__proto__"')),
]);
