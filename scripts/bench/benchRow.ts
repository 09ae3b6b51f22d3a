/** One line of the bench table: a measurement of gasfees beside a baseline measured in the same run. */
export interface BenchRow {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly baselineName: string;
  readonly baseline: number;
  readonly goal: string;
}
