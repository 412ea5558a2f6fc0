import { ApiProperty } from '@nestjs/swagger';
import { LEDGER_TYPES, MinuteLedgerEntry } from './entities/minute-ledger-entry.entity';

export class UsageHistoryRowResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: LEDGER_TYPES }) type: string;
  @ApiProperty({
    description: 'Signed: negative consumed, positive granted',
    example: -3,
  })
  amountMins: number;
  @ApiProperty({ description: 'Balance immediately after the movement' })
  balanceAfterMins: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Talk time for call rows',
    example: 2.5,
  })
  durationMins: number | null;
  @ApiProperty({
    description: 'The plan covered the call (amountMins 0 while durationMins is not)',
  })
  includedInPlan: boolean;
  @ApiProperty() description: string;
  @ApiProperty({ example: 'outreach' }) productType: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "Equals the call's apiCallId; null on non-call rows",
  })
  providerCallId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;

  static from(e: MinuteLedgerEntry): UsageHistoryRowResponse {
    return {
      id: e.id,
      type: e.type,
      amountMins: e.amountMins,
      balanceAfterMins: e.balanceAfterMins,
      durationMins: e.durationMins,
      includedInPlan: e.includedInPlan,
      description: e.description,
      productType: e.productType,
      providerCallId: e.providerCallId,
      createdAt: e.createdAt.toISOString(),
    };
  }
}
