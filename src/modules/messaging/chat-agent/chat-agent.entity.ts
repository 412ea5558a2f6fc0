import { Column, Entity, PrimaryColumn } from 'typeorm';
import { CreatedAt, UpdatedAt } from '../../../common/entities/timestamps';
import type { ChatPlatformName } from '../../../infra/config/platforms';

export const DEFAULT_HAND_OFF_KEYWORDS = ['agent', 'human', 'person'];
export const DEFAULT_MAX_BOT_REPLIES = 10;

/** The chat agent of one messaging account (README "Chat agent"): who answers, and when a person takes over. */
@Entity('chat_agents')
export class ChatAgent {
  @PrimaryColumn('uuid') accountId: string;
  @Column('uuid') organizationId: string;
  @Column('boolean') enabled: boolean;
  /** The script (prompt, variables) the agent answers with; no foreign key, as for calls. */
  @Column('uuid', { nullable: true }) caseId: string | null;
  /** The assistant whose model (and prompt, without a case) the agent uses. */
  @Column('uuid', { nullable: true }) assistantConfigId: string | null;
  @Column('text', { array: true }) handOffKeywords: string[];
  @Column('integer') maxBotReplies: number;
  @Column('boolean') summary: boolean;
  /**
   * Who answers: the chat platform fixed when the agent is first set (a test account's: the simulator), never
   * moved by a later setting (docs/providers.md, "The platform per number").
   */
  @Column('text', { default: 'simulator' }) platform: ChatPlatformName;
  @CreatedAt() createdAt: Date;
  @UpdatedAt() updatedAt: Date;
}
