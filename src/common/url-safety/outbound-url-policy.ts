import { BlockList, isIP } from 'node:net';
import type { AppConfig } from '../../infra/config/app-config';
import { isPublicAddress } from './ip-rules';

/**
 * Where the service may send requests on a customer's behalf (webhooks, function tools), from the configuration
 * (docs/operations.md, "Outbound URLs"):
 * - `allowInsecure` (WEBHOOK_ALLOW_INSECURE, refused in production): any address, http or https;
 * - an address inside `privateNetworks` (WEBHOOK_PRIVATE_NETWORKS, the operator's own network): http or https;
 * - any other address: https only, and only a public unicast address (ip-rules).
 */
export class OutboundUrlPolicy {
  private readonly listed?: BlockList;

  constructor(
    readonly allowInsecure: boolean,
    privateNetworks: readonly string[] = [],
  ) {
    if (privateNetworks.length) {
      this.listed = new BlockList();
      for (const cidr of privateNetworks) {
        const [network, prefix] = cidr.split('/');
        const family = isIP(network) === 6 ? 'ipv6' : 'ipv4';
        this.listed.addSubnet(network, Number(prefix ?? (family === 'ipv6' ? 128 : 32)), family);
      }
    }
  }

  static fromConfig(config: Pick<AppConfig, 'webhookAllowInsecure' | 'webhookPrivateNetworks'>): OutboundUrlPolicy {
    return new OutboundUrlPolicy(config.webhookAllowInsecure, config.webhookPrivateNetworks);
  }

  /** The operator listed private networks: names that look local must be resolved and judged, not refused. */
  get hasPrivateNetworks(): boolean {
    return this.listed !== undefined;
  }

  /** Whether `address` (an IP literal, brackets allowed) is inside the operator's listed networks. */
  isListed(address: string): boolean {
    if (!this.listed) return false;
    const bare = (address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address).split('%')[0];
    const family = isIP(bare);
    if (family === 0) return false;
    return this.listed.check(bare, family === 6 ? 'ipv6' : 'ipv4');
  }

  /** Why a connection to `address` over `protocol` (`http:` or `https:`) is refused, or null when allowed. */
  addressProblem(address: string, protocol: string): string | null {
    if (this.allowInsecure || this.isListed(address)) return null;
    if (protocol !== 'https:') return `${address} is outside WEBHOOK_PRIVATE_NETWORKS: only https is allowed`;
    return isPublicAddress(address) ? null : `${address} is a private, loopback or reserved address`;
  }

  /** The protocols a URL may use at all, before its addresses are known. */
  protocols(): string[] {
    return this.allowInsecure || this.listed ? ['https:', 'http:'] : ['https:'];
  }
}
