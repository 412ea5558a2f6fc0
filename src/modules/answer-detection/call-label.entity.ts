import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../common/entities/timestamps';
import type { AnsweredBy } from '../call-outcomes/answered-by';

/**
 * What a person heard on an ended call (docs/answer-detection.md): the truth the platform's `answeredBy` is
 * measured against. One per call; a second label replaces the first. Kept beside the call rather than on it, so
 * labelling never touches a call's row.
 */
@Entity('call_labels')
@Index('ix_call_labels_world', ['organizationId', 'livemode'])
export class CallLabel {
  /** The call labelled; no foreign key, like the call's other references (history outlives deletes). */
  @PrimaryColumn('uuid') callId: string;
  @Column('uuid') organizationId: string;
  @Column('boolean') livemode: boolean;
  @Column('text') answeredBy: AnsweredBy;
  @Column('text', { nullable: true }) note: string | null;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
