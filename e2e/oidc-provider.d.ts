/**
 * The part of panva's oidc-provider (which ships no types) that e2e/oidc.spec.ts uses: a provider
 * with clients, keys and accounts, its Koa middleware hook, and its Node request handler.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  interface Context {
    path: string;
    body: unknown;
  }
  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }
  interface Configuration {
    clients: Record<string, unknown>[];
    jwks: { keys: Record<string, unknown>[] };
    cookies: { keys: string[] };
    claims: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    findAccount(ctx: Context, id: string): Promise<Account>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    use(middleware: (ctx: Context, next: () => Promise<void>) => Promise<void>): void;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
