/**
 * The few calls the bot makes, typed by what `openapi-typescript` generated from
 * docs/openapi.json (src/openapi.ts: `npm run generate`), over the platform's fetch.
 */

import { randomBytes, randomUUID } from "node:crypto";

import type { components } from "./openapi.js";

type Schemas = components["schemas"];
export type MatchOut = Schemas["MatchOut"];
export type CommandOut = Schemas["CommandOut"];
export type TicketOut = Schemas["TicketOut"];
export type QueueIn = Schemas["QueueIn"];
export type TakeSeatIn = Schemas["TakeSeatIn"];
export type Registered = Schemas["Registered"];
export type Problem = Schemas["Problem"];
export type View = MatchOut["view"];
export type CuccuView = Schemas["CuccuView"];
export type Cucco21View = Schemas["Cucco21View"];

/** The server answered with a problem (RFC 9457) the bot cannot get past by waiting. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
  ) {
    super(`${status} ${problem ? slug(problem) : "?"}: ${problem?.detail ?? ""}`);
  }

  get slug(): string {
    return this.problem ? slug(this.problem) : "";
  }
}

/** No answer: the server is down or restarting (connection refused or cut). */
export class Unreachable extends Error {}

function slug(problem: Problem): string {
  return problem.type.replace(/^urn:cuccu:problem:/, "");
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** `Retry-After` (seconds, or an HTTP date a proxy may send) in milliseconds. */
function retryAfter(value: string | null, fallbackMs: number): number {
  if (value === null) return fallbackMs;
  if (/^[0-9]+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? fallbackMs : Math.max(0, at - Date.now());
}

interface Call {
  bearer?: string | undefined;
  body?: unknown;
  query?: Record<string, string>;
  headers?: Record<string, string>;
}

export class Api {
  constructor(readonly base: string) {}

  /** A plain HTTP exchange; 429 and 503 are waited out (`Retry-After`) and sent again. */
  async raw(method: string, path: string, call: Call = {}, signal?: AbortSignal): Promise<Response> {
    const url = new URL(this.base.replace(/\/+$/, "") + path);
    for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { ...call.headers };
    if (call.bearer !== undefined) headers["Authorization"] = `Bearer ${call.bearer}`;
    if (call.body !== undefined) headers["Content-Type"] = "application/json";
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(url, {
          method,
          headers,
          body: call.body === undefined ? null : JSON.stringify(call.body),
          signal: signal ?? null,
        });
      } catch (exc) {
        // fetch rejects with a TypeError when no connection could be made or it broke
        throw new Unreachable(`${method} ${url.pathname}: ${(exc as Error).message}`);
      }
      if ((res.status === 429 || res.status === 503) && attempt < 10) {
        await res.body?.cancel();
        await sleep(retryAfter(res.headers.get("Retry-After"), 1000));
        continue;
      }
      return res;
    }
  }

  /** JSON in, JSON out; a problem answer is thrown as ApiError. */
  async json<T>(method: string, path: string, call: Call = {}): Promise<T> {
    const res = await this.raw(method, path, call);
    let text: string;
    try {
      text = await res.text();
    } catch (exc) {
      throw new Unreachable(`${method} ${path}: ${(exc as Error).message}`);
    }
    if (!res.ok) {
      let problem: Problem | undefined;
      try {
        problem = JSON.parse(text) as Problem;
      } catch {
        problem = undefined;
      }
      throw new ApiError(res.status, problem);
    }
    return (text === "" ? undefined : JSON.parse(text)) as T;
  }

  register(name: string): Promise<Registered> {
    return this.json("POST", "/players", { body: { name, kind: "bot" } });
  }

  joinQueue(key: string, table: QueueIn): Promise<TicketOut> {
    return this.json("POST", "/queue", { bearer: key, body: table });
  }

  /**
   * The ticket; `waitSeconds` (up to 30) makes it a long poll that answers as soon as the
   * ticket's status is not `seen`, the one last seen (`waiting`: once its table exists,
   * showing its `commitment`), or once matched when `seen` is not given.
   */
  ticket(key: string, ticketId: string, waitSeconds = 0, seen?: string): Promise<TicketOut> {
    const query: Record<string, string> = waitSeconds > 0 ? { wait: String(waitSeconds) } : {};
    if (seen !== undefined) query.seen = seen;
    return this.json("GET", `/queue/${encodeURIComponent(ticketId)}`, { bearer: key, query });
  }

  /**
   * Take the seat of a ticket `seating` at a table, with 32 fresh bytes of the OS's randomness
   * for the first deck: drawn here, after the ticket showed the service's commitment to that
   * deck (docs/API.md "The queue"), and the same ones on every retry of this call.
   */
  takeSeat(key: string, ticketId: string): Promise<TicketOut> {
    const body: TakeSeatIn = { entropy: randomBytes(32).toString("hex") };
    return this.json("POST", `/queue/${encodeURIComponent(ticketId)}/claim`, { bearer: key, body });
  }

  match(matchId: string, token: string): Promise<MatchOut> {
    return this.json("GET", `/matches/${encodeURIComponent(matchId)}`, { bearer: token });
  }

  /** One decision, sent only if the match is still at `expectedVersion` (else 409). */
  command(matchId: string, token: string, type: string, expectedVersion: number): Promise<CommandOut> {
    return this.json("POST", `/matches/${encodeURIComponent(matchId)}/commands`, {
      bearer: token,
      body: { type, expected_version: expectedVersion },
      headers: { "Idempotency-Key": randomUUID() },
    });
  }

  /** The match's event stream, resumed after `lastEventId` when given. */
  async stream(matchId: string, token: string, lastEventId: string | undefined): Promise<Response> {
    const headers: Record<string, string> = { Accept: "text/event-stream" };
    if (lastEventId) headers["Last-Event-ID"] = lastEventId;
    const path = `/matches/${encodeURIComponent(matchId)}/stream`;
    const res = await this.raw("GET", path, { bearer: token, headers });
    if (!res.ok) {
      const problem = (await res.json().catch(() => undefined)) as Problem | undefined;
      throw new ApiError(res.status, problem);
    }
    return res;
  }
}
