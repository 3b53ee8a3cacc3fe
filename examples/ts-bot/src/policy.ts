/**
 * What the bot answers, from its seat's view alone: always one of `view.pending.choices`.
 *
 * - `random`: any legal choice, uniformly (seeded with `--seed` for a reproducible run);
 * - `simple`: a rule of thumb per game: keep a high card, trade or exchange a low one, and
 *   take every option that costs nothing.
 */

import type { Cucco21View, CuccuView, View } from "./api.js";

export type Policy = (view: View) => string;

/** This seat must decide now, or may start the next round (any seat may send it). */
export function mine(view: View): boolean {
  const pending = view.pending;
  if (pending === null) return false;
  return pending.kind === "next_round" || pending.seat === view.viewer;
}

/** mulberry32: a small seeded generator, so that a run can be replayed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomPolicy(random: () => number = Math.random): Policy {
  return (view) => {
    const choices = view.pending?.choices ?? [];
    const choice = choices[Math.floor(random() * choices.length)];
    if (choice === undefined) throw new Error("no choice to make");
    return choice;
  };
}

// A card is "<rank>#<copy>". Cuccù's ranks from lowest to highest (docs/API.md, Conventions);
// a lone fool ties with the lowest card, so it is weak.
const CUCCU_VALUES: Record<string, number> = {
  lion: -3, mask: -2, bucket: -1, zero: 0, fool: -1,
  inn: 11, cat: 12, horse: 13, hunter: 14, cuckoo: 15,
};

function cuccuStrength(card: string): number {
  const rank = card.split("#", 1)[0] ?? "";
  return CUCCU_VALUES[rank] ?? (Number(rank) || 0);
}

function simpleCuccu(view: CuccuView, choices: string[]): string {
  for (const preferred of ["next_round", "inn_ask_pay", "inn_accept"]) {
    if (choices.includes(preferred)) return preferred;
  }
  if (choices.includes("keep") && choices.includes("exchange") && view.hand !== null) {
    return cuccuStrength(view.hand) <= 4 ? "exchange" : "keep";
  }
  return choices[0] ?? "keep";
}

function simpleCucco21(view: Cucco21View, choices: string[]): string {
  // Cucco 21's cards are "<number>#<copy>", 1 to 21: keep 12 or more, trade a lower one;
  // refuse or send on an asker whenever the card allows it, and claim what a Ceremony pays
  for (const preferred of ["next_round", "claim", "refuse", "send_on"]) {
    if (choices.includes(preferred)) return preferred;
  }
  if (choices.includes("keep") && choices.includes("trade") && view.hand !== null) {
    return Number(view.hand.split("#", 1)[0]) >= 12 ? "keep" : "trade";
  }
  return choices[0] ?? "accept";
}

export const simplePolicy: Policy = (view) => {
  const choices = view.pending?.choices ?? [];
  if (view.game === "cucco21") return simpleCucco21(view, choices);
  if (view.game === "cuccu") return simpleCuccu(view, choices);
  // a game this bot has no rule of thumb for (a newer one): any legal choice is an answer
  const choice = choices[0];
  if (choice === undefined) throw new Error("no choice to make");
  return choice;
};
