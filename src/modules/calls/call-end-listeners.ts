import { Injectable } from '@nestjs/common';
import type { Call } from './call.entity';

/**
 * In-process listeners of calls ending, told in the process that ended the call, once the end has committed. A
 * shortcut for work that the call's event (call.ended / call.failed) would otherwise start only after its way
 * through the outbox and the queue (a campaign refilling the slot the call held): never the only way that work
 * is done, since the event still comes, and a listener must not throw (the call has ended whatever it does).
 */
@Injectable()
export class CallEndListeners {
  private readonly listeners: Array<(call: Call) => void> = [];

  on(listener: (call: Call) => void): void {
    this.listeners.push(listener);
  }

  ended(call: Call): void {
    for (const listener of this.listeners) listener(call);
  }
}
