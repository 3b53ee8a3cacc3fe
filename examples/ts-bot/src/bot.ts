/**
 * A bot for the Cuccù match service in TypeScript, on Node.js 20 with nothing but the platform:
 * fetch for HTTP, its web streams for the event stream (src/sse.ts parses it), and the types
 * generated from docs/openapi.json (src/openapi.ts).
 *
 * It plays rated games through the matchmaking queue as a player account, `--games` times:
 * joins the queue for a game and a table size, long-polls its ticket until it is at a table,
 * takes its seat with 32 fresh random bytes drawn after the ticket showed the service's
 * commitment to the first deck (so its seat contributes to that deck), follows its match's
 * event stream and answers every prompt of its seat until the match is over. After a server restart (or any broken connection) it asks for its ticket again, which
 * answers a fresh seat token for the same seat, and plays on.
 *
 *   node dist/bot.js http://127.0.0.1:8000 --key-file bot.key --name ts-bot --queue cucco21
 *
 * The account: `CUCCU_API_KEY` in the environment, else the key in `--key-file`; when that
 * file does not exist the bot registers `--name` (`POST /players`) and writes the new key there
 * (mode 0600). The key is never printed.
 * Exit status: 0 once every game is over, 1 on an API error, 2 on bad arguments.
 */

import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";

import {
  Api,
  ApiError,
  type CommandOut,
  type MatchOut,
  sleep,
  type TicketOut,
  Unreachable,
  type View,
} from "./api.js";
import { mine, type Policy, randomPolicy, seededRandom, simplePolicy } from "./policy.js";
import { readEventStream, StreamIdle } from "./sse.js";

interface Options {
  base: string;
  game: string;
  seats: number;
  games: number;
  botsAfter: number | undefined;
  policy: Policy;
  keyFile: string | undefined;
  name: string | undefined;
  idleMs: number;
  verbose: boolean;
}

const USAGE = `usage: node dist/bot.js BASE_URL --queue GAME [--seats N] [--games N]
       [--bots-after SECONDS] [--policy random|simple] [--seed N]
       [--key-file FILE [--name NAME]] [--idle-timeout SECONDS] [--verbose]
The key comes from CUCCU_API_KEY, else from --key-file (registered as --name if the file is
missing).`;

class BadArguments extends Error {}

function positiveInt(text: string | undefined, what: string, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^[0-9]+$/.test(text)) throw new BadArguments(`${what} must be a whole number`);
  return Number(text);
}

function parse(argv: string[]): Options {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      queue: { type: "string" },
      seats: { type: "string" },
      games: { type: "string" },
      "bots-after": { type: "string" },
      policy: { type: "string" },
      seed: { type: "string" },
      "key-file": { type: "string" },
      name: { type: "string" },
      "idle-timeout": { type: "string" },
      verbose: { type: "boolean", short: "v" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const base = positionals[0];
  if (positionals.length !== 1 || base === undefined || !/^https?:\/\//.test(base)) {
    throw new BadArguments("one argument: the service's base URL (http://HOST:PORT)");
  }
  if (!values.queue) throw new BadArguments("--queue GAME is required");
  const random =
    values.seed === undefined ? Math.random : seededRandom(positiveInt(values.seed, "--seed", 0));
  const policies: Record<string, Policy> = { random: randomPolicy(random), simple: simplePolicy };
  const policy = policies[values.policy ?? "random"];
  if (policy === undefined) throw new BadArguments("--policy is random or simple");
  if (!process.env["CUCCU_API_KEY"] && !values["key-file"]) {
    throw new BadArguments("no key: set CUCCU_API_KEY or give --key-file");
  }
  return {
    base,
    game: values.queue,
    seats: positiveInt(values.seats, "--seats", 2),
    games: positiveInt(values.games, "--games", 1),
    botsAfter:
      values["bots-after"] === undefined
        ? undefined
        : positiveInt(values["bots-after"], "--bots-after", 0),
    policy,
    keyFile: values["key-file"],
    name: values.name,
    idleMs: positiveInt(values["idle-timeout"], "--idle-timeout", 45) * 1000,
    verbose: values.verbose ?? false,
  };
}

const say = (text: string): void => void process.stderr.write(`ts-bot: ${text}\n`);

/** The account's key: from the environment, the key file, or a registration. */
async function accountKey(api: Api, options: Options): Promise<string> {
  const fromEnv = process.env["CUCCU_API_KEY"];
  if (fromEnv) return fromEnv;
  const file = options.keyFile;
  if (file === undefined) throw new BadArguments("no key");
  try {
    return (await readFile(file, "utf-8")).trim();
  } catch (exc) {
    if ((exc as NodeJS.ErrnoException).code !== "ENOENT") throw exc;
  }
  if (!options.name) throw new BadArguments(`${file} does not exist: give --name to register`);
  const registered = await api.register(options.name);
  // "wx": never overwrite a key file another run wrote meanwhile
  await writeFile(file, registered.key + "\n", { mode: 0o600, flag: "wx" });
  say(`registered ${registered.player.kind} ${registered.player.name} (${registered.player.id}); key in ${file}`);
  return registered.key;
}

/** The stream closed before the match was over (an outage or a restart): resume it. */
class StreamCut extends Error {}

/** One seat of one match, played to its end. */
class Seat {
  /** the newest version this bot has acted on: events up to it need no new view */
  private known = -1;

  constructor(
    private readonly api: Api,
    private readonly matchId: string,
    private readonly token: string,
    private readonly options: Options,
  ) {}

  /** Answer this seat's prompts in `current` and in the answers to its own commands. */
  private async act(current: MatchOut | CommandOut): Promise<void> {
    for (;;) {
      this.known = Math.max(this.known, current.version);
      const view: View = current.view;
      if (!mine(view)) return;
      const choice = this.options.policy(view);
      if (this.options.verbose) {
        say(`v${current.version} ${view.pending?.kind} hand=${view.hand} -> ${choice}`);
      }
      try {
        current = await this.api.command(this.matchId, this.token, choice, current.version);
      } catch (exc) {
        // someone moved first (the other seat started the round): the stream brings it
        if (exc instanceof ApiError && exc.status === 409) return;
        throw exc;
      }
    }
  }

  /** Follow the stream, answering prompts, until the match is over; its final state. */
  async play(): Promise<MatchOut> {
    let lastEventId: string | undefined;
    let waitMs = 0;
    for (let cuts = 0; ; cuts++) {
      if (waitMs > 0) await sleep(waitMs);
      const res = await this.api.stream(this.matchId, this.token, lastEventId);
      if (res.body === null) throw new StreamCut("an empty stream");
      waitMs = 500;
      try {
        for await (const batch of readEventStream(res.body, this.options.idleMs)) {
          let newer = false;
          for (const message of batch) {
            if (message.event === "view") {
              lastEventId = message.lastEventId;
              await this.act(JSON.parse(message.data) as MatchOut);
            } else if (message.event === "event") {
              lastEventId = message.lastEventId;
              const entry = JSON.parse(message.data) as { version: number };
              newer ||= entry.version > this.known;
            } else if (message.event === "unavailable") {
              const { retry_after } = JSON.parse(message.data) as { retry_after?: number };
              waitMs = (retry_after ?? 2) * 1000;
            } // other message names: ignored, as the API's versioning asks
          }
          // one view per batch: a command's events (and its bots' replies) come together
          if (newer) await this.act(await this.api.match(this.matchId, this.token));
        }
      } catch (exc) {
        if (exc instanceof StreamIdle) {
          say(`match ${this.matchId}: ${exc.message}; reconnecting`);
          continue;
        }
        if (exc instanceof ApiError) throw exc;
        throw new Unreachable(`the stream broke: ${(exc as Error).message}`);
      }
      const now = await this.api.match(this.matchId, this.token);
      if (now.view.status === "over") return now;
      if (cuts > 100) throw new StreamCut("the stream keeps closing before the match is over");
    }
  }
}

/** The closing line of a match, as examples/bot.py prints it. */
function summary(matchId: string, view: View, seat: number): string {
  if (view.game === "cucco21") {
    const names = view.winners.map((w) => `seat ${w} (${view.seats[w]?.name})`).join(", ");
    return (
      `match ${matchId} over after round ${view.round}: ${names || "nobody"} won; ` +
      `seat ${seat} has ${view.seats[seat]?.chips} chips`
    );
  }
  const winner = view.winner;
  const name = winner === null ? "nobody" : view.seats[winner]?.name;
  return (
    `match ${matchId} over after round ${view.round}: seat ${winner} (${name}) won; ` +
    `seat ${seat} has ${view.seats[seat]?.lives} lives`
  );
}

/**
 * Wait in the queue until the ticket is at a table, then take the seat with entropy drawn after
 * the table's commitment was shown (the ticket then carries a fresh seat token).
 */
async function seated(api: Api, key: string, ticket: TicketOut): Promise<TicketOut> {
  while (ticket.status !== "matched") {
    if (ticket.status === "left") throw new Error(`ticket ${ticket.ticket_id} left the queue`);
    if (ticket.status === "seating" && ticket.match_id) return api.takeSeat(key, ticket.ticket_id);
    ticket = await api.ticket(key, ticket.ticket_id, 20, ticket.status);
  }
  return ticket;
}

async function playQueued(options: Options): Promise<number> {
  const api = new Api(options.base);
  const key = await accountKey(api, options);
  for (let game = 1; game <= options.games; game++) {
    let ticketId: string | undefined;
    let final: MatchOut | undefined;
    let seat = 0;
    for (let attempt = 0; final === undefined; attempt++) {
      try {
        const table = { game: options.game, seats: options.seats, bots_after: options.botsAfter ?? null };
        let ticket =
          ticketId === undefined
            ? await api.joinQueue(key, table)
            : await api.ticket(key, ticketId); // seated before the break: a fresh token
        ticketId = ticket.ticket_id;
        ticket = await seated(api, key, ticket);
        const { match_id: matchId, token } = ticket;
        if (!matchId || !token) throw new Error("a matched ticket without match or token");
        seat = ticket.seat ?? 0;
        say(`game ${game}: seat ${seat} of match ${matchId}`);
        final = await new Seat(api, matchId, token, options).play();
      } catch (exc) {
        // a server going down or coming up may also answer 5xx for a moment
        const passing =
          exc instanceof Unreachable ||
          exc instanceof StreamCut ||
          (exc instanceof ApiError && exc.status >= 500);
        if (!passing || attempt >= 60) throw exc;
        say(`${exc.constructor.name}: ${exc.message}; asking again`);
        await sleep(Math.min(500 * (attempt + 1), 5000));
      }
    }
    console.log(summary(final.match_id, final.view, seat));
  }
  return 0;
}

async function main(argv: string[]): Promise<number> {
  let options: Options;
  try {
    options = parse(argv);
  } catch (exc) {
    say(`${(exc as Error).message}\n${USAGE}`);
    return 2;
  }
  try {
    return await playQueued(options);
  } catch (exc) {
    if (exc instanceof BadArguments) {
      say(exc.message);
      return 2;
    }
    if (exc instanceof ApiError || exc instanceof Unreachable || exc instanceof StreamCut) {
      say(exc.message);
      return 1;
    }
    say(`unexpected ${(exc as Error).stack ?? String(exc)}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
