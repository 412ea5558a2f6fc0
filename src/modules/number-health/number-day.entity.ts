import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One number's outbound calls of one UTC day, in one world (docs/number-health.md), counted as each call ends:
 * the health endpoint reads these rows, never the calls.
 */
@Entity('number_days')
export class NumberDay {
  @PrimaryColumn('uuid') phoneNumberId: string;
  @PrimaryColumn('boolean') livemode: boolean;
  @PrimaryColumn('date') day: string;
  @Column('integer', { default: 0 }) placed: number;
  @Column('integer', { default: 0 }) human: number;
  @Column('integer', { default: 0 }) voicemail: number;
  @Column('integer', { default: 0 }) notAnswered: number;
  @Column('integer', { default: 0 }) failed: number;
  /** Calls someone or something picked up (any `answeredBy`): the calls `talkSeconds` is averaged over. */
  @Column('integer', { default: 0 }) connected: number;
  @Column('double precision', { default: 0 }) talkSeconds: number;
}
