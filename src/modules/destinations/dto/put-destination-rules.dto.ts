import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsIn, IsOptional, Matches } from 'class-validator';
import { getCountries } from 'libphonenumber-js';
import { DESTINATION_CLASSES, DestinationClass } from '../destination-ranges';
import { DESTINATION_RULE_BOUNDS } from '../destination-rule-bounds';

const COUNTRIES: readonly string[] = getCountries();

/** PUT /admin/v1/organizations/{orgId}/destination-rules: the whole rules; an omitted field takes its default. */
export class PutDestinationRulesDto {
  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    maxItems: DESTINATION_RULE_BOUNDS.countries,
    default: null,
    example: ['US', 'CA'],
    description:
      'ISO 3166-1 alpha-2 codes (upper case) of the countries calls may go to; null or omitted: every country. ' +
      'A number of a global code that belongs to no country (e.g. +800) is decided by the blocked ranges alone',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(DESTINATION_RULE_BOUNDS.countries)
  @ArrayUnique()
  @IsIn(COUNTRIES, { each: true, message: 'allowedCountries: each must be an ISO 3166-1 alpha-2 code, e.g. US' })
  allowedCountries?: string[] | null;

  @ApiPropertyOptional({
    type: [String],
    maxItems: DESTINATION_RULE_BOUNDS.prefixes,
    default: [],
    example: ['+1268', '+44843'],
    description: `E.164 prefixes never called, on top of the ranges blocked by default: \`+\` and 1-${DESTINATION_RULE_BOUNDS.prefixDigits} digits`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(DESTINATION_RULE_BOUNDS.prefixes)
  @ArrayUnique()
  @Matches(DESTINATION_RULE_BOUNDS.prefix, {
    each: true,
    message: `blockedPrefixes: each must be + and 1-${DESTINATION_RULE_BOUNDS.prefixDigits} digits, e.g. +1268`,
  })
  blockedPrefixes?: string[];

  @ApiPropertyOptional({
    enum: DESTINATION_CLASSES,
    isArray: true,
    default: [],
    example: ['satellite'],
    description:
      'Classes of the ranges blocked by default that this organization may call after all (an explicit opt-in)',
  })
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(DESTINATION_CLASSES, { each: true })
  allowedClasses?: DestinationClass[];
}
