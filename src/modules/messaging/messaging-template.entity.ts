import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';

export const TEMPLATE_STATUSES = ['APPROVED', 'PENDING', 'REJECTED'] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

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
  @CreatedAt() createdAt: Date;
}
