import { Injectable } from '@nestjs/common';
import { ChatAnswer, ChatPlatform, ChatTurn, SummaryInput } from './chat-platform';

/** How much of the user's last text the simulator's summary quotes. */
export const SUMMARY_QUOTE_LENGTH = 100;

/** Deterministic answers and summaries, so tests and test-mode accounts can tell exactly what to expect. */
@Injectable()
export class SimulatorChatPlatform extends ChatPlatform {
  reply(turn: ChatTurn): Promise<ChatAnswer> {
    const name = turn.contact?.title.trim() || 'there';
    return Promise.resolve({ text: `Thanks ${name}, you said: "${turn.text}"`, chatId: null });
  }

  summarize(input: SummaryInput): Promise<string> {
    return Promise.resolve(
      `${input.messageCount} messages; last from the user: "${input.lastUserText.slice(0, SUMMARY_QUOTE_LENGTH)}"`,
    );
  }
}
