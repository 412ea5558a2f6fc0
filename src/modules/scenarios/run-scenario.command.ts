import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { World } from '../../common/auth/world';
import { inTransaction } from '../../infra/database/tx';
import { resolveCall } from '../calls/call-resolution';
import { CasesService } from '../cases/cases.service';
import { ChatPlatformRouter } from '../messaging/chat-agent/chat-platform-router';
import type { ScriptedTurn } from '../messaging/chat-agent/chat-platform';
import { DEFAULT_HAND_OFF_KEYWORDS } from '../messaging/chat-agent/chat-agent.entity';
import { mentionsHandOffKeyword } from '../messaging/chat-agent/hand-off-keywords';
import { OutboxService } from '../outbox/outbox.service';
import { callToolOf } from '../tools/call-tools';
import { ToolsService } from '../tools/tools.service';
import { evaluateExpectations, RunTranscriptLine } from './scenario-expectations';
import { ScenarioRun } from './scenario-run.entity';
import { RunOutcome, ScenarioRunsRepository } from './scenario-runs.repository';
import { ScenariosRepository } from './scenarios.repository';

/** A script ready to play: the case version's prompt and opening line rendered with the scenario's variables. */
type Script = Omit<ScriptedTurn, 'text' | 'previousChatId'> & { firstMessage: string };

/**
 * Plays one queued run (docs/testing-your-assistant.md, "How a run plays"): claims it (`queued -> running`),
 * renders the case version as a call would (the scenario's variables as variableValues, no contact), opens with
 * the rendered first message, sends each user turn through the chat platform of the run's world (test: the
 * simulator; live: the voice platform's chat API), stops at a turn holding a hand-off keyword (the chat agent's
 * defaults), judges each expectation and records the outcome with `scenario_run.completed` in one transaction.
 * Nothing is called, billed or sent to anyone; tool calls are recorded, never executed.
 */
@Injectable()
export class RunScenarioCommand {
  private readonly logger = new Logger(RunScenarioCommand.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly runs: ScenarioRunsRepository,
    private readonly scenarios: ScenariosRepository,
    private readonly cases: CasesService,
    private readonly tools: ToolsService,
    private readonly platforms: ChatPlatformRouter,
    private readonly outbox: OutboxService,
  ) {}

  /** The run as it ended, or null when it was not this worker's to play (another has it, or it ended). */
  async execute(runId: string): Promise<ScenarioRun | null> {
    const run = await this.runs.claim(runId);
    if (!run) return null;
    const started = Date.now();
    const outcome = await this.play(run).catch((error: unknown): RunOutcome => {
      this.logger.warn({ runId, err: error }, 'Scenario run failed to play');
      const message = error instanceof Error ? error.message : String(error);
      return { status: 'error', transcript: [], expectations: [], durationMs: null, usage: null, error: message };
    });
    return inTransaction(this.dataSource, async (m) => {
      const ended = await this.runs.finish(m, run.id, { ...outcome, durationMs: Date.now() - started });
      if (ended) await this.outbox.record(m, ended, 'scenario_run.completed', { runId: ended.id });
      return ended;
    });
  }

  private async play(run: ScenarioRun): Promise<RunOutcome> {
    const world: World = { organizationId: run.organizationId, livemode: run.livemode };
    const scenario = await this.scenarios.find(world, run.scenarioId);
    if (!scenario) throw new Error('The scenario was deleted before its run was played');
    const script = await this.script(run, scenario.variables);
    const platform = this.platforms.forWorld(run.livemode);
    const transcript: RunTranscriptLine[] = [];
    if (script.firstMessage) transcript.push({ role: 'assistant', text: script.firstMessage });
    let previousChatId: string | null = null;
    const usage = { tokens: 0, costUsd: 0, reported: false };
    let handedOff = false;
    for (const text of scenario.turns) {
      transcript.push({ role: 'user', text });
      // The chat agent's rule: a hand-off keyword hands the conversation to a person, and the bot stops.
      if (mentionsHandOffKeyword(text, DEFAULT_HAND_OFF_KEYWORDS)) {
        handedOff = true;
        break;
      }
      const answer = await platform.converse({ ...script, text, previousChatId });
      transcript.push({
        role: 'assistant',
        text: answer.text,
        ...(answer.toolCalls.length ? { toolCalls: answer.toolCalls } : {}),
      });
      previousChatId = answer.chatId;
      if (answer.usage) {
        usage.tokens += answer.usage.tokens;
        usage.costUsd += answer.usage.costUsd;
        usage.reported = true;
      }
    }
    const expectations = evaluateExpectations(scenario.expect, transcript, handedOff);
    const status = expectations.every((e) => e.passed) ? 'passed' : 'failed';
    return {
      status,
      transcript,
      expectations,
      durationMs: null,
      usage: usage.reported ? { tokens: usage.tokens, costUsd: usage.costUsd } : null,
      error: null,
    };
  }

  /** The run's case version rendered with the scenario's variables (a required one missing is the run's error). */
  private async script(run: ScenarioRun, variables: Record<string, string>): Promise<Script> {
    const { kase, tools } = await inTransaction(this.dataSource, async (m) => {
      const kase = await this.cases.getForCall(m, run.organizationId, run.caseId, run.caseVersion);
      return { kase, tools: (await this.tools.forCall(m, run.organizationId, kase.case.toolIds)).map(callToolOf) };
    });
    const resolved = resolveCall({
      request: { variableValues: variables },
      contact: null,
      case: { ...kase.case, prompt: kase.prompt, tools },
      assistant: null,
    });
    return {
      organizationId: run.organizationId,
      systemPrompt: resolved.systemPrompt,
      firstMessage: resolved.firstMessage,
      tools,
      userName: resolved.variableValues?.name ?? null,
    };
  }
}
