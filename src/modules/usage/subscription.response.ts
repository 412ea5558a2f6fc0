import { ApiProperty } from '@nestjs/swagger';
import { PRODUCT_TYPES, ProductType, SubscriptionStatus } from './entities/subscription.entity';

/** A subscription row as the admin API's billing routes answer it (docs/contracts/admin-api.md). */
export class SubscriptionResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) organizationId: string;
  @ApiProperty({ example: 'outreach_tier2', description: 'Product, tier and complimentary flag, e.g. `receptionist`' })
  planId: string;
  @ApiProperty({ example: 'Outreach Tier 2 x3', description: 'Display name: product, tier, quantity' })
  planName: string;
  @ApiProperty({ enum: PRODUCT_TYPES }) productType: ProductType;
  @ApiProperty({
    type: 'integer',
    enum: [1, 2, 3, null],
    nullable: true,
    description: 'Outreach tier (100, 300 or 800 included minutes per unit and period); null for receptionist items',
  })
  tier: number | null;
  @ApiProperty({ type: 'integer', example: 1, minimum: 1 }) quantity: number;
  @ApiProperty({ description: 'Covers every call without counting minutes' }) complimentary: boolean;
  @ApiProperty({ enum: ['active', 'canceled'] }) status: SubscriptionStatus;
  @ApiProperty({
    description:
      'Outreach: from `enforcementStartsAt` (or at once) an outbound call needs a free minute; unenforced, calls ' +
      'pass while the balance is positive',
  })
  enforced: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Null: enforced at once' })
  enforcementStartsAt: string | null;
  @ApiProperty({ format: 'date-time' }) currentPeriodStart: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Null: an open-ended period' })
  currentPeriodEnd: string | null;
  @ApiProperty({ description: 'Ends when the current period ends instead of renewing' }) cancelAtPeriodEnd: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) canceledAt: string | null;
}
