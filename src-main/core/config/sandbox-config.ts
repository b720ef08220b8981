import { z } from 'zod';

/**
 * A server's sandbox settings in VS Code's mcp.json format, so an entry moves between the two unchanged:
 * `"sandboxEnabled": true` and `"sandbox": { "filesystem": { allowWrite, denyRead, denyWrite },
 * "network": { allowedDomains, deniedDomains } }` (SECURITY X1). Meanings as VS Code's (Anthropic's sandbox
 * runtime): reads are allowed except the defaults' secret places and `denyRead`; writes only in `allowWrite`
 * (minus `denyWrite`); no network but `allowedDomains` (minus `deniedDomains`).
 */
export interface SandboxSettings {
  filesystem: {
    allowWrite: string[];
    denyRead: string[];
    denyWrite: string[];
    /** The sandbox runtime's own field (VS Code passes it through): reads re-allowed inside hidden places. */
    allowRead: string[];
  };
  network: { allowedDomains: string[]; deniedDomains: string[] };
}

const paths = z.array(z.string('must be a string').min(1, 'must not be empty'), 'must be an array of paths');
/** A host name, optionally `*.` for its subdomains, optionally `:port`: what the runtime's allowlist takes. */
const domain = z
  .string('must be a string')
  .regex(/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/i, 'must be a host name such as "api.github.com" or "*.example.com"');

const sandboxSchema = z
  .object({
    filesystem: z
      .object({ allowWrite: paths.optional(), denyRead: paths.optional(), denyWrite: paths.optional(), allowRead: paths.optional() }, 'must be an object')
      .optional(),
    network: z
      .object({ allowedDomains: z.array(domain, 'must be an array').optional(), deniedDomains: z.array(domain, 'must be an array').optional() }, 'must be an object')
      .optional(),
  }, 'must be an object');

const fieldsSchema = z.object({ sandboxEnabled: z.boolean('must be true or false').optional(), sandbox: sandboxSchema.optional() });

export type SandboxFields = { sandboxEnabled?: boolean; sandbox?: SandboxSettings };

/** The sandbox fields of one raw entry; a wrong one names the field ("sandbox.network.allowedDomains[0] …"). */
export function parseSandboxFields(raw: object): { ok: true; fields: SandboxFields } | { ok: false; field: string; message: string } {
  const parsed = fieldsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./, '');
    return { ok: false, field, message: issue.message };
  }
  const { sandboxEnabled, sandbox } = parsed.data;
  return {
    ok: true,
    fields: {
      ...(sandboxEnabled !== undefined ? { sandboxEnabled } : {}),
      ...(sandbox ? { sandbox: normalizeSandbox(sandbox) } : {}),
    },
  };
}

export function normalizeSandbox(sandbox: z.infer<typeof sandboxSchema> | undefined): SandboxSettings {
  return {
    filesystem: {
      allowWrite: sandbox?.filesystem?.allowWrite ?? [],
      denyRead: sandbox?.filesystem?.denyRead ?? [],
      denyWrite: sandbox?.filesystem?.denyWrite ?? [],
      allowRead: sandbox?.filesystem?.allowRead ?? [],
    },
    network: { allowedDomains: sandbox?.network?.allowedDomains ?? [], deniedDomains: sandbox?.network?.deniedDomains ?? [] },
  };
}
