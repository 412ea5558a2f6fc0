/**
 * Number ranges refused by default to every organization (docs/contracts/destinations.md, "Ranges blocked by
 * default"): the usual targets of toll fraud, where a call costs far more than a call to a person, or earns
 * money for whoever holds the number. An organization may opt in to a whole class (`allowedClasses`); a range is
 * never opened one by one. This table is the source of truth: the docs table is checked against it by
 * test/docs, and the admin API returns it with the rules.
 */
export const DESTINATION_CLASSES = ['premium-rate', 'satellite', 'international-network'] as const;
export type DestinationClass = (typeof DESTINATION_CLASSES)[number];

export interface BlockedRange {
  /** E.164 prefix: `+` and the digits every number of the range starts with. */
  prefix: string;
  class: DestinationClass;
  /** What the range is, and where that is published. */
  description: string;
}

export const BLOCKED_RANGES: readonly BlockedRange[] = [
  // North American Numbering Plan (NANPA's service access codes and reserved codes).
  { prefix: '+1900', class: 'premium-rate', description: 'NANP 900: premium-rate services (NANPA)' },
  { prefix: '+1976', class: 'premium-rate', description: 'NANP 976: information services, premium-rate (NANPA)' },
  // Premium-rate ranges of national numbering plans (each regulator's plan).
  { prefix: '+3190', class: 'premium-rate', description: 'Netherlands 090x: premium-rate (ACM)' },
  { prefix: '+3290', class: 'premium-rate', description: 'Belgium 090x: premium-rate (BIPT)' },
  { prefix: '+3389', class: 'premium-rate', description: 'France 089x: premium-rate (Arcep)' },
  { prefix: '+34803', class: 'premium-rate', description: 'Spain 803: premium-rate, adult (CNMC)' },
  { prefix: '+34806', class: 'premium-rate', description: 'Spain 806: premium-rate, leisure (CNMC)' },
  { prefix: '+34807', class: 'premium-rate', description: 'Spain 807: premium-rate, professional (CNMC)' },
  { prefix: '+34905', class: 'premium-rate', description: 'Spain 905: mass calling, premium-rate (CNMC)' },
  { prefix: '+39899', class: 'premium-rate', description: 'Italy 899: premium-rate (AGCOM)' },
  { prefix: '+41900', class: 'premium-rate', description: 'Switzerland 0900: premium-rate (OFCOM CH)' },
  { prefix: '+41901', class: 'premium-rate', description: 'Switzerland 0901: premium-rate (OFCOM CH)' },
  { prefix: '+41906', class: 'premium-rate', description: 'Switzerland 0906: premium-rate, adult (OFCOM CH)' },
  { prefix: '+43900', class: 'premium-rate', description: 'Austria 0900: premium-rate (RTR)' },
  { prefix: '+43901', class: 'premium-rate', description: 'Austria 0901: premium-rate (RTR)' },
  { prefix: '+43930', class: 'premium-rate', description: 'Austria 0930: premium-rate, adult (RTR)' },
  { prefix: '+43931', class: 'premium-rate', description: 'Austria 0931: premium-rate, adult (RTR)' },
  { prefix: '+43939', class: 'premium-rate', description: 'Austria 0939: premium-rate, adult (RTR)' },
  { prefix: '+4490', class: 'premium-rate', description: 'United Kingdom 090: premium-rate (Ofcom)' },
  { prefix: '+4491', class: 'premium-rate', description: 'United Kingdom 091: premium-rate (Ofcom)' },
  { prefix: '+4498', class: 'premium-rate', description: 'United Kingdom 098: premium-rate, adult (Ofcom)' },
  { prefix: '+49900', class: 'premium-rate', description: 'Germany 0900: premium-rate (BNetzA)' },
  { prefix: '+49137', class: 'premium-rate', description: 'Germany 0137: mass calling, televoting (BNetzA)' },
  { prefix: '+61190', class: 'premium-rate', description: 'Australia 190: premium-rate (ACMA)' },
  // Global codes of ITU-T E.164 that cost more than any country (ITU-T E.164 list of assigned country codes).
  { prefix: '+808', class: 'premium-rate', description: 'International Shared Cost Service (ITU-T)' },
  { prefix: '+979', class: 'premium-rate', description: 'International Premium Rate Service (ITU-T)' },
  { prefix: '+870', class: 'satellite', description: 'Inmarsat single network access code (ITU-T)' },
  { prefix: '+871', class: 'satellite', description: 'Inmarsat, former Atlantic Ocean East code (ITU-T)' },
  { prefix: '+872', class: 'satellite', description: 'Inmarsat, former Pacific Ocean code (ITU-T)' },
  { prefix: '+873', class: 'satellite', description: 'Inmarsat, former Indian Ocean code (ITU-T)' },
  { prefix: '+874', class: 'satellite', description: 'Inmarsat, former Atlantic Ocean West code (ITU-T)' },
  {
    prefix: '+881',
    class: 'satellite',
    description: 'Global Mobile Satellite System: Iridium, Globalstar, Thuraya, ... (ITU-T)',
  },
  {
    prefix: '+882',
    class: 'international-network',
    description: 'International Networks: shared code of carriers (ITU-T)',
  },
  {
    prefix: '+883',
    class: 'international-network',
    description: 'International Networks: shared code of carriers (ITU-T)',
  },
  { prefix: '+878', class: 'international-network', description: 'Universal Personal Telecommunications (ITU-T)' },
  {
    prefix: '+888',
    class: 'international-network',
    description: 'Telecommunications for disaster relief (ITU-T, OCHA)',
  },
  {
    prefix: '+991',
    class: 'international-network',
    description: 'International Telecommunications Public Correspondence Service trial (ITU-T)',
  },
];
