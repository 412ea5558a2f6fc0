import { Column, Entity, PrimaryColumn } from 'typeorm';
import { UpdatedAt } from '../../../common/entities/timestamps';
import type { VoicePlatform } from '../../../infra/config/platforms';

/**
 * How placements on a voice platform have gone lately, shared by every process (docs/providers.md, "Failover"):
 * failures in a row, and until when a platform that failed too often is skipped for numbers with a fallback.
 */
@Entity('platform_health')
export class PlatformHealth {
  @PrimaryColumn('text') platform: VoicePlatform;
  @Column('int', { default: 0 }) consecutiveFailures: number;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) cooldownUntil: Date | null;
  @UpdatedAt() updatedAt: Date;
}
