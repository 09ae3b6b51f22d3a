// A chain's blob schedule as its endpoint states it: eth_config (EIP-7910) gives the fork in force and its
// blobSchedule, so that the dashboard's blob use is measured against the target of the fork the chain is on now, not
// against what this project knew of the chain when it was built.
import { z } from "zod";
import type { BlobSchedule } from "../../core/fees/blobFeeRule.ts";
import type { ContractClient } from "./contractClient.ts";
import { errorLine } from "../connection/errorLine.ts";

/** More blobs per block than any schedule gives (BPO2: 21), with room for forks to come; beyond it an answer is refused. */
const MAX_BLOBS_PER_BLOCK = 4_096;

const blobScheduleSchema = z
  .object({
    target: z.number().int().min(1).max(MAX_BLOBS_PER_BLOCK),
    max: z.number().int().min(1).max(MAX_BLOBS_PER_BLOCK),
    baseFeeUpdateFraction: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  })
  .refine((schedule) => schedule.max >= schedule.target, { message: "max is below target" });

/** eth_config's answer, as far as it is read here: the current fork's blob schedule (absent before Cancun). */
const ethConfigSchema = z.object({ current: z.object({ blobSchedule: blobScheduleSchema.nullish() }) });

/** The outcome of asking: the schedule, none (the fork has no blobs), or why it could not be had. */
export type BlobScheduleAnswer =
  { readonly kind: "schedule"; readonly schedule: BlobSchedule } | { readonly kind: "none" } | { readonly kind: "unavailable"; readonly reason: string };

/**
 * Asks the chain's endpoints for eth_config. An endpoint that does not know the method, an answer that is not one
 * (wrong types, a target above the maximum, absurd counts), or a failing call: "unavailable", with the reason.
 */
export async function readBlobSchedule(client: ContractClient): Promise<BlobScheduleAnswer> {
  let outcome;
  try {
    [outcome] = await client.batch([{ method: "eth_config", params: [] }]);
  } catch (error) {
    return { kind: "unavailable", reason: errorLine(error) };
  }
  if (outcome === undefined || !outcome.ok) return { kind: "unavailable", reason: outcome === undefined ? "no answer" : errorLine(outcome.error) };
  const parsed = ethConfigSchema.safeParse(outcome.result);
  if (!parsed.success) return { kind: "unavailable", reason: `eth_config's answer is not one: ${parsed.error.issues[0]?.message ?? "unreadable"}` };
  const schedule = parsed.data.current.blobSchedule;
  if (schedule === null || schedule === undefined) return { kind: "none" };
  return { kind: "schedule", schedule: { target: schedule.target, max: schedule.max, baseFeeUpdateFraction: BigInt(schedule.baseFeeUpdateFraction) } };
}
