import { StdioProcessTransport, type StdioLaunch } from '../mcp/stdio-transport';
import type { SandboxNetwork } from './net/sandbox-network';
import { describeDenial, detectDenial, type DenialWatch, type SandboxDenial } from './sandbox-denial';
import type { SandboxPlan } from './sandbox-plan';

/**
 * A stdio transport whose child runs in the sandbox: it reads the child's stderr for refusals (SECURITY X1)
 * and, when the child ends after one, makes "blocked by the sandbox: read ~/.netrc" the reason the
 * connection gives (its `fatal`), so the row says what happened instead of "exited with code 1". While it
 * runs, it tells the call path which refusal a failed call met (DenialWatch).
 * With allowedDomains it also runs the server's filtering proxy (`network`) for the child's life, and a
 * host the proxy refuses is a refusal like one read from stderr.
 */
export class SandboxedTransport extends StdioProcessTransport implements DenialWatch {
  /** The latest refusal seen, in the row's words; each new one is also written to the server's log. */
  denial: string | undefined;
  private seen = 0;
  private partial = '';
  private readonly onNoise: (line: string) => void;

  constructor(
    launch: StdioLaunch,
    private readonly plan: SandboxPlan,
    private readonly home: string,
    private readonly network?: SandboxNetwork,
  ) {
    super({
      ...launch,
      onStderr: (chunk) => {
        launch.onStderr(chunk);
        const lines = (this.partial + chunk).split('\n');
        this.partial = (lines.pop() ?? '').slice(-4096);
        for (const line of lines) {
          const denial = detectDenial(line, plan);
          if (denial) this.refused(denial);
        }
      },
    });
    this.onNoise = launch.onNoise;
    if (network) {
      network.onRefused = (refusal) => {
        // Allow would not help a host the entry denies: that refusal is only logged, not offered.
        if (refusal.grantable) this.refused({ kind: 'connect', host: refusal.host });
        else this.onNoise(`[sandbox] ${describeDenial({ kind: 'connect', host: refusal.host }, home)} (${refusal.why})`);
      };
    }
  }

  /**
   * One refusal, wherever it was seen (stderr here; a filtering proxy's refused connection): the latest is
   * the reason if the server dies of it, and the call running meanwhile is told (explain).
   */
  refused(denial: SandboxDenial): void {
    this.denial = describeDenial(denial, this.home);
    this.seen++;
    this.onNoise(`[sandbox] ${this.denial}`);
  }

  mark(): number {
    return this.seen;
  }

  explain(mark: number, errorText: string): string | undefined {
    const own = detectDenial(errorText, this.plan);
    if (own) return describeDenial(own, this.home);
    return this.seen > mark ? this.denial : undefined;
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
