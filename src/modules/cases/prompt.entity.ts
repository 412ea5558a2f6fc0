import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';

/** A prompt-library entry (dashboard-managed). Cases and inbound assistants may draw their prompt from one. */
@Entity('prompts')
export class Prompt {
  @PrimaryColumn('uuid') id: string;
  @Index() @Column('uuid') organizationId: string;
  @Column('text') content: string;
  @CreatedAt() createdAt: Date;
}
