import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { OutboundUrlPolicy } from './outbound-url-policy';

export class BlockedAddressError extends Error {
  readonly code = 'EWEBHOOKBLOCKED';
}

/**
 * A `lookup` for an outgoing agent: resolves the host itself and refuses the connection when ANY resolved
 * address is not allowed by `policy` for `protocol`, then hands the socket exactly the addresses it vetted.
 * Because the check and the connect use the same answer, a DNS server that flips to 127.0.0.1 between a check
 * and a connect (rebinding) gains nothing.
 */
export function safeLookup(policy: OutboundUrlPolicy, protocol: 'http:' | 'https:'): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const problem = addresses.map((a) => policy.addressProblem(a.address, protocol)).find((p) => p !== null);
      if (problem || !addresses.length) {
        return callback(new BlockedAddressError(`${hostname}: ${problem ?? 'resolves to no address'}`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
