import { IANAZone } from 'luxon';

export const isValidTimeZone = (zone: string) => IANAZone.isValidZone(zone);
