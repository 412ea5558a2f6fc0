import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt } from '../../common/entities/timestamps';

/** Answers calls to the organization's numbers; its prompt comes from the prompt library. */
@Entity('inbound_assistants')
export class InboundAssistant {
  @PrimaryColumn('uuid') id: string;
  @Index() @Column('uuid') organizationId: string;
  @Column('text') name: string;
  @Column('uuid') systemPromptId: string;
  @CreatedAt() createdAt: Date;
}
