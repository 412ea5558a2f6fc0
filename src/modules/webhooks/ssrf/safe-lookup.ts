import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from './ip-rules';

export class BlockedAddressError extends Error {
  readonly code = 'EWEBHOOKBLOCKED';
}

/**
 * A `lookup` for the delivery agent: resolves the host itself and refuses the connection when ANY resolved
 * address is not public, then hands the socket exactly the addresses it vetted. Because the check and the
 * connect use the same answer, a DNS server that flips to 127.0.0.1 between a check and a connect (rebinding)
 * gains nothing.
 */
export const safeLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const blocked = addresses.find((a) => !isPublicAddress(a.address));
    if (blocked || !addresses.length) {
      return callback(
        new BlockedAddressError(`${hostname} resolves to a non-public address (${blocked?.address ?? 'none'})`),
        '',
        0,
      );
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};
