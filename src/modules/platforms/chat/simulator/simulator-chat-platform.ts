import { Injectable } from '@nestjs/common';
import {
  ChatAnswer,
  ChatPlatform,
  ChatTurn,
  ScriptedAnswer,
  ScriptedTurn,
  SummaryInput,
} from '../../../messaging/chat-agent/chat-platform';
import { mentionsWholeWord } from '../../../messaging/chat-agent/hand-off-keywords';

/** How much of the user's last text the simulator's summary quotes. */
export const SUMMARY_QUOTE_LENGTH = 100;

/** Deterministic answers and summaries, so tests and test-mode accounts can tell exactly what to expect. */
@Injectable()
export class SimulatorChatPlatform extends ChatPlatform {
  reply(turn: ChatTurn): Promise<ChatAnswer> {
    const name = turn.contact?.title.trim() || 'there';
    return Promise.resolve({ text: `Thanks ${name}, you said: "${turn.text}"`, chatId: null });
  }

  /**
   * A scripted turn answers as `reply` does (the name from the `name` variable), and calls each function tool
   * whose name the user's text holds as a whole word (any case), with `{ "text": <the user's text> }`: a
   * scenario can be written to pass or to fail on the simulator (docs/testing-your-assistant.md).
   */
  converse(turn: ScriptedTurn): Promise<ScriptedAnswer> {
    const name = turn.userName?.trim() || 'there';
    const toolCalls = turn.tools
      .filter((tool) => tool.type === 'function' && tool.name && mentionsWholeWord(turn.text, [tool.name]))
      .map((tool) => ({ name: tool.name!, arguments: { text: turn.text } }));
    return Promise.resolve({ text: `Thanks ${name}, you said: "${turn.text}"`, chatId: null, toolCalls, usage: null });
  }

  summarize(input: SummaryInput): Promise<string> {
    return Promise.resolve(
      `${input.messageCount} messages; last from the user: "${input.lastUserText.slice(0, SUMMARY_QUOTE_LENGTH)}"`,
    );
  }
}
