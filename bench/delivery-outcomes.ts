/**
 * The delivering process's `vc_webhook_deliveries_total` by outcome (`deferred`: waited for a share or a slot),
 * and the deferrals per delivery made: each deferral is a queue round trip that delivers nothing.
 */
export async function deliveryOutcomes(
  metricsUrl: string,
): Promise<{ counts: Record<string, number>; deferralsPerDelivery: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const counts = Object.fromEntries(
    [...text.matchAll(/^vc_webhook_deliveries_total\{outcome="([^"]+)"\} (\S+)$/gm)].map(([, o, n]) => [o, Number(n)]),
  );
  const deferralsPerDelivery = +((counts.deferred ?? 0) / Math.max(1, counts.delivered ?? 0)).toFixed(2);
  return { counts, deferralsPerDelivery };
}
