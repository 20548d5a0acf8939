// The config file's shape. Every key is declared; an unknown key is an error, never ignored.
import { z } from 'zod';
import { EFFECTS, EFFECT_RULES, LEVELS, TOOL_RULES } from '../../common/domain';
import { DEFAULT_ALLOW_HOSTS, hostPatternProblem } from '../../common/hosts';
import { remoteSchema } from './remote-schema';

const effectRules = z.object(Object.fromEntries(EFFECTS.map((e) => [e, z.enum(EFFECT_RULES).optional()]))).strict();

const grantEntry = z
  .object({
    tool: z.string().min(1),
    argv: z.array(z.string().min(1)).min(1).optional(),
    /** How argv matches: "exact" (these words only) or "prefix" (then any further arguments; the default, as before). */
    match: z.enum(['exact', 'prefix']).optional(),
    redirects: z.array(z.string().min(1)).optional(),
    path: z.string().min(1).optional(),
    url: z.string().min(1).optional(),
    any: z.literal(true).optional(),
    note: z.string().optional(),
  })
  .strict();

const providerKeys = {
  kind: z.enum(['openai-compatible', 'anthropic', 'openai']).default('openai-compatible'),
  base_url: z.string().url().optional(),
  model: z.string().min(1).optional(),
  api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name').optional(),
};

export const configSchema = z
  .object({
    autonomy: z.object({ level: z.enum(LEVELS).default('supervised') }).strict().default({ level: 'supervised' }),
    rules: z
      .object({
        effects: effectRules.default({}),
        tools: z.record(z.string(), z.enum(TOOL_RULES)).default({}),
      })
      .strict()
      .default({ effects: {}, tools: {} }),
    grants: z.array(grantEntry).default([]),
    workspace: z
      .object({ path: z.string().min(1).optional() })
      .strict()
      .default({}),
    approvals: z
      .object({
        ttl_seconds: z.number().int().min(0).max(7 * 24 * 3600).default(600),
      })
      .strict()
      .default({ ttl_seconds: 600 }),
    executor: z
      .object({
        unjailed: z.boolean().default(false),
        env_allow: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')).default([]),
        timeout_seconds: z.number().int().min(1).max(24 * 3600).default(120),
        grace_seconds: z.number().min(0.1).max(60).default(2),
        output_cap_bytes: z.number().int().min(1024).max(256 * 1024 * 1024).default(1024 * 1024),
        max_processes: z.number().int().min(8).max(65536).default(256),
        max_file_mb: z.number().int().min(1).max(1024 * 1024).default(1024),
        cpu_seconds: z.number().int().min(1).max(7 * 24 * 3600).default(600),
        checkpoint_max_file_mb: z.number().min(0.01).max(1024).default(10),
        /** Memory limit per jailed call; unset: half of the machine's RAM (decided at start). */
        max_memory_mb: z.number().int().min(16).max(16 * 1024 * 1024).optional(),
      })
      .strict()
      .default({ unjailed: false, env_allow: [], timeout_seconds: 120, grace_seconds: 2, output_cap_bytes: 1024 * 1024, max_processes: 256, max_file_mb: 1024, cpu_seconds: 600, checkpoint_max_file_mb: 10 }),
    provider: z
      .object({
        ...providerKeys,
        timeout_seconds: z.number().int().min(5).max(3600).default(300),
      })
      .strict()
      .default({ kind: 'openai-compatible', timeout_seconds: 300 }),
    agent: z
      .object({
        max_steps: z.number().int().min(1).max(500).default(25),
        question_timeout_seconds: z.number().int().min(5).max(7 * 24 * 3600).default(600),
      })
      .strict()
      .default({ max_steps: 25, question_timeout_seconds: 600 }),
    mcp: z
      .object({
        servers: z
          .record(
            z.string().regex(/^[a-z0-9][a-z0-9-]{0,30}$/, 'MCP server names are lower-case letters, digits and dashes'),
            z
              .object({
                command: z.string().min(1),
                args: z.array(z.string()).default([]),
                env: z.record(z.string(), z.string()).default({}),
                env_from: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).default([]),
                cwd: z.string().min(1).optional(),
                tier: z.enum(['write', 'exec']).default('write'),
              })
              .strict(),
          )
          .default({}),
      })
      .strict()
      .default({ servers: {} }),
    control: z
      .object({ enabled: z.boolean().default(true) })
      .strict()
      .default({ enabled: true }),
    hooks: z
      .object({
        /** Commands another agent's hook lets run go to Threshold's jail, after a checkpoint (where the hook can rewrite the call). */
        jail: z.boolean().default(false),
      })
      .strict()
      .default({ jail: false }),
    network: z
      .object({
        /** Hosts a network-class jail may reach through the egress proxy without a grant (common/hosts.ts). */
        allow_hosts: z
          .array(z.string().superRefine((v, ctx) => {
            const problem = hostPatternProblem(v);
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          }))
          .default([...DEFAULT_ALLOW_HOSTS]),
      })
      .strict()
      .default({ allow_hosts: [...DEFAULT_ALLOW_HOSTS] }),
    security: z
      .object({
        /** Tools (`write_file`, `mcp.server.*`) and effects no reviewer may answer: a human decides. */
        never_auto_approve: z.array(z.string().min(1)).default([]),
        auto_approval: z
          .object({
            enabled: z.boolean().default(false),
            max_per_turn: z.number().int().min(1).max(100).default(5),
            timeout_seconds: z.number().min(1).max(120).default(10),
            reviewers: z.array(z.string().regex(/^[a-z0-9][a-z0-9_-]{0,30}$/)).min(1).default(['approval']),
          })
          .strict()
          .default({ enabled: false, max_per_turn: 5, timeout_seconds: 10, reviewers: ['approval'] }),
      })
      .strict()
      .default({ never_auto_approve: [], auto_approval: { enabled: false, max_per_turn: 5, timeout_seconds: 10, reviewers: ['approval'] } }),
    reviewers: z
      .record(
        z.string().regex(/^[a-z0-9][a-z0-9_-]{0,30}$/, 'reviewer names are lower-case letters, digits, _ and -'),
        z
          .object({
            ...providerKeys,
            system_prompt: z.string().min(1).optional(),
            reasoning_effort: z.enum(['low', 'medium', 'high']).optional(),
            temperature: z.number().min(0).max(2).default(0),
          })
          .strict(),
      )
      .default({}),
    remote: remoteSchema,
    audit: z
      .object({
        retention_max_entries: z.number().int().min(1000).optional(),
        retention_max_age_days: z.number().int().min(1).optional(),
      })
      .strict()
      .default({}),
  })
  .strict();
export type ParsedConfig = z.output<typeof configSchema>;
export type GrantEntry = z.output<typeof grantEntry>;
