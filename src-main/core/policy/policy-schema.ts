import { z } from 'zod';

/**
 * One server an administrator names. Every field given must match (command basename or path, npm/PyPI
 * package name, a remote URL's host, the MCP Registry name); a rule with no field is refused by the schema.
 */
const serverMatcher = z
  .object({
    command: z.string().min(1).optional(),
    package: z.string().min(1).optional(),
    urlHost: z.string().min(1).optional(),
    registryName: z.string().min(1).optional(),
  })
  .strict()
  .refine((m) => Object.values(m).some((v) => v !== undefined), 'a server rule needs command, package, urlHost or registryName');

/**
 * The administrator's policy file (SECURITY X2). Unknown keys are errors, not ignored: a misspelt rule
 * would otherwise quietly not apply, and the file fails closed instead.
 */
export const policySchema = z
  .object({
    /** When present, only servers matching one of these may start or be installed. */
    allowedServers: z.array(serverMatcher).optional(),
    /** Servers that never start and are never installed; wins over allowedServers. */
    deniedServers: z.array(serverMatcher).optional(),
    /** "required": every local server runs sandboxed whatever its entry says; where no sandbox exists it does not start. */
    sandbox: z.enum(['required', 'optional']).optional(),
    /** "registry-only": installs only from the MCP Registry or the catalog; "off": no installs at all. */
    installs: z.enum(['allowed', 'registry-only', 'off']).optional(),
    /** "always-ask": no tool or server may be set to run without asking. */
    approvals: z.enum(['always-ask', 'person-decides']).optional(),
  })
  .strict();

export type Policy = z.infer<typeof policySchema>;
export type ServerMatcher = z.infer<typeof serverMatcher>;
