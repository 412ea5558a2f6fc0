import type { Case } from './case.entity';
import { changesVersion, contentOf } from './case-content';

const current: Case = {
  id: 'c1',
  organizationId: 'o1',
  title: 'Reminder',
  description: null,
  firstMessage: 'Hi {{name}}',
  prompt: 'Remind the patient.',
  systemPromptId: null,
  variables: [{ name: 'name', source: 'custom' }],
  tags: ['a'],
  toolIds: ['t1'],
  integrationToolIds: [],
  keyterms: null,
  voicemail: null,
  analysis: { summary: true, structuredDataSchema: null, successCriteria: 'booked' },
  version: 3,
  createdAt: new Date(0),
  updatedAt: new Date(0),
};

describe('case version changes', () => {
  it.each([
    ['prompt', { prompt: 'Confirm the appointment.' }],
    ['first message', { firstMessage: 'Hello' }],
    ['variables', { variables: [{ name: 'name', source: 'custom' as const, required: true }] }],
    ['tools', { toolIds: ['t1', 't2'] }],
    ['integration tools', { integrationToolIds: ['i1'] }],
    ['voicemail', { voicemail: { detect: true, action: 'hang-up' as const, message: null } }],
    ['analysis', { analysis: { summary: false, structuredDataSchema: null, successCriteria: 'booked' } }],
    ['the prompt library link', { systemPromptId: '0190c0de-0000-7000-8000-000000000000' }],
  ])('a change of the %s makes a version', (_, patch) => {
    expect(changesVersion(current, patch)).toBe(true);
  });

  it.each([
    ['a rename', { title: 'Renamed' }],
    ['a description', { description: 'About' }],
    ['tags', { tags: ['b'] }],
    ['keyterms', { keyterms: 'Acme' }],
    ['nothing', {}],
  ])('%s is not a version', (_, patch) => {
    expect(changesVersion(current, patch)).toBe(false);
  });

  it('a versioned field sent back unchanged (equal, not the same object) is not a version', () => {
    expect(
      changesVersion(current, {
        prompt: 'Remind the patient.',
        variables: [{ name: 'name', source: 'custom' }],
        analysis: { summary: true, structuredDataSchema: null, successCriteria: 'booked' },
      }),
    ).toBe(false);
  });

  it('the content holds exactly the versioned fields', () => {
    expect(Object.keys(contentOf(current)).sort()).toEqual(
      [
        'analysis',
        'firstMessage',
        'integrationToolIds',
        'prompt',
        'systemPromptId',
        'toolIds',
        'variables',
        'voicemail',
      ].sort(),
    );
  });
});
