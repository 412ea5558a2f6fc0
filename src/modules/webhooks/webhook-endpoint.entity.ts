import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';

/**
 * A receiver of signed event notifications. Every delivery computes an HMAC with the signing secret, so it has to
 * be recoverable (a hash would not do): the column holds it sealed with SECRETS_KEY (the repositories seal and
 * open it, src/infra/secrets/signing-secrets.ts). It is `select: false` so no ordinary query loads it, and it is
 * never logged.
 */
@Entity('webhook_endpoints')
export class WebhookEndpoint {
  @PrimaryColumn('uuid') id: string;
  @Index() @Column('uuid') organizationId: string;
  /** The world whose events the endpoint receives (its creating key's); false for a test endpoint. */
  @Column('boolean', { default: true }) livemode: boolean;
  @Column('text') url: string;
  @Column('text', { array: true }) events: string[];
  @Column('text', { select: false }) secret: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('boolean', { default: true }) isActive: boolean;
  /** Failed deliveries (all retries exhausted) in a row; the 10th disables the endpoint, a success resets it. */
  @Column('int', { default: 0 }) consecutiveFailures: number;
  /** When the endpoint was last disabled automatically (null when it never was or was re-enabled). */
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) disabledAt: Date | null;
  /** The last POST /recover, so re-sending a backlog runs at most once a minute per endpoint in every process. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) lastRecoveryAt: Date | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
