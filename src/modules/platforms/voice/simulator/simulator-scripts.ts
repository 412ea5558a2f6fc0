import { Injectable } from '@nestjs/common';
import { BoundedMap } from '../../../../common/cache/bounded-map';
import type { CallScript } from '../../../calls/voice/voice-ingress';

/** Scripts of calls being played that a process keeps at most; past it, the one kept longest goes first. */
const KEPT_SCRIPTS = 1000;
/** A script longer than this (prompt and first message, in characters) is read again at each step instead. */
const KEPT_SCRIPT_CHARS = 8192;

/**
 * The scripts of the simulated calls a process plays. A call's script is fixed once it is placed (resolved when
 * the call was created, its tools restricted at dispatch, before placement), so it is kept from the placement on:
 * the steps this process plays read nothing, and a step played in another process (or after a restart) reads the
 * script there once and keeps it until the call's last step. Reading it at each step was a seventh of a campaign
 * call's statements, and once per call still the largest count of one statement (`npm run bench campaign`).
 * Kept scripts are bounded in number and length.
 */
@Injectable()
export class SimulatorScripts {
  private readonly kept = new BoundedMap<string, CallScript>(KEPT_SCRIPTS);

  get(callId: string): CallScript | undefined {
    return this.kept.get(callId);
  }

  /** Keeps the script's own fields only (not the rest of a call row); a long one is left to be read again. */
  keep({ id, callTo, systemPrompt, firstMessage, voicemail, analysisPlan, tools }: CallScript): void {
    if ((systemPrompt?.length ?? 0) + (firstMessage?.length ?? 0) > KEPT_SCRIPT_CHARS) return;
    // A call ended early never plays its last step: the oldest kept script makes room.
    this.kept.set(id, { id, callTo, systemPrompt, firstMessage, voicemail, analysisPlan, tools });
  }

  forget(callId: string): void {
    this.kept.delete(callId);
  }
}
