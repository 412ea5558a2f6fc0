/** Call totals over a span of the ledger (a day's rollup, or rows read one by one). */
export interface CallTotals {
  calls: number;
  inboundCalls: number;
  talkMins: number;
  inboundMins: number;
  deductedMins: number;
}
