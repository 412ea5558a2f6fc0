import { ApiProperty } from '@nestjs/swagger';
import { BLOCKED_RANGES, DESTINATION_CLASSES, DestinationClass } from './destination-ranges';
import { DestinationRules } from './destination-rules';

/** One range blocked by default (docs/contracts/destinations.md). */
export class BlockedRangeResponse {
  @ApiProperty({ example: '+1900' }) prefix: string;
  @ApiProperty({ enum: DESTINATION_CLASSES, enumName: 'DestinationClass' }) class: DestinationClass;
  @ApiProperty({ example: 'NANP 900: premium-rate services (NANPA)' }) description: string;
  @ApiProperty({ description: 'Whether this organization opted in to its class (calls to it are allowed)' })
  allowed: boolean;
}

/** An organization's destination rules, with the ranges blocked by default (extension). */
export class DestinationRulesResponse {
  @ApiProperty({ format: 'uuid', description: 'The organization' }) id: string;
  @ApiProperty({ type: [String], nullable: true, example: ['US', 'CA'], description: 'null: every country' })
  allowedCountries: string[] | null;
  @ApiProperty({ type: [String], example: ['+1268'] }) blockedPrefixes: string[];
  @ApiProperty({ enum: DESTINATION_CLASSES, enumName: 'DestinationClass', isArray: true, example: [] })
  allowedClasses: DestinationClass[];
  @ApiProperty({
    type: [BlockedRangeResponse],
    description: 'The ranges blocked by default, and whether each is opened',
  })
  blockedRanges: BlockedRangeResponse[];

  static from(organizationId: string, rules: DestinationRules): DestinationRulesResponse {
    return {
      id: organizationId,
      allowedCountries: rules.allowedCountries,
      blockedPrefixes: rules.blockedPrefixes,
      allowedClasses: rules.allowedClasses,
      blockedRanges: BLOCKED_RANGES.map((r) => ({ ...r, allowed: rules.allowedClasses.includes(r.class) })),
    };
  }
}
