import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Call totals per organization and UTC day, kept in step with the ledger's call rows (same transaction), so
 * GET /usage sums a month as ~30 small rows instead of thousands of ledger rows.
 */
@Entity('usage_daily_totals')
export class UsageDailyTotal {
  @PrimaryColumn('uuid') organizationId: string;
  @PrimaryColumn('date') day: string;
  @Column('integer', { default: 0 }) calls: number;
  @Column('integer', { default: 0 }) inboundCalls: number;
  @Column('double precision', { default: 0 }) talkMins: number;
  @Column('double precision', { default: 0 }) inboundMins: number;
  @Column('integer', { default: 0 }) deductedMins: number;
}
