import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ChatAgent } from './chat-agent.entity';

/** The SQL of `chat_agents`: one setting per messaging account. */
@Injectable()
export class ChatAgentsRepository {
  constructor(@InjectRepository(ChatAgent) private readonly agents: Repository<ChatAgent>) {}

  /** The account's setting, or only an enabled one when `enabledOnly`. */
  find(accountId: string, enabledOnly = false): Promise<ChatAgent | null> {
    return this.agents.findOneBy(enabledOnly ? { accountId, enabled: true } : { accountId });
  }

  /** Replaces the account's whole setting and reads it back. */
  async put(agent: Omit<ChatAgent, 'createdAt' | 'updatedAt'>): Promise<ChatAgent> {
    await this.agents.upsert(agent, ['accountId']);
    return this.agents.findOneByOrFail({ accountId: agent.accountId });
  }
}
