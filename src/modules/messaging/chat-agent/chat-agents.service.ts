import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../../common/errors/api-error';
import { APP_CONFIG, AppConfig } from '../../../infra/config/app-config';
import type { ChatPlatformName } from '../../../infra/config/platforms';
import { OutboundAssistantsService } from '../../assistants/outbound-assistants.service';
import { CasesService } from '../../cases/cases.service';
import { MessagingAccount } from '../messaging-account.entity';
import { ChatAgent, DEFAULT_HAND_OFF_KEYWORDS, DEFAULT_MAX_BOT_REPLIES } from './chat-agent.entity';
import { ChatAgentsRepository } from './chat-agents.repository';
import { PutChatAgentDto } from './put-chat-agent.dto';

/** The chat agent setting of each messaging account; an account never set has the agent off with the defaults. */
@Injectable()
export class ChatAgentsService {
  constructor(
    private readonly agents: ChatAgentsRepository,
    private readonly cases: CasesService,
    private readonly assistants: OutboundAssistantsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
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
    const { organizationId } = account;
    if (dto.caseId && !(await this.cases.exists(organizationId, dto.caseId))) {
      throw notInOrganization('caseId', 'Case', dto.caseId);
    }
    if (dto.assistantConfigId && !(await this.assistants.exists(organizationId, dto.assistantConfigId))) {
      throw notInOrganization('assistantConfigId', 'Assistant', dto.assistantConfigId);
    }
    const keywords = dto.handOffKeywords ?? DEFAULT_HAND_OFF_KEYWORDS;
    // The platform stays what it was when the agent was first set; two first settings at once choose the same.
    const platform = (await this.agents.find(account.id))?.platform ?? this.platformFor(account);
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
      platform,
    });
  }

  /**
   * The platform a new agent of the account answers on: a test account's always the simulator (README "Test and
   * live"); a live one's the voice platform VOICE_PROVIDER names when it has a chat API (Vapi), else the simulator.
   */
  private platformFor(account: MessagingAccount): ChatPlatformName {
    return account.livemode && this.config.voiceProvider === 'vapi' ? 'vapi' : 'simulator';
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
      platform: this.platformFor(account),
    });
  }
}

/** A referenced script or assistant must be the account organization's own (400, never another's). */
function notInOrganization(field: string, what: string, id: string): ApiError {
  return ApiError.validation(field, `${what} ${id} not found in the account's organization`);
}
