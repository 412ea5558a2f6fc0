import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';

/** The provider's template statuses (WhatsApp's, as its template list and status webhooks report them). */
export const TEMPLATE_STATUSES = [
  'APPROVED',
  'PENDING',
  'REJECTED',
  'IN_APPEAL',
  'PAUSED',
  'DISABLED',
  'PENDING_DELETION',
  'DELETED',
  'LIMIT_EXCEEDED',
] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

/** A template's non-body parts as the provider describes them (header format and text, buttons), kept as read. */
export interface TemplateComponentSummary {
  type: 'HEADER' | 'FOOTER' | 'BUTTONS';
  format?: string;
  text?: string;
  buttons?: Array<{ type: string; text?: string; url?: string }>;
}

/** A message template registered with the provider; the only kind of message allowed outside the 24-hour window. */
@Entity('messaging_templates')
@Index('ux_messaging_templates_account_name_language', ['accountId', 'name', 'language'], { unique: true })
export class MessagingTemplate {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') accountId: string;
  @Column('text') name: string;
  /** A locale code such as `en_US`. */
  @Column('text') language: string;
  @Column('text') status: TemplateStatus;
  /** Body text with `{{1}}`, `{{2}}` (positional) or `{{name}}` (named) placeholders. */
  @Column('text') body: string;
  /** Header, footer and buttons, when the template was synced from the provider; null when typed in by hand. */
  @Column('jsonb', { nullable: true }) components: TemplateComponentSummary[] | null;
  /** The provider's template id, once synced. */
  @Column('text', { nullable: true }) providerTemplateId: string | null;
  /** When the provider last told us about this template (a sync or a status webhook); null: typed in by hand. */
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) syncedAt: Date | null;
  @CreatedAt() createdAt: Date;
}
