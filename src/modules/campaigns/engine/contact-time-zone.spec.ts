import { contactTimeZone } from './contact-time-zone';

describe('contactTimeZone', () => {
  it('prefers a valid zone from the contact', () => {
    expect(contactTimeZone('+14155550123', 'America/Los_Angeles', 'UTC')).toBe('America/Los_Angeles');
  });

  it('derives the zone of a single-zone country from the number', () => {
    expect(contactTimeZone('+33612345678', undefined, 'UTC')).toBe('Europe/Paris');
    expect(contactTimeZone('+81312345678', 'Not/AZone', 'UTC')).toBe('Asia/Tokyo');
  });

  it('falls back to the campaign zone for a multi-zone country', () => {
    expect(contactTimeZone('+14155550123', null, 'America/Chicago')).toBe('America/Chicago');
  });
});
