import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../../../common/errors/api-error';
import { MessagingAccount } from '../messaging-account.entity';
import { ChatAgent, DEFAULT_HAND_OFF_KEYWORDS, DEFAULT_MAX_BOT_REPLIES } from './chat-agent.entity';
import { ChatAgentsRepository } from './chat-agents.repository';
import { PutChatAgentDto } from './put-chat-agent.dto';

/** The chat agent setting of each messaging account; an account never set has the agent off with the defaults. */
@Injectable()
export class ChatAgentsService {
  constructor(
    private readonly agents: ChatAgentsRepository,
    private readonly dataSource: DataSource,
  ) {}

  /** The setting, or the defaults (agent off) for an account never set. */
  async get(account: MessagingAccount): Promise<ChatAgent> {
    return (await this.agents.find(account.id)) ?? this.defaults(account);
  }

  /** The setting only when the agent answers. */
  async enabledFor(accountId: string): Promise<ChatAgent | null> {
    return this.agents.find(accountId, true);
  }

  /** Replaces the whole setting: an omitted field takes its default (PUT). */
  async put(account: MessagingAccount, dto: PutChatAgentDto): Promise<ChatAgent> {
    await this.mustBelong('cases', 'caseId', dto.caseId, account.organizationId, 'Case');
    await this.mustBelong(
      'outbound_assistants',
      'assistantConfigId',
      dto.assistantConfigId,
      account.organizationId,
      'Assistant',
    );
    const keywords = dto.handOffKeywords ?? DEFAULT_HAND_OFF_KEYWORDS;
    return this.agents.put({
      accountId: account.id,
      organizationId: account.organizationId,
      enabled: dto.enabled,
      caseId: dto.caseId ?? null,
      assistantConfigId: dto.assistantConfigId ?? null,
      // Matched whole word and any case: stored trimmed and lower-cased, once each.
      handOffKeywords: [...new Set(keywords.map((k) => k.trim().toLowerCase()))],
      maxBotReplies: dto.maxBotReplies ?? DEFAULT_MAX_BOT_REPLIES,
      summary: dto.summary ?? true,
    });
  }

  /** A referenced script or assistant must be the account organization's own (400, never another's). */
  private async mustBelong(table: string, field: string, id: string | null | undefined, orgId: string, what: string) {
    if (!id) return;
    const rows: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM ${table} WHERE id = $1 AND organization_id = $2`,
      [id, orgId],
    );
    if (!rows.length) throw ApiError.validation(field, `${what} ${id} not found in the account's organization`);
  }

  private defaults(account: MessagingAccount): ChatAgent {
    return Object.assign(new ChatAgent(), {
      accountId: account.id,
      organizationId: account.organizationId,
      enabled: false,
      caseId: null,
      assistantConfigId: null,
      handOffKeywords: DEFAULT_HAND_OFF_KEYWORDS,
      maxBotReplies: DEFAULT_MAX_BOT_REPLIES,
      summary: true,
    });
  }
}
