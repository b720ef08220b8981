import { StdioProcessTransport, type StdioLaunch } from '../mcp/stdio-transport';
import type { SandboxNetwork } from './net/sandbox-network';
import { describeDenial, detectDenial } from './sandbox-denial';
import type { SandboxPlan } from './sandbox-plan';

/**
 * A stdio transport whose child runs in the sandbox: it reads the child's stderr for refusals (SECURITY X1)
 * and, when the child ends after one, makes "blocked by the sandbox: read ~/.netrc" the reason the
 * connection gives (its `fatal`), so the row says what happened instead of "exited with code 1".
 * With allowedDomains it also runs the server's filtering proxy (`network`) for the child's life, and a
 * host the proxy refuses is a refusal like one read from stderr.
 */
export class SandboxedTransport extends StdioProcessTransport {
  /** The latest refusal seen, in the row's words; each new one is also written to the server's log. */
  denial: string | undefined;
  private partial = '';

  constructor(launch: StdioLaunch, plan: SandboxPlan, home: string, private readonly network?: SandboxNetwork) {
    super({
      ...launch,
      onStderr: (chunk) => {
        launch.onStderr(chunk);
        const lines = (this.partial + chunk).split('\n');
        this.partial = (lines.pop() ?? '').slice(-4096);
        for (const line of lines) {
          const denial = detectDenial(line, plan);
          if (!denial) continue;
          this.denial = describeDenial(denial, home);
          launch.onNoise(`[sandbox] ${this.denial}`);
        }
      },
    });
    if (network) {
      network.onRefused = (refusal) => {
        const text = describeDenial({ kind: 'connect', host: refusal.host }, home);
        // Allow would not help a host the entry denies: that refusal is only logged, not offered.
        if (refusal.grantable) this.denial = text;
        launch.onNoise(`[sandbox] ${text}${refusal.grantable ? '' : ` (${refusal.why})`}`);
      };
    }
  }

  override async start(): Promise<void> {
    // The SDK sets onclose before start; all stderr has arrived by the child's 'close', so the reason is known.
    const closed = this.onclose;
    this.onclose = () => {
      if (this.denial && !this.fatal) this.fatal = this.denial;
      void this.network?.close();
      closed?.();
    };
    try {
      await this.network?.open();
    } catch (error) {
      await this.network?.close();
      throw error;
    }
    return super.start();
  }

  override async close(): Promise<void> {
    await super.close();
    await this.network?.close();
  }
}
