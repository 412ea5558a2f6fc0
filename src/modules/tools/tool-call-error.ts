import type { OutboundResult } from '../../common/outbound-http/outbound-http.client';

export const TOOL_CALL_ERROR_CODES = [
  'HTTP_STATUS',
  'BAD_RESPONSE',
  'TOO_LARGE',
  'TIMEOUT',
  'CONNECTION',
  'URL_REFUSED',
] as const;
export type ToolCallErrorCode = (typeof TOOL_CALL_ERROR_CODES)[number];

/** Why a function tool's call failed, as the call records it: what the tool's owner needs to fix it. */
export interface ToolCallError {
  code: ToolCallErrorCode;
  message: string;
  /** The status the tool answered with, when it answered. */
  httpStatus?: number;
}

/** The answer a tool must give, named in every refusal of another. */
export const ANSWER_SHAPE = 'answer 2xx with a JSON object {"result": …}';

/**
 * The error of an outbound exchange that did not end in a 2xx answer read whole, or null when it did (its body
 * is then for `answerError` to judge).
 */
export function exchangeError(answer: OutboundResult, timeoutSeconds: number): ToolCallError | null {
  const status = answer.statusCode ? { httpStatus: answer.statusCode } : {};
  switch (answer.failure) {
    case null:
      return null;
    case 'timeout':
      return {
        code: 'TIMEOUT',
        message: `no answer within ${timeoutSeconds} s (the tool's timeoutSeconds)`,
        ...status,
      };
    case 'connection':
      return {
        code: 'CONNECTION',
        message: `could not reach the tool's URL after ${answer.attempts} attempt(s): ${answer.error}`,
      };
    case 'refused':
      return { code: 'URL_REFUSED', message: `the tool's URL is not allowed: ${answer.error}` };
    case 'too-large':
      return { code: 'TOO_LARGE', message: `${answer.error}; ${ANSWER_SHAPE}`, ...status };
    case 'status':
      return {
        code: 'HTTP_STATUS',
        message: `the tool answered HTTP ${answer.statusCode}; ${ANSWER_SHAPE}`,
        ...status,
      };
  }
}

/** The refusal of a 2xx answer that is not a JSON object with `result` (BAD_RESPONSE). */
export function answerError(problem: string, httpStatus: number | null): ToolCallError {
  return { code: 'BAD_RESPONSE', message: `${problem}; ${ANSWER_SHAPE}`, ...(httpStatus ? { httpStatus } : {}) };
}
