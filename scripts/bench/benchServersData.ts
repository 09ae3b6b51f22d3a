import { loadMainnetBaseFees } from "../../shared/demo/mainnetBaseFees.ts";

export const BENCH_KEY = "0123456789abcdef0123456789abcdef";
/** The three endpoints of the specification, on a chain holding 500 real mainnet base fees. */
export const BENCH_PATHS = ["/networks/1/busyThreshold", "/networks/1/baseFeePercentile", "/networks/1/baseFeeHistory"] as const;
export const MAINNET_BASE_FEES_FOR_BENCH = (): bigint[] => loadMainnetBaseFees().baseFeesWei.slice(0, 500);
