// The part of oidc-provider 9's API this service uses (the package ships no type declarations and @types/oidc-provider
// is not installed). Loose where the service does not depend on the shape.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type AdapterPayload = {
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: number;
    jti?: string;
    [key: string]: unknown;
  };

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export type Configuration = Record<string, unknown>;

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id: string; scope?: string; resource?: string | string[]; redirect_uri?: string };
    returnTo: string;
    exp: number;
  }

  export interface GrantInstance {
    addResourceScope(resource: string, scope: string): void;
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
    readonly jti: string;
    readonly accountId: string;
    readonly clientId: string;
  }

  export interface ClientInstance {
    readonly clientId: string;
    readonly clientName?: string;
    readonly clientUri?: string;
    readonly redirectUris: string[];
  }

  export interface AccessTokenInstance {
    readonly jti: string;
    readonly aud?: string | string[];
    readonly scope?: string;
    readonly grantId?: string;
    readonly clientId: string;
    readonly accountId: string;
    readonly extra?: Record<string, unknown>;
    readonly isExpired: boolean;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    proxy: boolean;
    readonly issuer: string;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, opts?: { mergeWithLastSubmission?: boolean }): Promise<void>;
    interactionResult(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, opts?: { mergeWithLastSubmission?: boolean }): Promise<string>;
    on(event: string, listener: (...args: any[]) => void): this;
    readonly Grant: { new (init: { accountId: string; clientId: string }): GrantInstance; find(id: string): Promise<GrantInstance | undefined> };
    readonly Client: { find(id: string): Promise<ClientInstance | undefined> };
    readonly AccessToken: { find(token: string): Promise<AccessTokenInstance | undefined> };
  }

  class OIDCProviderError extends Error {
    constructor(description?: string);
    readonly error: string;
    readonly error_description?: string;
    status: number;
  }
  export const errors: {
    OIDCProviderError: typeof OIDCProviderError;
    InvalidGrant: typeof OIDCProviderError;
    InvalidTarget: typeof OIDCProviderError;
    AccessDenied: typeof OIDCProviderError;
    InvalidRequest: typeof OIDCProviderError;
  };
}
